// Host-side arithmetic of sweep's scan: which accumulator types the kernel takes and how they load,
// the tile of each architecture's tuning, and the tile count, grid and tile-state spread of a call.
// Plain C++ (host-only unit tests include it); the dispatcher and the kernel take every number from
// here.
#pragma once

#include <sweep/detail/lookback/pipeline.hpp>
#include <sweep/detail/scan/tuning.hpp>
#include <sweep/detail/util/arch.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! Accumulator types sweep's kernel takes (else the scan runs Thrust's): trivially copyable (values
//! cross the tile state and shuffles as bytes), aligned to at most 16 bytes, at most max_item_bytes.
template <class T>
inline constexpr bool supported_type =
  std::is_trivially_copyable<T>::value && alignof(T) <= 16 && sizeof(T) <= max_item_bytes;

//! Loadable as raw 16-byte vectors: a power-of-two size up to 16 bytes, aligned to its size.
template <class T>
inline constexpr bool vectorizable_type = std::is_trivially_copyable<T>::value && sizeof(T) <= row_bytes
                                       && (sizeof(T) & (sizeof(T) - 1)) == 0 && alignof(T) == sizeof(T);

//! An item of a scan by key (by_key.cuh): a value of T and a segment-head flag.
template <class T>
struct segment_item;

//! An item of reduce_by_key (reduce_by_key.cuh): a value of T and a count of segment heads (with a
//! tail flag in its top bit).
template <class T, class Count>
struct run_item;

//! Items of the segmented scans (scans by key, reduce_by_key): their tuning's per-type choices.
template <class T>
inline constexpr bool is_segment_item = false;
template <class T>
inline constexpr bool is_segment_item<segment_item<T>> = true;
template <class T, class Count>
inline constexpr bool is_segment_item<run_item<T, Count>> = true;
//! Items of reduce_by_key (tuned apart from the scans by key: Tuning::rows_runs).
template <class T>
inline constexpr bool is_run_item = false;
template <class T, class Count>
inline constexpr bool is_run_item<run_item<T, Count>> = true;

//! Items a lane holds side by side in a row of a scan by key (by_key.cuh loads them as vectors from
//! the keys and the values): 4 for values of 1, 2 and 4 bytes, 2 for 8-byte ones, 1 otherwise (and for
//! every other type: rows of one item, or tile_shape's 16-byte vectors).
template <class T>
inline constexpr int segment_vec = 1;
template <class V>
inline constexpr int segment_vec<segment_item<V>> =
  std::is_trivially_copyable<V>::value && (sizeof(V) & (sizeof(V) - 1)) == 0 && sizeof(V) <= 8 ? (sizeof(V) == 8 ? 2 : 4)
                                                                                                   : 1;
template <class V, class Count>
inline constexpr int segment_vec<run_item<V, Count>> = segment_vec<segment_item<V>>;

//! Values whose look-back folds the predecessors strictly in tile order (lookback.cuh,
//! warp_lookback_fold): all but integers, for which every association gives the same result.
template <class T>
inline constexpr bool folds_in_order = !std::is_integral<T>::value;
//! Scans by key: as their values (the segmented operator over integers is exact too).
template <class T>
inline constexpr bool folds_in_order<segment_item<T>> = folds_in_order<T>;
template <class T, class Count>
inline constexpr bool folds_in_order<run_item<T, Count>> = folds_in_order<T>;

//! Accumulators whose scan results are the same in every association, so in every tile (integers;
//! the scans by key of integers): the tuned choices of their scans switch to a latency tile at small
//! n (dispatch.cuh; pick_latency_tile). Not reduce_by_key's items (their own tuning, rows_runs).
template <class T>
inline constexpr bool exact_accumulator = !folds_in_order<T> && !is_run_item<T>;

//! The size class of a tuning's per-type choices: 4-byte values that fold in order.
template <class T>
inline constexpr bool fold4_class = folds_in_order<T> && sizeof(T) == 4;

