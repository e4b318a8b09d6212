// The scans by key on sweep's scan kernel: a scan by key is a scan of (value, head) items under the
// segmented operator
//   (a ⊕ b) = b.head ? b : (op(a.value, b.value), a.head),
// associative whenever op is (and not commutative), where head says that a segment starts at the item
// (item 0, and every item whose key is not equal to the key before it: !eq(key[i - 1], key[i]), as
// Thrust and CUB compare them). The items are made on the fly by segment_input from the keys and
// values (nothing is materialised) and the scan's values stored by inclusive_by_key_output. The
// exclusive scan is the inclusive scan of shifted items (segment_input, Shifted): init at a head,
// the previous value after it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/detail/util/warp_shuffle.cuh>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! An item of a scan by key: the value (accumulator type T) and whether a segment starts at it (for
//! a scanned item: whether one starts inside the range it covers).
template <class T>
struct segment_item
{
  T value;
  bool head;
};

//! The segmented operator over segment_items of the user's associative operator Op. The value of b
//! alone where a segment starts in b (op never sees the values before a head).
template <class T, class Op>
struct segmented_op
{
  Op op;

  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ segment_item<T> operator()(const segment_item<T>& a, const segment_item<T>& b)
  {
    if (b.head)
    {
      return b;
    }
    return segment_item<T>{static_cast<T>(op(a.value, b.value)), a.head};
  }
};

//! Types moved as raw vectors by load_contiguous / store_contiguous: a power-of-two size up to 16.
template <class E>
inline constexpr bool raw_movable =
  std::is_trivially_copyable<E>::value && sizeof(E) <= 16 && (sizeof(E) & (sizeof(E) - 1)) == 0;

//! The N elements at p (16-byte aligned base, p at a multiple of N elements from it), loaded in
//! chunks of up to 16 bytes through the read-only path. Only for data no thread of the call writes
//! before this load (the keys; the values are read and written by the same thread).
template <int N, class E>
__device__ __forceinline__ void load_contiguous(const E* p, E (&out)[N])
{
  constexpr int bytes = N * static_cast<int>(sizeof(E));
  if constexpr (bytes % 16 == 0)
  {
    uint4 raw[bytes / 16];
#pragma unroll
    for (int c = 0; c < bytes / 16; ++c)
    {
      raw[c] = __ldg(reinterpret_cast<const uint4*>(p) + c);
    }
    std::memcpy(&out[0], &raw[0], bytes);
  }
  else if constexpr (bytes == 8)
  {
    const uint2 raw = __ldg(reinterpret_cast<const uint2*>(p));
    std::memcpy(&out[0], &raw, bytes);
  }
  else if constexpr (bytes == 4)
  {
    const unsigned raw = __ldg(reinterpret_cast<const unsigned*>(p));
    std::memcpy(&out[0], &raw, bytes);
  }
  else
  {
#pragma unroll
    for (int u = 0; u < N; ++u)
    {
      out[u] = p[u];
    }
  }
}

//! The N elements of `in` stored at p (aligned as for load_contiguous).
template <int N, class E>
__device__ __forceinline__ void store_contiguous(E* p, const E (&in)[N])
{
  constexpr int bytes = N * static_cast<int>(sizeof(E));
  if constexpr (bytes % 16 == 0)
  {
    uint4 raw[bytes / 16];
    std::memcpy(&raw[0], &in[0], bytes);
#pragma unroll
    for (int c = 0; c < bytes / 16; ++c)
    {
      reinterpret_cast<uint4*>(p)[c] = raw[c];
    }
  }
  else if constexpr (bytes == 8)
  {
    uint2 raw;
    std::memcpy(&raw, &in[0], bytes);
    *reinterpret_cast<uint2*>(p) = raw;
  }
  else if constexpr (bytes == 4)
  {
    unsigned raw;
    std::memcpy(&raw, &in[0], bytes);
    *reinterpret_cast<unsigned*>(p) = raw;
  }
  else
  {
#pragma unroll
    for (int u = 0; u < N; ++u)
    {
      p[u] = in[u];
    }
  }
}

//! Whether a segment starts at item i of keys under the key equality eq (i >= 0).
template <class KeysIt, class Eq>
__host__ __device__ bool segment_starts_at(const KeysIt& keys, Eq& eq, std::int64_t i)
{
  return i == 0 || !static_cast<bool>(eq(keys[i - 1], keys[i]));
}

//! The input of a scan by key: item i is (value_i, head at i), where value_i is T(values[i]) for the
//! inclusive scan. For the exclusive scan (Shifted) it is `init` at a head and T(values[i - 1]) after
//! it, so that the inclusive scan of these items is the exclusive scan by key,
//!   result[i] = init at a head, else ((init op v_s) op v_{s+1}) ... op v_{i-1}:
//! the same kernel and the same cost as the inclusive scan (values[i - 1] of a tile's first item is
//! the only value read outside the tile: output over the values goes through a copy of them,
//! scan_by_key.cuh). Random access by offset (`*(input + i)`) and by rows (load_row), all the scan
//! agent does with its input.
template <class T, class KeysIt, class ValuesIt, class Eq, bool Shifted = false>
struct segment_input
{
  KeysIt keys;
  ValuesIt values;
  mutable Eq eq; // like Thrust, predicates whose operator() is not const are accepted
  T init;        //!< Shifted only
  std::int64_t index = 0;
  //! The keys and the values are pointers, both 16-byte aligned (checked on the host): full rows
  //! load as vectors.
  bool vector_rows = false;

