// Tuning of sweep's scan kernel: one named struct per architecture, and tuning_for, the one place
// that chooses among them by the architectures of util/arch.hpp. Plain C++ (no CUDA keywords) so that
// the host-only unit tests can check the tile arithmetic built on it. Laid out like
// copy_if/tuning.hpp.
#pragma once

#include <cstddef>
#include <type_traits>

#include <sweep/detail/lookback/pipeline.hpp>
#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! The largest accumulator type sweep's kernel takes, on every architecture (decided on the host at
//! compile time): a thread holds its items, their row's exclusive prefixes and the rows' totals in
//! registers. Larger types, and types aligned beyond 16 bytes, run Thrust's scan.
inline constexpr std::size_t max_item_bytes = 64;

//! Bytes of input a thread loads per row where items load as 16-byte vectors (size-aligned powers of
//! two up to 16 bytes): one vector.
inline constexpr int row_bytes = 16;

//! sm_90 (H200). A tile is block_threads threads x rows x one 16-byte vector of items a thread, the
//! rows of a warp contiguous (agent.cuh, the item order). Types that do not load as vectors take
//! rows of one item, as many as fill about item_bytes a thread.
struct tuning_sm90
{
  //! Threads a block: 512; in order, 1024 for 4-byte values that fold in order (floating point and
  //! user types: lookback.cuh, warp_lookback_fold), where half as many tiles make half as many
  //! sequential folds (f32 exclusive 2^28 0.576 against 0.604 ms at 512). The specialised schedule's
  //! tile threads are block_threads for every type.
  static constexpr int block_threads       = 512;
  static constexpr int block_threads_fold4 = 1024;
  //! Rows (16-byte vectors) a thread holds: 64 bytes a thread, in flight and in registers (one item a
  //! register after the load: 16 for 4-byte items, 32 for 1- and 2-byte ones).
  static constexpr int rows       = 4;
  static constexpr int rows_2byte = 4;
  static constexpr int rows_1byte = 4;
  //! Rows of a scan by key whose values load as vectors (plan.hpp, segment_vec: 4 items a row for
  //! values of up to 4 bytes, 2 for 8-byte ones), with segmented_stash: 6 for the inclusive scans,
  //! 4 for the exclusive ones (rows_segmented_shifted: shifted items, plan.hpp, tuned_shifted). The
  //! variant binary (docs/design/scan.md, variants), u32 keys, 2^28, medians of 15, the first of two
  //! passes, the second within 1.5%; inclusive u32 runs of 8 / exclusive u32 / inclusive f32 / u64
  //! values at 2^27: 4 rows 0.894 / 1.118 / 0.974 / 1.436 ms; 4 rows with segmented_stash 0.883 /
  //! 1.114 / 0.877 / 1.222; 5 rows stashed 0.841 / 1.177 / 0.838 / 1.100; 6 rows stashed 0.831 /
  //! 1.147 / 0.837 / 1.037 (CUB 1.060 / 1.062 / 1.063 / 0.727): 6 rows for every inclusive form,
  //! where the exclusive one loses 3-5% against 4 (the library's kernels, sweep-bench in one run:
  //! inclusive 0.900 -> 0.848 ms, exclusive 1.113 -> 1.159). ptxas at 6 rows stashed: 64 registers,
  //! 40 / 32 / 16 / 56 bytes of stack.
  static constexpr int rows_segmented         = 6;
  static constexpr int rows_segmented_shifted = 4;
  //! Rows of the exclusive scans by key of integral values (segmented_agent.cuh: init-folded items,
  //! results shifted; tuned_exclusive): 5. u32/u32 runs of 8 at 2^28 on an H100 (docs/design/scan.md,
  //! variants; heads in registers): 4 / 5 / 6 rows 1.130 / 1.105 / 1.095-1.109 ms (ptxas 0 / 32 / 104
  //! bytes of stack), and 1.097 at 5 rows with the heads in shared memory as merged (no stack).
  static constexpr int rows_segmented_exclusive = 5;
  //! Rows of reduce_by_key (run items, the generic agent; values as in rows_segmented): 4. u32/u32 at
  //! 2^28 on an H100, runs of 1 / 8 / 10^5 (docs/design/compaction.md, variants): 3 rows 1.67 / 1.17 /
  //! 0.93 ms, 4 rows 1.53 / 1.09 / 0.84, 5 rows 1.71 / 1.11 / 0.83, 6 rows 2.06 / 1.35 / 1.00 (5 and 6
  //! spill at 64 registers).
  static constexpr int rows_runs = 4;
  //! Segments a full tile of reduce_by_key stages in shared memory at most (run_output::store_tile:
  //! where a tile ends more segments than the block has threads and at most this many, they are
  //! written out together instead of item by item): 2048, 15 KiB of u32 values and places with a
  //! spare place a thread; 0 turns it off. u32/u32 at 2^28 on an H100, sweep-bench, this kernel
  //! against the one without the stage in one call (docs/design/compaction.md, variants), runs of 1 /
  //! 8 / 10^5: 1.609-1.627 -> 1.634-1.635 ms, 1.055-1.056 -> 0.953-0.955, 0.831-0.833 -> 0.844-0.848.
  //! Caps in one earlier call (rbk-tile-stage.cu, runs of 1 / 3 / 8 / 16 / 10^5): none 1.604 / 1.457 /
  //! 1.066 / 1.016 / 0.821 ms, 2048 1.626 / 1.465 / 0.946 / 0.979 / 0.833, 4096 1.649 / 1.090 / 0.954
  //! / 1.004 / 0.835 (4096 stages runs of 3 too, but its 27 KiB cost L1 where tiles store item by item).
  static constexpr int runs_stage_items = 2048;
  //! Rows (16-byte vectors of values) a thread holds in the two latency tiles: the in-order tiles of
  //! the scans whose results do not depend on the tile (integral accumulators, plain and by key;
  //! plan.hpp, tuned_latency), taken where the call is one tile's latency (plan.hpp,
  //! pick_latency_tile: a lone latency tile where one holds n, else up to one tile an SM): 2 and 4,
  //! 16 and 32 KiB of values a tile (4096 and 8192 u32 items). Whole calls on the H200
  //! (docs/design/scan.md, variants, "The latency tiles"), u32 inclusive / u32-by-u32 inclusive by key,
  //! runs of 8, in us: at 2^16 tuned 13.57 / 17.20, 1 row 12.20 / 13.12, 2 rows 12.34 / 13.49, 4 rows
  //! 12.77 / 14.09; at 2^19 tuned 13.92 / 18.02, 2 rows 13.32 / 14.74, 4 rows 13.25 / 14.74; at 2^20
  //! tuned 14.59 / 17.78, 2 rows 14.70 / 19.21, 4 rows 14.12 / 15.94; at 1.5 * 2^20 tuned 15.25 /
  //! 17.64, 4 rows 15.34 / 18.11.
  static constexpr int latency_rows      = 2;
  static constexpr int latency_rows_wide = 4;
  //! Bytes a thread holds of types that do not load as vectors (at least one item).
  static constexpr int item_bytes = 64;
  //! Blocks an SM the kernel is compiled for (__launch_bounds__), by item size: 3 (40 registers) for
  //! 4- and 8-byte items; 2 for the 1024-thread blocks of 4-byte in-order folds, for 1- and 2-byte
  //! items (their 32 item registers spill at 40: u16 2^28 0.617 ms at 3 blocks, 0.336 at 2) and for
  //! items over 8 bytes (16-byte affine maps 1.31 ms at 3, 1.16 at 2). Measured on the H200:
  //! docs/design/scan.md, variants.
  static constexpr int blocks_per_sm       = 3;
  static constexpr int blocks_per_sm_small = 2;
  static constexpr int blocks_per_sm_fold4 = 2;
  static constexpr int blocks_per_sm_wide  = 2;
  //! Scans by key ((value, head) items, by_key.cuh): 2 (64 registers). At 3 (40 registers) the
  //! u32/u32 kernels spilled 300-590 bytes a thread (ptxas, 8 rows of 8-byte items).
  static constexpr int blocks_per_sm_segmented = 2;
  //! Scans by key (segmented_agent.cuh): warp 0 keeps its values in shared memory while it looks
  //! back, so that the look-back's registers and the items' are not live together: on (at 4 rows
  //! u32 inclusive 0.894 -> 0.883 ms, exclusive 1.118 -> 1.114, f32 0.974 -> 0.877, u64 1.436 ->
  //! 1.222, the run of rows_segmented).
  static constexpr bool segmented_stash = true;
  //! Nanoseconds a tile's look-back warp sleeps after publishing its aggregate before the first poll,
  //! where there are more tiles than blocks: 1000 (u32 2^28: 0 / 250 / 500 / 1000 / 1500 / 3000 ns
  //! were 0.673 / 0.619 / 0.605 / 0.598 / 0.680 / 0.868 ms over two builds); 500 for the 1024-thread
  //! blocks (measured there only).
  static constexpr unsigned lookback_delay_ns       = 1000;
  static constexpr unsigned lookback_delay_ns_fold4 = 500;
  //! Bytes between two tiles' status words where blocks loop over tiles: 64, a line (L2 sector pair)
  //! of their own (packed words 8 bytes apart measured 2-3% slower).
  static constexpr int state_spread_bytes = 64;
  //! Shared memory a block keeps for the look-back windows it folds in order (floating point and user
  //! types; lookback.cuh, warp_lookback_fold): 8 KiB, at most 32 windows of 32 values.
  static constexpr int fold_window_bytes = 8192;
  //! The architecture has bulk asynchronous copies (cp.async.bulk), so the specialised schedule of the
  //! single-pass pipeline (lookback/pipeline.cuh): a producer warp has the copy engine bring each tile
  //! of a 16-byte-aligned contiguous input into a slot of shared memory, the tile threads scan it there
  //! and keep the scanned items in the slot, a look-back warp folds the tile's prefix meanwhile, and a
  //! step later the tile threads add it and store. It runs where there are more tiles than blocks, for
  //! items of pipeline_min_bytes and more that load as 16-byte vectors; otherwise the kernel runs in
  //! order.
  static constexpr bool bulk_copies = true;
  static constexpr int pipeline_min_bytes = 4;
  //! Its tile: block_threads threads of pipeline_rows 16-byte rows (64 KiB), slots a block (one tile
  //! each: the tile being scanned, the one waiting for its prefix, one in flight) and blocks an SM
  //! (three 64 KiB slots: one block of 576 threads). Its time tracks the tile count, not the bytes
  //! (about 18-20 ns a tile at 32 KiB tiles for every item size: the chain of the tiles' prefixes),
  //! so the largest tile three slots allow: 8 rows against 4 (two blocks an SM), u32 2^28 0.603 ->
  //! 0.579 ms, f32 0.593 -> 0.562, u64 2^27 0.654 -> 0.608; 6 rows 0.602 / 0.589 / 0.624; two
  //! slots of 32 KiB at three blocks an SM 0.738 / 0.724 / 0.931 (no tile in flight). Measured on
  //! the H200 (docs/design/scan.md, variants).
  static constexpr int pipeline_rows          = 8;
  static constexpr int pipeline_slots         = 3;
  static constexpr int pipeline_blocks_per_sm = 1;
  //! The look-back warp's sleep before the first poll of a tile's look-back, where blocks loop over
  //! tiles, and between failed polls (0: hot spin): 2000 ns (64 KiB tiles: 1000 ns 0.579 / 0.562 /
  //! 0.608 ms, 2000 ns 0.577 / 0.561 / 0.604; 32 KiB tiles: 500 / 1000 / 1500 / 2500 ns u32 0.606 /
  //! 0.603 / 0.592 / 0.607; a 200 ns backoff between polls 0.606).
  static constexpr unsigned pipeline_lookback_delay_ns = 2000;
  static constexpr unsigned pipeline_backoff_ns        = 0;
};

