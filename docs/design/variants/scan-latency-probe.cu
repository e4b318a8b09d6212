// Probe: whole calls (sweep::par, synchronizing) of the integral scans at small n: the tuned tile
// (forced, so that no latency tile is picked), in-order tiles of 1 / 2 / 4 rows of 512 threads, the
// library's own pick (plan.hpp, pick_latency_tile; on headers before it, the tuned tile), CUB
// preallocated (+ sync, int and 64-bit counts) and thrust::device. u32 inclusive sum; u32/u32
// inclusive and exclusive sum by key, runs of 8. Every cell is checked against Thrust first; the
// cells of a group are timed in 9 interleaved rounds of 100 calls, medians printed (us a call).
// docs/design/scan.md, variants, "The latency tiles". Build:
//   nvcc -O3 -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/scan-latency-probe.cu -o latency_probe
#include <sweep/scan.cuh>
#include <sweep/scan_by_key.cuh>
#include <thrust/device_vector.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "probe_cells.cuh" // ck, cell, median, time_interleaved

namespace si = sweep::detail::scan_impl;

template <int R>
struct lat : si::tuning_sm90
{
  static constexpr bool bulk_copies            = false;
  static constexpr int rows                    = R;
  static constexpr int rows_segmented          = R;
  static constexpr int rows_segmented_shifted  = R;
  static constexpr int rows_segmented_exclusive = R;
};
//! The tuned tiles as explicit tunings: a Choice other than tuned / tuned_exclusive is never switched.
struct fixed : si::tuning_sm90
{};
struct fixed_exclusive : si::tuning_sm90
{
  static constexpr int rows_segmented = si::tuning_sm90::rows_segmented_exclusive;
};

