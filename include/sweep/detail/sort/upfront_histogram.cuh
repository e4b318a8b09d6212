// Onesweep's upfront pass: the digit histograms of every radix pass in one read of the keys, and
// their exclusive scans (the global start of each digit in each pass).
#pragma once

#include <cuda/atomic>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <sweep/detail/sort/key_traits.cuh>
#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/global_atomic.cuh>
#include <sweep/detail/util/kernel_tuning.cuh>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! The block-level steps of the upfront histogram (docs/design/sort.md, "Upfront histogram").
//! Counting: lane columns. Each block counts in dynamic shared memory laid out as
//! `columns[row][column]`, row = (pass / 2) * 256 + digit, column = lane % 2^log2_columns, and the
//! pass's parity picks the 16-bit half of the word. With 32 columns lane l only ever touches bank l,
//! so a warp's shared atomics never conflict, whatever the digits: the count runs at the rate the
//! keys arrive (the per-block copies it replaced were bound by bank conflicts on uniform keys).
//! Log2Columns is a constant: computed addresses made the count 30% slower (u32 2^28 on the H200,
//! 0.29 -> 0.39 ms). 8 columns (Log2Columns 3) serve small inputs (less to clear and add up) and
//! devices whose shared memory is short for 32 (4-byte keys need 64 KB, 8-byte keys 128 KB).
//! A 16-bit half may not overflow: the keys are counted in chunks after each of which the block
//! adds its columns to the global histogram (flush) and clears them.
template <class Key, bool Descending, int Threads, int Unroll, int Log2Columns>
struct upfront_histogram_agent
{
  using traits              = key_traits<Key>;
  using bits_type           = typename traits::bits_type;
  static constexpr int passes = static_cast<int>(sizeof(Key));
  //! Shared rows: two passes share a row of 32-bit words (16 bits each).
  static constexpr int rows = (passes + 1) / 2 * radix_digits;

  static constexpr int log2_columns = Log2Columns;
  static constexpr int width        = 1 << Log2Columns;
  //! Dynamic shared memory bytes.
  static constexpr std::size_t shared_bytes = static_cast<std::size_t>(rows) * sizeof(std::uint32_t) * width;
  //! Threads of a block that share one column word.
  static constexpr unsigned sharers = static_cast<unsigned>(Threads) / width;

  std::uint32_t* columns;
  unsigned column; // this thread's column

  __device__ explicit upfront_histogram_agent(std::uint32_t* shared_columns)
      : columns(shared_columns)
      , column(threadIdx.x % width)
  {}

  //! Step 1: clear the columns (the caller synchronizes before counting).
  __device__ void zero()
  {
    for (int i = threadIdx.x; i < (rows << log2_columns); i += Threads)
    {
      columns[i] = 0;
    }
  }

  __device__ void add(bits_type bits)
  {
    const bits_type ordered = traits::template ordered<Descending>(bits);
#pragma unroll
    for (int pass = 0; pass < passes; ++pass)
    {
      const unsigned digit = static_cast<unsigned>(ordered >> (8 * pass)) & 0xffu;
      const unsigned row   = (pass / 2) * radix_digits + digit;
      atomicAdd(columns + ((row << log2_columns) | column), 1u << (16 * (pass & 1)));
    }
  }

  //! Step 3 (and between chunks): adds the columns to hist[pass * 256 + digit] (one global atomic per
  //! non-zero count) and clears them. Thread t reads row t's columns starting at column t, so that a
  //! warp's reads fall in distinct banks.
  __device__ void flush(unsigned long long* hist)
  {
    for (int row = threadIdx.x; row < rows; row += Threads)
    {
      std::uint32_t low = 0, high = 0;
#pragma unroll 8
      for (int c = 0; c < width; ++c)
      {
        std::uint32_t& word = columns[(row << log2_columns) | ((c + row) & (width - 1))];
        low += word & 0xffffu;
        high += word >> 16;
        word = 0;
      }
      const int pass     = (row / radix_digits) * 2;
      const int digit    = row % radix_digits;
      if (low != 0)
      {
        atomicAdd(hist + pass * radix_digits + digit, static_cast<unsigned long long>(low));
      }
      if (pass + 1 < passes && high != 0)
      {
        atomicAdd(hist + (pass + 1) * radix_digits + digit, static_cast<unsigned long long>(high));
      }
    }
  }

