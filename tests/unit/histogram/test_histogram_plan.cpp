// Host-only checks of the histograms' plan (plan.hpp): items per thread, privatized copies and
// shared memory, staged levels, the persistent grid, the alignment head and the split of a long
// input into launches. Built by a host compiler: plan.hpp needs no CUDA.
#include <sweep/detail/histogram/plan.hpp>

#include <catch2/catch.hpp>

#include <cstdint>

namespace hi = sweep::detail::histogram_impl;

TEST_CASE("histogram items per thread: 64 bytes per thread for 1- and 2-byte samples, 32 otherwise", "[histogram]")
{
  STATIC_REQUIRE(hi::block_threads == 256);
  STATIC_REQUIRE(hi::items_per_thread<std::uint8_t> == 64);
  STATIC_REQUIRE(hi::items_per_thread<std::int16_t> == 32);
  STATIC_REQUIRE(hi::items_per_thread<float> == 8);
  STATIC_REQUIRE(hi::items_per_thread<double> == 4);
}

TEST_CASE("histogram accumulation buffer only when the counters cannot be added to in place", "[histogram]")
{
  STATIC_REQUIRE(hi::accum_bytes<int, int*>(10) == 0);
  STATIC_REQUIRE(hi::accum_bytes<unsigned long long, unsigned long long*>(10) == 0);
  STATIC_REQUIRE(hi::accum_bytes<short, short*>(10) == 80);
  STATIC_REQUIRE(hi::accum_bytes<float, float*>(10) == 80);
  STATIC_REQUIRE(hi::accum_bytes<bool, bool*>(3) == 24);
}

TEST_CASE("histogram privatized copies: the most within the budget, up to 32", "[histogram]")
{
  constexpr std::size_t limit = 227 * 1024;
  SECTION("256 bins: 32 copies, 32 KiB")
  {
    const hi::launch_plan plan = hi::plan_shared_memory(256, 0, limit);
    CHECK(plan.use_shared);
    CHECK(plan.priv_bins == 256);
    CHECK(plan.copies == 32);
    CHECK(plan.smem == 32 * 1024);
    CHECK_FALSE(plan.stage_levels);
    CHECK(plan.grid == 1);
  }
  SECTION("1024 bins: 8 copies (16 would pass the 48 KiB budget)")
  {
    const hi::launch_plan plan = hi::plan_shared_memory(1024, 0, limit);
    CHECK(plan.copies == 8);
    CHECK(plan.smem == 32 * 1024);
  }
  SECTION("one copy over the budget but within the limit: one copy")
  {
    const hi::launch_plan plan = hi::plan_shared_memory(20000, 0, limit);
    CHECK(plan.use_shared);
    CHECK(plan.copies == 1);
    CHECK(plan.smem == 80000);
  }
  SECTION("one copy beyond the limit: the global-atomics kernel")
  {
    const hi::launch_plan plan = hi::plan_shared_memory(60000, 0, limit);
    CHECK_FALSE(plan.use_shared);
    CHECK(plan.smem == 0);
  }
  SECTION("range levels are staged behind the copies, 16-byte aligned, when they fit")
  {
    const hi::launch_plan plan = hi::plan_shared_memory(100, 101 * 4, limit);
    CHECK(plan.copies == 32);
    CHECK(plan.stage_levels);
    CHECK(plan.smem == hi::staged_levels_offset(100, 32) + 101 * 4);
    const hi::launch_plan full = hi::plan_shared_memory(20000, 20001 * 8, limit);
    CHECK_FALSE(full.stage_levels);
    CHECK(full.smem == 80000);
  }
}

TEST_CASE("histogram staged levels start at a 16-byte boundary behind the copies", "[histogram]")
{
  STATIC_REQUIRE(hi::staged_levels_offset(256, 32) == 32768);
  STATIC_REQUIRE(hi::staged_levels_offset(3, 1) == 16);
  STATIC_REQUIRE(hi::staged_levels_offset(5, 1) == 32);
}

TEST_CASE("histogram grids: persistent, never more blocks than tiles", "[histogram]")
{
  CHECK(hi::persistent_grid(132, 6) == 792);
  CHECK(hi::persistent_grid(132, 16) == 132 * 8);
  hi::launch_plan plan;
  plan.grid = 100;
  CHECK(hi::global_launch_grid(plan, 1, 2048) == 1);
  CHECK(hi::global_launch_grid(plan, 2049, 2048) == 2);
  CHECK(hi::global_launch_grid(plan, std::uint64_t(1) << 40, 2048) == 100);
}

TEST_CASE("histogram alignment head: samples before the first 16-byte boundary", "[histogram]")
{
  CHECK(hi::aligned_head(0x1000, 1, 100) == 0);
  CHECK(hi::aligned_head(0x1003, 1, 100) == 13);
  CHECK(hi::aligned_head(0x1003, 1, 5) == 5);
  CHECK(hi::aligned_head(0x1004, 4, 100) == 3);
  CHECK(hi::aligned_head(0x1002, 4, 100) == 100); // misaligned for its type: all guarded
}

TEST_CASE("histogram launches: at most 2^31 samples of full tiles per block and launch", "[histogram]")
{
  constexpr std::uint64_t tile = 256 * 64;
  hi::launch_plan plan;
  plan.grid      = 2;
  plan.priv_bins = 256;
  plan.copies    = 32;
  SECTION("a short input: one launch, head and tail guarded")
  {
    const hi::shared_launch work = hi::shared_launch_at(plan, 3 * tile + 10, 0, 7, tile);
    CHECK(work.head == 7);
    CHECK(work.full_tiles == 3);
    CHECK(work.n == 3 * tile + 10);
    CHECK(work.priv_bins == 256);
    CHECK(work.copies == 32);
    CHECK(hi::shared_launch_grid(plan, work) == 2);
  }
  SECTION("fewer samples than a tile: one block counts them guarded")
  {
    const hi::shared_launch work = hi::shared_launch_at(plan, 100, 0, 3, tile);
    CHECK(work.full_tiles == 0);
    CHECK(work.n == 100);
    CHECK(hi::shared_launch_grid(plan, work) == 1);
  }
  SECTION("a long input: launches of grid x 2^31 samples, the head only in the first")
  {
    const std::uint64_t chunk = 2 * (std::uint64_t(1) << 31);
    const std::uint64_t n     = 7 + 2 * chunk + 5;
    const hi::shared_launch first = hi::shared_launch_at(plan, n, 0, 7, tile);
    CHECK(first.head == 7);
    CHECK(first.full_tiles == chunk / tile);
    CHECK(first.n == 7 + chunk);
    const hi::shared_launch second = hi::shared_launch_at(plan, n, first.n, 7, tile);
    CHECK(second.head == 0);
    CHECK(second.n == chunk);
    const hi::shared_launch last = hi::shared_launch_at(plan, n, first.n + second.n, 7, tile);
    CHECK(last.n == n - first.n - second.n);
    CHECK(last.full_tiles == 0);
  }
}
