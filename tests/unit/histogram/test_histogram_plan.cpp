// Host-only checks of the histograms' plan (plan.hpp): items per thread, privatized copies and
// shared memory under each architecture's tuning and the fit of those tunings, staged levels, the
// persistent grid, the alignment head and the split of a long input into launches. Built by a host
// compiler: plan.hpp needs no CUDA.
#include <sweep/detail/histogram/plan.hpp>
#include <sweep/detail/histogram/tuning.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>

namespace hi = sweep::detail::histogram_impl;

namespace
{
using sm90 = hi::tuning_sm90; // the H200's, measured

//! plan_shared_memory under sm_90's tuning, for byte samples.
hi::launch_plan plan_sm90(int priv_bins, std::size_t level_bytes, std::size_t limit)
{
  return hi::plan_shared_memory<sm90, std::uint8_t>(priv_bins, level_bytes, limit);
}
} // namespace

TEST_CASE("histogram items per thread: 64 bytes per thread for 1- and 2-byte samples, 32 otherwise", "[histogram]")
{
  STATIC_REQUIRE(sm90::block_threads == 256);
  STATIC_REQUIRE(hi::items_per_thread<sm90, std::uint8_t> == 64);
  STATIC_REQUIRE(hi::items_per_thread<sm90, std::int16_t> == 32);
  STATIC_REQUIRE(hi::items_per_thread<sm90, float> == 8);
  STATIC_REQUIRE(hi::items_per_thread<sm90, double> == 4);
  const hi::launch_plan bytes = hi::plan_shared_memory<sm90, std::uint8_t>(256, 0, 227 * 1024);
  CHECK(bytes.block_threads == 256);
  CHECK(bytes.items_per_thread == 64);
  CHECK(bytes.tile() == 256 * 64);
  const hi::launch_plan floats = hi::plan_shared_memory<sm90, float>(256, 0, 227 * 1024);
  CHECK(floats.items_per_thread == 8);
  CHECK(floats.tile() == 256 * 8);
  // The global-atomics kernel's plan carries its tile too.
  const hi::launch_plan global = hi::plan_shared_memory<sm90, float>(60000, 0, 227 * 1024);
  CHECK_FALSE(global.use_shared);
  CHECK(global.tile() == 256 * 8);
}

TEST_CASE("histogram tunings: sm_90's on sm_90 and sm_100, sized-from-limits ones elsewhere", "[histogram][arch]")
{
  STATIC_REQUIRE(std::is_same<hi::tuning_for<900>, sm90>::value);
  STATIC_REQUIRE(std::is_same<hi::tuning_for<1000>, sm90>::value);
  STATIC_REQUIRE(std::is_same<hi::tuning_for<0>, sm90>::value);
  STATIC_REQUIRE(std::is_same<hi::tuning_for<800>, hi::tuning_sm80>::value);
  STATIC_REQUIRE(std::is_same<hi::tuning_for<860>, hi::tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<hi::tuning_for<890>, hi::tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<hi::tuning_for<1200>, hi::tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<hi::tuning_for<750>, hi::tuning_sm75>::value);
  // Every struct fits the architectures it is chosen for: blocks with full budgets holding half the
  // SM's threads stay resident.
  for (int arch : sweep::detail::tuning_archs)
  {
    const sweep::detail::arch_limits limits = sweep::detail::limits_of(arch);
    const bool fits = sweep::detail::with_tuning_arch(arch, [&](auto a) {
      using tuning     = hi::tuning_for<decltype(a)::value>;
      const int blocks = limits.threads_per_sm / 2 / tuning::block_threads;
      CHECK(blocks * sweep::detail::shared_footprint(limits, tuning::copies_budget_bytes) <= limits.shared_per_sm);
      return hi::fits<tuning>(limits);
    });
    CHECK(fits);
  }
  // sm_90's 48 KiB budget would leave fewer blocks on the smaller SMs: the reason for their structs.
  CHECK_FALSE(hi::fits<sm90>(sweep::detail::limits_of(800)));
  CHECK_FALSE(hi::fits<sm90>(sweep::detail::limits_of(860)));
  CHECK_FALSE(hi::fits<sm90>(sweep::detail::limits_of(750)));
  // Only the copies budget differs; 256 bins keep 32 copies everywhere, 384 bins take 16 copies
  // under a 32 or 40 KiB budget.
  for (std::size_t limit : {std::size_t(64 * 1024), std::size_t(99 * 1024)})
  {
    CHECK(hi::plan_shared_memory<hi::tuning_sm75, std::uint8_t>(256, 0, limit).copies == 32);
    CHECK(hi::plan_shared_memory<hi::tuning_sm86, std::uint8_t>(256, 0, limit).copies == 32);
    CHECK(hi::plan_shared_memory<hi::tuning_sm86, std::uint8_t>(384, 0, limit).copies == 16);
  }
  CHECK(hi::plan_shared_memory<hi::tuning_sm80, float>(384, 0, 163 * 1024).copies == 16);
  CHECK(hi::plan_shared_memory<sm90, float>(384, 0, 227 * 1024).copies == 32);
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
    const hi::launch_plan plan = plan_sm90(256, 0, limit);
    CHECK(plan.use_shared);
    CHECK(plan.priv_bins == 256);
    CHECK(plan.copies == 32);
    CHECK(plan.smem == 32 * 1024);
    CHECK_FALSE(plan.stage_levels);
    CHECK(plan.grid == 1);
  }
  SECTION("1024 bins: 8 copies (16 would pass the 48 KiB budget)")
  {
    const hi::launch_plan plan = plan_sm90(1024, 0, limit);
    CHECK(plan.copies == 8);
    CHECK(plan.smem == 32 * 1024);
  }
  SECTION("one copy over the budget but within the limit: one copy")
  {
    const hi::launch_plan plan = plan_sm90(20000, 0, limit);
    CHECK(plan.use_shared);
    CHECK(plan.copies == 1);
    CHECK(plan.smem == 80000);
  }
  SECTION("one copy beyond the limit: the global-atomics kernel")
  {
    const hi::launch_plan plan = plan_sm90(60000, 0, limit);
    CHECK_FALSE(plan.use_shared);
    CHECK(plan.smem == 0);
  }
  SECTION("range levels are staged behind the copies, 16-byte aligned, when they fit")
  {
    const hi::launch_plan plan = plan_sm90(100, 101 * 4, limit);
    CHECK(plan.copies == 32);
    CHECK(plan.stage_levels);
    CHECK(plan.smem == hi::staged_levels_offset(100, 32) + 101 * 4);
    const hi::launch_plan full = plan_sm90(20000, 20001 * 8, limit);
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
  CHECK(hi::persistent_grid<sm90>(132, 6) == 792);
  CHECK(hi::persistent_grid<sm90>(132, 16) == 132 * 8);
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