//! sm_80 (2048 threads, 164 KB an SM): sm_90's tuning (the scan has no schedule that needs bulk
//! copies). Not measured (only an H200 was at hand).
struct tuning_sm80 : tuning_sm90
{
  static constexpr bool bulk_copies = false;
};

//! sm_86, sm_89 and sm_120 (1536 threads, 100 KB an SM): sized from those documented limits, not
//! measured: 3 blocks of 512 threads would be all the SM's threads at 40 registers, which spilled
//! for some types on sm_90 already; 2 blocks (64 registers), and one of the 1024-thread blocks.
struct tuning_sm86 : tuning_sm80
{
  static constexpr int blocks_per_sm       = 2;
  static constexpr int blocks_per_sm_fold4 = 1;
};

//! sm_75 (1024 threads and 64 KB of shared memory an SM): 2 blocks of 512 threads, or one of 1024, are
//! all the SM's threads (64 registers). Sized from documented limits, not measured.
struct tuning_sm75 : tuning_sm80
{
  static constexpr int blocks_per_sm       = 2;
  static constexpr int blocks_per_sm_fold4 = 1;
  //! reduce_by_key's stage: 1024 segments, so that two blocks with 8-byte values fit 64 KB.
  static constexpr int runs_stage_items = 1024;
};

