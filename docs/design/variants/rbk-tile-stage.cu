// reduce_by_key's tile stage in the library (docs/design/compaction.md, variants, "reduce_by_key's tile
// stage"; merged 2026-12-08). The kernel with its stage (tuning.hpp runs_stage_items) at 2048 (the
// library's tuning), off (0: the kernel before the stage), 4096 and 1024; CUB's
// DeviceReduce::ReduceByKey with int counts. Outputs checked bitwise against the library's kernel as
// built (rbk_harness::generic4: sm_90's tuning). Builds:
//   nvcc -O3 -DNDEBUG -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/rbk-tile-stage.cu -o rbk_tile_stage
// Run: rbk_tile_stage [reps=15] [mean: 0 = 1, 3, 8, 16 and 1e5] [mask: 1 off, 2 2048, 4 4096, 8 CUB,
//      16 1024] [passes=2]
#include "rbk_harness.cuh"

template <int Cap> struct stage_tuning : rbk_harness::generic4 { static constexpr int runs_stage_items = Cap; };
using rbk_harness::rbk;
using rbk_harness::u32;
using rbk_harness::cub_rbk;

int main(int argc, char** argv)
{
  return rbk_harness::main(argc, argv, {1u, 3u, 8u, 16u, 100000u}, 0x1f, [](auto& run, unsigned mask) {
    if (mask & 1) run("stage 0 (before)", rbk<stage_tuning<0>>);
    if (mask & 2) run("stage 2048 (library)", rbk<rbk_harness::generic4>);
    if (mask & 4) run("stage 4096", rbk<stage_tuning<4096>>);
    if (mask & 8) run("cub int counts", cub_rbk);
    if (mask & 16) run("stage 1024", rbk<stage_tuning<1024>>);
  });
}
