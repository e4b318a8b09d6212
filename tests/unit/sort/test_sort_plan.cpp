// The onesweep sort's host plan (plan.hpp, make_sort_plan): portions, tiles, tile state and the
// temporary storage parts, for the paths dispatch.cuh takes.
#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/sort/tuning.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>

using namespace sweep::detail::sort_impl;

TEST_CASE("a small keys-only sort: one portion, a tile state per pass, no value parts", "[sort][plan]")
{
  const std::size_t n = 5000, tile = 256 * 8;
  const sort_plan plan = make_sort_plan(n, tile, 4, 4, 0, false, 0);
  REQUIRE(plan.portions == 1);
  REQUIRE(plan.per_portion % tile == 0);
  REQUIRE(plan.max_tiles == 3);
  REQUIRE(plan.counters == 4);
  REQUIRE(plan.state_bytes == 3 * 256 * 4);
  REQUIRE(plan.state_per_pass);
  REQUIRE(plan.part_bytes[alt_keys] == n * 4);
  REQUIRE(plan.part_bytes[alt_values] == 0);
  REQUIRE(plan.part_bytes[positions] == 0);
  REQUIRE(plan.part_bytes[value_copy] == 0);
  REQUIRE(plan.part_bytes[bins] == 4 * 512 * 8);
  REQUIRE(plan.part_bytes[routes] == 5 * 4);
  REQUIRE(plan.part_bytes[hist_and_counters] == (4 * 256 + 4 + 1) * 8); // + the histogram's done count
  REQUIRE(plan.part_bytes[state_words] == 4 * plan.state_bytes);
}

TEST_CASE("pairs: values moved with the keys, or sorted as positions and gathered", "[sort][plan]")
{
  const std::size_t n = 1000000, tile = 384 * 14;
  const sort_plan direct = make_sort_plan(n, tile, 8, 8, 8, false, 8);
  REQUIRE(direct.part_bytes[alt_keys] == n * 8);
  REQUIRE(direct.part_bytes[alt_values] == n * 8);
  REQUIRE(direct.part_bytes[positions] == 0);
  REQUIRE(direct.part_bytes[value_copy] == 0);
  const sort_plan index = make_sort_plan(n, tile, 4, 4, 4, true, 24);
  REQUIRE(index.part_bytes[alt_values] == n * 4); // positions B
  REQUIRE(index.part_bytes[positions] == n * 4);  // positions A
  REQUIRE(index.part_bytes[value_copy] == n * 24);
}

TEST_CASE("past one portion: a shared tile state, a tile counter per (pass, portion)", "[sort][plan]")
{
  const std::size_t tile = 512 * 21;
  const std::size_t per  = portion_keys(tile);
  const std::size_t n    = 3 * per + 5;
  const sort_plan plan   = make_sort_plan(n, tile, 4, 4, 0, false, 0);
  REQUIRE(plan.per_portion == per);
  REQUIRE(plan.portions == 4);
  REQUIRE(plan.counters == 16);
  REQUIRE(plan.max_tiles == per / tile);
  REQUIRE_FALSE(plan.state_per_pass);
  REQUIRE(plan.part_bytes[state_words] == plan.state_bytes);
  REQUIRE(plan.part_bytes[hist_and_counters] == (4 * 256 + 16 + 1) * 8);
}

TEST_CASE("one tile state per pass only up to state_upfront_max_bytes (or a lower limit)", "[sort][plan]")
{
  const std::size_t tile = 512 * 21;
  // Four passes of 1 KiB a tile: state_upfront_max_bytes / 4 KiB tiles.
  const std::size_t at_limit = (state_upfront_max_bytes / (4 * 1024)) * tile;
  REQUIRE(make_sort_plan(at_limit, tile, 4, 4, 0, false, 0).state_per_pass);
  REQUIRE_FALSE(make_sort_plan(at_limit + 1, tile, 4, 4, 0, false, 0).state_per_pass);
  // Eight passes halve it.
  REQUIRE_FALSE(make_sort_plan(at_limit, tile, 8, 8, 0, false, 0).state_per_pass);
  // The limit as an argument (the dispatcher's test hook): 4 MiB is 1024 tiles of four passes.
  const std::size_t at_4mib = 1024 * tile;
  REQUIRE(make_sort_plan(at_4mib, tile, 4, 4, 0, false, 0, std::size_t(4) << 20).state_per_pass);
  REQUIRE_FALSE(make_sort_plan(at_4mib + 1, tile, 4, 4, 0, false, 0, std::size_t(4) << 20).state_per_pass);
  REQUIRE(make_sort_plan(at_4mib + 1, tile, 4, 4, 0, false, 0).state_per_pass);
  // u32 keys at 2^24 and 2^26 (6.4 and 25.6 MB) have a state per pass, at 2^28 (100 MB) they share one.
  REQUIRE(make_sort_plan(std::size_t(1) << 26, tile, 4, 4, 0, false, 0).state_per_pass);
  REQUIRE_FALSE(make_sort_plan(std::size_t(1) << 28, tile, 4, 4, 0, false, 0).state_per_pass);
}
