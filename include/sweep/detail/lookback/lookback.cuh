// The decoupled look-back protocol (Merrill & Garland 2016) over tile_state: a warp-wide window
// for one-slot states (compaction, scan) and a per-thread walk for many-slot states (onesweep's
// per-digit offsets), plus the dynamic tile counter that guarantees forward progress.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include <sweep/detail/lookback/tile_state.cuh>

namespace sweep
{
namespace detail
{

//! Spin policy while a predecessor has published nothing yet. BackoffNs == 0 spins hot; otherwise
//! each failed poll sleeps, doubling from 32 ns up to BackoffNs, which frees issue slots for the
//! co-resident blocks that still stream data.
template <unsigned BackoffNs = 0>
struct lookback_backoff
{
  unsigned delay = 32;
  __device__ void operator()()
  {
    if constexpr (BackoffNs > 0)
    {
      __nanosleep(delay);
      delay = delay * 2 < BackoffNs ? delay * 2 : BackoffNs;
    }
  }
};

//! The next tile index from the call's device counter (one thread takes it for its block or warp).
//! Relaxed: the index only orders tiles; the data they exchange goes through tile_state's words.
__device__ inline unsigned long long take_tile_index(unsigned long long* counter)
{
  return global_atomic_fetch_add<cuda::std::memory_order_relaxed>(counter, 1ull);
}

//! Tiles are numbered in the order their blocks start, not by blockIdx: a block takes the next index
//! from a device counter when it starts, so a tile only ever waits on tiles whose blocks are
//! already running, and the look-back cannot deadlock whatever order the hardware schedules blocks in.
//! Called by every thread of the block; `slot` is a __shared__ variable. Contains __syncthreads();
//! the caller must not overwrite `slot` until every thread has read the returned value.
__device__ inline unsigned long long block_next_tile(unsigned long long* counter, unsigned long long& slot)
{
  if (threadIdx.x == 0)
  {
    slot = take_tile_index(counter);
  }
  __syncthreads();
  return slot;
}

//! The waiting half of a warp-wide decoupled look-back for slot `slot` of tile `tile` (> 0), whose
//! `aggregate` the caller has already published (publish_aggregate): walks back over the predecessors
//! 32 at a time (one per lane), adds up their values until the nearest one that has an inclusive
//! prefix, publishes this tile's inclusive prefix and returns the exclusive prefix to every lane. Must
//! be called by all 32 lanes of one warp with equal arguments. Tile 0 must instead
//! publish_inclusive(0, slot, aggregate) (or a base value) itself.
//! `initial_delay_ns` > 0: sleep that long before the first poll, so that the first poll finds the
//! nearest predecessors published instead of spinning on them (the idea of CUB's
//! fixed_delay_constructor_t, which waits an "L2 write latency" before its first look; copy_if
//! measured it on the H200: docs/design/copy_if.md, variants). A window of one predecessor a lane
//! measured fastest there (two or four a lane: 8% and 27% slower, more polling traffic).
template <unsigned BackoffNs = 0, class Word, tile_ordering Ordering>
__device__ Word warp_lookback_published(const tile_state<Word, Ordering>& state,
                                        std::size_t tile,
                                        std::uint32_t slot,
                                        Word aggregate,
                                        unsigned initial_delay_ns = 0)
{
  using packing              = tile_word<Word>;
  constexpr unsigned full    = 0xffffffffu;
  const unsigned lane        = threadIdx.x % 32;
  if (initial_delay_ns != 0)
  {
    __nanosleep(initial_delay_ns);
  }

  Word exclusive         = 0;
  long long window_end   = static_cast<long long>(tile); // predecessors are window_end-1, window_end-2, ...
  lookback_backoff<BackoffNs> backoff;
  while (true)
  {
    // Lane l reads predecessor window_end - 1 - l; past tile 0 there is nothing to add: read as an
    // inclusive zero.
    const long long pred = window_end - 1 - static_cast<long long>(lane);
    const Word word      = pred >= 0 ? state.load(static_cast<std::size_t>(pred), slot) : packing::pack(tile_status::inclusive, 0);
    if (__any_sync(full, packing::status(word) == tile_status::invalid))
    {
      // Some predecessor in the window has published nothing yet: poll the same window again.
      backoff();
      continue;
    }
    // The nearest predecessor with an inclusive prefix ends the walk; those beyond it are ignored.
    const unsigned inclusive_lanes = __ballot_sync(full, packing::status(word) == tile_status::inclusive);
    const int stop                 = inclusive_lanes ? __ffs(inclusive_lanes) - 1 : 31;
    Word contribution              = static_cast<int>(lane) <= stop ? packing::value(word) : Word(0);
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
    {
      contribution += __shfl_xor_sync(full, contribution, offset);
    }
    exclusive += contribution;
    if (inclusive_lanes)
    {
      break;
    }
    window_end -= 32;
  }
  if (lane == 0)
  {
    state.publish_inclusive(tile, slot, exclusive + aggregate);
  }
  return exclusive;
}

//! Warp-wide decoupled look-back for slot `slot` of tile `tile` (> 0): publishes `aggregate`, then
//! waits as warp_lookback_published does (same contract: all 32 lanes of one warp, equal arguments;
//! tile 0 publishes its inclusive prefix itself).
template <unsigned BackoffNs = 0, class Word, tile_ordering Ordering>
__device__ Word warp_lookback(const tile_state<Word, Ordering>& state,
                              std::size_t tile,
                              std::uint32_t slot,
                              Word aggregate,
                              unsigned initial_delay_ns = 0)
{
  if (threadIdx.x % 32 == 0)
  {
    state.publish_aggregate(tile, slot, aggregate);
  }
  return warp_lookback_published<BackoffNs>(state, tile, slot, aggregate, initial_delay_ns);
}

//! The walk of one thread's decoupled look-back for one slot (onesweep: thread d owns digit d), for
//! callers that have already published this tile's aggregate and issued the load of the nearest
//! predecessor's word (`first`, the word of tile - 1), so that its latency overlaps other work.
//! Walks back adding aggregates until an inclusive prefix; publishes this tile's inclusive prefix and
//! returns the exclusive one. tile > 0; tile 0 publishes inclusive itself (it always does, so the walk
//! never passes tile 0). Each step past an aggregate loads the words of the next `Batch` predecessors
//! at once, so a walk of k tiles waits for about k / Batch round trips to L2 instead of k (a stale
//! word read early is still correct: an aggregate is only walked past, and an `invalid` one is polled
//! again). Batch 4 measured 5-8% faster than 1 for onesweep on the H200 (docs/design/sort.md).
template <unsigned BackoffNs = 0, int Batch = 1, class Word, tile_ordering Ordering>
__device__ Word thread_lookback_walk(
  const tile_state<Word, Ordering>& state, std::size_t tile, std::uint32_t slot, Word aggregate, Word first)
{
  static_assert(Batch >= 1, "thread_lookback_walk: Batch >= 1");
  using packing = tile_word<Word>;
  Word exclusive = 0;
  // words[j] is the word of tile `base - j` for j < loaded: first only `first`, then Batch at a time.
  Word words[Batch];
  words[0]         = first;
  int loaded       = 1;
  std::size_t base = tile - 1;
  lookback_backoff<BackoffNs> backoff;
  while (true)
  {
    bool found = false;
#pragma unroll
    for (int j = 0; j < Batch; ++j)
    {
      if (j < loaded)
      {
        // Spin until the predecessor has published something; it is already running
        // (block_next_tile).
        Word w = words[j];
        while (packing::status(w) == tile_status::invalid)
        {
          backoff();
          w = state.load(base - j, slot);
        }
        exclusive += packing::value(w);
        if (packing::status(w) == tile_status::inclusive)
        {
          found = true;
          break;
        }
      }
    }
    if (found)
    {
      break;
    }
    // Only aggregates so far, so tile `base - loaded + 1` > 0 (tile 0 only ever publishes
    // inclusive). Predecessors below tile 0 are never reached (the walk stops at tile 0 at the
    // latest), so they are not loaded.
    base -= loaded;
#pragma unroll
    for (int j = 0; j < Batch; ++j)
    {
      words[j] = base >= static_cast<std::size_t>(j) ? state.load(base - j, slot) : Word(0);
    }
    loaded = Batch;
  }
  state.publish_inclusive(tile, slot, exclusive + aggregate);
  return exclusive;
}

} // namespace detail
} // namespace sweep
