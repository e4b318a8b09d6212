// Build (from the repository root): nvcc -std=c++17 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -I include -o bykey_var docs/design/variants/bykey_var.cu
// exp (s20): scan-by-key agent variants through dispatch's Choice, one binary: the generic agent over
// segment_items (main's) against segmented_agent (head flags as the bits of one word), rows / blocks /
// stash. u32 keys (runs of 8 on average unless noted), 2^28 items, medians of 15 (events). Integer
// results checked against thrust; f32 results checked bitwise against the generic agent's (the same
// association).
#include <sweep/scan_by_key.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>
#include <thrust/scan.h>
#include <thrust/equal.h>
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>
namespace sc = sweep::detail::scan_impl;
using base = sc::tuning_sm90;
// Each variant names its rows, blocks and stash (base is the merged tuning: 6 rows, 2 blocks, stashed).
template <int Rows, int Blocks, bool Stash, bool Generic = false>
struct shape : base
{
  static constexpr int rows_segmented          = Rows;
  static constexpr int blocks_per_sm_segmented = Blocks;
  static constexpr bool segmented_stash        = Stash;
  static constexpr bool segment_items_generic  = Generic;
};
using generic     = shape<4, 2, false, true>;
using flags_r4b2  = shape<4, 2, false>;
using flags_r4b2s = shape<4, 2, true>;
using flags_r3b3s = shape<3, 3, true>;
using flags_r2b3s = shape<2, 3, true>;
using flags_r4b3s = shape<4, 3, true>;
using flags_r5b2s = shape<5, 2, true>;
using flags_r6b2s = shape<6, 2, true>;
using flags_r3b3  = shape<3, 3, false>;
__host__ __device__ inline std::uint64_t mix(std::uint64_t x) { x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33; return x; }
struct head_of { std::uint32_t mean; __host__ __device__ std::uint32_t operator()(std::uint64_t i) const { return mean <= 1 ? 1u : (mix(i + 7) % mean == 0 ? 1u : 0u); } };
template <class V> struct gen { __host__ __device__ V operator()(std::uint64_t i) const { std::uint64_t h = mix(i + 99);
  if constexpr (std::is_floating_point<V>::value) return (V)((double)(h >> 40) / 16777216.0 - 0.3); else return (V)(h & 0xffff); } };
template <class F> float median_ms(F f, int reps = 15) {
  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e); std::vector<float> t; f(); f(); cudaDeviceSynchronize();
  for (int r = 0; r < reps; ++r) { cudaEventRecord(s); f(); cudaEventRecord(e); cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, s, e); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2]; }
template <class V, bool Excl, class Choice>
void run(const std::uint32_t* k, const V* v, V* o, std::size_t n) {
  using item = sc::segment_item<V>;
  const sc::segment_input<V, const std::uint32_t*, const V*, ::cuda::std::equal_to<>, Excl> input{k, v, {}, V{}, 0, sc::aligned16(k) && sc::aligned16(v)};
  const sc::inclusive_by_key_output<V, V*> output{o, 0, sc::aligned16(o)};
  auto policy = sweep::par_nosync;
  sc::dispatch<item, sc::scan_mode<false, false>, Choice>(policy, input, n, output, sc::segmented_op<V, ::cuda::std::plus<>>{{}}, item{}, "v");
}
template <class V, bool Excl, class Choice>
void variant(const char* label, const char* name, const thrust::device_vector<std::uint32_t>& keys, const thrust::device_vector<V>& vals,
             thrust::device_vector<V>& out, const thrust::device_vector<V>& ref) {
  const std::uint32_t* k = thrust::raw_pointer_cast(keys.data()); const V* v = thrust::raw_pointer_cast(vals.data()); V* o = thrust::raw_pointer_cast(out.data());
  thrust::fill(thrust::device, out.begin(), out.end(), V(-1));
  run<V, Excl, Choice>(k, v, o, keys.size()); cudaDeviceSynchronize();
  const bool ok = thrust::equal(thrust::device, out.begin(), out.end(), ref.begin());
  const float ms = median_ms([&] { run<V, Excl, Choice>(k, v, o, keys.size()); });
  std::printf("%-22s %-12s %8.4f ms %s\n", label, name, ms, ok ? "" : "MISMATCH");
}
template <class V, bool Excl>
void all(const char* label, std::size_t n, std::uint32_t mean) {
  thrust::device_vector<std::uint32_t> heads(n), keys(n); thrust::device_vector<V> vals(n), out(n), ref(n);
  thrust::transform(thrust::device, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n), heads.begin(), head_of{mean});
  thrust::inclusive_scan(thrust::device, heads.begin(), heads.end(), keys.begin());
  thrust::transform(thrust::device, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n), vals.begin(), gen<V>{});
  const std::uint32_t* k = thrust::raw_pointer_cast(keys.data()); const V* v = thrust::raw_pointer_cast(vals.data());
  if constexpr (std::is_floating_point<V>::value) { run<V, Excl, generic>(k, v, thrust::raw_pointer_cast(ref.data()), n); cudaDeviceSynchronize(); }
  else if constexpr (Excl) thrust::exclusive_scan_by_key(thrust::device, keys.begin(), keys.end(), vals.begin(), ref.begin());
  else thrust::inclusive_scan_by_key(thrust::device, keys.begin(), keys.end(), vals.begin(), ref.begin());
  std::size_t bytes = 0; V* o = thrust::raw_pointer_cast(out.data());
  auto cub_call = [&](void* t, std::size_t& b) { if constexpr (Excl) return cub::DeviceScan::ExclusiveSumByKey(t, b, k, v, o, (long long)n); else return cub::DeviceScan::InclusiveSumByKey(t, b, k, v, o, (long long)n); };
  cub_call(nullptr, bytes); thrust::device_vector<unsigned char> tmp(bytes);
  const float cub = median_ms([&] { std::size_t b = bytes; cub_call(thrust::raw_pointer_cast(tmp.data()), b); });
  std::printf("%-22s %-12s %8.4f ms\n", label, "cub_i64", cub);
  for (int round = 0; round < 2; ++round) {
    variant<V, Excl, generic>(label, "generic", keys, vals, out, ref);
    variant<V, Excl, flags_r4b2>(label, "r4b2", keys, vals, out, ref);
    variant<V, Excl, flags_r4b2s>(label, "r4b2s", keys, vals, out, ref);
    variant<V, Excl, flags_r3b3>(label, "r3b3", keys, vals, out, ref);
    variant<V, Excl, flags_r3b3s>(label, "r3b3s", keys, vals, out, ref);
    variant<V, Excl, flags_r2b3s>(label, "r2b3s", keys, vals, out, ref);
    variant<V, Excl, flags_r4b3s>(label, "r4b3s", keys, vals, out, ref);
    variant<V, Excl, flags_r5b2s>(label, "r5b2s", keys, vals, out, ref);
    variant<V, Excl, flags_r6b2s>(label, "r6b2s", keys, vals, out, ref);
  }
}
int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  const std::size_t n = std::size_t(1) << 28;
  all<std::uint32_t, false>("u32 incl runs8", n, 8);
  all<std::uint32_t, true>("u32 excl runs8", n, 8);
  all<std::uint32_t, false>("u32 incl runs1", n, 1);
  all<std::uint32_t, false>("u32 incl runs1e5", n, 100000);
  all<float, false>("f32 incl runs8", n, 8);
  all<std::uint64_t, false>("u64 incl runs8 (2^27)", n / 2, 8);
  std::printf("done, last error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