//! The scan's own tuning (tuning_for of the kernel's architecture), or a struct a benchmark or test
//! forces.
struct tuned
{};
//! The exclusive scans by key (shifted items, by_key.cuh): the scan's own tuning with their rows
//! (Tuning::rows_segmented_shifted: fewer than the inclusive forms').
struct tuned_shifted
{};
template <class Tuning>
struct shifted_rows : Tuning
{
  static constexpr int rows_segmented = Tuning::rows_segmented_shifted;
};
//! The exclusive scans by key of integral values (segmented_agent.cuh: the inclusive scan of items
//! with init folded into the heads, the results shifted): the scan's own tuning with their rows
//! (Tuning::rows_segmented_exclusive).
struct tuned_exclusive
{};
template <class Tuning>
struct exclusive_rows : Tuning
{
  static constexpr int rows_segmented = Tuning::rows_segmented_exclusive;
};
//! The latency tiles (dispatch.cuh; plan.hpp, pick_latency_tile): the scan's own tuning in order (no
//! bulk copies) with Tuning::latency_rows (tuned_latency) or Tuning::latency_rows_wide
//! (tuned_latency_wide) rows of every kind, for the accumulators whose results do not depend on the
//! tile (exact_accumulator).
struct tuned_latency
{};
struct tuned_latency_wide
{};
template <class Tuning, int Rows>
struct latency_tuning : Tuning
{
  static constexpr bool bulk_copies             = false;
  static constexpr int rows                     = Rows;
  static constexpr int rows_1byte               = Rows;
  static constexpr int rows_2byte               = Rows;
  static constexpr int rows_segmented           = Rows;
  static constexpr int rows_segmented_shifted   = Rows;
  static constexpr int rows_segmented_exclusive = Rows;
};
//! The tuning a kernel compiled for `Arch` runs under `Choice`: a named choice's variant of the scan's
//! own tuning (above), or Choice itself (a tuning struct: tests and variant probes).
template <class Choice, int Arch>
struct tuning_of_choice
{
  using type = Choice;
};
template <int Arch>
struct tuning_of_choice<tuned, Arch>
{
  using type = tuning_for<Arch>;
};
template <int Arch>
struct tuning_of_choice<tuned_shifted, Arch>
{
  using type = shifted_rows<tuning_for<Arch>>;
};
template <int Arch>
struct tuning_of_choice<tuned_exclusive, Arch>
{
  using type = exclusive_rows<tuning_for<Arch>>;
};
template <int Arch>
struct tuning_of_choice<tuned_latency, Arch>
{
  using type = latency_tuning<tuning_for<Arch>, tuning_for<Arch>::latency_rows>;
};
template <int Arch>
struct tuning_of_choice<tuned_latency_wide, Arch>
{
  using type = latency_tuning<tuning_for<Arch>, tuning_for<Arch>::latency_rows_wide>;
};
template <class Choice, int Arch>
using tuning_of = typename tuning_of_choice<Choice, Arch>::type;
//! The choice of an exclusive scan by key of accumulator type T (scan_by_key.cuh, and the tests that
//! size inputs around its tile): init-folded items for integral values, shifted items for the others
//! (the split segmented_agent.cuh's shift_results makes).
template <class T>
using exclusive_by_key_choice = std::conditional_t<folds_in_order<T>, tuned_shifted, tuned_exclusive>;

//! The shape of a scan tile of accumulator type T under Tuning. Item order (agent.cuh): warp w, row j,
//! lane l, item v of the row's vector:
//!   tile * tile_items + w * warp_items + j * (32 * vec) + l * vec + v,
//! so a warp covers one contiguous span and each of its rows one coalesced 32-vector stretch.
//! Pipelined: the kernel has the specialised schedule (has_pipeline): Tuning::block_threads threads of
//! Tuning::pipeline_rows rows, whichever schedule a call runs, so that a call form's floating-point
//! results (whose association is the tile's, agent.cuh) do not depend on the input's size or
//! alignment.
template <class T, class Tuning, bool Pipelined = false>
struct tile_shape
{
  static constexpr bool vectorizable = vectorizable_type<T>;
  static constexpr int vec           = vectorizable ? static_cast<int>(row_bytes / sizeof(T)) : segment_vec<T>;
  static constexpr int block_threads = fold4_class<T> && !Pipelined ? Tuning::block_threads_fold4 : Tuning::block_threads;
  static constexpr int warps         = block_threads / 32;
  static constexpr int rows          = Pipelined              ? Tuning::pipeline_rows
                                     : segment_vec<T> > 1 ? (is_run_item<T> ? Tuning::rows_runs : Tuning::rows_segmented)
                                     : !vectorizable      ? (sizeof(T) >= static_cast<std::size_t>(Tuning::item_bytes) ? 1 : static_cast<int>(Tuning::item_bytes / sizeof(T)))
                                     : sizeof(T) == 1 ? Tuning::rows_1byte
                                     : sizeof(T) == 2 ? Tuning::rows_2byte
                                                      : Tuning::rows;
  static constexpr int items_per_thread   = rows * vec;
  static constexpr std::uint64_t warp_items = static_cast<std::uint64_t>(32) * items_per_thread;
  static constexpr std::uint64_t tile_items = static_cast<std::uint64_t>(block_threads) * items_per_thread;
  //! Look-back windows of 32 values kept for the in-order fold (at least 1, at most 32).
  static constexpr int fold_windows = Tuning::fold_window_bytes / (32 * static_cast<int>(sizeof(T))) < 1 ? 1
                                    : Tuning::fold_window_bytes / (32 * static_cast<int>(sizeof(T))) > 32
                                      ? 32
                                      : Tuning::fold_window_bytes / (32 * static_cast<int>(sizeof(T)));
};

