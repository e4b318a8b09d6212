// reduce_by_key kernel variants, u32/u32 at 2^28, runs of 1 / 8 / 1e5 (docs/design/compaction.md,
// variants, the rows of 2026-12-07): agent.cuh's generic agent over run items (main's) under other
// rows, look-back delays and block sizes, and the flag-word agent of rbk-flag-words.patch (which this
// file needs applied: the flags_rows* tunings pick segmented_agent for run items, and
// flags_rows_tilestore its `runs_tile_store` switch). Each variant's output is checked bitwise
// against the generic agent's (count, keys, values, poisoned past the count), then timed with CUDA
// events, medians of R. Build from the repo root:
//   nvcc -O3 -DNDEBUG -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/rbk-variants.cu -o rbk_variants
// Run: rbk_variants [reps=15] [mean: 0 = 1, 8 and 1e5] [variant mask] [passes=2]
#include "rbk_harness.cuh"

namespace sc = sweep::detail::scan_impl;
using rbk_harness::generic4;
using rbk_harness::rbk;

template <int R> struct flags_rows : sc::tuning_sm90 { static constexpr int rows_runs = R; };
template <int R> struct flags_rows_tilestore : sc::tuning_sm90 { static constexpr int rows_runs = R; static constexpr bool runs_tile_store = true; };
template <int R> struct flags_rows_nostash : sc::tuning_sm90 { static constexpr int rows_runs = R; static constexpr bool segmented_stash = false; };
template <int R> struct generic_rows : generic4 { static constexpr int rows_runs = R; };
template <unsigned D> struct generic_delay : generic4 { static constexpr unsigned lookback_delay_ns = D; };
template <int B> struct generic_block : generic4 { static constexpr int block_threads = B; };

int main(int argc, char** argv)
{
  return rbk_harness::main(argc, argv, {1u, 8u, 100000u}, 0x7fff, [](auto& run, unsigned mask) {
    if (mask & 1) run("generic rows 4 (main)", rbk<generic4>);
    if (mask & 2) run("flags rows 4", rbk<flags_rows<4>>);
    if (mask & 4) run("flags rows 4 per-tile store", rbk<flags_rows_tilestore<4>>);
    if (mask & 8) run("generic rows 3", rbk<generic_rows<3>>);
    if (mask & 16) run("generic rows 5", rbk<generic_rows<5>>);
    if (mask & 32) run("generic delay 0", rbk<generic_delay<0>>);
    if (mask & 64) run("generic delay 250", rbk<generic_delay<250>>);
    if (mask & 128) run("generic delay 500", rbk<generic_delay<500>>);
    if (mask & 256) run("generic delay 2000", rbk<generic_delay<2000>>);
    if (mask & 512) run("generic block 256", rbk<generic_block<256>>);
    if (mask & 1024) run("flags rows 5", rbk<flags_rows<5>>);
    if (mask & 2048) run("flags rows 6", rbk<flags_rows<6>>);
    if (mask & 4096) run("flags rows 8", rbk<flags_rows<8>>);
    if (mask & 8192) run("flags rows 4 no stash", rbk<flags_rows_nostash<4>>);
    if (mask & 16384) run("flags rows 6 no stash", rbk<flags_rows_nostash<6>>);
  });
}