//! The tuning of each of sweep's architectures (util/arch.hpp). Arch 0 (the host compiler's pass)
//! parses with sm_90's.
template <int Arch>
using tuning_for = std::conditional_t<
  Arch == 750,
  tuning_sm75,
  std::conditional_t<Arch == 800, tuning_sm80, std::conditional_t<Arch == 860 || Arch == 890 || Arch == 1200, tuning_sm86, tuning_sm90>>>;

//! Bytes of warp 0's values that a scan by key keeps in shared memory at most (segmented_stash): 32
//! lanes of the most of rows_segmented, rows_segmented_shifted and rows_segmented_exclusive rows of 16 bytes of values
//! (plan.hpp, segment_vec: 4 values of up to 4 bytes, 2 of 8), or item_bytes where a lane holds rows
//! of one item.
template <class Tuning>
constexpr std::size_t stash_bytes_at_most()
{
  constexpr int most_rows = Tuning::rows_segmented > Tuning::rows_segmented_shifted ? Tuning::rows_segmented
                                                                                   : Tuning::rows_segmented_shifted;
  constexpr int rows = most_rows > Tuning::rows_segmented_exclusive ? most_rows : Tuning::rows_segmented_exclusive;
  return 32 * static_cast<std::size_t>(rows * row_bytes > Tuning::item_bytes ? rows * row_bytes : Tuning::item_bytes);
}

