// reduce_by_key: thrust::reduce_by_key on sweep::par vs thrust::device vs cub::DeviceReduce::ReduceByKey
// (temp storage preallocated; `int` and 64-bit counts, cub_i32 and cub_i64), u32 keys and u32 values
// summed with plus, runs of 1 (every key distinct), of 8 on average and of 100000, same data, checked
// bitwise against Thrust (unique keys and sums) before anything is timed. Throughput cells run the
// par_nosync policies (the number of runs still comes back to the host: Thrust's interface returns
// it); CUB's stays on the device.
// Bytes: keys and values read once, one key and one sum written per run.
//   reduce_by_key/u32_runs{1,8,100000}/<impl>/2^28
//   reduce_by_key/latency_u32_runs8/<impl>/<n>   whole call, 2^16 and 2^20: sweep::par and
//                                                thrust::device with the count on the host; cub: its
//                                                kernels, the count copied to the host, a stream sync
#include "bench_common.cuh"

#include <sweep/sweep.cuh> // sweep's reduce_by_key once it lands (issue 35); until then sweep::par runs Thrust's

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cub/device/device_reduce.cuh>

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

//! Device buffers and CUB's temp storage for one workload; every implementation reads the same keys
//! and values and writes its own outputs.
struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> keys, values;
  thrust::device_vector<std::uint32_t> keys_sweep, sums_sweep, keys_thrust, sums_thrust, keys_cub, sums_cub;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  std::uint32_t mean;
  std::size_t runs = 0; // set by check()

  workload(std::size_t n_, std::uint32_t mean_, std::uint64_t seed)
      : keys(n_)
      , values(n_)
      , keys_sweep(n_)
      , sums_sweep(n_)
      , keys_thrust(n_)
      , sums_thrust(n_)
      , keys_cub(n_)
      , sums_cub(n_)
      , cub_count(1)
      , n(n_)
      , mean(mean_)
  {
    sweep_bench::fill_runs(keys, mean, seed);
    sweep_bench::fill_random(values, seed + 1, sweep_bench::low_bits{});
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_reduce(form, nullptr, temp_bytes, 0), "cub::DeviceReduce::ReduceByKey temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_reduce(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      return cub::DeviceReduce::ReduceByKey(
        temp, temp_bytes, thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(keys_cub.data()),
        thrust::raw_pointer_cast(values.data()), thrust::raw_pointer_cast(sums_cub.data()),
        thrust::raw_pointer_cast(cub_count.data()), ::cuda::std::plus<>{}, count, stream);
    });
  }

  //! One call, enqueued on `stream`; returns the number of runs (CUB: only for whole calls, which copy
  //! its count to the host and synchronize; otherwise 0).
  std::size_t run(impl which, cudaStream_t stream, bool whole_call)
  {
    if (!sweep_bench::is_cub(which))
    {
      auto& keys_out = which == impl::sweep ? keys_sweep : keys_thrust;
      auto& sums_out = which == impl::sweep ? sums_sweep : sums_thrust;
      return sweep_bench::with_policy(which, stream, whole_call, [&](auto policy) {
        return static_cast<std::size_t>(
          thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), keys_out.begin(), sums_out.begin())
            .first
          - keys_out.begin());
      });
    }
    return sweep_bench::run_cub_counted(
      [&](void* temp, std::size_t& temp_bytes) { return cub_reduce(which, temp, temp_bytes, stream); }, cub_temp, cub_count,
      stream, whole_call, "cub::DeviceReduce::ReduceByKey");
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! they agree with Thrust (number of runs, keys and sums, bitwise).
  void check(const std::string& what)
  {
    const std::size_t t = run(impl::thrust, 0, true);
    if (mean == 1 && t != n)
    {
      sweep_bench::fail(what + ": thrust found " + std::to_string(t) + " runs in " + std::to_string(n)
                        + " distinct keys");
    }
    const std::size_t s = run(impl::sweep, 0, true);
    if (s != t)
    {
      sweep_bench::fail(what + ": counts differ (sweep " + std::to_string(s) + ", thrust " + std::to_string(t) + ")");
    }
    sweep_bench::check_equal(keys_thrust, keys_sweep, t, what + " keys, sweep vs thrust");
    sweep_bench::check_equal(sums_thrust, sums_sweep, t, what + " sums, sweep vs thrust");
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)), "poison");
      const std::size_t c = run(form, 0, true);
      if (c != t)
      {
        sweep_bench::fail(what + ": counts differ (thrust " + std::to_string(t) + ", " + impl_name(form) + " "
                          + std::to_string(c) + ")");
      }
      sweep_bench::check_equal(keys_thrust, keys_cub, t, what + " keys, " + impl_name(form) + " vs thrust");
      sweep_bench::check_equal(sums_thrust, sums_cub, t, what + " sums, " + impl_name(form) + " vs thrust");
    }
    runs = t;
  }
};

void bench(benchmark::State& state, impl which, std::uint32_t mean, const std::string& what, bool whole_call)
{
  const std::size_t n   = static_cast<std::size_t>(state.range(0));
  const std::string key = "reduce_by_key/" + what + "/" + std::to_string(n);
  auto& w = sweep_bench::shared_workload<workload>(key, [&] {
    return std::make_unique<workload>(n, mean, 0x5eed5000ull + n + mean);
  });
  cudaStream_t stream = 0;
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream, whole_call);
  });
  state.counters["runs"] = static_cast<double>(w.runs);
  sweep_bench::set_throughput(state, static_cast<double>(n),
                              static_cast<double>((2 * n + 2 * w.runs) * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::vector<impl> impls{impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64};
  for (std::uint32_t mean : {1u, 8u, 100000u})
  {
    const std::string what = "u32_runs" + std::to_string(mean);
    sweep_bench::register_cells("reduce_by_key", what, std::int64_t(1) << 28, impls, benchmark::kMillisecond,
                                [mean, what](benchmark::State& s, impl which) {
                                  bench(s, which, mean, what, false);
                                });
  }
  for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
  {
    sweep_bench::register_cells("reduce_by_key", "latency_u32_runs8", n, impls, benchmark::kMicrosecond,
                                [](benchmark::State& s, impl which) {
                                  bench(s, which, 8, "latency_u32_runs8", true);
                                });
  }
  return true;
}();

} // namespace
