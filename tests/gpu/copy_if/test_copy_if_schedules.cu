// copy_if on each schedule, and the specialised schedule.
#include "schedule_cases.cuh"

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// copy_if's in-order, pipelined and bulk tile schedules, each forced (tuning.hpp, tile_schedule):
// `in_order` (a block finishes a tile before it loads the next), `pipelined` (a block issues its next
// tile's loads before it waits for the current tile's look-back) and `bulk` (the copy engine brings a
// block's next tiles into shared-memory slots; where it does not apply, off the vector load path, it
// runs in order, so those cases repeat the in-order ones). The public calls run the tuning's schedule
// (the other test files); here the dispatcher runs each one on the same inputs as stock Thrust
// (schedule_cases.cuh; the specialised schedule: below).

TEMPLATE_TEST_CASE_SIG("copy_if under each forced schedule, a few tiles (small enough for the sanitizers)",
                       "[copy_if][schedule][small]",
                       ((schedule_choice S), S),
                       (schedule_choice::in_order),
                       (schedule_choice::pipelined),
                       (schedule_choice::bulk))
{
  few_tiles<S>();
}

TEMPLATE_TEST_CASE_SIG("copy_if under each forced schedule matches thrust on the vector paths",
                       "[copy_if][schedule]",
                       ((schedule_choice S), S),
                       (schedule_choice::in_order),
                       (schedule_choice::pipelined),
                       (schedule_choice::bulk))
{
  vector_paths<S>();
}

TEMPLATE_TEST_CASE_SIG("copy_if under each forced schedule with more tiles than resident blocks",
                       "[copy_if][schedule][many_tiles][slow]",
                       ((schedule_choice S), S),
                       (schedule_choice::in_order),
                       (schedule_choice::pipelined),
                       (schedule_choice::bulk))
{
  more_tiles_than_blocks<S>();
}

TEMPLATE_TEST_CASE_SIG("copy_if under each forced schedule: item-by-item loads, stencils, discard",
                       "[copy_if][schedule][iterators]",
                       ((schedule_choice S), S),
                       (schedule_choice::in_order),
                       (schedule_choice::pipelined),
                       (schedule_choice::bulk))
{
  other_paths<S>();
}

TEMPLATE_TEST_CASE_SIG("copy_if under each forced schedule past 2^31 items",
                       "[copy_if][schedule][large]",
                       ((schedule_choice S), S),
                       (schedule_choice::in_order),
                       (schedule_choice::pipelined),
                       (schedule_choice::bulk))
{
  past_2_31<S>();
}

// --------------------------------------------------------------------------------------------------
// copy_if's specialised tile schedule, forced (tuning.hpp, tile_schedule; agent.cuh, run_specialized):
// a producer warp, a look-back warp and the tile's warps, on the same cases as the other schedules
// (schedule_cases.cuh): every load path (off the vector load path it runs in order), edge sizes and a
// lone tile (one block with all three roles), more tiles than resident blocks, misaligned starts,
// stencils, discard outputs, a count past 2^31 on both load paths.

TEST_CASE("copy_if, specialised schedule forced, a few tiles (small enough for the sanitizers)",
          "[copy_if][schedule][small][specialized]")
{
  few_tiles<schedule_choice::specialized>();
}

TEST_CASE("copy_if, specialised schedule forced, matches thrust on the vector paths", "[copy_if][schedule][specialized]")
{
  vector_paths<schedule_choice::specialized>();
}

TEST_CASE("copy_if, specialised schedule forced, more tiles than resident blocks",
          "[copy_if][schedule][many_tiles][slow][specialized]")
{
  more_tiles_than_blocks<schedule_choice::specialized>();
}

TEST_CASE("copy_if, specialised schedule forced: item-by-item loads, stencils, discard",
          "[copy_if][schedule][iterators][specialized]")
{
  other_paths<schedule_choice::specialized>();
}

TEST_CASE("copy_if, specialised schedule forced, past 2^31 items", "[copy_if][schedule][large][specialized]")
{
  past_2_31<schedule_choice::specialized>();
}
