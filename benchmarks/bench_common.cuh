// Shared pieces of sweep-bench: CUDA-event timing, throughput counters, seeded device-side data, the
// one workload kept between cells, and loud correctness checks run before anything is timed.
#pragma once

#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <benchmark/benchmark.h>

#include <sweep/execution_policy.cuh>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "../tests/common/mix64.hpp" // sweep_test::mix64, shared with the tests

namespace sweep_bench
{

//! Aborts the whole run with a message: a wrong result must never be timed.
[[noreturn]] inline void fail(const std::string& message)
{
  std::fprintf(stderr, "\nsweep-bench: CORRECTNESS FAILURE: %s\n", message.c_str());
  std::fflush(stderr);
  std::exit(2);
}

inline void check_cuda(cudaError_t status, const char* what)
{
  if (status != cudaSuccess)
  {
    fail(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

//! Quick mode (--quick): fewer sizes and repetitions. Set by main() (bench_main.cpp).
bool& quick_mode();

//! The default of time_region's `prepare`: nothing to do before a call.
struct no_preparation
{
  void operator()() const {}
};

//! One event pair per iteration around fn(), which must enqueue its work on `stream` (and may
//! synchronize, for whole-call latencies). Reports the event time as the iteration's manual time.
//! Benchmarks using it must be registered with ->UseManualTime().
//! `prepare`, when given, runs before every call, the warm-ups included, and is left out of the
//! time: it is enqueued on `stream` and finished before the start event is recorded, so fn() starts
//! on an idle GPU as every call does (in-place algorithms restore their input with it).
template <class F, class Prepare = no_preparation>
void time_region(benchmark::State& state, cudaStream_t stream, F&& fn, Prepare&& prepare = Prepare{})
{
  constexpr bool prepares = !std::is_same<std::decay_t<Prepare>, no_preparation>::value;
  cudaEvent_t start, stop;
  check_cuda(cudaEventCreate(&start), "cudaEventCreate");
  check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  // warm-up: module load, first-touch of temp memory pools
  for (int i = 0; i < 2; ++i)
  {
    prepare();
    fn();
  }
  check_cuda(cudaStreamSynchronize(stream), "warm-up");
  for (auto _ : state)
  {
    if constexpr (prepares)
    {
      prepare();
      check_cuda(cudaStreamSynchronize(stream), "preparation");
    }
    check_cuda(cudaEventRecord(start, stream), "cudaEventRecord");
    fn();
    check_cuda(cudaEventRecord(stop, stream), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    state.SetIterationTime(ms / 1e3);
  }
  check_cuda(cudaGetLastError(), "benchmark body");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

//! items/s and bytes/s of the minimum traffic (each input read once, each output written once).
inline void set_throughput(benchmark::State& state, double items, double min_bytes)
{
  state.counters["items_per_second"] =
    benchmark::Counter(items, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes_per_second"] =
    benchmark::Counter(min_bytes, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["items"]     = items;
  state.counters["min_bytes"] = min_bytes;
}

using sweep_test::mix64;

//! The implementations a benchmark compares (each benchmark registers the ones it has).
//! CUB picks its offset type, and with it its tuning, from the type of the count it is given
//! (`num_items`): the same call can differ by 15% between an `int` and a 64-bit count, either way
//! round. Every CUB call is timed in both forms; the report compares sweep with the faster
//! (benchmarks/report.py, "CUB at its strongest").
enum class impl
{
  sweep,
  sweep_cached, // sweep::par(allocator) with an allocator that keeps its block between calls
  thrust,
  cub_i32, // CUB with an `int` count
  cub_i64, // CUB with a 64-bit count
};

inline const char* impl_name(impl which)
{
  return which == impl::sweep          ? "sweep"
       : which == impl::sweep_cached   ? "sweep_cached"
       : which == impl::thrust         ? "thrust"
       : which == impl::cub_i32        ? "cub_i32"
                                       : "cub_i64";
}

inline bool is_cub(impl which)
{
  return which == impl::cub_i32 || which == impl::cub_i64;
}

//! Calls f with the CUB count of n in the form `which` names: an `int` or a 64-bit integer.
template <class F>
decltype(auto) with_cub_count(impl which, std::size_t n, F&& f)
{
  if (which == impl::cub_i32)
  {
    if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    {
      fail("an int count cannot hold " + std::to_string(n) + " items");
    }
    return f(static_cast<int>(n));
  }
  return f(static_cast<std::int64_t>(n));
}

//! 64 random bits per index, from a seed.
struct random_bits
{
  std::uint64_t seed;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const
  {
    return mix64(i ^ mix64(seed));
  }
};

//! Uniform u32 from random bits (for fill_random).
struct low_bits
{
  __host__ __device__ std::uint32_t operator()(std::uint64_t bits) const
  {
    return static_cast<std::uint32_t>(bits);
  }
};

//! Fills `out` with f(random 64 bits) for each index, on the device.
template <class T, class F>
void fill_random(thrust::device_vector<T>& out, std::uint64_t seed, F f)
{
  thrust::transform(thrust::device,
                    thrust::counting_iterator<std::uint64_t>(0),
                    thrust::counting_iterator<std::uint64_t>(out.size()),
                    out.begin(),
                    [seed, f] __device__(std::uint64_t i) {
                      return f(random_bits{seed}(i));
                    });
}

//! Requires two device ranges of n elements to be bitwise equal (compared as bytes).
template <class T>
void check_equal(const T* expected, const T* actual, std::size_t n, const std::string& what)
{
  if (n == 0)
  {
    return;
  }
  const auto* a = reinterpret_cast<const unsigned char*>(expected);
  const auto* b = reinterpret_cast<const unsigned char*>(actual);
  if (!thrust::equal(thrust::device, a, a + n * sizeof(T), b))
  {
    fail(what + ": sweep's result differs from the reference");
  }
}

template <class T>
void check_equal(const thrust::device_vector<T>& expected,
                 const thrust::device_vector<T>& actual,
                 std::size_t n,
                 const std::string& what)
{
  check_equal(thrust::raw_pointer_cast(expected.data()), thrust::raw_pointer_cast(actual.data()), n, what);
}

//! Benchmark name: <algo>/<workload>/<impl>/<n>; the report pairs rows on everything but <impl>.
inline std::string bench_name(const std::string& algo, const std::string& workload, const std::string& impl)
{
  return algo + "/" + workload + "/" + impl;
}

//! Key i for runs of `mean` items on average (lengths uniform in [1, 2 * mean - 1]; mean 1: every key
//! distinct). Keys rise along the input, so neighbouring runs never share a key.
struct run_key
{
  std::uint64_t seed;
  std::uint32_t mean;
  __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
  {
    if (mean <= 1)
    {
      return static_cast<std::uint32_t>(i);
    }
    const std::uint64_t block = i / (2 * mean);
    const std::uint64_t cut   = 1 + mix64(block ^ seed) % (2 * mean - 1);
    return static_cast<std::uint32_t>(2 * block + (i % (2 * mean) >= cut ? 1 : 0));
  }
};

//! Fills `keys` with run_key{seed, mean} on the device.
inline void fill_runs(thrust::device_vector<std::uint32_t>& keys, std::uint32_t mean, std::uint64_t seed)
{
  thrust::transform(thrust::device,
                    thrust::counting_iterator<std::uint64_t>(0),
                    thrust::counting_iterator<std::uint64_t>(keys.size()),
                    keys.begin(),
                    run_key{seed, mean});
}

//! Enqueues a copy of `from` over `to` (same size) on `stream`: in-place algorithms restore their input
//! with it, outside the timed region (time_region's `prepare`).
template <class T>
void copy_async(thrust::device_vector<T>& to, const thrust::device_vector<T>& from, cudaStream_t stream)
{
  check_cuda(cudaMemcpyAsync(thrust::raw_pointer_cast(to.data()), thrust::raw_pointer_cast(from.data()),
                             from.size() * sizeof(T), cudaMemcpyDeviceToDevice, stream),
             "input restore");
}

//! Calls f(policy) with the policy of `which` (impl::sweep or impl::thrust) on `stream`: whole calls
//! (latency cells) take the synchronizing sweep::par / thrust::cuda::par, throughput cells par_nosync,
//! so that no timing holds a synchronization the interface does not need.
template <class F>
auto with_policy(impl which, cudaStream_t stream, bool whole_call, F&& f)
{
  if (which == impl::sweep)
  {
    return whole_call ? f(sweep::par.on(stream)) : f(sweep::par_nosync.on(stream));
  }
  if (which != impl::thrust)
  {
    fail(std::string("with_policy: no policy for ") + impl_name(which));
  }
  return whole_call ? f(thrust::cuda::par.on(stream)) : f(thrust::cuda::par_nosync.on(stream));
}

//! A CUB call, run as its user runs it: `launch(temp, temp_bytes)` enqueued on `stream` with the
//! temporary storage preallocated (`temp`); a whole call (latency cells) also synchronizes the stream.
template <class Launch>
void run_cub(Launch&& launch, thrust::device_vector<unsigned char>& temp, cudaStream_t stream, bool whole_call,
             const char* what)
{
  std::size_t temp_bytes = temp.size();
  check_cuda(launch(static_cast<void*>(thrust::raw_pointer_cast(temp.data())), temp_bytes), what);
  if (whole_call)
  {
    check_cuda(cudaStreamSynchronize(stream), "cub sync");
  }
}

//! As run_cub, for a call that leaves its count on the device (at `count`): a whole call also copies
//! the count back before it synchronizes, as the user's copy back is part of CUB's whole call. Returns
//! the count, or 0 for a throughput call (nothing is read back).
template <class Launch>
std::size_t run_cub_counted(Launch&& launch,
                            thrust::device_vector<unsigned char>& temp,
                            const thrust::device_vector<long long>& count,
                            cudaStream_t stream,
                            bool whole_call,
                            const char* what)
{
  run_cub(launch, temp, stream, false, what);
  if (!whole_call)
  {
    return 0;
  }
  long long host_count = 0;
  check_cuda(cudaMemcpyAsync(&host_count, thrust::raw_pointer_cast(count.data()), sizeof(host_count),
                             cudaMemcpyDeviceToHost, stream),
             "count copy");
  check_cuda(cudaStreamSynchronize(stream), "cub sync");
  return static_cast<std::size_t>(host_count);
}

//! One call of a workload that returns nothing: sweep's or Thrust's form (`call(policy)`, with_policy's
//! policy) or CUB's (`cub(temp, temp_bytes)`, run_cub), as `which` says.
template <class Call, class Cub>
void run_uncounted(impl which, cudaStream_t stream, bool whole_call, Call&& call, Cub&& cub,
                   thrust::device_vector<unsigned char>& temp, const char* what)
{
  if (is_cub(which))
  {
    run_cub(cub, temp, stream, whole_call, what);
  }
  else
  {
    with_policy(which, stream, whole_call, call);
  }
}

//! What shared_workload keeps.
struct workload_base
{
  virtual ~workload_base() = default;
};

//! The one workload kept, and its key: a single slot for the whole binary (an inline function's static,
//! not a template's, which would be one per instantiation). Never destroyed: freeing device memory from
//! a static destructor can run after the CUDA runtime's teardown.
struct workload_slot
{
  std::unique_ptr<workload_base> workload;
  std::string key;
};
inline workload_slot& current_workload()
{
  static workload_slot* const slot = new workload_slot;
  return *slot;
}

//! The buffers of the last workload stay alive so that the implementations of one cell (registered
//! one after another) share one input; a workload of another key, from any file of sweep-bench, frees
//! the old one first, so that at most one such workload holds device memory. `make()` returns a
//! std::unique_ptr<W>; a fresh workload's check(key) runs before it is used.
template <class W, class Make>
W& shared_workload(const std::string& key, Make&& make)
{
  workload_slot& current = current_workload();
  if (current.workload == nullptr || current.key != key)
  {
    current.workload.reset();
    current.key.clear();
    std::unique_ptr<W> fresh = make();
    fresh->check(key);
    current.workload = std::move(fresh);
    current.key      = key;
  }
  W* w = dynamic_cast<W*>(current.workload.get());
  if (w == nullptr)
  {
    fail("shared_workload: key " + key + " names workloads of two types");
  }
  return *w;
}

//! Registers one cell <algo>/<workload>/<impl>/<n> per implementation, timed manually in `unit`;
//! body(state, which) runs it.
template <class Body>
void register_cells(const std::string& algo, const std::string& workload, std::int64_t n,
                    const std::vector<impl>& impls, benchmark::TimeUnit unit, Body body)
{
  for (impl which : impls)
  {
    benchmark::RegisterBenchmark(bench_name(algo, workload, impl_name(which)).c_str(),
                                 [which, body](benchmark::State& state) {
                                   body(state, which);
                                 })
      ->Arg(n)
      ->UseManualTime()
      ->Unit(unit);
  }
}

} // namespace sweep_bench
