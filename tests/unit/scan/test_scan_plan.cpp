// Host-only checks of the scan's tile arithmetic: which accumulator types the kernel takes and how
// they load, tile shapes under each architecture's tuning, the fold windows, and tile counts, grids and
// tile-state spread past 2^31 items.
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/scan/tuning.hpp>

#include <catch2/catch.hpp>

#include <cstdint>

namespace sc = sweep::detail::scan_impl;

namespace
{
template <class T>
using shape90 = sc::tile_shape<T, sc::tuning_sm90>;
struct s12
{
  std::int32_t a, b, c;
};
struct alignas(16) s16
{
  std::uint32_t w[4];
};
struct s64
{
  double d[8];
};
struct s72
{
  double d[9];
};
struct alignas(32) over_aligned
{
  double d[4];
};
} // namespace

TEST_CASE("scan: supported and vectorizable accumulator types", "[scan]")
{
  STATIC_REQUIRE(sc::supported_type<std::uint8_t>);
  STATIC_REQUIRE(sc::supported_type<s64>);
  STATIC_REQUIRE_FALSE(sc::supported_type<s72>);
  STATIC_REQUIRE_FALSE(sc::supported_type<over_aligned>);
  STATIC_REQUIRE(sc::vectorizable_type<float>);
  STATIC_REQUIRE(sc::vectorizable_type<s16>);
  STATIC_REQUIRE_FALSE(sc::vectorizable_type<s12>);
}

TEST_CASE("scan: sm_90 tile shapes", "[scan]")
{
  // In order: 512 threads (1024 for 4-byte values that fold in order); a row is one 16-byte vector,
  // 4 rows.
  CHECK(shape90<std::uint32_t>::vec == 4);
  CHECK(shape90<std::uint32_t>::rows == 4);
  CHECK(shape90<std::uint32_t>::tile_items == 512u * 16u);
  CHECK(shape90<std::uint32_t>::warp_items == 32u * 16u);
  CHECK(shape90<double>::tile_items == 512u * 8u);
  CHECK(shape90<s16>::tile_items == 512u * 4u);
  CHECK(shape90<float>::block_threads == 1024);
  CHECK(shape90<float>::tile_items == 1024u * 16u);
  CHECK(shape90<std::uint16_t>::items_per_thread == 32);
  CHECK(shape90<std::uint8_t>::items_per_thread == 64);
  CHECK(sc::blocks_per_sm_for<std::uint32_t, sc::tuning_sm90> == 3);
  CHECK(sc::blocks_per_sm_for<float, sc::tuning_sm90> == 2);
  CHECK(sc::blocks_per_sm_for<std::uint8_t, sc::tuning_sm90> == 2);
  CHECK(sc::blocks_per_sm_for<double, sc::tuning_sm90> == 3);
  CHECK(sc::blocks_per_sm_for<s16, sc::tuning_sm90> == 2);
  CHECK(sc::lookback_delay_for<float, sc::tuning_sm90> == 500);
  CHECK(sc::lookback_delay_for<std::uint32_t, sc::tuning_sm90> == 1000);
  // Types that do not load as vectors: rows of one item, about item_bytes a thread.
  CHECK(shape90<s12>::vec == 1);
  CHECK(shape90<s12>::rows == 64 / 12);
  CHECK(shape90<s64>::rows == 1);
  // Fold windows: 8 KiB of shared memory, between 1 and 32 windows of 32 values.
  CHECK(shape90<float>::fold_windows == 32);
  CHECK(shape90<double>::fold_windows == 32);
  CHECK(shape90<s16>::fold_windows == 16);
  CHECK(shape90<s64>::fold_windows == 4);
}

TEST_CASE("scan: sm_80 keeps 1024-thread tiles for floats (no specialised schedule there)", "[scan]")
{
  CHECK(sc::tile_shape<float, sc::tuning_sm80>::block_threads == 1024);
  CHECK(sc::blocks_per_sm_for<float, sc::tuning_sm80> == 2);
  CHECK(sc::lookback_delay_for<float, sc::tuning_sm80> == 500);
}