  //! Step 2: counts items [0, items) of the grid-stride range, `load(i, parts)` giving an array of
  //! `PerItem` key bits. In chunks of as many rounds as keep every 16-bit count below 2^16, with a
  //! flush after each but the last; every block runs the same chunks (barriers). No 64-bit division
  //! (a call, and spills around it).
  template <int PerItem, class Load>
  __device__ void count_items(std::size_t items, unsigned long long* hist, Load&& load)
  {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * Threads;
    const std::size_t first  = static_cast<std::size_t>(blockIdx.x) * Threads + threadIdx.x;
    // Rounds a chunk: each of the `sharers` threads of a column word adds up to PerItem a round,
    // and at most one more key after the last round (count()), so a count stays below 2^16.
    constexpr unsigned fit = (0xffffu - sharers) / (sharers * PerItem) / Unroll * Unroll;
    static_assert(fit >= Unroll, "a chunk holds at least one unrolled round");
    const std::size_t span = stride * fit;
    for (std::size_t begin = 0; begin < items; begin += span)
    {
      const std::size_t end = items - begin < span ? items : begin + span;
      for (std::size_t i = begin + first; i < end; i += stride * Unroll)
      {
        // All loads of the unrolled rounds first: Unroll loads in flight per thread.
        bits_type parts[Unroll][PerItem];
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
        {
          if (i + u * stride < end)
          {
            load(i + u * stride, parts[u]);
          }
        }
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
        {
          if (i + u * stride < end)
          {
#pragma unroll
            for (int k = 0; k < PerItem; ++k)
            {
              add(parts[u][k]);
            }
          }
        }
      }
      if (end < items)
      {
        __syncthreads();
        flush(hist);
        __syncthreads();
      }
    }
  }

  //! Step 2: counts keys[0, n): 16-byte vectors when `keys` is 16-byte aligned (the last n % (16 /
  //! sizeof(Key)) keys one at a time), otherwise one key at a time.
  __device__ void count(const Key* keys, std::size_t n, unsigned long long* hist)
  {
    constexpr int per_vector = static_cast<int>(sizeof(uint4) / sizeof(Key));
    if (reinterpret_cast<std::uintptr_t>(keys) % sizeof(uint4) == 0)
    {
      const uint4* vectors = reinterpret_cast<const uint4*>(keys);
      count_items<per_vector>(n / per_vector, hist, [vectors](std::size_t i, bits_type (&parts)[per_vector]) {
        const uint4 word = vectors[i];
        memcpy(parts, &word, sizeof(word));
      });
      // Fewer than per_vector keys are left: one each for the grid's first threads.
      const std::size_t i = n / per_vector * per_vector + static_cast<std::size_t>(blockIdx.x) * Threads + threadIdx.x;
      if (i < n)
      {
        add(traits::to_bits(keys[i]));
      }
    }
    else
    {
      count_items<1>(n, hist, [keys](std::size_t i, bits_type (&parts)[1]) {
        parts[0] = traits::to_bits(keys[i]);
      });
    }
  }