//! Static shared memory a block takes at most: the fold windows, warp 0's stashed values and an
//! exclusive scan by key's head flags (segmented_agent.cuh), one value a warp (the warps' totals, at
//! most max_item_bytes each), the tile's prefix and the tile index, with padding.
template <class Tuning>
constexpr std::size_t block_shared_bytes()
{
  return static_cast<std::size_t>(Tuning::fold_window_bytes)
       + (Tuning::segmented_stash ? stash_bytes_at_most<Tuning>() : 0)
       + static_cast<std::size_t>(Tuning::block_threads) * 4 // an exclusive scan by key's head flags
       + ((Tuning::block_threads > Tuning::block_threads_fold4 ? Tuning::block_threads : Tuning::block_threads_fold4) / 32 + 1)
           * max_item_bytes
       + 64;
}

//! Static shared memory a block of reduce_by_key's kernel takes at most (run items, agent.cuh): the fold
//! windows, one value a warp, the tile's prefix and the tile index, and the tile's stage (values of up
//! to 8 bytes and their places, a spare place a thread; run_output::tile_stage), with padding.
template <class Tuning>
constexpr std::size_t runs_block_shared_bytes()
{
  return static_cast<std::size_t>(Tuning::fold_window_bytes)
       + (static_cast<std::size_t>(Tuning::block_threads) / 32 + 1) * max_item_bytes
       + (static_cast<std::size_t>(Tuning::runs_stage_items) + Tuning::block_threads) * (8 + 2) + 64;
}