TEST_CASE("scan: the specialised schedule: where it is compiled in, its threads and shared memory", "[scan]")
{
  using sm90 = sc::tuning_sm90;
  using sc::schedule_choice;
  // sm_90: contiguous inputs of 4 bytes and more; 1- and 2-byte items only where forced.
  STATIC_REQUIRE(sc::has_pipeline<std::uint32_t, sm90, true, schedule_choice::tuned>);
  STATIC_REQUIRE(sc::has_pipeline<double, sm90, true, schedule_choice::tuned>);
  STATIC_REQUIRE(sc::has_pipeline<s16, sm90, true, schedule_choice::tuned>);
  STATIC_REQUIRE_FALSE(sc::has_pipeline<std::uint8_t, sm90, true, schedule_choice::tuned>);
  STATIC_REQUIRE(sc::has_pipeline<std::uint8_t, sm90, true, schedule_choice::specialized>);
  STATIC_REQUIRE_FALSE(sc::has_pipeline<std::uint32_t, sm90, true, schedule_choice::in_order>);
  STATIC_REQUIRE_FALSE(sc::has_pipeline<std::uint32_t, sm90, false, schedule_choice::tuned>);
  STATIC_REQUIRE_FALSE(sc::has_pipeline<s12, sm90, true, schedule_choice::specialized>);
  STATIC_REQUIRE_FALSE(sc::has_pipeline<std::uint32_t, sc::tuning_sm80, true, schedule_choice::tuned>);
  // Its tile: 512 threads of 8 rows for every type. Three slots of a tile, one 16-byte chunk (a
  // misaligned input's tile comes with the chunks around it) and its warps' totals each, then the
  // pipeline's words.
  STATIC_REQUIRE(sc::tile_shape<float, sm90, true>::block_threads == 512);
  STATIC_REQUIRE(sc::tile_shape<float, sm90, true>::tile_items == 512u * 8u * 4u);
  STATIC_REQUIRE(sc::tile_shape<std::uint64_t, sm90, true>::rows == 8);
  constexpr std::size_t slot = 512u * 128u + 16u + 16u * 4u;
  STATIC_REQUIRE(sc::pipeline_slot_bytes<std::uint32_t, sm90> == (slot + 15) / 16 * 16);
  STATIC_REQUIRE(sc::pipeline_dynamic_bytes_for<std::uint32_t, sm90, true, schedule_choice::tuned>
                 == 3 * sc::pipeline_slot_bytes<std::uint32_t, sm90>
                      + sizeof(sweep::detail::pipeline_sync<3, std::uint32_t, std::uint32_t, sweep::detail::pipeline_no_extra>));
  STATIC_REQUIRE(sc::pipeline_dynamic_bytes_for<std::uint32_t, sm90, false, schedule_choice::tuned> == 0);
  STATIC_REQUIRE(sc::launch_threads_for<std::uint32_t, sm90, true, schedule_choice::tuned> == 512 + 64);
  STATIC_REQUIRE(sc::launch_threads_for<std::uint32_t, sm90, false, schedule_choice::tuned> == 512);
  STATIC_REQUIRE(sc::kernel_blocks_per_sm_for<std::uint32_t, sm90, true, schedule_choice::tuned> == 1);
  STATIC_REQUIRE(sc::kernel_blocks_per_sm_for<std::uint32_t, sm90, false, schedule_choice::tuned> == 3);
  const sc::tile_dims dims = sc::tile_dims_for<float, sc::tuned, true>(900);
  CHECK(dims.block_threads == 512);
  CHECK(dims.tile_items == 512u * 8u * 4u);
  CHECK(dims.extra_threads == 64);
  CHECK(dims.pipeline_shared == sc::pipeline_dynamic_bytes_for<float, sm90, true, schedule_choice::tuned>);
  CHECK(sc::tile_dims_for<float, sc::tuned, true>(800).pipeline_shared == 0);
}

TEST_CASE("scan: every architecture's tile", "[scan]")
{
  for (int arch : sweep::detail::tuning_archs)
  {
    const sc::tile_dims dims = sc::tile_dims_for<float>(arch);
    CHECK(dims.block_threads % 32 == 0);
    CHECK(dims.tile_items == static_cast<std::uint64_t>(dims.block_threads) * 16u);
    CHECK(sc::tile_items_for<float>(arch) == dims.tile_items);
  }
}

TEST_CASE("scan: plans past 2^31 items", "[scan]")
{
  // One tile: one block, packed state.
  sc::scan_plan one = sc::make_scan_plan(100, 8192, 264, 64, 8);
  CHECK(one.tiles == 1);
  CHECK(one.grid == 1);
  CHECK(one.stride == 1);
  // Fewer tiles than resident blocks: every tile its block, packed state.
  sc::scan_plan few = sc::make_scan_plan(8192 * 100 + 1, 8192, 264, 64, 8);
  CHECK(few.tiles == 101);
  CHECK(few.grid == 101);
  CHECK(few.stride == 1);
  // More: the grid is the resident blocks, the status words 64 bytes apart.
  const std::uint64_t n = (std::uint64_t(1) << 33) + 5;
  sc::scan_plan many    = sc::make_scan_plan(n, 8192, 264, 64, 8);
  CHECK(many.tiles == (n + 8191) / 8192);
  CHECK(many.grid == 264);
  CHECK(many.stride == 8);
  CHECK(sc::make_scan_plan(n, 8192, 264, 64, 4).stride == 16);
  CHECK(many.tiles < sc::max_tiles);
}

