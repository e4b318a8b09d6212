// RAII temporary device storage for one algorithm call, carved into aligned parts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include <sweep/detail/util/math.hpp>
#include <sweep/detail/util/policy.cuh>

namespace sweep
{
namespace detail
{

//! Lays out up to MaxParts buffers in one allocation, each aligned to 256 bytes.
template <int MaxParts>
struct temp_layout
{
  static constexpr std::size_t alignment = 256;

  std::size_t offsets[MaxParts] = {};
  std::size_t sizes[MaxParts]   = {};
  int parts                     = 0;
  std::size_t total             = 0;

  constexpr temp_layout() = default;

  constexpr temp_layout(std::initializer_list<std::size_t> part_sizes)
  {
    for (std::size_t bytes : part_sizes)
    {
      add(bytes);
    }
  }

  //! Appends a part of `bytes` bytes and returns its index.
  constexpr int add(std::size_t bytes)
  {
    offsets[parts] = total;
    sizes[parts]   = bytes;
    total          = align_up(total + bytes, alignment);
    return parts++;
  }
};

//! One allocation from the policy (sweep's or Thrust's CUDA policies; see allocate_temporary in
//! policy.cuh), freed on every path when this object goes out of scope.
//! A user allocator may return blocks of any alignment (arenas often give 4- or 8-byte aligned
//! ones): the storage asks for alignment - 1 bytes more and starts its parts at the first 256-byte
//! boundary, so the kernels' vector and 64-bit accesses are aligned whatever the allocator does.
template <class Policy, int MaxParts = 8>
class temp_storage
{
public:
  temp_storage(Policy& policy, const temp_layout<MaxParts>& layout)
      : policy_(policy)
      , layout_(layout)
      , raw_(static_cast<unsigned char*>(allocate_temporary(policy, padded(layout.total))))
      , data_(aligned(raw_))
  {}

  temp_storage(const temp_storage&)            = delete;
  temp_storage& operator=(const temp_storage&) = delete;

  ~temp_storage()
  {
    deallocate_temporary(policy_, raw_, padded(layout_.total));
  }

  //! The start of part `index`, as T*.
  template <class T>
  T* part(int index) const
  {
    return data_ == nullptr ? nullptr : reinterpret_cast<T*>(data_ + layout_.offsets[index]);
  }

  void* data() const
  {
    return data_;
  }
  std::size_t bytes() const
  {
    return layout_.total;
  }

private:
  static constexpr std::size_t alignment = temp_layout<MaxParts>::alignment;

  static std::size_t padded(std::size_t bytes)
  {
    return bytes == 0 ? 0 : bytes + alignment - 1;
  }
  static unsigned char* aligned(unsigned char* p)
  {
    if (p == nullptr)
    {
      return nullptr;
    }
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(p);
    return p + (align_up(static_cast<std::size_t>(address), alignment) - address);
  }

  Policy& policy_;
  temp_layout<MaxParts> layout_;
  unsigned char* raw_;  // what the policy returned
  unsigned char* data_; // raw_ rounded up to `alignment`: the first part
};

} // namespace detail
} // namespace sweep
