// copy_if's specialised tile schedule, forced (tuning.hpp, tile_schedule; agent.cuh, run_specialized):
// a producer warp, a look-back warp and the tile's warps, on the same cases as the other schedules
// (schedule_cases.cuh): every load path (off the vector load path it runs in order), edge sizes and a
// lone tile (one block with all three roles), more tiles than resident blocks, misaligned starts,
// stencils, discard outputs, a count past 2^31 on both load paths.
#include "schedule_cases.cuh"

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