//! Blocks an SM a kernel over items of T under Tuning is compiled for (__launch_bounds__). Variables,
//! not functions: device code reads them without --expt-relaxed-constexpr.
template <class T, class Tuning>
inline constexpr int blocks_per_sm_for = fold4_class<T>     ? Tuning::blocks_per_sm_fold4
                                       : is_segment_item<T> ? Tuning::blocks_per_sm_segmented
                                       : sizeof(T) <= 2     ? Tuning::blocks_per_sm_small
                                       : sizeof(T) <= 8     ? Tuning::blocks_per_sm
                                                            : Tuning::blocks_per_sm_wide;

//! The look-back's first sleep of a kernel over items of T under Tuning (where blocks loop).
template <class T, class Tuning>
inline constexpr unsigned lookback_delay_for = fold4_class<T> ? Tuning::lookback_delay_ns_fold4 : Tuning::lookback_delay_ns;

//! How a kernel goes through its tiles (lookback/pipeline.cuh): the tuning's choice, or one a test
//! forces.
enum class schedule_choice
{
  tuned,
  in_order,
  specialized
};

//! The kernel over items of T under Tuning has the specialised schedule (the host then launches it
//! with the slots and two warps more where it has more tiles than blocks, or where a test forces it;
//! otherwise it runs in order): the architecture has bulk copies and the input is a pointer to T that
//! loads as 16-byte vectors (VectorInput), with items of at least Tuning::pipeline_min_bytes (or the
//! schedule forced). The choice is made at compile time from the types; whether the pointer is
//! 16-byte aligned, at run time (dispatch.cuh).
template <class T, class Tuning, bool VectorInput, schedule_choice Choice>
inline constexpr bool has_pipeline = Tuning::bulk_copies && VectorInput && vectorizable_type<T>
                                  && Choice != schedule_choice::in_order
                                  && (Choice == schedule_choice::specialized
                                      || sizeof(T) >= static_cast<std::size_t>(Tuning::pipeline_min_bytes));

//! Bytes of one slot of the specialised schedule: the tile's items and one 16-byte chunk more (a
//! misaligned input's tile comes with the chunks around it: agent.cuh, copy_tile), then its warps'
//! totals (one value a warp, 16-byte aligned).
template <class T, class Tuning>
inline constexpr std::size_t pipeline_slot_bytes = tile_shape<T, Tuning, true>::tile_items * sizeof(T) + row_bytes
                                                 + (tile_shape<T, Tuning, true>::warps * sizeof(T) + 15) / 16 * 16;

//! Dynamic shared memory of the specialised schedule's block: its slots, then the pipeline's words
//! (lookback/pipeline.hpp; aggregates and prefixes are values of T). 0 without the schedule.
template <class T, class Tuning, bool VectorInput, schedule_choice Choice>
inline constexpr std::size_t pipeline_dynamic_bytes_for =
  has_pipeline<T, Tuning, VectorInput, Choice>
    ? pipeline_dynamic_bytes<Tuning::pipeline_slots, T, T, pipeline_no_extra>(Tuning::pipeline_slots,
                                                                                pipeline_slot_bytes<T, Tuning>)
    : 0;

//! Threads a block of such a kernel has at most (__launch_bounds__): its tile's, and the specialised
//! schedule's producer and look-back warps.
template <class T, class Tuning, bool VectorInput, schedule_choice Choice>
inline constexpr int launch_threads_for =
  tile_shape<T, Tuning, has_pipeline<T, Tuning, VectorInput, Choice>>::block_threads
  + (has_pipeline<T, Tuning, VectorInput, Choice> ? pipeline_extra_threads : 0);

//! Blocks an SM such a kernel is compiled for (__launch_bounds__).
template <class T, class Tuning, bool VectorInput, schedule_choice Choice>
inline constexpr int kernel_blocks_per_sm_for =
  has_pipeline<T, Tuning, VectorInput, Choice> ? Tuning::pipeline_blocks_per_sm : blocks_per_sm_for<T, Tuning>;