//! The widest value the specialised schedule hands between its roles (16 bytes).
struct alignas(16) pipeline_widest
{
  unsigned char bytes[16];
};

//! Tuning fits `limits`: blocks_per_sm blocks of block_threads threads with their shared memory are
//! resident at once, and the shared memory stays within a block's static limit.
template <class Tuning>
constexpr bool fits(const arch_limits& limits)
{
  return blocks_fit(limits, Tuning::block_threads, Tuning::blocks_per_sm, block_shared_bytes<Tuning>())
      && blocks_fit(limits, Tuning::block_threads, Tuning::blocks_per_sm_small, block_shared_bytes<Tuning>())
      && blocks_fit(limits, Tuning::block_threads, Tuning::blocks_per_sm_wide, block_shared_bytes<Tuning>())
      && blocks_fit(limits, Tuning::block_threads, Tuning::blocks_per_sm_segmented, block_shared_bytes<Tuning>())
      && blocks_fit(limits, Tuning::block_threads, Tuning::blocks_per_sm_segmented, runs_block_shared_bytes<Tuning>())
      && runs_block_shared_bytes<Tuning>() <= static_shared_per_block && Tuning::runs_stage_items >= 0
      && blocks_fit(limits, Tuning::block_threads_fold4, Tuning::blocks_per_sm_fold4, block_shared_bytes<Tuning>())
      && (!Tuning::bulk_copies
          || blocks_fit(limits, Tuning::block_threads + pipeline_extra_threads, Tuning::pipeline_blocks_per_sm,
                        block_shared_bytes<Tuning>()
                          + Tuning::pipeline_slots
                              * (static_cast<std::size_t>(Tuning::block_threads) * Tuning::pipeline_rows * row_bytes
                                 + row_bytes + Tuning::block_threads / 32 * 16)
                          + sizeof(pipeline_sync<Tuning::pipeline_slots, pipeline_widest, pipeline_widest, pipeline_no_extra>)))
      && block_shared_bytes<Tuning>() <= static_shared_per_block && Tuning::block_threads % 32 == 0
      && Tuning::block_threads_fold4 % 32 == 0
      && Tuning::rows >= 1 && Tuning::rows_2byte >= 1 && Tuning::rows_1byte >= 1 && Tuning::rows_segmented >= 1
      && Tuning::rows_segmented_shifted >= 1 && Tuning::rows_segmented_exclusive >= 1 && Tuning::rows_runs >= 1
      && Tuning::latency_rows >= 1 && Tuning::latency_rows < Tuning::latency_rows_wide
      && Tuning::latency_rows_wide <= Tuning::rows && Tuning::latency_rows_wide <= Tuning::rows_1byte
      && Tuning::latency_rows_wide <= Tuning::rows_2byte && Tuning::latency_rows_wide <= Tuning::rows_segmented
      && Tuning::latency_rows_wide <= Tuning::rows_segmented_shifted
      && Tuning::latency_rows_wide <= Tuning::rows_segmented_exclusive;
}

static_assert(fits<tuning_for<750>>(limits_of(750)) && fits<tuning_for<800>>(limits_of(800))
                && fits<tuning_for<860>>(limits_of(860)) && fits<tuning_for<890>>(limits_of(890))
                && fits<tuning_for<900>>(limits_of(900)) && fits<tuning_for<1000>>(limits_of(1000))
                && fits<tuning_for<1200>>(limits_of(1200)),
              "scan tuning: a struct does not fit the architecture it is chosen for");

} // namespace scan_impl
} // namespace detail
} // namespace sweep
