// The card's ceiling (a device-to-device copy) and copy_if. Each section in a namespace of its own
// (one translation unit for several files' benchmarks: each unit's Thrust and CUB headers cost about
// 18 s of CPU).
#include "bench_common.cuh"

#include <thrust/device_vector.h>
#include <sweep/copy_if.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <cub/device/device_select.cuh>
#include <algorithm>
#include <cstdint>
#include <string>

// --------------------------------------------------------------------------------------------------
// The card's ceiling: a device-to-device copy (bytes read + bytes written), measured in the same run.

namespace bench_copy
{

namespace
{

void bench_copy(benchmark::State& state)
{
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  thrust::device_vector<unsigned char> src(bytes), dst(bytes);
  sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(src.data()), 0x5a, bytes), "memset");
  cudaStream_t stream = 0;
  sweep_bench::time_region(state, stream, [&] {
    sweep_bench::check_cuda(cudaMemcpyAsync(thrust::raw_pointer_cast(dst.data()),
                                            thrust::raw_pointer_cast(src.data()),
                                            bytes,
                                            cudaMemcpyDeviceToDevice,
                                            stream),
                            "cudaMemcpyAsync");
  });
  sweep_bench::set_throughput(state, static_cast<double>(bytes), 2.0 * static_cast<double>(bytes));
}

} // namespace

BENCHMARK(bench_copy)->Name("copy/d2d/cuda")->Arg(std::int64_t(1) << 31)->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace bench_copy

// --------------------------------------------------------------------------------------------------
// copy_if: sweep::par vs thrust::device vs cub::DeviceSelect::If (temp storage preallocated; `int` and
// 64-bit counts, cub_i32 and cub_i64), same data, checked for equal results before anything is timed.
//   copy_if/float_gt0/<impl>/<n>            float, keep x > 0 (~50%), n = 2^24, 1e8, 2^28
//   copy_if/<type>_keep<pct>/<impl>/<n>     1, 4, 8, 16-byte values x 0/5/50/95/100% kept
//   copy_if/latency_float_gt0/<impl>/<n>    whole call including the count on the host, 2^12..2^24
//                                           (cub: its kernel plus the count copied to the host)

namespace bench_copy_if
{

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

struct greater_than_zero
{
  __host__ __device__ bool operator()(float x) const
  {
    return x > 0.0f;
  }
};

//! Keeps x when its first byte (1-byte types) or first 32 bits are below `threshold`; uniform data
//! makes the kept fraction threshold / 2^8 (or / 2^32).
template <class T>
struct below_threshold
{
  std::uint64_t threshold;
  __host__ __device__ bool operator()(const T& x) const
  {
    if constexpr (sizeof(T) == 1)
    {
      return static_cast<std::uint64_t>(static_cast<std::uint8_t>(x)) < threshold;
    }
    else if constexpr (sizeof(T) == 2)
    {
      return static_cast<std::uint64_t>(static_cast<std::uint16_t>(x)) < threshold;
    }
    else
    {
      std::uint32_t key;
      memcpy(&key, &x, sizeof(key));
      return static_cast<std::uint64_t>(key) < threshold;
    }
  }
};

template <class T>
struct from_random_bits
{
  __host__ __device__ T operator()(std::uint64_t bits) const
  {
    if constexpr (std::is_same<T, float>::value)
    {
      // symmetric around 0 so that x > 0 keeps ~50%
      return static_cast<float>(static_cast<std::int32_t>(bits >> 32)) * 1e-6f;
    }
    else if constexpr (std::is_same<T, uint4>::value)
    {
      return make_uint4(static_cast<unsigned>(bits), static_cast<unsigned>(bits >> 32),
                        static_cast<unsigned>(bits >> 7), static_cast<unsigned>(bits >> 21));
    }
    else
    {
      return static_cast<T>(bits);
    }
  }
};

//! Device buffers and CUB's temp storage for one workload; all three implementations run on the
//! same input and write separate outputs.
template <class T, class Pred>
struct workload
{
  thrust::device_vector<T> in, out_sweep, out_thrust, out_cub;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  Pred pred;
  std::size_t n;

  workload(std::size_t n_, Pred pred_, std::uint64_t seed)
      : in(n_)
      , out_sweep(n_)
      , out_thrust(n_)
      , out_cub(n_)
      , cub_count(1)
      , pred(pred_)
      , n(n_)
  {
    sweep_bench::fill_random(in, seed, from_random_bits<T>{});
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(sweep_bench::with_cub_count(form, n, [&](auto count) {
                                return cub::DeviceSelect::If(nullptr, temp_bytes, in_ptr(), out_ptr(out_cub),
                                                             thrust::raw_pointer_cast(cub_count.data()), count, pred);
                              }),
                              "cub::DeviceSelect::If temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  const T* in_ptr() const
  {
    return thrust::raw_pointer_cast(in.data());
  }
  static T* out_ptr(thrust::device_vector<T>& v)
  {
    return thrust::raw_pointer_cast(v.data());
  }

  std::size_t run(impl which, cudaStream_t stream)
  {
    switch (which)
    {
      case impl::sweep:
        return static_cast<std::size_t>(
          thrust::copy_if(sweep::par.on(stream), in.begin(), in.end(), out_sweep.begin(), pred) - out_sweep.begin());
      case impl::thrust:
        return static_cast<std::size_t>(
          thrust::copy_if(thrust::cuda::par.on(stream), in.begin(), in.end(), out_thrust.begin(), pred)
          - out_thrust.begin());
      default: {
        std::size_t temp_bytes = cub_temp.size();
        sweep_bench::check_cuda(sweep_bench::with_cub_count(which, n, [&](auto count) {
                                  return cub::DeviceSelect::If(thrust::raw_pointer_cast(cub_temp.data()), temp_bytes,
                                                               in_ptr(), out_ptr(out_cub),
                                                               thrust::raw_pointer_cast(cub_count.data()), count, pred,
                                                               stream);
                                }),
                                "cub::DeviceSelect::If");
        return 0;
      }
    }
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! they agree.
  void check(const std::string& what)
  {
    const std::size_t s = run(impl::sweep, 0);
    const std::size_t t = run(impl::thrust, 0);
    if (s != t)
    {
      sweep_bench::fail(what + ": counts differ (sweep " + std::to_string(s) + ", thrust " + std::to_string(t) + ")");
    }
    sweep_bench::check_equal(out_thrust, out_sweep, t, what + " sweep vs thrust");
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)), "poison");
      run(form, 0);
      sweep_bench::check_cuda(cudaDeviceSynchronize(), "check");
      const long long c = cub_count[0];
      if (static_cast<long long>(t) != c)
      {
        sweep_bench::fail(what + ": counts differ (thrust " + std::to_string(t) + ", " + impl_name(form) + " "
                          + std::to_string(c) + ")");
      }
      sweep_bench::check_equal(out_thrust, out_cub, t, what + " " + impl_name(form) + " vs thrust");
    }
  }
};

