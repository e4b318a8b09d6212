// remove_if in place: sweep::par vs thrust::device vs cub::DeviceSelect::If in place (its d_data
// overload, every supported CCCL has it, with the negated predicate; temp storage preallocated; `int`
// and 64-bit counts, cub_i32 and cub_i64), uniform u32, x >= threshold removed so that 50% or 99.9%
// are kept, same data, checked bitwise against Thrust (remove_if keeps the order) before anything is
// timed. Throughput cells run the par_nosync policies (the count still comes back to the host: Thrust's
// interface returns it); CUB's count stays on the device. Before every call of every implementation
// (warm-ups and checks included) its buffer is restored from a pristine copy of the input, outside the
// timed region (sweep_bench::time_region's prepare).
// Bytes: the input read once, the kept items written once.
//   remove_if/u32_keep{50,99.9}/<impl>/2^28
//   remove_if/latency_u32_keep50/<impl>/<n>   whole call, 2^16 and 2^20: sweep::par and thrust::device
//                                             with the count on the host; cub: its kernels, the count
//                                             copied to the host and a stream sync
#include "bench_common.cuh"

#include <sweep/sweep.cuh> // sweep's remove_if once it lands (issue 35); until then sweep::par runs Thrust's

#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/remove.h>

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

//! remove_if's predicate: removes x >= threshold, so uniform u32 keeps threshold / 2^32 of the items.
struct at_least
{
  std::uint64_t threshold;
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x >= threshold;
  }
};

//! CUB's selection: the negation of at_least.
struct below
{
  std::uint64_t threshold;
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x < threshold;
  }
};

//! Device buffers and CUB's temp storage for one workload: each implementation works in its own buffer,
//! restored from `in` before every call.
struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> in, data_sweep, data_thrust, data_cub;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  std::uint64_t threshold;
  std::size_t kept = 0; // set by check()

  workload(std::size_t n_, std::uint64_t threshold_, std::uint64_t seed)
      : in(n_)
      , data_sweep(n_)
      , data_thrust(n_)
      , data_cub(n_)
      , cub_count(1)
      , n(n_)
      , threshold(threshold_)
  {
    sweep_bench::fill_random(in, seed, sweep_bench::low_bits{});
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_select(form, nullptr, temp_bytes, 0), "cub::DeviceSelect::If temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_select(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      return cub::DeviceSelect::If(temp, temp_bytes, thrust::raw_pointer_cast(data_cub.data()),
                                   thrust::raw_pointer_cast(cub_count.data()), count, below{threshold}, stream);
    });
  }

  thrust::device_vector<std::uint32_t>& data(impl which)
  {
    return which == impl::sweep ? data_sweep : which == impl::thrust ? data_thrust : data_cub;
  }

  //! Restores the input of `which` (enqueued on `stream`).
  void prepare(impl which, cudaStream_t stream)
  {
    sweep_bench::copy_async(data(which), in, stream);
  }

  //! One call, enqueued on `stream`; returns the number of items kept (CUB: only for whole calls,
  //! which copy its count to the host and synchronize; otherwise 0).
  std::size_t run(impl which, cudaStream_t stream, bool whole_call)
  {
    if (!sweep_bench::is_cub(which))
    {
      auto& d = data(which);
      return sweep_bench::with_policy(which, stream, whole_call, [&](auto policy) {
        return static_cast<std::size_t>(thrust::remove_if(policy, d.begin(), d.end(), at_least{threshold}) - d.begin());
      });
    }
    return sweep_bench::run_cub_counted(
      [&](void* temp, std::size_t& temp_bytes) { return cub_select(which, temp, temp_bytes, stream); }, cub_temp, cub_count,
      stream, whole_call, "cub::DeviceSelect::If in place");
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! they agree with Thrust (counts and the kept items, bitwise).
  void check(const std::string& what)
  {
    const std::size_t expected =
      static_cast<std::size_t>(thrust::count_if(thrust::device, in.begin(), in.end(), below{threshold}));
    prepare(impl::thrust, 0);
    const std::size_t t = run(impl::thrust, 0, true);
    if (t != expected)
    {
      sweep_bench::fail(what + ": thrust kept " + std::to_string(t) + " items, the input has " + std::to_string(expected)
                        + " to keep");
    }
    for (impl which : {impl::sweep, impl::cub_i32, impl::cub_i64})
    {
      sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)), "poison");
      prepare(which, 0);
      const std::size_t got = run(which, 0, true);
      if (got != t)
      {
        sweep_bench::fail(what + ": counts differ (thrust " + std::to_string(t) + ", " + impl_name(which) + " "
                          + std::to_string(got) + ")");
      }
      sweep_bench::check_equal(data_thrust, data(which), t, what + " " + impl_name(which) + " vs thrust");
    }
    kept = t;
  }
};

//! "50" for 500 per mille, "99.9" for 999.
std::string percent(unsigned per_mille)
{
  return std::to_string(per_mille / 10) + (per_mille % 10 ? "." + std::to_string(per_mille % 10) : "");
}

void bench(benchmark::State& state, impl which, unsigned keep_per_mille, const std::string& what, bool whole_call)
{
  const std::size_t n   = static_cast<std::size_t>(state.range(0));
  const std::string key = "remove_if/" + what + "/" + std::to_string(n);
  auto& w = sweep_bench::shared_workload<workload>(key, [&] {
    return std::make_unique<workload>(n, (std::uint64_t(1) << 32) * keep_per_mille / 1000,
                                      0x5eed4000ull + n + keep_per_mille);
  });
  cudaStream_t stream = 0;
  sweep_bench::time_region(
    state, stream,
    [&] {
      w.run(which, stream, whole_call);
    },
    [&] {
      w.prepare(which, stream);
    });
  state.counters["selected"] = static_cast<double>(w.kept);
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>((n + w.kept) * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::vector<impl> impls{impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64};
  for (unsigned keep : {500u, 999u})
  {
    const std::string what = "u32_keep" + percent(keep);
    sweep_bench::register_cells("remove_if", what, std::int64_t(1) << 28, impls, benchmark::kMillisecond,
                                [keep, what](benchmark::State& s, impl which) {
                                  bench(s, which, keep, what, false);
                                });
  }
  for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
  {
    sweep_bench::register_cells("remove_if", "latency_u32_keep50", n, impls, benchmark::kMicrosecond,
                                [](benchmark::State& s, impl which) {
                                  bench(s, which, 500, "latency_u32_keep50", true);
                                });
  }
  return true;
}();

} // namespace
