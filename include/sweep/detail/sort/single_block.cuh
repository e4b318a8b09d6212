// Onesweep's small path: inputs of at most one tile are sorted in place by a single block.
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

//! Sorts keys[0, n) (and values[0, n) along) in place, n <= Threads * Items. The ordered key bits
//! are sorted with their positions by cub::BlockRadixSort (stable); each thread then gathers the
//! original keys and values through those positions. Every read of the input happens before the
//! __syncthreads() that precedes the first write, so sorting in place is safe within one block.
//! Padding sorts after every real key: it has the largest ordered bits and the largest positions.
template <class Key, class ValueIt, bool HasValues, bool Descending, int Threads, int Items>
__global__ void __launch_bounds__(Threads) single_block_sort_kernel(Key* keys, ValueIt values, int n)
{
  using traits     = key_traits<Key>;
  using bits_type  = typename traits::bits_type;
  using block_sort = cub::BlockRadixSort<bits_type, Threads, Items, int>;
  __shared__ typename block_sort::TempStorage temp;

  bits_type ordered[Items];
  int position[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k)
  {
    const int i = static_cast<int>(threadIdx.x) * Items + k;
    ordered[k]  = i < n ? traits::template ordered<Descending>(traits::to_bits(keys[i])) : traits::all_ones;
    position[k] = i;
  }
  block_sort(temp).SortBlockedToStriped(ordered, position, 0, traits::bits);

  Key sorted_keys[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k)
  {
    if (k * Threads + static_cast<int>(threadIdx.x) < n)
    {
      sorted_keys[k] = keys[position[k]];
    }
  }
  // Keys-only sorts stage no values (a placeholder array the compiler drops).
  using value_type = std::conditional_t<HasValues, typename std::iterator_traits<ValueIt>::value_type, char>;
  [[maybe_unused]] value_type sorted_values[Items];
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
  __syncthreads(); // all reads of the input are done
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

} // namespace sort_impl
} // namespace detail
} // namespace sweep
