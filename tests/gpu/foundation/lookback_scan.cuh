// A device-wide single-pass exclusive sum built on the look-back core: the test harness that proves
// the tile-state protocol (Merrill & Garland 2016) that copy_if and onesweep use, and the policy
// layer's temporary storage and synchronization. Test-only (was include/sweep/detail/scan/scan.cuh).
#pragma once

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <iterator>

#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/math.hpp>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep_test
{
namespace lookback_scan
{

using namespace sweep::detail; // the library internals this harness exercises

struct scan_tuning
{
  static constexpr int block_threads    = 256;
  static constexpr int items_per_thread = 16;
  static constexpr int tile_items       = block_threads * items_per_thread;
};

//! One tile per block, tiles taken in start order. Invariant: a tile publishes its aggregate before
//! it waits on anything, and only waits on lower-numbered (already started) tiles.
//! Sync points: block_next_tile (tile index), one barrier after the block scan, one after the look-back.
template <class Tuning, class InputIt, class Sum>
__global__ void __launch_bounds__(Tuning::block_threads)
  exclusive_sum_kernel(InputIt input, Sum* output, std::size_t n, tile_state<unsigned long long> state,
                       unsigned long long* tile_counter)
{
  using input_t    = typename std::iterator_traits<InputIt>::value_type;
  using block_load = cub::BlockLoad<input_t, Tuning::block_threads, Tuning::items_per_thread,
                                    cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using block_store =
    cub::BlockStore<Sum, Tuning::block_threads, Tuning::items_per_thread, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using block_scan = cub::BlockScan<unsigned long long, Tuning::block_threads>;

  __shared__ union
  {
    typename block_load::TempStorage load;
    typename block_store::TempStorage store;
    typename block_scan::TempStorage scan;
  } storage;
  __shared__ unsigned long long tile_slot;
  __shared__ unsigned long long tile_prefix;

  const std::size_t tile = block_next_tile(tile_counter, tile_slot);
  const std::size_t base = tile * Tuning::tile_items;
  const int valid = static_cast<int>(n - base < std::size_t(Tuning::tile_items) ? n - base : Tuning::tile_items);

  input_t items[Tuning::items_per_thread];
  block_load(storage.load).Load(input + base, items, valid, input_t{});
  __syncthreads(); // storage.load is reused by the scan

  unsigned long long thread_sum = 0;
#pragma unroll
  for (int i = 0; i < Tuning::items_per_thread; ++i)
  {
    thread_sum += static_cast<unsigned long long>(items[i]);
  }
  unsigned long long thread_exclusive = 0, block_total = 0;
  block_scan(storage.scan).ExclusiveSum(thread_sum, thread_exclusive, block_total);

  if (threadIdx.x < 32)
  {
    unsigned long long exclusive = 0;
    if (tile == 0)
    {
      if (threadIdx.x == 0)
      {
        state.publish_inclusive(0, 0, block_total);
      }
    }
    else
    {
      exclusive = warp_lookback(state, tile, 0, block_total);
    }
    if (threadIdx.x == 0)
    {
      tile_prefix = exclusive;
    }
  }
  __syncthreads(); // tile_prefix is visible; storage.scan is free for the store

  Sum out[Tuning::items_per_thread];
  unsigned long long running = tile_prefix + thread_exclusive;
#pragma unroll
  for (int i = 0; i < Tuning::items_per_thread; ++i)
  {
    out[i] = static_cast<Sum>(running);
    running += static_cast<unsigned long long>(items[i]);
  }
  block_store(storage.store).Store(output + base, out, valid);
}

//! output[i] = sum of input[0..i) for i in [0, n). Input values are non-negative integers and every
//! prefix sum must stay below 2^62 (the tile word's value field). Runs on the policy's stream;
//! temporary storage comes from the policy. Synchronizes like Thrust's scan (unless nosync).
template <class Policy, class InputIt, class Sum>
__host__ void exclusive_sum(const Policy& exec, InputIt input, std::size_t n, Sum* output)
{
  Policy policy = exec; // a mutable copy (like Thrust's strip_const): allocators may need it
  using tuning = scan_tuning;
  if (n == 0)
  {
    return;
  }
  const std::size_t tiles = ceil_div(n, std::size_t(tuning::tile_items));
  tile_state<unsigned long long> state;
  state.slots = 1;
  temp_layout<2> layout{tile_state<unsigned long long>::bytes(tiles, 1), sizeof(unsigned long long)};
  temp_storage<Policy, 2> temp(policy, layout);
  state.words                       = temp.template part<unsigned long long>(0);
  unsigned long long* tile_counter  = temp.template part<unsigned long long>(1);
  const cudaStream_t stream         = stream_of(policy);
  // One memset clears the tile words and the tile counter (they are adjacent in one allocation).
  throw_on_error(cudaMemsetAsync(temp.data(), 0, layout.total, stream), "sweep::exclusive_sum: clearing tile state");
  exclusive_sum_kernel<tuning><<<static_cast<unsigned>(tiles), tuning::block_threads, 0, stream>>>(
    input, output, n, state, tile_counter);
  check_launch("sweep::exclusive_sum_kernel");
  synchronize_optional(policy, "sweep::exclusive_sum");
}

} // namespace lookback_scan

using lookback_scan::exclusive_sum;
using lookback_scan::scan_tuning;

} // namespace sweep_test
