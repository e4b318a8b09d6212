// Host-side arithmetic of sweep's copy_if: which load path a value type takes, the tile size of each
// architecture's tuning, the alignment head of the vector path, tile count and temporary-storage
// parts. Plain C++ (host-only unit tests include it); the dispatcher and the kernel take every number
// from here.
#pragma once

#include <sweep/detail/copy_if/tuning.hpp>
#include <sweep/detail/lookback/pipeline.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/host_device.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sweep
{
namespace detail
{
namespace copy_if_impl
{

//! Value types sweep's kernel takes (else copy_if runs Thrust's): aligned to at most 16 bytes (the
//! staging buffer's alignment) and at most max_item_bytes. The same on every architecture: the host
//! decides at compile time.
template <class T>
inline constexpr bool supported_type = alignof(T) <= 16 && sizeof(T) <= max_item_bytes;

//! Loadable as raw 16-byte chunks: trivially copyable, size a power of two <= row_bytes and aligned
//! to its size (then a chunk never splits an item and any T* is size-aligned). The same on every
//! architecture: the host chooses the load and store paths at compile time.
template <class T>
inline constexpr bool vectorizable_type = std::is_trivially_copyable<T>::value && sizeof(T) <= row_bytes
                                       && (sizeof(T) & (sizeof(T) - 1)) == 0 && alignof(T) == sizeof(T);

//! The shape of a copy_if tile of value type T under Tuning (tuning.hpp, one struct per architecture).
//! Item order inside a tile: (row j, thread t, item v): virtual index
//!   tile * tile_items + (j * block_threads + t) * vec + v,
//! so in row j the block covers one contiguous span, and thread t's `vec` items are one chunk of
//! row_bytes bytes when the type is vectorizable (one 16-byte load per thread per row, coalesced).
template <class T, class Tuning>
struct tile_shape
{
  static constexpr bool vectorizable = vectorizable_type<T>;

  //! Items per thread per row.
  static constexpr int vec = sizeof(T) < static_cast<std::size_t>(row_bytes) ? static_cast<int>(row_bytes / sizeof(T)) : 1;
  static constexpr int block_threads = vectorizable ? Tuning::vector_block_threads : Tuning::block_threads;
  static constexpr std::size_t row_staging_bytes = static_cast<std::size_t>(block_threads) * vec * sizeof(T);
  static constexpr bool supported                = supported_type<T>;
  //! As many rows as the staging budget holds, at most Tuning::rows and at least one.
  static constexpr std::size_t rows_in_budget = Tuning::max_staging_bytes / row_staging_bytes;
  static constexpr int rows                   = rows_in_budget < 1 ? 1
                                              : rows_in_budget < static_cast<std::size_t>(Tuning::rows) ? static_cast<int>(rows_in_budget)
                                                                                                        : Tuning::rows;
  static constexpr int items_per_thread = rows * vec;
  static constexpr std::size_t tile_items = static_cast<std::size_t>(block_threads) * items_per_thread;
  //! Bytes of the shared staging buffer (selected items of one tile, plus one 16-byte chunk of
  //! slack for the shifted 16-byte reads of the vector store path).
  static constexpr std::size_t staging_bytes = tile_items * sizeof(T) + 16;

  static_assert(Tuning::rows >= 1 && Tuning::rows <= 4, "copy_if tuning: rows must be in [1, 4] (16-bit packed row counts in one u64)");
  static_assert(static_cast<long long>(block_threads) * vec < 65536,
                "copy_if tuning: a row's total count must fit 16 bits");
};

//! Which schedule a kernel runs: the tuning's for its path (`tuned`), or one that a test forces.
enum class schedule_choice
{
  tuned,
  in_order,
  pipelined,
  bulk,
  specialized,
  //! The tuning's schedule, for a kernel that writes the selected and the rejected items (partition):
  //! where that is the bulk schedule, whose stores stage a tile aligned like its one output, the
  //! specialised one.
  tuned_two_outputs
};

//! What selects an item (agent.cuh): the predicate on it or on its stencil item (copy_if, remove,
//! partition), or the binary predicate on the item before it and it (unique: the first item and every
//! item unequal to the one before).
enum class select_kind
{
  predicate,
  adjacent
};

//! The schedule (tuning.hpp, tile_schedule) of a kernel over items of T under Tuning, on the vector
//! load path or not, with `Choice`. The bulk and specialised schedules need 16-byte chunks of whole
//! items (the vector load path) and an architecture with bulk copies; without them they run in order.
template <class T, class Tuning, bool LoadVectors, schedule_choice Choice>
SWEEP_HOST_DEVICE constexpr tile_schedule schedule_of()
{
  constexpr tile_schedule chosen = Choice == schedule_choice::in_order    ? tile_schedule::in_order
                                 : Choice == schedule_choice::pipelined   ? tile_schedule::pipelined
                                 : Choice == schedule_choice::bulk        ? tile_schedule::bulk
                                 : Choice == schedule_choice::specialized ? tile_schedule::specialized
                                 : !LoadVectors                           ? Tuning::other_schedule
                                 : sizeof(T) == 16                        ? Tuning::vector_schedule_16byte
                                 : sizeof(T) == 4                         ? Tuning::vector_schedule_4byte
                                 : sizeof(T) == 2                         ? Tuning::vector_schedule_2byte
                                 : sizeof(T) == 1                         ? Tuning::vector_schedule_1byte
                                                                          : Tuning::vector_schedule;
  constexpr tile_schedule staged = Choice == schedule_choice::tuned_two_outputs && chosen == tile_schedule::bulk
                                   ? tile_schedule::specialized
                                   : chosen;
  constexpr bool slotted = staged == tile_schedule::bulk || staged == tile_schedule::specialized;
  return slotted && !(Tuning::bulk_copies && LoadVectors) ? tile_schedule::in_order : staged;
}

//! Dynamic shared memory of a kernel of the bulk schedule over items of T under Tuning: bulk_slots - 1
//! slots of the tile's staging size (the first slot is the static staging buffer), then a barrier and
//! a tile index (two u64) a slot.
template <class T, class Tuning>
SWEEP_HOST_DEVICE constexpr std::size_t bulk_dynamic_bytes()
{
  return static_cast<std::size_t>(Tuning::bulk_slots - 1) * tile_shape<T, Tuning>::staging_bytes
       + static_cast<std::size_t>(Tuning::bulk_slots) * 2 * sizeof(std::uint64_t);
}

//! The specialised schedule's own shared words beside the pipeline's (lookback/pipeline.hpp): a second
//! copy of the block scan's warp totals (one u64 a warp of the tile's threads), so that the next
//! tile's scan may start before every thread has read this one's.
template <class T, class Tuning>
struct specialized_extra
{
  unsigned long long warp_totals[tile_shape<T, Tuning>::block_threads / 32];
};

//! The specialised schedule's pipeline words (lookback/pipeline.hpp): counts handed to the look-back
//! warp and offsets handed back, as u64.
template <class T, class Tuning>
using specialized_sync = pipeline_sync<Tuning::bulk_slots, std::uint32_t, unsigned long long, specialized_extra<T, Tuning>>;

//! Dynamic shared memory of a kernel of the specialised schedule: the bulk schedule's slots, then the
//! pipeline's barriers and words (specialized_sync).
template <class T, class Tuning>
SWEEP_HOST_DEVICE constexpr std::size_t specialized_dynamic_bytes()
{
  return pipeline_dynamic_bytes<Tuning::bulk_slots, std::uint32_t, unsigned long long, specialized_extra<T, Tuning>>(
    Tuning::bulk_slots - 1, tile_shape<T, Tuning>::staging_bytes);
}

//! Threads a block of a kernel over items of T under Tuning is launched with where it runs its
//! schedule (the tile's threads, and the specialised schedule's two warps more), the most it is
//! compiled for (__launch_bounds__).
template <class T, class Tuning, bool LoadVectors, schedule_choice Choice>
SWEEP_HOST_DEVICE constexpr int launch_threads()
{
  return tile_shape<T, Tuning>::block_threads
       + (schedule_of<T, Tuning, LoadVectors, Choice>() == tile_schedule::specialized ? pipeline_extra_threads : 0);
}

//! Dynamic shared memory the schedule of such a kernel needs (its slots): 0 for the in-order and
//! pipelined schedules.
template <class T, class Tuning, bool LoadVectors, schedule_choice Choice>
SWEEP_HOST_DEVICE constexpr std::size_t schedule_dynamic_bytes()
{
  constexpr tile_schedule s = schedule_of<T, Tuning, LoadVectors, Choice>();
  return s == tile_schedule::bulk ? bulk_dynamic_bytes<T, Tuning>()
       : s == tile_schedule::specialized ? specialized_dynamic_bytes<T, Tuning>()
                                         : 0;
}

//! What the host needs of a tile_shape, for the tuning chosen at run time (dispatch.cuh).
struct tile_dims
{
  int block_threads        = 0;
  std::uint64_t tile_items = 0;
  int word_stride          = 1; //!< u64 words a tile's look-back word takes (Tuning::tile_word_stride)
  //! The kernel runs the bulk or the specialised schedule where it has more tiles than blocks (or
  //! always, where a test forces it), and then needs this much dynamic shared memory; 0: never.
  std::size_t bulk_shared = 0;
  //! Threads a block has then beside the tile's block_threads (the specialised schedule's producer and
  //! look-back warps); a block that runs in order has block_threads.
  int extra_threads = 0;
};

//! The tile of value type T under the tuning of architecture `arch` (util/arch.hpp): the tile that a
//! kernel whose code was compiled for `arch` uses, on the vector load path or not, with `Choice`.
template <class T, bool LoadVectors = false, schedule_choice Choice = schedule_choice::tuned>
tile_dims tile_dims_for(int arch)
{
  return with_tuning_arch(arch, [](auto a) {
    using tuning = tuning_for<decltype(a)::value>;
    using shape  = tile_shape<T, tuning>;
    return tile_dims{shape::block_threads, shape::tile_items, tuning::tile_word_stride,
                     schedule_dynamic_bytes<T, tuning, LoadVectors, Choice>(),
                     launch_threads<T, tuning, LoadVectors, Choice>() - shape::block_threads};
  });
}

//! The number of items the vector path's first tile starts before `first` so that every chunk is
//! row_bytes-aligned: (address % row_bytes) / item_bytes. Zero for the per-item path.
inline std::uint64_t vector_head(std::uintptr_t address, std::size_t item_bytes, std::size_t row_bytes)
{
  return static_cast<std::uint64_t>((address % row_bytes) / item_bytes);
}

//! Everything the dispatcher needs for n items.
struct tile_plan
{
  std::uint64_t items         = 0; //!< n
  std::uint64_t head          = 0; //!< virtual indices [0, head) are before `first`: never loaded
  std::uint64_t virtual_items = 0; //!< head + n: tiles cover [0, virtual_items)
  std::uint64_t tiles         = 0;
  //! Temporary storage, part 0: the dynamic tile counter and the total count (two u64), cleared
  //! together with part 1 by one memset. Part 1: the look-back words, `word_stride` u64 a tile (the
  //! tile's word is the first).
  std::size_t header_bytes = 2 * sizeof(std::uint64_t);
  std::size_t state_bytes  = 0;
  int word_stride          = 1;
};

//! Tiles of `tile_items` over head + n virtual items. n == 0 needs no tiles and no storage. Tile
//! state: `spread_stride` u64 a tile where there are more tiles than `resident_blocks` (blocks loop
//! over tiles and the look-backs of ~500 of them poll at once: tuning.hpp, tile_word_stride), one
//! otherwise (every look-back runs at once with no delay, where packed words measured faster).
inline tile_plan make_tile_plan(std::uint64_t n,
                                std::uint64_t tile_items,
                                std::uint64_t head,
                                int spread_stride             = 1,
                                std::uint64_t resident_blocks = 0)
{
  tile_plan plan;
  plan.items         = n;
  plan.head          = n == 0 ? 0 : head;
  plan.virtual_items = n + plan.head;
  plan.tiles         = (plan.virtual_items + tile_items - 1) / tile_items;
  plan.word_stride   = plan.tiles > resident_blocks ? spread_stride : 1;
  plan.state_bytes   = static_cast<std::size_t>(plan.tiles) * static_cast<std::size_t>(plan.word_stride) * sizeof(unsigned long long);
  return plan;
}

//! A bound on the tile count (tile indices and tile state are 64-bit; the grid is at most the
//! resident blocks, which loop over tiles).
inline constexpr std::uint64_t max_tiles = 0x7fffffffull;

//! In-place partition (partition.cuh): which items go through temporary storage. The pass writes one
//! side over the input, in input order, and the other to temporary storage, which is then copied
//! into place; so the side in temporary storage is read and written twice.
//! - `forward`: the selected items over the input, the rejected ones through temporary storage (then
//!   copied behind the selected ones). Both sides in input order. stable_partition always.
//! - `rotated`: the rejected items over the input, the selected ones through temporary storage. The
//!   rejected items now sit at the front, in input order; the first min(S, R) of them (S selected, R
//!   rejected) move to the back, [max(S, R), n), then the selected items come in front. Selected
//!   side in input order; rejected side rotated: r_m .. r_{R-1}, r_0 .. r_{m-1}, m = min(S, R).
//!   Extra traffic 2 min(S, R) + 2 S items against the forward form's 2 R.
//! - `sampled`: partition's choice. Inputs of at least partition_sample_min_bytes run a one-block
//!   kernel first that applies the predicate to partition_samples items evenly spaced (item
//!   floor(k n / samples), k = 0 .. samples - 1) and picks `rotated` where fewer than a quarter of
//!   them are selected (rotated beats forward where S < n / 3; the quarter leaves a margin for the
//!   sample's error), else `forward`. The choice is made on the device, so the pass needs no
//!   synchronization before it; it depends only on the input, so a call's result does too.
enum class partition_sides
{
  forward,
  rotated,
  sampled
};

//! Items the sampling kernel tests, and its block (each thread tests samples / threads items).
inline constexpr int partition_samples        = 4096;
inline constexpr int partition_sample_threads = 1024;
//! The smallest input (bytes) that partition samples: the sample costs a launch and about a memory
//! round trip a sample row before the pass (a few microseconds), under 5% of the pass from here on.
inline constexpr std::uint64_t partition_sample_min_bytes = std::uint64_t(64) << 20;

//! In-place partitions of at most this many bytes that run forward copy the rejected items behind the
//! selected ones with partition_copy_back_kernel, which reads the count on the device, so that the
//! host waits once (for the pass and the copy) instead of twice; a stream synchronization is several
//! microseconds, the whole of a small call's copy. Larger inputs copy with cudaMemcpyAsync at the
//! copy rate (the kernel copies item by item).
inline constexpr std::uint64_t partition_one_wait_max_bytes = std::uint64_t(4) << 20;
//! The copy-back kernel's block, and the most blocks it takes (it loops over the rest).
inline constexpr int partition_copy_back_threads       = 256;
inline constexpr unsigned partition_copy_back_max_blocks = 1024;

//! The sampled decision: rotated where fewer than a quarter of the samples are selected.
SWEEP_HOST_DEVICE constexpr bool partition_rotates(unsigned selected_samples, unsigned samples = partition_samples)
{
  return std::uint64_t(selected_samples) * 4 < samples;
}

//! The index of sample k of `samples` over n items: floor(k n / samples) (k n < 2^64 for n < 2^51).
SWEEP_HOST_DEVICE constexpr std::uint64_t partition_sample_index(unsigned k, std::uint64_t n, unsigned samples = partition_samples)
{
  return static_cast<std::uint64_t>(k) * n / samples;
}

//! The copies that finish a rotated partition of n items of which `rejected` were written over the
//! input (at [0, rejected)) and n - rejected went to temporary storage: move [0, moved) to
//! [moved_to, n), then the selected items from temporary storage to [0, selected). The two ranges of
//! the move do not overlap (moved <= moved_to); the second copy overwrites [0, moved) only after the
//! first read it (stream order).
struct rotated_moves
{
  std::uint64_t selected; //!< S, the partition point
  std::uint64_t moved;    //!< min(S, R): rejected items moved from the front
  std::uint64_t moved_to; //!< max(S, R): where they go
};

constexpr rotated_moves plan_rotated_moves(std::uint64_t n, std::uint64_t rejected)
{
  const std::uint64_t selected = n - rejected;
  return {selected, selected < rejected ? selected : rejected, selected < rejected ? rejected : selected};
}

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
