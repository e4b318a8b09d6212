// The decoupled look-back protocol (Merrill & Garland 2016) over tile_state: a warp-wide window
// for one-slot states (compaction) and a per-thread walk for many-slot states (onesweep's per-digit
// offsets), the warp-wide look-back over value_tile_state for scans under any operator (in tile order,
// reproducible for floating point), plus the dynamic tile counter that guarantees forward progress.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/lookback/value_tile_state.cuh>
#include <sweep/detail/util/warp_shuffle.cuh>

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

//! Warp-wide look-back of tile `tile` (> 0) for a scan of values of T under the associative operator
//! `op`, whose aggregate the caller (lane 0) has already published: finds the nearest predecessor
//! with an inclusive prefix, combines it with the aggregates of the tiles after it, publishes this
//! tile's inclusive prefix op(exclusive, aggregate) and returns the exclusive prefix (in lane 0; the
//! other lanes' results are unspecified). All 32 lanes of one warp, equal arguments. Tile 0 publishes
//! its inclusive prefix itself.
//! The association is fixed, whatever the look-back finds when: the exclusive prefix of tile t is
//! the strict left fold of the tile aggregates a_0 .. a_{t-1} (with the call's initial value, which
//! tile 0 folds into its inclusive prefix, on the far left):
//!   P_t = (...((a_0 (+) a_1) (+) a_2) ...) (+) a_{t-1}.
//! By induction every inclusive prefix I_s is P_s (+) a_s, so starting from whichever I_s the look-back
//! finds and folding a_{s+1} .. a_{t-1} into it from the left gives the same P_t bit for bit.
//!  - Exact (integers, where every association gives the same result): the lanes' values are reduced
//!    in tile order by a shuffle tree, window by window, and windows combine as they are found.
//!  - Otherwise (floating point, user types): each window's values go to `window` (shared memory,
//!    Capacity windows of 32 values) and lane 0 folds them strictly left to right once the inclusive
//!    prefix is found. Where Capacity windows hold no inclusive prefix the warp polls the last window
//!    again instead of reading further (it cannot fold what it does not keep); that terminates: the
//!    lowest tile without an inclusive prefix has only inclusive predecessors, so it finishes, and so,
//!    tile by tile, does every other.
//! Lane l reads predecessor window_end - 1 - l; a window is used once every lane up to the nearest
//! inclusive one has published something (its block is running: block_next_tile).
//! The same bits also need op(x, y) to give the same bits at every step of the fold and at the
//! publish of I_t = P_t (+) a_t, which an inlined operator does not promise: the compiler may give a
//! commutative floating-point add its operands in either order at each place it is inlined, and where
//! both are NaN an f64 add returns one of them by position, so a look-back that found I_s could
//! return another NaN than one that folded a_s itself. So lane 0 runs the whole fold, the publish's
//! step included, in one loop unrolled U times and not more, whose steps are aligned on the tiles'
//! indices: a_s is always folded at place s % U, so op(P_s, a_s) runs at the same instructions on
//! every path. (A non-inlined function for op did the
//! same at a call a step: f32 exclusive scans at 2^28 went 0.57 -> 0.75 ms and the 16-byte affine
//! scan 4.79 -> 8.76 ms on the H200, docs/design/scan.md.)
template <bool Exact, int Capacity, unsigned BackoffNs = 0, class T, class Op>
__device__ T warp_lookback_fold(const value_tile_state<T>& state,
                                std::size_t tile,
                                Op& op,
                                const T& aggregate,
                                T* window,
                                unsigned initial_delay_ns = 0)
{
  static_assert(Exact || Capacity >= 1, "warp_lookback_fold: the fold keeps at least one window");
  using state_t           = value_tile_state<T>;
  using observation       = typename state_t::observation;
  constexpr unsigned full = 0xffffffffu;
  const int lane          = static_cast<int>(threadIdx.x % 32);
  if (initial_delay_ns != 0)
  {
    __nanosleep(initial_delay_ns);
  }
  long long window_end = static_cast<long long>(tile);
  int windows          = 0; // windows kept in `window` (fold) or combined into acc (exact)
  T acc                = aggregate;
  int stop             = 0;
  lookback_backoff<BackoffNs> backoff;
  while (true)
  {
    const long long pred = window_end - 1 - lane;
    // Past tile 0 there is nothing: such lanes lie beyond tile 0's, which is inclusive once published.
    observation o;
    o.status = tile_status::aggregate;
    if (pred >= 0)
    {
      o = state.poll(static_cast<std::size_t>(pred));
    }
    const unsigned inclusive_lanes = __ballot_sync(full, o.status == tile_status::inclusive);
    const unsigned invalid_lanes   = __ballot_sync(full, o.status == tile_status::invalid);
    const int hi                   = inclusive_lanes ? __ffs(static_cast<int>(inclusive_lanes)) - 1 : 31;
    const unsigned needed          = hi == 31 ? full : ((2u << hi) - 1u);
    if ((invalid_lanes & needed) != 0 || (!Exact && inclusive_lanes == 0 && windows + 1 == Capacity))
    {
      backoff();
      continue;
    }
    state_t::acquire_values();
    T v = aggregate;
    if (lane <= hi)
    {
      v = state.value(static_cast<std::size_t>(pred), o);
    }
    if constexpr (Exact)
    {
      // Lanes hi..0 in tile order (lane hi is the oldest) into lane 0.
#pragma unroll
      for (int offset = 1; offset < 32; offset *= 2)
      {
        const T older = shuffle_down(v, offset);
        if (lane % (2 * offset) == 0 && lane + offset <= hi)
        {
          v = op(older, v);
        }
      }
      acc = windows == 0 ? v : op(v, acc);
      ++windows;
      if (inclusive_lanes)
      {
        break;
      }
    }
    else
    {
      if (lane <= hi)
      {
        window[windows * 32 + lane] = v;
      }
      if (inclusive_lanes)
      {
        stop = hi;
        break;
      }
      ++windows;
    }
    window_end -= 32;
  }
  if constexpr (!Exact)
  {
    __syncwarp();
    if (lane == 0)
    {
      // Tile s's aggregate is folded at place s % U of the unrolled loop, whichever tile folds it, so
      // op(P_s, a_s) runs at the same instructions for every tile and for tile s's own publish. The
      // loop's steps count u = s - base from a multiple of U; a group's steps in (lo, hi] are on.
      constexpr int U          = sizeof(T) <= 8 ? 8 : 4;
      constexpr unsigned all   = (1u << U) - 1u;
      const long long first    = static_cast<long long>(tile) - 1 - (windows * 32 + stop); // has I_first
      const long long base     = (first + 1) & ~static_cast<long long>(U - 1);
      const int lo             = static_cast<int>(first - base);
      const int hi             = static_cast<int>(static_cast<long long>(tile) - base);
      acc                      = window[hi - 1 - lo];
      T before                 = acc;
#pragma unroll 1
      for (int u0 = 0; u0 <= hi; u0 += U)
      {
        const int after_lo = lo - u0 + 1; // first step on
        const int last     = hi - u0;     // last step on (this tile's aggregate where < U)
        unsigned on        = after_lo > 0 ? all & (all << after_lo) : all;
        on &= last < U - 1 ? (2u << last) - 1u : all;
        const unsigned loads = last < U ? on & ~(1u << last) : on;
        T x[U];
#pragma unroll
        for (int j = 0; j < U; ++j)
        {
          x[j] = (loads >> j) & 1u ? window[last - 1 - j] : aggregate;
        }
#pragma unroll
        for (int j = 0; j < U; ++j)
        {
          if ((on >> j) & 1u)
          {
            before = acc;
            acc    = op(acc, x[j]);
          }
        }
      }
      state.publish(tile, tile_status::inclusive, acc);
      acc = before;
    }
    __syncwarp(); // `window` is read before the caller reuses it
  }
  else
  {
    if (lane == 0)
    {
      state.publish(tile, tile_status::inclusive, op(acc, aggregate));
    }
  }
  return acc;
}

} // namespace detail
} // namespace sweep
