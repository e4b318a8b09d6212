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
#include <sweep/reduce_by_key.cuh>
#include <sweep/execution_policy.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace sc = sweep::detail::scan_impl;

struct generic4 : sc::tuning_sm90 { static constexpr bool segment_items_generic = true; };
template <int R> struct flags_rows : sc::tuning_sm90 { static constexpr int rows_runs = R; };
template <unsigned D> struct generic_delay : sc::tuning_sm90 { static constexpr bool segment_items_generic = true; static constexpr unsigned lookback_delay_ns = D; };
template <int B> struct generic_block : sc::tuning_sm90 { static constexpr bool segment_items_generic = true; static constexpr int block_threads = B; };
template <int M> struct generic_occ : sc::tuning_sm90 { static constexpr bool segment_items_generic = true; static constexpr int blocks_per_sm_segmented = M; };
template <int R> struct generic_rows : sc::tuning_sm90 { static constexpr int rows_runs = R; static constexpr bool segment_items_generic = true; };
template <int R> struct flags_rows_tilestore : sc::tuning_sm90 { static constexpr int rows_runs = R; static constexpr bool runs_tile_store = true; };
template <int R> struct flags_rows_nostash : sc::tuning_sm90 { static constexpr int rows_runs = R; static constexpr bool segmented_stash = false; };

using u32 = std::uint32_t;

template <class Choice>
void rbk(const u32* keys, const u32* vals, u32* kout, u32* vout, unsigned long long* seg, std::uint64_t n)
{
  using item = sc::run_item<u32, u32>;
  const sc::run_input<u32, u32, const u32*, const u32*, ::cuda::std::equal_to<>> input{
    keys, vals, {}, static_cast<std::int64_t>(n), 0, sc::aligned16(keys) && sc::aligned16(vals)};
  const sc::run_output<u32, u32, const u32*, u32*, u32*> output{keys, kout, vout, seg, static_cast<std::int64_t>(n), 0};
  auto policy = sweep::par_nosync;
  sc::dispatch<item, sc::scan_mode<false, false>, Choice>(policy, input, n, output,
                                                          sc::run_op<u32, u32, ::cuda::std::plus<>>{{}}, item{}, "v", true);
}

struct bufs { thrust::device_vector<u32> k, v; };

int main(int argc, char** argv)
{
  const std::uint64_t n = std::uint64_t(1) << 28;
  const int reps = argc > 1 ? std::atoi(argv[1]) : 15;
  const unsigned only_mean = argc > 2 ? std::atoi(argv[2]) : 0;   // 0: every mean
  const unsigned mask = argc > 3 ? std::strtoul(argv[3], nullptr, 0) : 0xfff; // variants
  const int passes = argc > 4 ? std::atoi(argv[4]) : 2;
  thrust::device_vector<u32> keys(n), vals(n), kout(n), vout(n), kref(n), vref(n);
  thrust::device_vector<unsigned long long> seg(2);
  std::vector<u32> hk(n), hv(n);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (u32 mean : {1u, 8u, 100000u})
  {
    if (only_mean != 0 && mean != only_mean) continue;
    std::mt19937_64 g(0x5eed + mean);
    u32 key = 0; std::uint64_t i = 0;
    while (i < n)
    {
      std::uint64_t len = mean == 1 ? 1 : 1 + g() % (2 * mean - 1);
      for (std::uint64_t e = std::min<std::uint64_t>(n, i + len); i < e; ++i) hk[i] = key;
      ++key;
    }
    for (std::uint64_t j = 0; j < n; ++j) hv[j] = static_cast<u32>(g()) & 0xffff;
    thrust::copy(hk.begin(), hk.end(), keys.begin());
    thrust::copy(hv.begin(), hv.end(), vals.begin());
    const u32* K = thrust::raw_pointer_cast(keys.data());
    const u32* V = thrust::raw_pointer_cast(vals.data());
    unsigned long long* S = thrust::raw_pointer_cast(seg.data());
    rbk<generic4>(K, V, thrust::raw_pointer_cast(kref.data()), thrust::raw_pointer_cast(vref.data()), S, n);
    cudaDeviceSynchronize();
    unsigned long long ref_count = seg[0];
    auto run_variant = [&](const char* name, auto fn) {
      seg[0] = 0;
      thrust::fill(kout.begin(), kout.end(), 0xdeadbeefu);
      thrust::fill(vout.begin(), vout.end(), 0xdeadbeefu);
      fn(K, V, thrust::raw_pointer_cast(kout.data()), thrust::raw_pointer_cast(vout.data()), S, n);
      cudaError_t e = cudaDeviceSynchronize();
      unsigned long long c = seg[0];
      bool ok = e == cudaSuccess && c == ref_count && thrust::equal(kout.begin(), kout.begin() + c, kref.begin())
             && thrust::equal(vout.begin(), vout.begin() + c, vref.begin())
             && (c == n || (kout[c] == 0xdeadbeefu && vout[c] == 0xdeadbeefu));
      std::vector<float> t;
      for (int r = 0; r < reps; ++r)
      {
        cudaEventRecord(a);
        fn(K, V, thrust::raw_pointer_cast(kout.data()), thrust::raw_pointer_cast(vout.data()), S, n);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      std::printf("runs %6u %-22s %s count %llu  median %.4f ms  min %.4f  max %.4f\n", mean, name, ok ? "OK  " : "FAIL", c,
                  t[t.size() / 2], t.front(), t.back());
      std::fflush(stdout);
    };
    for (int pass = 0; pass < passes; ++pass)
    {
      if (mask & 1) run_variant("generic rows 4 (main)", rbk<generic4>);
      if (mask & 2) run_variant("flags rows 4", rbk<flags_rows<4>>);
      if (mask & 4) run_variant("flags rows 4 per-tile store", rbk<flags_rows_tilestore<4>>);
      if (mask & 8) run_variant("generic rows 3", rbk<generic_rows<3>>);
      if (mask & 16) run_variant("generic rows 5", rbk<generic_rows<5>>);
      if (mask & 32) run_variant("generic delay 0", rbk<generic_delay<0>>);
      if (mask & 64) run_variant("generic delay 250", rbk<generic_delay<250>>);
      if (mask & 128) run_variant("generic delay 500", rbk<generic_delay<500>>);
      if (mask & 256) run_variant("generic delay 2000", rbk<generic_delay<2000>>);
      if (mask & 512) run_variant("generic block 256", rbk<generic_block<256>>);
      if (mask & 1024) run_variant("generic block 1024", rbk<generic_block<1024>>);
      if (mask & 2048) run_variant("generic 3 blocks/SM", rbk<generic_occ<3>>);
    }
  }
  return 0;
}