int main()
{
  cudaStream_t s = 0;
  for (std::size_t n : {std::size_t(1000), std::size_t(3000), std::size_t(4096), std::size_t(6000), std::size_t(8192), std::size_t(16384), std::size_t(32768), std::size_t(65536), std::size_t(131072), std::size_t(262144), std::size_t(393216), std::size_t(524288), std::size_t(786432), std::size_t(1048576), std::size_t(1572864)})
  {
    const int lg = int(n);
    std::vector<unsigned> hk(n), hv(n);
    std::mt19937 rng(1234 + lg);
    unsigned key = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      if (rng() % 8 == 0) ++key;
      hk[i] = key;
      hv[i] = rng() % 1000;
    }
    thrust::device_vector<unsigned> keys(hk), vals(hv), ref(n), out(n, 0xdeadbeefu);
    const unsigned* k = thrust::raw_pointer_cast(keys.data());
    const unsigned* v = thrust::raw_pointer_cast(vals.data());
    unsigned* o       = thrust::raw_pointer_cast(out.data());
    std::size_t tb = 0, most = 0;
    cub::DeviceScan::InclusiveSum(nullptr, tb, v, o, int(n)); most = std::max(most, tb);
    cub::DeviceScan::InclusiveSumByKey(nullptr, tb, k, v, o, int(n)); most = std::max(most, tb);
    cub::DeviceScan::ExclusiveSumByKey(nullptr, tb, k, v, o, int(n)); most = std::max(most, tb);
    cub::DeviceScan::InclusiveSum(nullptr, tb, v, o, (long long)n); most = std::max(most, tb);
    cub::DeviceScan::InclusiveSumByKey(nullptr, tb, k, v, o, (long long)n); most = std::max(most, tb);
    cub::DeviceScan::ExclusiveSumByKey(nullptr, tb, k, v, o, (long long)n); most = std::max(most, tb);
    void* temp = nullptr;
    ck(cudaMalloc(&temp, most), "temp");
    auto sync = [&] { ck(cudaStreamSynchronize(s), "sync"); };

    using plus = ::cuda::std::plus<>;
    using item = si::segment_item<unsigned>;
    using inmode = si::scan_mode<false, false>;
    auto by_key = [&](auto choice, bool excl) {
      using C = decltype(choice);
      if (excl)
      {
        const si::segment_input<unsigned, const unsigned*, const unsigned*, ::cuda::std::equal_to<>, true> in{k, v, {}, 0u, 0, true};
        const si::inclusive_by_key_output<unsigned, unsigned*> ot{o, 0, true};
        auto pol = sweep::par;
        si::dispatch<item, inmode, C>(pol, in, n, ot, si::segmented_op<unsigned, plus>{plus{}}, item{}, "probe");
      }
      else
      {
        const si::segment_input<unsigned, const unsigned*, const unsigned*, ::cuda::std::equal_to<>, false> in{k, v, {}, 0u, 0, true};
        const si::inclusive_by_key_output<unsigned, unsigned*> ot{o, 0, true};
        auto pol = sweep::par;
        si::dispatch<item, inmode, C>(pol, in, n, ot, si::segmented_op<unsigned, plus>{plus{}}, item{}, "probe");
      }
    };
    auto plain = [&](auto choice) {
      using C = decltype(choice);
      auto pol = sweep::par;
      si::dispatch<unsigned, inmode, C>(pol, v, n, o, plus{}, 0u, "probe");
    };

    struct group { const char* what; std::vector<cell> cells; std::function<void()> reference; };
    std::vector<group> groups;
    groups.push_back({"inclusive u32", {
      {"sweep tuned", [&] { plain(fixed{}); }},
      {"sweep r1", [&] { plain(lat<1>{}); }},
      {"sweep r2", [&] { plain(lat<2>{}); }},
      {"sweep r4", [&] { plain(lat<4>{}); }},
      {"sweep pick", [&] { plain(si::tuned{}); }},
      {"cub int", [&] { std::size_t b = most; cub::DeviceScan::InclusiveSum(temp, b, v, o, int(n), s); sync(); }},
      {"cub i64", [&] { std::size_t b = most; cub::DeviceScan::InclusiveSum(temp, b, v, o, (long long)n, s); sync(); }},
      {"thrust", [&] { thrust::inclusive_scan(thrust::device, v, v + n, o); }}},
      [&] { thrust::inclusive_scan(thrust::device, v, v + n, thrust::raw_pointer_cast(ref.data())); }});
    groups.push_back({"inclusive by key", {
      {"sweep tuned", [&] { by_key(fixed{}, false); }},
      {"sweep r1", [&] { by_key(lat<1>{}, false); }},
      {"sweep r2", [&] { by_key(lat<2>{}, false); }},
      {"sweep r4", [&] { by_key(lat<4>{}, false); }},
      {"sweep pick", [&] { by_key(si::tuned{}, false); }},
      {"cub int", [&] { std::size_t b = most; cub::DeviceScan::InclusiveSumByKey(temp, b, k, v, o, int(n), ::cuda::std::equal_to<>{}, s); sync(); }},
      {"cub i64", [&] { std::size_t b = most; cub::DeviceScan::InclusiveSumByKey(temp, b, k, v, o, (long long)n, ::cuda::std::equal_to<>{}, s); sync(); }},
      {"thrust", [&] { thrust::inclusive_scan_by_key(thrust::device, k, k + n, v, o); }}},
      [&] { thrust::inclusive_scan_by_key(thrust::device, k, k + n, v, thrust::raw_pointer_cast(ref.data())); }});
    groups.push_back({"exclusive by key", {
      {"sweep tuned", [&] { by_key(fixed_exclusive{}, true); }},
      {"sweep r1", [&] { by_key(lat<1>{}, true); }},
      {"sweep r2", [&] { by_key(lat<2>{}, true); }},
      {"sweep r4", [&] { by_key(lat<4>{}, true); }},
      {"sweep pick", [&] { by_key(si::tuned_exclusive{}, true); }},
      {"cub int", [&] { std::size_t b = most; cub::DeviceScan::ExclusiveSumByKey(temp, b, k, v, o, int(n), ::cuda::std::equal_to<>{}, s); sync(); }},
      {"cub i64", [&] { std::size_t b = most; cub::DeviceScan::ExclusiveSumByKey(temp, b, k, v, o, (long long)n, ::cuda::std::equal_to<>{}, s); sync(); }},
      {"thrust", [&] { thrust::exclusive_scan_by_key(thrust::device, k, k + n, v, o); }}},
      [&] { thrust::exclusive_scan_by_key(thrust::device, k, k + n, v, thrust::raw_pointer_cast(ref.data())); }});

    for (auto& g : groups)
    {
      g.reference();
      ck(cudaDeviceSynchronize(), "ref");
      for (auto& c : g.cells)
      {
        thrust::fill(out.begin(), out.end(), 0xdeadbeefu);
        c.call();
        ck(cudaDeviceSynchronize(), c.name.c_str());
        if (!thrust::equal(out.begin(), out.end(), ref.begin()))
        {
          std::printf("MISMATCH n=%d %s %s\n", lg, g.what, c.name.c_str());
        }
      }
      time_interleaved(g.cells);
      std::printf("n=%d %-17s", lg, g.what);
      double cubbest = std::min(median(g.cells[5].us), median(g.cells[6].us));
      double thr     = median(g.cells[7].us);
      for (auto& c : g.cells)
      {
        std::printf(" | %s %.2f", c.name.c_str(), median(c.us));
      }
      std::printf("\n   ratios vs cub/thrust:");
      for (int i = 0; i < 5; ++i)
      {
        std::printf("  %s %.2fx/%.2fx", g.cells[i].name.c_str(), cubbest / median(g.cells[i].us), thr / median(g.cells[i].us));
      }
      std::printf("\n");
      std::fflush(stdout);
    }
    cudaFree(temp);
  }
  return 0;
}
