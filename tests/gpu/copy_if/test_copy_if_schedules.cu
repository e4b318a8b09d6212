// copy_if's in-order, pipelined and bulk tile schedules, each forced (tuning.hpp, tile_schedule):
// `in_order` (a block finishes a tile before it loads the next), `pipelined` (a block issues its next
// tile's loads before it waits for the current tile's look-back) and `bulk` (the copy engine brings a
// block's next tiles into shared-memory slots; where it does not apply, off the vector load path, it
// runs in order, so those cases repeat the in-order ones). The public calls run the tuning's schedule
// (the other test files); here the dispatcher runs each one on the same inputs as stock Thrust
// (schedule_cases.cuh; the specialised schedule: test_copy_if_specialized.cu).
#include "schedule_cases.cuh"

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