  using key_type   = std::remove_cv_t<std::remove_pointer_t<KeysIt>>;
  using value_type = std::remove_cv_t<std::remove_pointer_t<ValuesIt>>;
  static constexpr bool vector_capable = std::is_pointer<KeysIt>::value && std::is_pointer<ValuesIt>::value
                                      && raw_movable<key_type> && raw_movable<value_type>;
  static constexpr bool row_access = true;

  //! Items i .. i + Vec - 1 (a full row of a full tile; all 32 lanes of the warp call it together):
  //! their values in `out`, their head flags as bits 0 .. Vec - 1 of the result. With vectors: the
  //! keys and the values as raw vectors, the key (and, shifted, the value) before the lane's first
  //! from the lane below (lane 0: from memory).
  template <int Vec>
  __device__ unsigned load_values_row(std::int64_t row, T (&out)[Vec]) const
  {
    static_assert(Vec <= 32, "scan by key: a row's head flags are bits of one word");
    const std::int64_t i = index + row;
    unsigned heads       = 0;
    if constexpr (vector_capable)
    {
      if (vector_rows)
      {
        key_type k[Vec];
        value_type v[Vec];
        load_contiguous(keys + i, k);
        load_contiguous(values + i, v);
        key_type key_before     = shuffle_up(k[Vec - 1], 1);
        value_type value_before = v[0];
        if constexpr (Shifted)
        {
          value_before = shuffle_up(v[Vec - 1], 1);
        }
        if (threadIdx.x % 32 == 0)
        {
          key_before = i > 0 ? keys[i - 1] : k[0];
          if constexpr (Shifted)
          {
            value_before = i > 0 ? values[i - 1] : v[0];
          }
        }
#pragma unroll
        for (int u = 0; u < Vec; ++u)
        {
          const bool head = u == 0 ? i == 0 || !static_cast<bool>(eq(key_before, k[0]))
                                   : !static_cast<bool>(eq(k[u > 0 ? u - 1 : 0], k[u]));
          heads |= static_cast<unsigned>(head) << u;
          if constexpr (Shifted)
          {
            out[u] = head ? init : static_cast<T>(u == 0 ? value_before : v[u > 0 ? u - 1 : 0]);
          }
          else
          {
            out[u] = static_cast<T>(v[u]);
          }
        }
        return heads;
      }
    }
#pragma unroll
    for (int u = 0; u < Vec; ++u)
    {
      const segment_item<T> item = item_at(i + u);
      out[u]                     = item.value;
      heads |= static_cast<unsigned>(item.head) << u;
    }
    return heads;
  }

  //! Items i .. i + Vec - 1 as segment_items (load_values_row).
  template <int Vec>
  __device__ void load_row(std::int64_t row, segment_item<T> (&out)[Vec]) const
  {
    T v[Vec];
    const unsigned heads = load_values_row<Vec>(row, v);
#pragma unroll
    for (int u = 0; u < Vec; ++u)
    {
      out[u] = segment_item<T>{v[u], ((heads >> u) & 1u) != 0};
    }
  }

  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ segment_item<T> item_at(std::int64_t i) const
  {
    const bool head = segment_starts_at(keys, eq, i);
    if constexpr (Shifted)
    {
      return segment_item<T>{head ? init : static_cast<T>(values[i - 1]), head};
    }
    else
    {
      return segment_item<T>{static_cast<T>(values[i]), head};
    }
  }

  __host__ __device__ segment_input operator+(std::ptrdiff_t offset) const
  {
    segment_input moved = *this;
    moved.index += static_cast<std::int64_t>(offset);
    return moved;
  }
  __host__ __device__ segment_item<T> operator*() const
  {
    return item_at(index);
  }
};

//! The output of an inclusive scan by key: stores the scanned item's value at out[i].
template <class T, class OutputIt>
struct inclusive_by_key_output
{
  OutputIt out;
  std::int64_t index = 0;
  //! out is a T pointer, 16-byte aligned (checked on the host): full rows store as vectors.
  bool vector_rows = false;

  static constexpr bool vector_capable = std::is_same<OutputIt, T*>::value && raw_movable<T>;
  static constexpr bool row_access     = true;

  //! Stores the values of items i .. i + Vec - 1 (a full row of a full tile).
  template <int Vec>
  __device__ void store_values_row(std::int64_t row, const T (&v)[Vec]) const
  {
    const std::int64_t i = index + row;
    if constexpr (vector_capable)
    {
      if (vector_rows)
      {
        store_contiguous(out + i, v);
        return;
      }
    }
#pragma unroll
    for (int u = 0; u < Vec; ++u)
    {
      out[i + u] = v[u];
    }
  }

  //! Stores the values of the segment_items of a row (store_values_row).
  template <int Vec>
  __device__ void store_row(std::int64_t row, const segment_item<T> (&in)[Vec]) const
  {
    T v[Vec];
#pragma unroll
    for (int u = 0; u < Vec; ++u)
    {
      v[u] = in[u].value;
    }
    store_values_row<Vec>(row, v);
  }

  struct reference
  {
    OutputIt out;
    std::int64_t index;
    _CCCL_EXEC_CHECK_DISABLE
    __host__ __device__ const reference& operator=(const segment_item<T>& item) const
    {
      out[index] = item.value;
      return *this;
    }
  };

  __host__ __device__ inclusive_by_key_output operator+(std::ptrdiff_t offset) const
  {
    inclusive_by_key_output moved = *this;
    moved.index += static_cast<std::int64_t>(offset);
    return moved;
  }
  __host__ __device__ reference operator*() const
  {
    return reference{out, index};
  }
};

} // namespace scan_impl
} // namespace detail
} // namespace sweep
