// A device allocator that counts its calls, to prove an algorithm took temporary memory from it.
#pragma once

#include <thrust/device_allocator.h>

#include <atomic>
#include <cstddef>

namespace sweep_test
{

struct allocation_counts
{
  std::atomic<long> allocations{0};
  std::atomic<long> deallocations{0};
  std::atomic<long> live_bytes{0};
};

template <class T = char>
struct counting_allocator : thrust::device_allocator<T>
{
  using base = thrust::device_allocator<T>;
  using typename base::pointer;
  using typename base::size_type;
  using value_type = T;

  allocation_counts* counts = nullptr;

  explicit counting_allocator(allocation_counts* c)
      : counts(c)
  {}
  counting_allocator(const counting_allocator&) = default;
  template <class U>
  struct rebind
  {
    using other = counting_allocator<U>;
  };
  template <class U>
  counting_allocator(const counting_allocator<U>& other)
      : counts(other.counts)
  {}

  pointer allocate(size_type n)
  {
    ++counts->allocations;
    counts->live_bytes += static_cast<long>(n * sizeof(T));
    return base::allocate(n);
  }
  void deallocate(pointer p, size_type n)
  {
    ++counts->deallocations;
    counts->live_bytes -= static_cast<long>(n * sizeof(T));
    base::deallocate(p, n);
  }
};

} // namespace sweep_test