//! The buffers of the last workload stay alive so that the three implementations (registered one
//! after another) share one input; a new shape frees the old one first.
template <class T, class Pred>
workload<T, Pred>& shared_workload(std::size_t n, Pred pred, std::uint64_t threshold_key, const std::string& what)
{
  static workload<T, Pred>* current = nullptr;
  static std::size_t current_n      = 0;
  static std::uint64_t current_key  = ~0ull;
  if (current == nullptr || current_n != n || current_key != threshold_key)
  {
    delete current;
    current     = nullptr;
    current     = new workload<T, Pred>(n, pred, 0x5eed0000ull + n);
    current_n   = n;
    current_key = threshold_key;
    current->check(what);
  }
  return *current;
}

template <class T, class Pred>
void run_throughput(benchmark::State& state, impl which, Pred pred, std::uint64_t key, const std::string& what)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& w             = shared_workload<T, Pred>(n, pred, key, what);
  cudaStream_t stream = 0;
  std::size_t selected = w.run(impl::thrust, stream);
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream);
  });
  state.counters["selected"] = static_cast<double>(selected);
  sweep_bench::set_throughput(state, static_cast<double>(n),
                              static_cast<double>(n * sizeof(T) + selected * sizeof(T)));
}

void bench_float_gt0(benchmark::State& state, impl which)
{
  run_throughput<float>(state, which, greater_than_zero{}, 1, "float x > 0");
}

template <class T>
void bench_selectivity(benchmark::State& state, impl which, unsigned pct)
{
  const std::uint64_t full      = sizeof(T) == 1 ? 256ull : sizeof(T) == 2 ? 65536ull : (1ull << 32);
  const std::uint64_t threshold = full * pct / 100;
  run_throughput<T>(state, which, below_threshold<T>{threshold}, threshold, "selectivity");
}

void bench_latency(benchmark::State& state, impl which)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& w             = shared_workload<float>(n, greater_than_zero{}, 1, "latency");
  cudaStream_t stream = 0;
  long long host_count = 0;
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream);
    if (sweep_bench::is_cub(which))
    {
      // CUB leaves the count on the device: the user's copy back is part of the call.
      sweep_bench::check_cuda(cudaMemcpyAsync(&host_count, thrust::raw_pointer_cast(w.cub_count.data()),
                                              sizeof(host_count), cudaMemcpyDeviceToHost, stream),
                              "count copy");
      sweep_bench::check_cuda(cudaStreamSynchronize(stream), "sync");
    }
  });
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(n * sizeof(float)));
}

template <class T>
void register_selectivity(const char* type_name, std::int64_t n)
{
  for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
  {
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      const std::string name = sweep_bench::bench_name(
        "copy_if", std::string(type_name) + "_keep" + std::to_string(pct), impl_name(which));
      benchmark::RegisterBenchmark(name.c_str(), [which, pct](benchmark::State& s) {
        bench_selectivity<T>(s, which, pct);
      })->Arg(n)->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  }
}

const bool registered = [] {
  for (std::int64_t n : {std::int64_t(1) << 24, std::int64_t(100000000), std::int64_t(1) << 28})
  {
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("copy_if", "float_gt0", impl_name(which)).c_str(),
                                   [which](benchmark::State& s) {
                                     bench_float_gt0(s, which);
                                   })
        ->Arg(n)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    }
  }
  register_selectivity<std::uint8_t>("u8", std::int64_t(1) << 28);
  register_selectivity<std::uint16_t>("u16", std::int64_t(1) << 28);
  register_selectivity<std::uint32_t>("u32", std::int64_t(1) << 28);
  register_selectivity<std::uint64_t>("u64", std::int64_t(1) << 28);
  register_selectivity<uint4>("u128", std::int64_t(1) << 26);
  for (std::int64_t n : {std::int64_t(1) << 12, std::int64_t(1) << 16, std::int64_t(1) << 20, std::int64_t(1) << 24})
  {
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("copy_if", "latency_float_gt0", impl_name(which)).c_str(),
                                   [which](benchmark::State& s) {
                                     bench_latency(s, which);
                                   })
        ->Arg(n)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

} // namespace

} // namespace bench_copy_if