//! What the host needs of a tile_shape, for the tuning chosen at run time (dispatch.cuh).
struct tile_dims
{
  int block_threads        = 0;
  std::uint64_t tile_items = 0;
  std::uint32_t spread_bytes = 0; //!< Tuning::state_spread_bytes
  //! The specialised schedule's dynamic shared memory and threads beside block_threads; 0: the kernel
  //! has none.
  std::size_t pipeline_shared = 0;
  int extra_threads           = 0;
};

//! The tile of accumulator type T under the tuning of architecture `arch` (util/arch.hpp): the tile
//! that a kernel whose code was compiled for `arch` uses (over a pointer to T where VectorInput).
template <class T, class Choice = tuned, bool VectorInput = false, schedule_choice Schedule = schedule_choice::tuned>
tile_dims tile_dims_for(int arch)
{
  return with_tuning_arch(arch, [](auto a) {
    using tuning = tuning_of<Choice, decltype(a)::value>;
    using shape  = tile_shape<T, tuning, has_pipeline<T, tuning, VectorInput, Schedule>>;
    return tile_dims{shape::block_threads, shape::tile_items, static_cast<std::uint32_t>(tuning::state_spread_bytes),
                     pipeline_dynamic_bytes_for<T, tuning, VectorInput, Schedule>,
                     launch_threads_for<T, tuning, VectorInput, Schedule> - shape::block_threads};
  });
}

//! Items of a tile of accumulator type T on architecture `arch`, over a pointer to T where VectorInput,
//! under the scan's own tuning or another choice (tests size their inputs around it).
template <class T, bool VectorInput = false, class Choice = tuned>
std::size_t tile_items_for(int arch)
{
  return static_cast<std::size_t>(tile_dims_for<T, Choice, VectorInput>(arch).tile_items);
}

//! A bound on the tile count (tile indices and tile state are 64-bit; the grid is at most the
//! resident blocks, which loop over tiles).
inline constexpr std::uint64_t max_tiles = 0x7fffffffull;

//! What one call runs.
struct scan_plan
{
  std::uint64_t tiles = 0;
  unsigned grid       = 0;
  //! Status words between two tiles' (value_tile_state::stride): spread_bytes apart where there are
  //! more tiles than blocks (blocks loop, ~1000 look-backs poll the newest tiles), packed otherwise.
  std::uint32_t stride = 1;
};

//! n items (> 0) in tiles of `tile_items`, at most `resident_blocks` blocks, status words of
//! `status_word_bytes` bytes.
inline scan_plan make_scan_plan(std::uint64_t n,
                                std::uint64_t tile_items,
                                std::uint64_t resident_blocks,
                                std::uint32_t spread_bytes,
                                std::uint32_t status_word_bytes)
{
  scan_plan plan;
  plan.tiles = (n + tile_items - 1) / tile_items;
  plan.grid  = static_cast<unsigned>(plan.tiles < resident_blocks ? plan.tiles : resident_blocks);
  const std::uint32_t spread = spread_bytes / status_word_bytes;
  plan.stride                = plan.tiles > plan.grid && spread > 1 ? spread : 1;
  return plan;
}

//! The tile a scan of an exact accumulator runs (dispatch.cuh): the tuned one, or one of the two
//! latency tiles (tuned_latency: `small_items`, tuned_latency_wide: `wide_items`, each used only where
//! it is smaller than the tuned tile, `tuned_items`).
enum class latency_pick
{
  tuned,
  small,
  wide
};

//! Where a call of n items is one tile's latency, not its bytes, the smaller tiles win
//! (docs/design/scan.md, variants, "The latency tiles"): a lone tile where a latency tile holds all n
//! (the smaller that does: a lone tile has no tile state and no memset, and a shorter tile is a
//! shorter latency), else the smaller latency tile of which n fills no more than the device's SMs
//! (`sm_count`), spreading the items over more SMs; past one wide tile an SM the longer chain of
//! look-backs costs more than it saves, and the tuned tile runs.
inline latency_pick pick_latency_tile(std::uint64_t n,
                                      std::uint64_t small_items,
                                      std::uint64_t wide_items,
                                      std::uint64_t tuned_items,
                                      std::uint64_t sm_count)
{
  const bool small = small_items < tuned_items;
  const bool wide  = wide_items < tuned_items && small_items < wide_items;
  if (small && n <= small_items)
  {
    return latency_pick::small;
  }
  if (wide && n <= wide_items)
  {
    return latency_pick::wide;
  }
  if (small && (n + small_items - 1) / small_items <= sm_count)
  {
    return latency_pick::small;
  }
  if (wide && (n + wide_items - 1) / wide_items <= sm_count)
  {
    return latency_pick::wide;
  }
  return latency_pick::tuned;
}

} // namespace scan_impl
} // namespace detail
} // namespace sweep
