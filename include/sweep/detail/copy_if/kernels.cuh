// sweep's copy_if kernel: a thin __global__ function that runs the agent (agent.cuh) over tiles. The
// grid is as many blocks as the GPU holds at once; each block loops over tiles taken from a device
// counter (docs/design/copy_if.md, variants).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include <sweep/detail/copy_if/agent.cuh>
#include <sweep/detail/copy_if/plan.hpp>
#include <sweep/detail/lookback/lookback.cuh>

namespace sweep
{
namespace detail
{
namespace copy_if_impl
{

//! Minimum resident blocks per SM the kernel is compiled for (__launch_bounds__): 2048 threads per SM
//! (32 registers) for the 16-byte vector path with items of 4 bytes or more, where more tiles
//! in flight per SM hide the look-back's wait; 1 otherwise (1- and 2-byte items carry 16-64 items
//! a thread and spill under 32 registers; fancy iterators need their registers). Measured on the
//! H200: docs/design/copy_if.md, variants.
template <class T, class Paths>
constexpr int min_blocks()
{
  return Paths::load_vectors && sizeof(T) >= 4 ? 2048 / tile_shape<T>::block_threads : 1;
}

//! Blocks loop over tiles: a block takes a tile index from the device counter only when it starts
//! that tile (block_next_tile), so a tile only waits in its look-back on tiles that running blocks
//! are working on (forward progress whatever the number of resident blocks). Taking indices ahead
//! of time, to prefetch the next tile's input, was measured 1.6x slower (v4): a tile held but not
//! yet started stalls every successor's look-back. Taking the next index at the start of the
//! previous tile's stores (so the atomic overlaps them) was measured 3-5% slower for 4- to 16-byte
//! items and 3% faster for 1-byte items (v5), and is not done.
template <class T, class Paths, class InputIt, class StencilIt, class OutputIt, class Pred>
__global__ void __launch_bounds__(tile_shape<T>::block_threads, (min_blocks<T, Paths>()))
  select_kernel(kernel_params<InputIt, StencilIt, OutputIt, Pred> params)
{
  using params_t = kernel_params<InputIt, StencilIt, OutputIt, Pred>;
  using agent_t  = agent<T, Paths, params_t, InputIt, StencilIt, OutputIt, Pred>;
  __shared__ typename agent_t::shared_storage smem;
  const agent_t a{params, smem};
  // One tile: one block, no tile counter and no tile state (the dispatcher allocates and clears
  // none), so a small call is a single launch. Otherwise tiles come from the counter.
  const bool lone   = params.tiles == 1;
  std::uint64_t tile = lone ? 0 : block_next_tile(params.tile_counter, smem.tile_slot);
  while (tile < params.tiles)
  {
    const std::uint64_t tile_base = tile * tile_shape<T>::tile_items;
    const bool full = tile_base >= params.head && tile_base + tile_shape<T>::tile_items <= params.virtual_items;
    if (full)
    {
      a.template process<true>(tile);
    }
    else
    {
      a.template process<false>(tile);
    }
    if (lone)
    {
      return;
    }
    __syncthreads(); // the stores have read the staging buffer and smem.exclusive
    // smem.tile_slot is written once before the barrier in block_next_tile; the barrier above keeps
    // that write after every thread's read of the previous index.
    tile = block_next_tile(params.tile_counter, smem.tile_slot);
  }
}

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