TEST_CASE("scan: the latency tiles of exact accumulators and where a call switches to them", "[scan]")
{
  // Integers (plain and by key) switch; floating point, user types and reduce_by_key's items do not.
  CHECK(sc::exact_accumulator<std::uint32_t>);
  CHECK(sc::exact_accumulator<std::int64_t>);
  CHECK(sc::exact_accumulator<sc::segment_item<std::uint8_t>>);
  CHECK_FALSE(sc::exact_accumulator<float>);
  CHECK_FALSE(sc::exact_accumulator<s16>);
  CHECK_FALSE(sc::exact_accumulator<sc::segment_item<double>>);
  CHECK_FALSE(sc::exact_accumulator<sc::run_item<std::uint32_t, std::uint32_t>>);
  // Their tiles: in order (no specialised schedule), latency_rows and latency_rows_wide 16-byte rows
  // of 512 threads.
  constexpr int rows = sc::tuning_sm90::latency_rows;
  constexpr int wide = sc::tuning_sm90::latency_rows_wide;
  CHECK(rows < wide);
  const sc::tile_dims plain = sc::tile_dims_for<std::uint32_t, sc::tuned_latency, true>(900);
  const sc::tile_dims plain_wide = sc::tile_dims_for<std::uint32_t, sc::tuned_latency_wide, true>(900);
  CHECK(plain.tile_items == 512u * rows * 4);
  CHECK(plain_wide.tile_items == 512u * wide * 4);
  CHECK(plain.pipeline_shared == 0);
  CHECK(plain.extra_threads == 0);
  CHECK(plain_wide.pipeline_shared == 0);
  CHECK(plain_wide.extra_threads == 0);
  CHECK(sc::tile_dims_for<std::uint8_t, sc::tuned_latency, true>(900).tile_items == 512u * rows * 16);
  CHECK(plain_wide.tile_items < sc::tile_dims_for<std::uint32_t, sc::tuned, true>(900).tile_items);
  // The scans by key take the same rows (their tiles: the GPU tests, by_key_sizes).
  using latency90 = sc::latency_tuning<sc::tuning_sm90, rows>;
  CHECK(latency90::rows_segmented == rows);
  CHECK(latency90::rows_segmented_exclusive == rows);
  CHECK(latency90::rows_segmented_shifted == rows);
  CHECK_FALSE(latency90::bulk_copies);
  CHECK(wide < sc::tuning_sm90::rows_segmented_exclusive);
  CHECK(wide < sc::tuning_sm90::rows_segmented);
  // The switches (132 SMs; tiles of 4096 / 8192 / 16384 items): a lone small tile, a lone wide tile,
  // small tiles up to one an SM, wide ones up to one an SM, then the tuned tile.
  using P = sc::latency_pick;
  const auto pick = [](std::uint64_t n) { return sc::pick_latency_tile(n, 4096, 8192, 16384, 132); };
  CHECK(pick(1) == P::small);
  CHECK(pick(4096) == P::small);
  CHECK(pick(4097) == P::wide);
  CHECK(pick(8192) == P::wide);
  CHECK(pick(8193) == P::small);
  CHECK(pick(16384) == P::small);
  CHECK(pick(132 * 4096) == P::small);
  CHECK(pick(132 * 4096 + 1) == P::wide);
  CHECK(pick(132 * 8192) == P::wide);
  CHECK(pick(132 * 8192 + 1) == P::tuned);
  CHECK(pick(std::uint64_t(1) << 40) == P::tuned);
  // A wide tile no smaller than the tuned one (1-byte items: 4 rows both) is not taken: small tiles up
  // to one an SM, then the tuned tile.
  CHECK(sc::pick_latency_tile(16385, 16384, 32768, 32768, 132) == P::small);
  CHECK(sc::pick_latency_tile(132 * 16384, 16384, 32768, 32768, 132) == P::small);
  CHECK(sc::pick_latency_tile(132 * 16384 + 1, 16384, 32768, 32768, 132) == P::tuned);
  // Nor a small tile no smaller than the tuned one (inputs that do not load as vectors: one tile).
  CHECK(sc::pick_latency_tile(1, 1024, 1024, 1024, 132) == P::tuned);
  CHECK(sc::pick_latency_tile(5000, 1024, 1024, 1024, 132) == P::tuned);
}
