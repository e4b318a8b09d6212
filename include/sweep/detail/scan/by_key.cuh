// The scans by key on sweep's scan kernel: a scan by key is a scan of (value, head) items under the
// segmented operator
//   (a ⊕ b) = b.head ? b : (op(a.value, b.value), a.head),
// associative whenever op is (and not commutative), where head says that a segment starts at the item
// (item 0, and every item whose key is not equal to the key before it: !eq(key[i - 1], key[i]), as
// Thrust and CUB compare them). The items are made on the fly by segment_input from the keys and
// values (nothing is materialised) and the scan's values stored by inclusive_by_key_output. The
// exclusive scan (segment_input, Shifted) is the inclusive scan of shifted items: init at a head, the
// previous value after it. Of integral values, segmented_agent.cuh (the agent every shipped tuning
// runs) scans the unshifted items with init folded into each head instead (op(init, value) there),
// whose result at item i - 1 is the result at i (init at a head), and shifts the results in registers
// before the stores: the same results (integer operators are exact in every association), no value
// read outside a tile.
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

//! The element at p (aligned to its size) through the read-only path, under the same condition as
//! load_contiguous.
template <class E>
__device__ __forceinline__ E load_read_only(const E* p)
{
  static_assert(raw_movable<E>, "load_read_only: a power-of-two size up to 16 bytes");
  using word = std::conditional_t<
    sizeof(E) == 1, unsigned char,
    std::conditional_t<sizeof(E) == 2, unsigned short,
                       std::conditional_t<sizeof(E) == 4, unsigned, std::conditional_t<sizeof(E) == 8, unsigned long long, uint4>>>>;
  const word raw = __ldg(reinterpret_cast<const word*>(p));
  E out;
  std::memcpy(&out, &raw, sizeof(E));
  return out;
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
//!   result[i] = init at a head, else ((init op v_s) op v_{s+1}) ... op v_{i-1}
//! (values[i - 1] of a tile's first item is the only value read outside the tile: output over the
//! values goes through a copy of them, scan_by_key.cuh). segmented_agent reads the unshifted items of
//! an exclusive input of integral values instead (`Unshifted` rows, unshifted_item_at), folds init into the
//! heads and shifts the results. Random access by offset (`*(input + i)`) and by rows
//! (load_values_rows, load_rows), all the scan agents do with their input.
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
  //! The exclusive scan's input (segmented_agent shifts its results).
  static constexpr bool shifted = Shifted;

  //! Rows of a full tile (all 32 lanes of the warp call it together): row j is items i_j .. i_j + Vec
  //! - 1 with i_j = index + first + j * stride; their values in out[j], their head flags as bits
  //! j * Vec .. j * Vec + Vec - 1 of the result. With vectors, every load of every row is issued
  //! before any loaded value is used: the keys and the values as raw vectors, and each lane's key (and,
  //! shifted, value) before its first, which lies in the lines the lane below loads. (Taking that key
  //! from the lane below by a shuffle, and lane 0's from memory, let ptxas place the shuffle, which
  //! waits for its row's loads, before the later rows' loads: one memory round trip more a tile, and
  //! one a row where the rows were loaded one at a time; SASS, sm_90.) Unshifted: each item's own
  //! value, also for the exclusive scan (segmented_agent).
  template <int Rows, int Vec, bool Unshifted = false>
  __device__ unsigned load_values_rows(std::int64_t first, std::int64_t stride, T (&out)[Rows][Vec]) const
  {
    static_assert(Rows * Vec <= 32, "scan by key: a thread's head flags are the bits of one word");
    constexpr bool shift = Shifted && !Unshifted;
    unsigned heads = 0;
    if constexpr (vector_capable)
    {
      if (vector_rows)
      {
        key_type k[Rows][Vec];
        value_type v[Rows][Vec];
        key_type key_before[Rows];
        value_type value_before[Rows];
#pragma unroll
        for (int j = 0; j < Rows; ++j)
        {
          const std::int64_t i = index + first + j * stride;
          load_contiguous(keys + i, k[j]);
          load_contiguous(values + i, v[j]);
        }
#pragma unroll
        for (int j = 0; j < Rows; ++j)
        {
          const std::int64_t i = index + first + j * stride;
          key_before[j]        = i > 0 ? load_read_only(keys + i - 1) : k[j][0];
          if constexpr (shift)
          {
            value_before[j] = i > 0 ? load_read_only(values + i - 1) : v[j][0];
          }
        }
#pragma unroll
        for (int j = 0; j < Rows; ++j)
        {
          const std::int64_t i     = index + first + j * stride;
          const key_type before    = key_before[j];
          value_type shifted_first = v[j][0];
          if constexpr (shift)
          {
            shifted_first = value_before[j];
          }
#pragma unroll
          for (int u = 0; u < Vec; ++u)
          {
            const bool head = u == 0 ? i == 0 || !static_cast<bool>(eq(before, k[j][0]))
                                     : !static_cast<bool>(eq(k[j][u > 0 ? u - 1 : 0], k[j][u]));
            heads |= static_cast<unsigned>(head) << (j * Vec + u);
            if constexpr (shift)
            {
              out[j][u] = head ? init : static_cast<T>(u == 0 ? shifted_first : v[j][u > 0 ? u - 1 : 0]);
            }
            else
            {
              out[j][u] = static_cast<T>(v[j][u]);
            }
          }
        }
        return heads;
      }
    }
#pragma unroll
    for (int j = 0; j < Rows; ++j)
    {
#pragma unroll
      for (int u = 0; u < Vec; ++u)
      {
        const segment_item<T> item = shift ? item_at(index + first + j * stride + u)
                                           : unshifted_item_at(index + first + j * stride + u);
        out[j][u]                  = item.value;
        heads |= static_cast<unsigned>(item.head) << (j * Vec + u);
      }
    }
    return heads;
  }

  //! The rows as segment_items (agent.cuh's generic agent; load_values_rows, a row at a time where a
  //! thread's flags exceed one word).
  template <int Rows, int Vec>
  __device__ void load_rows(std::int64_t first, std::int64_t stride, segment_item<T> (&out)[Rows][Vec]) const
  {
    constexpr int group = Rows * Vec <= 32 ? Rows : 1;
#pragma unroll
    for (int g = 0; g < Rows; g += group)
    {
      T v[group][Vec];
      const unsigned heads = load_values_rows<group, Vec>(first + g * stride, stride, v);
#pragma unroll
      for (int j = 0; j < group; ++j)
      {
#pragma unroll
        for (int u = 0; u < Vec; ++u)
        {
          out[g + j][u] = segment_item<T>{v[j][u], ((heads >> (j * Vec + u)) & 1u) != 0};
        }
      }
    }
  }

  //! Item i's own value and head, also for the exclusive scan (segmented_agent).
  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ segment_item<T> unshifted_item_at(std::int64_t i) const
  {
    return segment_item<T>{static_cast<T>(values[i]), segment_starts_at(keys, eq, i)};
  }

  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ segment_item<T> item_at(std::int64_t i) const
  {
    if constexpr (Shifted)
    {
      const bool head = segment_starts_at(keys, eq, i);
      return segment_item<T>{head ? init : static_cast<T>(values[i - 1]), head};
    }
    else
    {
      return unshifted_item_at(i);
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

  //! Stores rows of a full tile: row j's values at i_j .. i_j + Vec - 1, i_j = index + first + j *
  //! stride (the alignment checked once for all of them).
  template <int Rows, int Vec>
  __device__ void store_values_rows(std::int64_t first, std::int64_t stride, const T (&v)[Rows][Vec]) const
  {
    if constexpr (vector_capable)
    {
      if (vector_rows)
      {
#pragma unroll
        for (int j = 0; j < Rows; ++j)
        {
          store_contiguous(out + index + first + j * stride, v[j]);
        }
        return;
      }
    }
#pragma unroll
    for (int j = 0; j < Rows; ++j)
    {
#pragma unroll
      for (int u = 0; u < Vec; ++u)
      {
        out[index + first + j * stride + u] = v[j][u];
      }
    }
  }

  //! Stores the values of rows of segment_items (agent.cuh's generic agent; store_values_rows).
  template <int Rows, int Vec>
  __device__ void store_rows(std::int64_t first, std::int64_t stride, const segment_item<T> (&in)[Rows][Vec]) const
  {
    T v[Rows][Vec];
#pragma unroll
    for (int j = 0; j < Rows; ++j)
    {
#pragma unroll
      for (int u = 0; u < Vec; ++u)
      {
        v[j][u] = in[j][u].value;
      }
    }
    store_values_rows<Rows, Vec>(first, stride, v);
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
