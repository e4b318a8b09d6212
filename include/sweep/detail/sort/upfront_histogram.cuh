// Onesweep's upfront pass: the digit histograms of every radix pass in one read of the keys, and
// their exclusive scans (the global start of each digit in each pass).
#pragma once

#include <cub/block/block_scan.cuh>

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include <sweep/detail/sort/key_traits.cuh>
#include <sweep/detail/sort/plan.hpp>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! Adds the digits of every pass of `n` keys into hist[pass * 256 + digit] (zeroed by the caller),
//! then the last block to finish writes their exclusive scans, the global start of each digit in
//! each pass, to bins[pass * 512 + digit] (the second 256 entries of each pass are the ping-pong slot
//! for inputs processed in several portions, see agent.cuh), and the passes' route through the
//! two buffers to route[0, passes] (plan.hpp: a pass whose digit is the same for every key is
//! skipped unless `allow_skip` is false), also into the high bits of every (pass, portion) tile
//! counter, tile_counters[pass * portions + portion] (zeroed by the caller). `done` (zeroed by the caller) counts finished blocks; the
//! work in the kernel's last block saves a launch, which small sorts feel, and keeps the skipping
//! decision on the device (no read-back, so nothing waits for the host).
//! Each block counts into shared memory first (Copies replicas, one per group of warps, so that
//! heavily repeated keys do not serialize on one shared-memory address), then adds its non-zero
//! counts to the global histogram with one atomic each. Reads 16-byte vectors when `keys` is
//! 16-byte aligned. A block handles at most n / gridDim.x keys, so its 32-bit shared counts cannot
//! overflow for any n below 2^32 * gridDim.x.
template <class Key, bool Descending, int Threads>
__global__ void __launch_bounds__(Threads) upfront_histogram_kernel(
  const Key* keys,
  std::size_t n,
  unsigned long long* hist,
  unsigned long long* bins,
  std::uint32_t* route,
  unsigned long long* tile_counters,
  int portions,
  bool allow_skip,
  unsigned* done)
{
  using traits              = key_traits<Key>;
  using bits_type           = typename traits::bits_type;
  constexpr int passes      = static_cast<int>(sizeof(Key));
  constexpr int copies      = passes <= 4 ? 4 : 2;
  constexpr int bins_total  = passes * radix_digits;
  __shared__ std::uint32_t counts[copies][bins_total];

  for (int i = threadIdx.x; i < copies * bins_total; i += Threads)
  {
    (&counts[0][0])[i] = 0;
  }
  __syncthreads();

  std::uint32_t* mine = counts[(threadIdx.x / 32) % copies];
  auto add            = [mine](bits_type b) {
    const bits_type ordered = traits::template ordered<Descending>(b);
#pragma unroll
    for (int pass = 0; pass < passes; ++pass)
    {
      atomicAdd(mine + pass * radix_digits + ((ordered >> (8 * pass)) & 0xffu), 1u);
    }
  };

  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * Threads;
  std::size_t first        = static_cast<std::size_t>(blockIdx.x) * Threads + threadIdx.x;
  std::size_t scalar_begin = 0;
  if (reinterpret_cast<std::uintptr_t>(keys) % sizeof(uint4) == 0)
  {
    constexpr int per_vector = static_cast<int>(sizeof(uint4) / sizeof(Key));
    const std::size_t vectors = n / per_vector;
    const uint4* vec          = reinterpret_cast<const uint4*>(keys);
    for (std::size_t v = first; v < vectors; v += stride)
    {
      const uint4 word = vec[v];
      bits_type parts[per_vector];
      memcpy(parts, &word, sizeof(word));
#pragma unroll
      for (int k = 0; k < per_vector; ++k)
      {
        add(parts[k]);
      }
    }
    scalar_begin = vectors * per_vector;
  }
  for (std::size_t i = scalar_begin + first; i < n; i += stride)
  {
    add(traits::to_bits(keys[i]));
  }
  __syncthreads();

  for (int i = threadIdx.x; i < bins_total; i += Threads)
  {
    std::uint32_t total = 0;
#pragma unroll
    for (int c = 0; c < copies; ++c)
    {
      total += counts[c][i];
    }
    if (total != 0)
    {
      atomicAdd(hist + i, static_cast<unsigned long long>(total));
    }
  }

  // The last block to get here scans. Every thread's fence orders its histogram atomics before the
  // barrier; thread 0's acq_rel increment then releases them all (and, in the last block, acquires
  // every other block's).
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
  {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> finished(*done);
    last = finished.fetch_add(1u, cuda::std::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
  {
    return;
  }
  __threadfence();
  using block_scan = cub::BlockScan<unsigned long long, Threads>;
  __shared__ typename block_scan::TempStorage scan;
  static_assert(Threads >= radix_digits, "one thread per digit");
  __shared__ bool trivial[passes];
  for (int pass = 0; pass < passes; ++pass)
  {
    // L2 loads (ld.global.cg): the totals were made by other blocks' atomics.
    const unsigned long long count = threadIdx.x < radix_digits ? __ldcg(hist + pass * radix_digits + threadIdx.x) : 0;
    unsigned long long exclusive   = 0;
    block_scan(scan).ExclusiveSum(count, exclusive);
    if (threadIdx.x < radix_digits)
    {
      bins[pass * 2 * radix_digits + threadIdx.x] = exclusive;
    }
    // Also the barrier before the scan storage is reused by the next pass.
    const bool constant_digit = __syncthreads_or(threadIdx.x < radix_digits && count == n);
    if (threadIdx.x == 0)
    {
      trivial[pass] = allow_skip && constant_digit;
    }
  }
  if (threadIdx.x == 0)
  {
    route_passes(trivial, passes, route);
    // Every (pass, portion) tile counter starts at its pass's route (pass_route::ticket_shift).
    for (int pass = 0; pass < passes; ++pass)
    {
      for (int portion = 0; portion < portions; ++portion)
      {
        tile_counters[pass * portions + portion] = static_cast<unsigned long long>(route[pass])
                                                << pass_route::ticket_shift;
      }
    }
  }
}

} // namespace sort_impl
} // namespace detail
} // namespace sweep
