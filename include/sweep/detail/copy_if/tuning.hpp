// Tuning of sweep's copy_if kernel: one named struct per architecture, and tuning_for, the one place
// that chooses among them by the architectures of util/arch.hpp. Plain C++ (no CUDA keywords) so that
// the host-only unit tests can check the tile arithmetic built on it. Laid out like
// histogram/tuning.hpp and sort/tuning.hpp on purpose (one shape for the three algorithms).
#pragma once

#include <cstddef>
#include <type_traits>

#include <sweep/detail/lookback/pipeline.hpp>
#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace copy_if_impl
{

//! Bytes of input each thread loads per row: one 16-byte vector. The same on every architecture: the
//! host chooses the load path at compile time, before it knows which architecture a kernel runs.
inline constexpr int row_bytes = 16;

//! The largest value type sweep's kernel takes, on every architecture (decided on the host at compile
//! time): one row of a 256-thread tile stages 32 KiB. Larger types, and types aligned beyond 16 bytes
//! (the staging buffer's alignment), run Thrust's kernel.
inline constexpr std::size_t max_item_bytes = 128;

//! How a block goes through its tiles (agent.cuh): `in_order` finishes a tile (its look-back, then
//! its stores) before it loads the next; `pipelined` issues the loads of its next tile before it
//! waits for the current tile's look-back, so the wait overlaps data movement; `bulk` (sm_90 and
//! newer, full tiles of the vector load path) has the copy engine bring the block's next tiles into a
//! ring of shared-memory slots while it ranks one tile and looks back for the one before;
//! `specialized` (sm_90 and newer, the vector load path) gives each task of the bulk schedule warps of
//! their own: a producer warp takes tiles and has the copy engine bring them into the slots, a
//! look-back warp finds each ranked tile's offset, and the block's other warps only rank, stage and
//! store.
enum class tile_schedule
{
  in_order,
  pipelined,
  bulk,
  specialized
};

//! sm_90 (H200), measured. One tile = block_threads threads x rows x (row_bytes of input per thread
//! per row): 16-byte vector loads, 4 rows = 64 bytes in flight per thread. Types that load as
//! 16-byte vectors (size-aligned powers of two up to 16 bytes) use 512 threads (32 KiB tiles, four
//! blocks per SM); the others 256 threads (so that structs up to 128 bytes still fit the staging
//! budget). 512 measured faster than 256 and 384 for 1-, 4-, 8- and 16-byte items (2-byte items
//! were not measured; docs/design/copy_if.md, variants).
//! The packed-row scan needs rows <= 4 and block_threads * (items per row per thread) < 2^16
//! (checked in tile_shape).
struct tuning_sm90
{
  static constexpr int block_threads        = 256;
  static constexpr int vector_block_threads = 512;
  static constexpr int rows                 = 4;
  //! Types so large that four rows would stage more than this take fewer rows (at least one).
  static constexpr int max_staging_bytes = 32768;
  //! Blocks per SM the vector load path with items of 4 bytes and more is compiled for
  //! (__launch_bounds__): 4 x 512 threads, all the SM holds (32 registers), where more tiles in flight
  //! per SM hide the look-back's wait. The item-by-item paths are compiled for one (fancy iterators
  //! need their registers). Measured on the H200: docs/design/copy_if.md, variants. Kernels of the
  //! bulk schedule are compiled for bulk_blocks_per_sm instead.
  static constexpr int vector_blocks_per_sm = 4;
  //! The same for 2-byte items (32 a thread, packed: pack_small_items): 3 blocks an SM (40 registers)
  //! with the other small-item choices below: u16 2^28 0.296-0.301 / 0.312-0.315 / 0.364-0.370 /
  //! 0.412-0.420 / 0.460-0.468 ms -> 0.224-0.228 / 0.278-0.282 / 0.321-0.327 / 0.377-0.384 /
  //! 0.407-0.411 at 0 / 5 / 50 / 95 / 100% kept (2 blocks an SM unpacked before; 4 blocks spilled
  //! 40 bytes and measured 1-4% slower than 3). Where 2-byte items run the bulk schedule (sm_90), its
  //! kernel is compiled for bulk_blocks_per_sm instead.
  static constexpr int vector_blocks_per_sm_2byte = 3;
  //! The same for 1-byte items (64 a thread, packed): 3 blocks an SM (40 registers, no spills), where
  //! unpacked items took 120 registers and one block. u8 2^28 0.285-0.294 / 0.296-0.303 /
  //! 0.324-0.330 / 0.351-0.359 / 0.399-0.407 ms -> 0.162-0.170 / 0.178-0.185 / 0.205-0.213 /
  //! 0.225-0.236 / 0.273-0.281 (2 blocks: 7-11% slower; 4 blocks spill 108 bytes).
  static constexpr int vector_blocks_per_sm_1byte = 3;
  //! 1- and 2-byte items on the vector path stay packed in 32-bit words as loaded (agent.cuh,
  //! packed_items), their flags are set row by row with predicated ORs (agent.cuh, select_flags).
  static constexpr bool pack_small_items = true;
  //! Packed items: a thread's row with nothing selected skips its staging loop (u8 0% kept with it
  //! 0.208-0.214 against 0.214-0.219 ms before the flags' ORs; with the in-order schedule it cost
  //! instructions and measured 5-15% slower at 5-95% kept).
  static constexpr bool skip_unselected_rows = true;
  //! The rank's block scan: sweep's shuffle scan of the warps' totals (agent.cuh,
  //! block_exclusive_sum) instead of cub::BlockScan's warp-scans variant, which walks every warp's
  //! total in every thread: float x>0 2^28 0.511-0.515 -> 0.493-0.503 ms, u32 and u64 at every kept
  //! share 3-6% faster, u16 3-9% faster. Not for 1-byte items, where it spills 24 bytes at 40
  //! registers and measured 10-18% slower at 5-100% kept (4% faster at 0%).
  static constexpr bool shuffle_scan       = true;
  static constexpr bool shuffle_scan_1byte = false;
  //! Look-back: nanoseconds a tile sleeps between publishing its count and its first poll
  //! (warp_lookback's initial_delay_ns), for the vector load path, when there are more tiles than
  //! blocks (blocks loop; smaller inputs have no predecessors worth waiting for). Measured on the
  //! H200 with 512-thread tiles: 1500 ns for items of 4 bytes and more (float 0.67 -> 0.59 ms at
  //! 2^28), 500 ns for 1- and 2-byte items (fewer, larger tiles: longer delays were slower there).
  static constexpr unsigned lookback_delay_ns       = 1500;
  static constexpr unsigned small_lookback_delay_ns = 500;
  //! Words (u64) each tile's look-back word takes in the tile state: 8, 64 bytes a tile, so that the
  //! ~500 warps polling the newest tiles spread over that many lines (and L2 slices) instead of
  //! meeting on the two lines that 32 packed words share. Measured on the H200 (float x>0 2^28
  //! 0.570-0.578 -> 0.523-0.528 ms; 4, 16 and 32 words: 0.537-0.555, 0.525-0.532, 0.534-0.540;
  //! docs/design/copy_if.md, variants). Only where there are more tiles than resident blocks: with
  //! every tile's look-back running at once and no delay, 8 words apart made the whole call at 2^20
  //! floats (128 tiles) 3-4 us slower, so smaller calls keep the words packed (plan.hpp, make_tile_plan).
  static constexpr int tile_word_stride = 8;
  //! How blocks go through tiles (tile_schedule), measured on the H200 at 2^28 items (16-byte items
  //! 2^26), 0 / 5 / 50 / 95 / 100% kept, two rounds in one run (docs/design/copy_if.md, variants):
  //! - 4- and 8-byte items in order rather than pipelined or bulk: the pipelined schedule was 7-13%
  //!   slower; the bulk one level for float (+0-1%) and u32 (-2 to +3%), 2-10% slower for u64;
  //! - 16-byte items bulk, with stores from every thread: 2-7% faster than in order (u128 0.373-0.377
  //!   / 0.400-0.401 / 0.505-0.509 / 0.634-0.635 / 0.643-0.646 ms -> 0.365 / 0.394 / 0.483-0.484 /
  //!   0.589-0.591 / 0.598-0.599);
  //! - 2-byte items bulk, with bulk stores: 3-14% faster than pipelined (u16 0.223-0.224 / 0.277-0.279
  //!   / 0.321-0.323 / 0.377-0.380 / 0.403-0.405 ms -> 0.217-0.218 / 0.251-0.257 / 0.286-0.288 / 0.327
  //!   / 0.361), which was 1-13% faster than in order;
  //! - 1-byte items pipelined rather than bulk or in order: bulk was 11% faster with nothing kept, 8%
  //!   slower at 5% kept, 0-4% slower above; the pipelined schedule was 1-5% faster than in order;
  //! - the specialised schedule (a producer warp, a look-back warp and the tile's 16 warps; 2 blocks
  //!   an SM, 56 registers), first poll 1500 ns after the count (medians of 3, two rounds, against the
  //!   tuning before it): 4-byte items level or faster (float x>0 2^28 0.486 / 0.500 vs 0.502 / 0.494;
  //!   u32 0 / 5 / 50 / 95 / 100% kept 0.359-0.369 / 0.388-0.397 / 0.490-0.503 / 0.608-0.623 /
  //!   0.624-0.638 vs 0.379-0.384 / 0.411-0.415 / 0.497-0.501 / 0.613-0.618 / 0.630-0.635); 1-byte
  //!   items faster where few are kept, slower where most are (u8 0.127-0.134 / 0.166-0.173 /
  //!   0.203-0.211 / 0.233-0.242 / 0.294-0.302 vs pipelined 0.165-0.168 / 0.182-0.185 / 0.210-0.213 /
  //!   0.233-0.234 / 0.280-0.282: 4% less time summed over the five); 2-, 8- and 16-byte items faster
  //!   at 0 and 5% kept and 3-11% slower at 50-100% (u64 0.960-0.973 vs 0.924-0.926 at 50%), so they
  //!   keep their schedules. Its tile threads store the tiles themselves, so a tile's stores and its
  //!   ranking share 16 warps where in order 64 warps an SM overlap them.
  static constexpr tile_schedule vector_schedule        = tile_schedule::in_order;
  static constexpr tile_schedule vector_schedule_4byte  = tile_schedule::specialized;
  static constexpr tile_schedule vector_schedule_16byte = tile_schedule::bulk;
  static constexpr tile_schedule vector_schedule_2byte  = tile_schedule::bulk;
  static constexpr tile_schedule vector_schedule_1byte  = tile_schedule::specialized;
  static constexpr tile_schedule other_schedule         = tile_schedule::in_order;
  //! The pipelined schedule's sleep before the first poll (its count was published before the block
  //! staged the tile, took its next index and issued that tile's loads).
  static constexpr unsigned pipelined_lookback_delay_ns = 1000;
  //! In order, 4- and 8-byte items on the vector path: warp 0 publishes the tile's count, stages its
  //! own items like the other warps, and only then sleeps and looks back, so that its items are dead
  //! before the look-back. At 32 registers that cut the float kernel's spills from 32 to 20 bytes and
  //! float 2^28's L2 write sectors from 29.9 M to 25.7 M (local memory); measured on the H200 (one
  //! run, three rounds, medians of 3): float 2^28 0.526-0.537 -> 0.511-0.512 ms, u32 100% kept
  //! 0.700-0.730 -> 0.657-0.660, u32 50% 0.543-0.570 -> 0.519-0.522, u64 50% 0.978-1.01 ->
  //! 0.951-0.954, u64 0% 0.718-0.747 -> 0.704-0.708. 1-byte items (one block an SM) were 11% slower
  //! (u8 50% 0.323-0.333 -> 0.361-0.363) and keep the look-back first, as do the types not measured.
  static constexpr bool stage_before_lookback = true;
  //! The architecture has bulk asynchronous copies (cp.async.bulk) and transaction-counting barriers.
  static constexpr bool bulk_copies = true;
  //! The bulk schedule (agent.cuh, run_bulk): slots of one tile each a block (one is the static staging
  //! buffer, the others dynamic shared memory): the tile waiting for its offset, the tile being
  //! ranked and bulk_slots - 2 tiles in flight. At least 3. Measured against 24 KiB tiles (3 rows)
  //! with 4 slots at 2 blocks an SM: 3-17% slower for every type (more tiles, longer look-backs).
  static constexpr int bulk_slots = 3;
  //! Blocks an SM the bulk schedule's kernel is compiled for (three 32 KiB slots a block, 64
  //! registers).
  static constexpr int bulk_blocks_per_sm = 2;
  //! Its sleep before the first poll of a tile's look-back (the tile published its count a step
  //! earlier, before the block ranked the next tile): 500 ns measured 2-5% slower than none.
  static constexpr unsigned bulk_lookback_delay_ns = 0;
  //! The bulk schedule writes a tile's whole 16-byte output chunks with one bulk copy from shared
  //! memory (thread 0) instead of 16-byte stores from every thread: for 1- and 2-byte items (u16 at
  //! 50 / 95 / 100% kept 2-7% faster than the threads' stores, level at 0 and 5%), not for wider ones
  //! (u128 1.5-3.5% slower at every share kept).
  static constexpr bool bulk_stores       = false;
  static constexpr bool bulk_stores_small = true;
  //! The specialised schedule (agent.cuh, run_specialized; lookback/pipeline.cuh) has bulk_slots slots and runs
  //! bulk_blocks_per_sm blocks an SM like the bulk one, with two warps more a block (the producer and
  //! the look-back warp: pipeline_extra_threads). Its look-back warp sleeps this long before the
  //! first poll of a tile's look-back, and between failed polls up to specialized_backoff_ns
  //! (lookback_backoff; 0: hot spin).
  //! Measured (u32 2^28 0% kept): no sleep 0.375 ms, 1000 ns 0.353, 1500 ns 0.359-0.369; over every
  //! type 1000 and 1500 ns were level, both faster than none (the polls of ~260 look-back warps that
  //! start as soon as their tile is ranked find their predecessors unpublished and spin on L2).
  static constexpr unsigned specialized_lookback_delay_ns = 1500;
  static constexpr unsigned specialized_backoff_ns        = 0;
};

//! sm_80 (2048 threads and 164 KB of shared memory an SM): sm_90's tiles and blocks, without the bulk
//! copies it does not have, so without the bulk and specialised schedules: their types run the
//! schedules sm_90 measured for them before (1- and 2-byte items pipelined, 4- and 16-byte items in
//! order). Not measured (only an H200 was at hand).
struct tuning_sm80 : tuning_sm90
{
  static constexpr bool bulk_copies = false;
  static constexpr tile_schedule vector_schedule_4byte  = tile_schedule::in_order;
  static constexpr tile_schedule vector_schedule_16byte = tile_schedule::in_order;
  static constexpr tile_schedule vector_schedule_2byte  = tile_schedule::pipelined;
  static constexpr tile_schedule vector_schedule_1byte  = tile_schedule::pipelined;
};

//! sm_86, sm_89 and sm_120 (1536 threads and 100 KB of shared memory an SM): sized from those
//! documented limits, not measured (only an H200 was at hand). sm_90's tiles, with the vector path
//! compiled for 3 blocks an SM (1536 threads, 40 registers; three 33 KB blocks fit 100 KB): the SM
//! cannot hold sm_90's 4, and ptxas would ignore that hint and leave the registers unbounded.
//! sm_120 has the bulk copies, but the schedule was measured on sm_90 only: in order.
struct tuning_sm86 : tuning_sm80
{
  static constexpr int vector_blocks_per_sm = 3;
  //! The schedule measured on sm_90 only for 1- and 2-byte items: the in-order one, as for every
  //! other type.
  static constexpr tile_schedule vector_schedule_2byte = tile_schedule::in_order;
  static constexpr tile_schedule vector_schedule_1byte = tile_schedule::in_order;
};

//! sm_75 (1024 threads and 64 KB of shared memory an SM): sized from those documented limits, not
//! measured. Tiles stage at most 16 KiB (vector path: 2 rows), so that two 512-thread blocks, the
//! SM's 1024 threads (64 registers), fit its 64 KB; with sm_90's 32 KiB tiles one block would.
struct tuning_sm75 : tuning_sm80
{
  static constexpr int max_staging_bytes          = 16384;
  static constexpr int vector_blocks_per_sm       = 2;
  static constexpr int vector_blocks_per_sm_2byte = 2;
  static constexpr int vector_blocks_per_sm_1byte = 2;
  static constexpr tile_schedule vector_schedule_2byte = tile_schedule::in_order;
  static constexpr tile_schedule vector_schedule_1byte = tile_schedule::in_order;
};

//! The tuning of each of sweep's architectures (util/arch.hpp): the one place that chooses. sm_80
//! (2048 threads, 164 KB an SM) holds sm_90's four 33 KB blocks an SM (tuning_sm80: without bulk
//! copies), and sm_100 has sm_90's limits and copies: it runs sm_90's tuning. Arch 0 (the host
//! compiler's pass, util/arch.hpp) parses with sm_90's.
template <int Arch>
using tuning_for = std::conditional_t<
  Arch == 750,
  tuning_sm75,
  std::conditional_t<Arch == 800, tuning_sm80, std::conditional_t<Arch == 860 || Arch == 890 || Arch == 1200, tuning_sm86, tuning_sm90>>>;

//! Bytes of static shared memory a block of the vector load path takes at most: the staging buffer
//! (max_staging_bytes and 16 bytes of slack), the block scan's storage (one u64 a warp and one more)
//! and the two u64 tile slots, with alignment padding. The kernel checks its exact storage against
//! the architecture's limits at compile time (kernels.cuh); this bound is for the checks below.
template <class Tuning>
constexpr std::size_t vector_block_shared_bytes()
{
  return static_cast<std::size_t>(Tuning::max_staging_bytes) + 16 + (Tuning::vector_block_threads / 32 + 1) * 8 + 16 + 16;
}

//! Tuning fits `limits`: vector_blocks_per_sm (and the 2- and 1-byte counts) blocks of the vector
//! path are resident at once, so are bulk_blocks_per_sm blocks of the bulk and the specialised
//! schedules with their slots, barriers and extra warps where the architecture has bulk copies, and one row of the largest type (max_item_bytes) stays within static
//! shared memory.
template <class Tuning>
constexpr bool fits(const arch_limits& limits)
{
  return (!Tuning::bulk_copies
          || (Tuning::bulk_slots >= 3
              && blocks_fit(limits, Tuning::vector_block_threads + pipeline_extra_threads, Tuning::bulk_blocks_per_sm,
                            vector_block_shared_bytes<Tuning>()
                              + (Tuning::bulk_slots - 1) * (static_cast<std::size_t>(Tuning::max_staging_bytes) + 16)
                              + Tuning::bulk_slots * 64 + Tuning::vector_block_threads / 32 * 8)))
      && blocks_fit(limits, Tuning::vector_block_threads, Tuning::vector_blocks_per_sm, vector_block_shared_bytes<Tuning>())
      && blocks_fit(limits, Tuning::vector_block_threads, Tuning::vector_blocks_per_sm_2byte, vector_block_shared_bytes<Tuning>())
      && blocks_fit(limits, Tuning::vector_block_threads, Tuning::vector_blocks_per_sm_1byte, vector_block_shared_bytes<Tuning>())
      && vector_block_shared_bytes<Tuning>() <= static_shared_per_block
      && Tuning::block_threads * max_item_bytes + 16 + 1024 <= static_shared_per_block;
}

static_assert(fits<tuning_for<750>>(limits_of(750)) && fits<tuning_for<800>>(limits_of(800))
                && fits<tuning_for<860>>(limits_of(860)) && fits<tuning_for<890>>(limits_of(890))
                && fits<tuning_for<900>>(limits_of(900)) && fits<tuning_for<1000>>(limits_of(1000))
                && fits<tuning_for<1200>>(limits_of(1200)),
              "copy_if tuning: a struct does not fit the architecture it is chosen for");

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