  //! Step 4: true in the last block to finish its flush, which then sees every block's counts.
  //! Every thread's fence orders its histogram atomics before the barrier; thread 0's acq_rel
  //! increment then releases them all (and, in the last block, acquires every other block's).
  __device__ static bool last_block(unsigned* done)
  {
    __shared__ bool last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
    {
      last = global_atomic_fetch_add<cuda::std::memory_order_acq_rel>(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last)
    {
      __threadfence();
    }
    return last;
  }

  //! Step 5, last block only: each pass's digit starts, bins[pass * 512 + digit] (exclusive scans),
  //! and the passes' route (plan.hpp) into route[0, passes] and into the high bits of every
  //! (pass, portion) tile counter.
  __device__ static void scan_and_route(const unsigned long long* hist,
                                        std::size_t n,
                                        unsigned long long* bins,
                                        std::uint32_t* route,
                                        unsigned long long* tile_counters,
                                        int portions,
                                        bool allow_skip)
  {
    static_assert(Threads >= radix_digits, "one thread per digit");
    // A scan of 256 counts by the first 8 warps (shuffles, then the warps' totals); a hand-written one,
    // because cub::BlockScan over the 1024 threads made the kernel spill.
    __shared__ unsigned long long warp_totals[radix_digits / 32];
    __shared__ bool trivial[passes];
    const unsigned lane = threadIdx.x % 32;
    for (int pass = 0; pass < passes; ++pass)
    {
      // L2 loads (ld.global.cg): the totals were made by other blocks' atomics.
      const unsigned long long count = threadIdx.x < radix_digits ? __ldcg(hist + pass * radix_digits + threadIdx.x) : 0;
      unsigned long long inclusive   = count;
#pragma unroll
      for (int delta = 1; delta < 32; delta *= 2)
      {
        const unsigned long long below = __shfl_up_sync(0xffffffffu, inclusive, delta);
        inclusive += lane >= static_cast<unsigned>(delta) ? below : 0;
      }
      if (threadIdx.x < radix_digits && lane == 31)
      {
        warp_totals[threadIdx.x / 32] = inclusive;
      }
      __syncthreads();
      if (threadIdx.x < radix_digits)
      {
        unsigned long long exclusive = inclusive - count;
        for (unsigned w = 0; w < threadIdx.x / 32; ++w)
        {
          exclusive += warp_totals[w];
        }
        bins[pass * 2 * radix_digits + threadIdx.x] = exclusive;
      }
      // Also the barrier before warp_totals is reused by the next pass.
      const bool constant_digit = __syncthreads_or(threadIdx.x < radix_digits && count == n);
      if (threadIdx.x == 0)
      {
        trivial[pass] = allow_skip && constant_digit;
      }
    }
    if (threadIdx.x == 0)
    {
      route_passes(trivial, passes, route);
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
};

//! Adds the digits of every pass of `n` keys into hist[pass * 256 + digit] (zeroed by the caller),
//! then the last block to finish writes their exclusive scans, the global start of each digit in
//! each pass, to bins[pass * 512 + digit] (the second 256 entries of each pass are the ping-pong slot
//! for inputs processed in several portions, see agent.cuh), and the passes' route through the
//! two buffers to route[0, passes] (plan.hpp: a pass whose digit is the same for every key is
//! skipped unless `allow_skip` is false), also into the high bits of every (pass, portion) tile
//! counter, tile_counters[pass * portions + portion] (zeroed by the caller). `done` (zeroed by the
//! caller) counts finished blocks; the work in the kernel's last block saves a launch, which small
//! sorts feel, and keeps the skipping decision on the device (no read-back, so nothing waits for the
//! host). Dynamic shared memory: upfront_histogram_agent::shared_bytes.
template <class Key, bool Descending, int Threads, int Unroll, int Log2Columns>
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
  using agent = upfront_histogram_agent<Key, Descending, Threads, Unroll, Log2Columns>;
  extern __shared__ std::uint32_t upfront_columns[];
  agent block(upfront_columns);
  block.zero();
  __syncthreads();
  block.count(keys, n, hist);
  __syncthreads();
  block.flush(hist);
  if (agent::last_block(done))
  {
    agent::scan_and_route(hist, n, bins, route, tile_counters, portions, allow_skip);
  }
}

//! Blocks of the upfront histogram kernel the current device holds at once; 0 when its shared memory
//! does not fit a block there. Computed once per device.
template <class Key, bool Descending, int Threads, int Unroll, int Log2Columns>
__host__ unsigned upfront_histogram_blocks()
{
  constexpr auto kernel = &upfront_histogram_kernel<Key, Descending, Threads, Unroll, Log2Columns>;
  constexpr std::size_t bytes = upfront_histogram_agent<Key, Descending, Threads, Unroll, Log2Columns>::shared_bytes;
  struct tag;
  return once_per_device<tag, unsigned>([kernel](int) {
    cudaFuncAttributes attributes{};
    throw_on_error(cudaFuncGetAttributes(&attributes, kernel), "sweep::sort: histogram kernel attributes");
    if (bytes + attributes.sharedSizeBytes > static_cast<std::size_t>(current_device_info().max_shared_per_block_optin))
    {
      return 0u;
    }
    // The occupancy of a block with more than 48 KB of dynamic shared memory needs the raised limit.
    allow_dynamic_shared(reinterpret_cast<const void*>(kernel), bytes, "sweep::sort: histogram kernel shared memory");
    return resident_blocks_uncached(reinterpret_cast<const void*>(kernel), Threads, bytes);
  });
}

//! Launches the upfront histogram kernel with its dynamic shared memory, raising the kernel's limit
//! first when that is past the 48 KB default: on every call, and in this function, next to the
//! launch. Each translation unit that instantiates a kernel registers a copy of its own, and
//! `&kernel` names the copy of the unit whose instance of the enclosing inline function the linker
//! kept: a limit cached once per device was set on one unit's copy while another unit's launched
//! (cudaErrorInvalidValue in a test binary of several units). The call costs far less than the
//! smallest input that uses more than 48 KB (past 2^18 keys).
template <class Key, bool Descending, int Threads, int Unroll, int Log2Columns, class... Args>
__host__ void launch_upfront_histogram(unsigned blocks, cudaStream_t stream, Args... args)
{
  constexpr auto kernel = &upfront_histogram_kernel<Key, Descending, Threads, Unroll, Log2Columns>;
  constexpr std::size_t bytes = upfront_histogram_agent<Key, Descending, Threads, Unroll, Log2Columns>::shared_bytes;
  if constexpr (bytes > 48 * 1024)
  {
    allow_dynamic_shared(reinterpret_cast<const void*>(kernel), bytes, "sweep::sort: histogram kernel shared memory");
  }
  kernel<<<blocks, Threads, bytes, stream>>>(args...);
}

} // namespace sort_impl
} // namespace detail
} // namespace sweep
