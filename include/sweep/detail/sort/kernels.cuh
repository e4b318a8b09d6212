// The sort's kernels, thin: the digit pass runs the block-level agent (agent.cuh) over its tiles, the
// one-block sort runs its agent (single_block.cuh); the upfront histogram (upfront_histogram.cuh)
// has its own header; the copies around the passes, decided on the device by the route summary
// (plan.hpp), are here. The pass and one-block kernels take their tiles from the tuning of the
// architecture their code is compiled for (tuning_for<compiled_arch>), never from a template
// parameter: one instantiation serves every architecture, and the host finds the same struct from
// the kernel's PTX version (dispatch.cuh).
#pragma once

#include <cstddef>
#include <cstdint>

#include <sweep/detail/sort/agent.cuh>
#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/sort/single_block.cuh>
#include <sweep/detail/sort/tuning.hpp>
#include <sweep/detail/sort/upfront_histogram.cuh>
#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! The pass tile of the code being compiled: keys of Key, moved values of Value (none unless
//! HasValues), the small inputs' shape when Small.
template <class Key, class Value, bool HasValues, bool Small>
using compiled_pass_shape = pass_shape<tuning_for<compiled_arch>, sizeof(Key), HasValues ? sizeof(Value) : 0, Small>;

//! One digit pass over one portion. Blocks take tile indices in start order (block_next_tile), so a
//! tile only waits in its look-back on tiles that running blocks hold. Shape::persistent: launched
//! with at most as many blocks as the GPU holds at once, each block takes tiles in turn until the
//! portion's tiles are all taken, and a skipped pass costs one ticket per resident block instead of
//! one per tile; otherwise one block per tile (docs/design/sort.md, "Persistent blocks").
//! The shape (pass_shape: the small inputs' when Small) gives the tile and the blocks per SM: while
//! one block waits in its look-back another streams keys. Offset is the type of global positions:
//! std::uint32_t when every position of the sort fits it (fewer instructions a key), else 64-bit.
template <class Key, class Value, bool HasValues, bool Descending, bool Small, class Offset>
__global__ void __launch_bounds__(compiled_pass_shape<Key, Value, HasValues, Small>::threads,
                                  compiled_pass_shape<Key, Value, HasValues, Small>::min_blocks)
  onesweep_pass_kernel(pass_args<Key, Value> args)
{
  using shape = compiled_pass_shape<Key, Value, HasValues, Small>;
  using agent = onesweep_agent<Key, Value, HasValues, Descending, shape, Offset>;
  static_assert(compiled_arch == 0
                  || blocks_fit(limits_of(compiled_arch), shape::threads, shape::min_blocks,
                                sizeof(typename agent::shared_storage)),
                "sort tuning: the blocks per SM the pass kernel is compiled for do not fit this architecture");
  __shared__ typename agent::shared_storage smem;
  agent block(smem, args);
  if constexpr (shape::persistent)
  {
    while (block.start())
    {
      block.process_tile();
      __syncthreads(); // every thread is done with this tile's shared memory before start() zeroes it
    }
  }
  else if (block.start())
  {
    block.process_tile();
  }
}

//! Sorts keys[0, n) (and values[0, n) along) in place with one block, n <= the one-block tile
//! (single_block_shape) for keys of Key and moved values of ValueBytes (0: keys only; index sorts
//! count their 4-byte positions).
template <class Key, class ValueIt, bool HasValues, bool Descending, std::size_t ValueBytes>
__global__ void __launch_bounds__(single_block_shape<tuning_for<compiled_arch>, sizeof(Key), ValueBytes>::threads)
  single_block_sort_kernel(Key* keys, ValueIt values, int n)
{
  using shape = single_block_shape<tuning_for<compiled_arch>, sizeof(Key), ValueBytes>;
  using agent = single_block_agent<Key, ValueIt, HasValues, Descending, shape::threads, shape::items>;
  static_assert(compiled_arch == 0
                  || blocks_fit(limits_of(compiled_arch), shape::threads, 1, sizeof(typename agent::shared_storage)),
                "sort tuning: the one-block sort does not fit this architecture");
  __shared__ typename agent::shared_storage temp;
  agent block(temp, keys, values, n);
  block.load();
  block.sort();
  block.gather();
  __syncthreads(); // all reads of the input are done
  block.store();
}

//! Index sorts: copies the values aside for the final gather, unless no pass ran (route summary).
template <class T, class It>
__global__ void copy_in_kernel(const std::uint32_t* summary, It in, T* out, std::size_t n)
{
  if (pass_route::runs(*summary) == 0)
  {
    return;
  }
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
  {
    out[i] = in[i];
  }
}

//! Index sorts: out[i] = in[permutation[i]], where the permutation is the position buffer that holds
//! the result (route summary); nothing when no pass ran (the permutation is the identity).
template <class T, class It>
__global__ void gather_kernel(const std::uint32_t* summary,
                              const T* in,
                              const std::uint32_t* positions0,
                              const std::uint32_t* positions1,
                              It out,
                              std::size_t n)
{
  const std::uint32_t s = *summary;
  if (pass_route::runs(s) == 0)
  {
    return;
  }
  const std::uint32_t* permutation = (s & pass_route::result_bit) != 0 ? positions1 : positions0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
  {
    out[i] = in[permutation[i]];
  }
}

constexpr int copy_back_unroll = 4;

//! The result is in the second buffer when an odd number of passes ran (route summary): copy it
//! back (keys, and values when they moved with the keys). Decided on the device like the skipping.
template <class Key, class Value>
__global__ void copy_back_kernel(const std::uint32_t* summary, const Key* keys_from, Key* keys_to,
                                 const Value* values_from, Value* values_to, std::size_t n)
{
  if ((*summary & pass_route::result_bit) == 0)
  {
    return;
  }
  // Unrolled: with a grid of one wave, each thread keeps copy_back_unroll loads in flight.
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; first < n;
       first += stride * copy_back_unroll)
  {
    Key keys[copy_back_unroll];
#pragma unroll
    for (int u = 0; u < copy_back_unroll; ++u)
    {
      const std::size_t i = first + u * stride;
      if (i < n)
      {
        keys[u] = keys_from[i];
      }
    }
#pragma unroll
    for (int u = 0; u < copy_back_unroll; ++u)
    {
      const std::size_t i = first + u * stride;
      if (i < n)
      {
        keys_to[i] = keys[u];
      }
    }
    if (values_to != nullptr)
    {
#pragma unroll
      for (int u = 0; u < copy_back_unroll; ++u)
      {
        const std::size_t i = first + u * stride;
        if (i < n)
        {
          values_to[i] = values_from[i];
        }
      }
    }
  }
}

} // namespace sort_impl
} // namespace detail
} // namespace sweep
