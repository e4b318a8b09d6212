// Onesweep's small path as a block-level agent: inputs of at most one tile are sorted in place by a
// single block (single_block_sort_kernel, kernels.cuh, runs its steps).
#pragma once

#include <cub/block/block_radix_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include <sweep/detail/sort/key_traits.cuh>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! The steps of sorting keys[0, n) (and values[0, n) along) in place by one block, n <= Threads *
//! Items: load the keys' ordered bits with their positions, sort them (cub::BlockRadixSort, stable),
//! gather the original keys and values through the sorted positions, and, after a barrier, store
//! them. Every read of the input happens in load() and gather(), before the __syncthreads() that
//! precedes the first write in store(), so sorting in place is safe within one block. Padding sorts
//! after every real key: it has the largest ordered bits and the largest positions.
template <class Key, class ValueIt, bool HasValues, bool Descending, int Threads, int Items>
struct single_block_agent
{
  using traits     = key_traits<Key>;
  using bits_type  = typename traits::bits_type;
  using block_sort = cub::BlockRadixSort<bits_type, Threads, Items, int>;
  // Keys-only sorts stage no values (a placeholder array the compiler drops).
  using value_type = std::conditional_t<HasValues, typename std::iterator_traits<ValueIt>::value_type, char>;

  using shared_storage = typename block_sort::TempStorage;

  shared_storage& temp;
  Key* keys;
  ValueIt values;
  int n;
  bits_type ordered[Items]; // blocked: thread t's item k is input key t * Items + k
  int position[Items];
  Key sorted_keys[Items]; // striped: thread t's item k is output position k * Threads + t
  [[maybe_unused]] value_type sorted_values[Items];

  // A constructor, not aggregate initialization, which would zero the per-thread arrays.
  __device__ single_block_agent(shared_storage& storage, Key* k, ValueIt v, int count)
      : temp(storage)
      , keys(k)
      , values(v)
      , n(count)
  {}

  //! Thread t's keys t * Items + k as ordered radix bits (padding past n: all ones) with their
  //! positions.
  __device__ __forceinline__ void load()
  {
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      const int i = static_cast<int>(threadIdx.x) * Items + k;
      ordered[k]  = i < n ? traits::template ordered<Descending>(traits::to_bits(keys[i])) : traits::all_ones;
      position[k] = i;
    }
  }

  //! The bits sorted with their positions, striped (contains __syncthreads()).
  __device__ __forceinline__ void sort()
  {
    block_sort(temp).SortBlockedToStriped(ordered, position, 0, traits::bits);
  }

  //! The original keys (and values) of this thread's sorted positions, read from the input.
  __device__ __forceinline__ void gather()
  {
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      if (k * Threads + static_cast<int>(threadIdx.x) < n)
      {
        sorted_keys[k] = keys[position[k]];
      }
    }
    if constexpr (HasValues)
    {
#pragma unroll
      for (int k = 0; k < Items; ++k)
      {
        if (k * Threads + static_cast<int>(threadIdx.x) < n)
        {
          sorted_values[k] = values[position[k]];
        }
      }
    }
  }

  //! Writes the gathered keys (and values) to their output positions. Every thread's gather() must
  //! be done (the caller's barrier).
  __device__ __forceinline__ void store()
  {
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      const int out = k * Threads + static_cast<int>(threadIdx.x);
      if (out < n)
      {
        keys[out] = sorted_keys[k];
        if constexpr (HasValues)
        {
          values[out] = sorted_values[k];
        }
      }
    }
  }
};

} // namespace sort_impl
} // namespace detail
} // namespace sweep
