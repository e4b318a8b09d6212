// unique_copy and unique (in place): sweep::par vs thrust::device vs cub::DeviceSelect::Unique (temp
// storage preallocated; `int` and 64-bit counts, cub_i32 and cub_i64), u32 keys, same data, checked
// bitwise against Thrust before anything is timed. Throughput cells run the par_nosync policies (the
// count still comes back to the host: Thrust's interface returns it); CUB's count stays on the device.
// In place: before every call of every implementation (warm-ups and checks included) the input is
// restored from a pristine copy, outside the timed region (sweep_bench::time_region's prepare). CUB has
// no in-place unique: its unique/ cells time DeviceSelect::Unique from the restored buffer into a
// separate output (the report marks them "out of place").
// Bytes: the keys read once, the unique keys written once.
//   unique_copy/u32_runs{1,8}/<impl>/2^28      runs of 1 (every key distinct) and of 8 on average
//   unique_copy/u32_all_equal/<impl>/2^28      one run
//   unique/u32_runs{1,8}/<impl>/2^28           the same in place
//   unique/u32_all_equal/<impl>/2^28
//   unique_copy/latency_u32_runs8/<impl>/<n>   whole call, 2^16 and 2^20: sweep::par and thrust::device
//   unique/latency_u32_runs8/<impl>/<n>        with the count on the host; cub: its kernels, the count
//                                              copied to the host and a stream sync
#include "bench_common.cuh"

#include <sweep/sweep.cuh> // sweep's unique once it lands (issue 35); until then sweep::par runs Thrust's

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/unique.h>

#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

constexpr std::uint32_t all_equal = 0; // the `mean` of a workload whose keys are all the same

//! Device buffers and CUB's temp storage for one workload. Out of place, every implementation reads
//! `in` and writes its own output; in place, sweep and Thrust work on out_sweep / out_thrust and CUB
//! reads cub_in, each restored from `in` before every call.
struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> in, out_sweep, out_thrust, out_cub, cub_in;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  std::uint32_t mean;
  bool in_place;
  std::size_t unique_keys = 0; // Thrust's count, set by check()

  workload(std::size_t n_, std::uint32_t mean_, bool in_place_, std::uint64_t seed)
      : in(n_)
      , out_sweep(n_)
      , out_thrust(n_)
      , out_cub(n_)
      , cub_in(in_place_ ? n_ : 0)
      , cub_count(1)
      , n(n_)
      , mean(mean_)
      , in_place(in_place_)
  {
    if (mean == all_equal)
    {
      thrust::fill(thrust::device, in.begin(), in.end(), 0x5eedu);
    }
    else
    {
      sweep_bench::fill_runs(in, mean, seed);
    }
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_unique(form, nullptr, temp_bytes, 0), "cub::DeviceSelect::Unique temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_unique(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    const std::uint32_t* first = thrust::raw_pointer_cast(in_place ? cub_in.data() : in.data());
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      return cub::DeviceSelect::Unique(temp, temp_bytes, first, thrust::raw_pointer_cast(out_cub.data()),
                                       thrust::raw_pointer_cast(cub_count.data()), count, stream);
    });
  }

  //! In place: restores the input of `which` (enqueued on `stream`). Out of place: nothing.
  void prepare(impl which, cudaStream_t stream)
  {
    if (in_place)
    {
      sweep_bench::copy_async(which == impl::sweep    ? out_sweep
                              : which == impl::thrust ? out_thrust
                                                      : cub_in,
                              in, stream);
    }
  }

  //! One call, enqueued on `stream`; returns the number of unique keys (CUB: only for whole calls,
  //! which copy its count to the host and synchronize; otherwise 0).
  std::size_t run(impl which, cudaStream_t stream, bool whole_call)
  {
    if (!sweep_bench::is_cub(which))
    {
      auto& out = which == impl::sweep ? out_sweep : out_thrust;
      return sweep_bench::with_policy(which, stream, whole_call, [&](auto policy) {
        const auto end = in_place ? thrust::unique(policy, out.begin(), out.end())
                                  : thrust::unique_copy(policy, in.begin(), in.end(), out.begin());
        return static_cast<std::size_t>(end - out.begin());
      });
    }
    return sweep_bench::run_cub_counted(
      [&](void* temp, std::size_t& temp_bytes) { return cub_unique(which, temp, temp_bytes, stream); }, cub_temp, cub_count,
      stream, whole_call, "cub::DeviceSelect::Unique");
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! they agree with Thrust (counts and keys, bitwise).
  void check(const std::string& what)
  {
    prepare(impl::sweep, 0);
    const std::size_t s = run(impl::sweep, 0, true);
    prepare(impl::thrust, 0);
    const std::size_t t = run(impl::thrust, 0, true);
    const std::size_t designed = mean == all_equal ? 1 : mean == 1 ? n : t;
    if (t != designed)
    {
      sweep_bench::fail(what + ": thrust found " + std::to_string(t) + " unique keys, the data has "
                        + std::to_string(designed));
    }
    if (s != t)
    {
      sweep_bench::fail(what + ": counts differ (sweep " + std::to_string(s) + ", thrust " + std::to_string(t) + ")");
    }
    sweep_bench::check_equal(out_thrust, out_sweep, t, what + " sweep vs thrust");
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)), "poison");
      prepare(form, 0);
      const std::size_t c = run(form, 0, true);
      if (c != t)
      {
        sweep_bench::fail(what + ": counts differ (thrust " + std::to_string(t) + ", " + impl_name(form) + " "
                          + std::to_string(c) + ")");
      }
      sweep_bench::check_equal(out_thrust, out_cub, t, what + " " + impl_name(form) + " vs thrust");
    }
    unique_keys = t;
  }
};

void bench(benchmark::State& state, impl which, bool in_place, const std::string& what, std::uint32_t mean,
           bool whole_call)
{
  const std::size_t n  = static_cast<std::size_t>(state.range(0));
  const std::string key = std::string(in_place ? "unique/" : "unique_copy/") + what + "/" + std::to_string(n);
  auto& w = sweep_bench::shared_workload<workload>(key, [&] {
    return std::make_unique<workload>(n, mean, in_place, 0x5eed2000ull + n + mean);
  });
  cudaStream_t stream = 0;
  auto call           = [&] {
    w.run(which, stream, whole_call);
  };
  if (in_place)
  {
    sweep_bench::time_region(state, stream, call, [&] {
      w.prepare(which, stream);
    });
  }
  else
  {
    sweep_bench::time_region(state, stream, call);
  }
  state.counters["selected"] = static_cast<double>(w.unique_keys);
  sweep_bench::set_throughput(state, static_cast<double>(n),
                              static_cast<double>((n + w.unique_keys) * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::int64_t n28 = std::int64_t(1) << 28;
  const std::vector<impl> impls{impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64};
  for (bool in_place : {false, true})
  {
    const std::string algo = in_place ? "unique" : "unique_copy";
    for (std::uint32_t mean : {1u, 8u, all_equal})
    {
      const std::string what = mean == all_equal ? "u32_all_equal" : "u32_runs" + std::to_string(mean);
      sweep_bench::register_cells(algo, what, n28, impls, benchmark::kMillisecond,
                                  [in_place, what, mean](benchmark::State& s, impl which) {
                                    bench(s, which, in_place, what, mean, false);
                                  });
    }
    for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
    {
      sweep_bench::register_cells(algo, "latency_u32_runs8", n, impls, benchmark::kMicrosecond,
                                  [in_place](benchmark::State& s, impl which) {
                                    bench(s, which, in_place, "latency_u32_runs8", 8, true);
                                  });
    }
  }
  return true;
}();

} // namespace
