// scan by key: thrust::inclusive_scan_by_key / exclusive_scan_by_key on sweep::par vs thrust::device vs
// cub::DeviceScan::InclusiveSumByKey / ExclusiveSumByKey (temp storage preallocated; `int` and 64-bit
// counts), u32 keys and u32 values, runs of 1 (every key distinct), 8 on average and 100000, checked
// bitwise against Thrust before anything is timed. Throughput cells run the par_nosync policies.
// Bytes: keys and values read, results written (12 bytes an item).
//   scan/by_key_u32_runs{1,8,100000}/<impl>/2^28      inclusive sums
//   scan/by_key_excl_u32_runs8/<impl>/2^28            exclusive sums from 0
//   scan/latency_by_key_u32/<impl>/<n>                whole call, inclusive, runs of 8, 2^16 and 2^20
#include "bench_common.cuh"

#include <sweep/scan_by_key.cuh>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> keys, values, out_sweep, out_thrust, out_cub;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;

  bool exclusive;

  workload(std::size_t n_, std::uint32_t mean, std::uint64_t seed, bool exclusive_)
      : keys(n_)
      , values(n_)
      , out_sweep(n_)
      , out_thrust(n_)
      , out_cub(n_)
      , n(n_)
      , exclusive(exclusive_)
  {
    sweep_bench::fill_runs(keys, mean, seed);
    sweep_bench::fill_random(values, seed + 1, sweep_bench::low_bits{});
    std::size_t most = 0;
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_scan(form, nullptr, temp_bytes, 0), "cub::DeviceScan::InclusiveSumByKey temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_scan(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      if (exclusive)
      {
        return cub::DeviceScan::ExclusiveSumByKey(temp, temp_bytes, thrust::raw_pointer_cast(keys.data()),
                                                  thrust::raw_pointer_cast(values.data()),
                                                  thrust::raw_pointer_cast(out_cub.data()), count,
                                                  ::cuda::std::equal_to<>{}, stream);
      }
      return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, thrust::raw_pointer_cast(keys.data()),
                                                thrust::raw_pointer_cast(values.data()),
                                                thrust::raw_pointer_cast(out_cub.data()), count,
                                                ::cuda::std::equal_to<>{}, stream);
    });
  }

  template <class Policy>
  void scan(Policy policy, thrust::device_vector<std::uint32_t>& out)
  {
    if (exclusive)
    {
      thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin(), 0u);
    }
    else
    {
      thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin());
    }
  }

  void run(impl which, cudaStream_t stream, bool whole_call)
  {
    sweep_bench::run_uncounted(
      which, stream, whole_call, [&](auto policy) { scan(policy, which == impl::sweep ? out_sweep : out_thrust); },
      [&](void* temp, std::size_t& temp_bytes) { return cub_scan(which, temp, temp_bytes, stream); }, cub_temp, "cub::DeviceScan by key");
  }

  void check(const std::string& what)
  {
    run(impl::sweep, 0, true);
    run(impl::thrust, 0, true);
    sweep_bench::check_equal(out_thrust, out_sweep, n, what + " sweep vs thrust");
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      run(form, 0, true);
      sweep_bench::check_equal(out_thrust, out_cub, n, what + " " + impl_name(form) + " vs thrust");
    }
  }
};

void bench(benchmark::State& state, impl which, const std::string& what, std::uint32_t mean, bool exclusive,
           bool whole_call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& w             = sweep_bench::shared_workload<workload>("scan/" + what + "/" + std::to_string(n), [&] {
    return std::make_unique<workload>(n, mean, 0x5eed1000ull + n + mean, exclusive);
  });
  cudaStream_t stream = 0;
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream, whole_call);
  });
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(3 * n * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::int64_t n28 = std::int64_t(1) << 28;
  for (std::uint32_t mean : {1u, 8u, 100000u})
  {
    const std::string what = "by_key_u32_runs" + std::to_string(mean);
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", what, impl_name(which)).c_str(),
                                   [which, what, mean](benchmark::State& s) { bench(s, which, what, mean, false, false); })
        ->Arg(n28)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    }
  }
  for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
  {
    benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", "by_key_excl_u32_runs8", impl_name(which)).c_str(),
                                 [which](benchmark::State& s) { bench(s, which, "by_key_excl_u32_runs8", 8, true, false); })
      ->Arg(n28)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  }
  for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
  {
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", "latency_by_key_u32", impl_name(which)).c_str(),
                                   [which](benchmark::State& s) { bench(s, which, "latency_by_key_u32", 8, false, true); })
        ->Arg(n)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

} // namespace
