// Probe (session 34): the plain scans' partial tiles, built against each form's headers
// (docs/design/scan.md, variants, "The partial tile's rows"). Whole calls (sweep::par,
// synchronizing) of inclusive sums at sizes that end in partial tiles: u32 with the tuned tile
// forced and as picked, u8 and u64 as picked; CUB preallocated (+ sync, faster count form) beside. Each cell checked against Thrust first; timed in 9
// interleaved rounds of 100 calls, medians (us a call). Build:
//   nvcc -O3 -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/scan-plain-partial-probe.cu -o plain_probe
#include <sweep/scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/scan.h>
#include <thrust/equal.h>
#include <thrust/fill.h>
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "probe_cells.cuh" // ck, cell, median, time_interleaved

namespace si = sweep::detail::scan_impl;
struct fixed : si::tuning_sm90
{};

template <class T>
void group(std::size_t n, bool with_fixed)
{
  std::vector<T> h(n);
  std::mt19937 rng(77 + unsigned(n));
  for (auto& x : h) x = T(rng() % 1000);
  thrust::device_vector<T> in(h), ref(n), out(n);
  const T* v = thrust::raw_pointer_cast(in.data());
  T* o       = thrust::raw_pointer_cast(out.data());
  std::size_t tb = 0, most = 0;
  cub::DeviceScan::InclusiveSum(nullptr, tb, v, o, int(n)); most = std::max(most, tb);
  cub::DeviceScan::InclusiveSum(nullptr, tb, v, o, (long long)n); most = std::max(most, tb);
  void* temp = nullptr;
  ck(cudaMalloc(&temp, most), "temp");
  using plus   = ::cuda::std::plus<>;
  using inmode = si::scan_mode<false, false>;
  auto plain = [&](auto choice) {
    using C = decltype(choice);
    auto pol = sweep::par;
    si::dispatch<T, inmode, C>(pol, v, n, o, plus{}, T(0), "probe");
  };
  std::vector<cell> cells;
  if (with_fixed) cells.push_back({"sweep tuned", [&] { plain(fixed{}); }});
  cells.push_back({"sweep pick", [&] { plain(si::tuned{}); }});
  cells.push_back({"cub int", [&] { std::size_t b = most; cub::DeviceScan::InclusiveSum(temp, b, v, o, int(n), 0); ck(cudaStreamSynchronize(0), "s"); }});
  cells.push_back({"cub i64", [&] { std::size_t b = most; cub::DeviceScan::InclusiveSum(temp, b, v, o, (long long)n, 0); ck(cudaStreamSynchronize(0), "s"); }});
  thrust::inclusive_scan(thrust::device, v, v + n, thrust::raw_pointer_cast(ref.data()));
  for (auto& c : cells)
  {
    thrust::fill(out.begin(), out.end(), T(0x5b));
    c.call();
    ck(cudaDeviceSynchronize(), c.name.c_str());
    if (!thrust::equal(out.begin(), out.end(), ref.begin()))
      std::printf("MISMATCH n=%zu %zu-byte %s\n", n, sizeof(T), c.name.c_str());
  }
  time_interleaved(cells);
  std::printf("n=%zu u%zu", n, 8 * sizeof(T));
  for (auto& c : cells) std::printf(" | %s %.2f", c.name.c_str(), median(c.us));
  std::printf("\n");
  std::fflush(stdout);
  cudaFree(temp);
}

int main()
{
  for (std::size_t n : {std::size_t(3000), std::size_t(4097), std::size_t(12283), std::size_t(100003), std::size_t(1000000),
                        std::size_t(1048575), std::size_t(1500001), std::size_t(16777215), std::size_t(65536), std::size_t(1048576)})
  {
    group<std::uint32_t>(n, true);
    group<std::uint8_t>(n, false);
    group<std::uint64_t>(n, false);
  }
  return 0;
}
