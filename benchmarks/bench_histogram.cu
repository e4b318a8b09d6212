// Histogram benchmarks: sweep vs cub::DeviceHistogram (temp storage preallocated; `int` and 64-bit
// sample counts, cub_i32 and cub_i64) vs the
// sort + upper_bound idiom on thrust::device; the counts are checked equal before anything is timed.
#include "bench_common.cuh"

#include <sweep/execution_policy.cuh>
#include <sweep/histogram.cuh>

#include <cub/device/device_histogram.cuh>

#include <thrust/adjacent_difference.h>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>

#include <cstdint>
#include <string>

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

//! Preallocated CUB HistogramEven, its sample count in the form `form` names (cub_i32, cub_i64).
template <class T, class Counter, class LevelT>
struct cub_even
{
  impl form;
  const T* samples;
  Counter* counts;
  int bins;
  LevelT lower, upper;
  std::size_t n;
  thrust::device_vector<unsigned char> temp;
  std::size_t bytes = 0;
  cub_even(impl f, const T* s, Counter* c, int b, LevelT lo, LevelT hi, std::size_t count)
      : form(f), samples(s), counts(c), bins(b), lower(lo), upper(hi), n(count)
  {
    call(nullptr, 0);
    temp.resize(bytes);
  }
  void call(void* storage, cudaStream_t stream)
  {
    sweep_bench::check_cuda(sweep_bench::with_cub_count(form, n, [&](auto count) {
                              return cub::DeviceHistogram::HistogramEven(storage, bytes, samples, counts, bins + 1,
                                                                         lower, upper, count, stream);
                            }),
                            "cub HistogramEven");
  }
  void operator()(cudaStream_t stream)
  {
    call(thrust::raw_pointer_cast(temp.data()), stream);
  }
};

//! Samples as f(random bits); for uint8 "one" makes every sample 93.
template <class T>
thrust::device_vector<T> samples_for(const std::string& workload, std::size_t n)
{
  thrust::device_vector<T> v(n);
  if constexpr (std::is_same<T, std::uint8_t>::value)
  {
    const bool one = workload.find("one") != std::string::npos;
    sweep_bench::fill_random(v, 7, [one] __device__(std::uint64_t r) {
      return one ? std::uint8_t(93) : static_cast<std::uint8_t>(r);
    });
  }
  else if constexpr (std::is_same<T, float>::value)
  {
    sweep_bench::fill_random(v, 8, [] __device__(std::uint64_t r) {
      return static_cast<float>(r >> 40) * (1.0f / 16777216.0f); // [0, 1)
    });
  }
  else
  {
    sweep_bench::fill_random(v, 9, [] __device__(std::uint64_t r) {
      return static_cast<int>(r % 256);
    });
  }
  return v;
}

//! histogram_even over [lower, upper) with `bins` bins (uint8 and float workloads).
template <class T, class LevelT>
void bench_even(benchmark::State& state, std::string workload, impl which, int bins, LevelT lower, LevelT upper)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const auto samples  = samples_for<T>(workload, n);
  thrust::device_vector<int> expected(bins), actual(bins);
  const T* d = thrust::raw_pointer_cast(samples.data());
  // The timed CUB form gives the reference; the check covers that form's counts too.
  const impl form = sweep_bench::is_cub(which) ? which : impl::cub_i64;
  cub_even<T, int, LevelT> cub_call(form, d, thrust::raw_pointer_cast(expected.data()), bins, lower, upper, n);
  cudaStream_t stream = 0;
  cub_call(stream);
  sweep::histogram_even(sweep::par, samples.begin(), samples.end(), actual.begin(), bins, lower, upper);
  sweep_bench::check_equal(expected, actual, bins, "histogram_even/" + workload);
  if (which == impl::sweep)
  {
    sweep_bench::time_region(state, stream, [&] {
      sweep::histogram_even(sweep::par_nosync.on(stream), d, d + n, thrust::raw_pointer_cast(actual.data()), bins, lower, upper);
    });
  }
  else
  {
    sweep_bench::time_region(state, stream, [&] {
      cub_call(stream);
    });
  }
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(n * sizeof(T)));
}

//! int32 bin indices, 256 bins: sweep::histogram vs thrust sort + upper_bound + adjacent_difference.
void bench_index(benchmark::State& state, impl which)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const int bins      = 256;
  const auto samples  = samples_for<int>("index", n);
  thrust::device_vector<int> scratch(n);
  thrust::device_vector<int> expected(bins), actual(bins);
  auto idiom = [&] {
    thrust::copy(thrust::device, samples.begin(), samples.end(), scratch.begin());
    thrust::sort(thrust::device, scratch.begin(), scratch.end());
    thrust::upper_bound(thrust::device, scratch.begin(), scratch.end(), thrust::counting_iterator<int>(0),
                        thrust::counting_iterator<int>(bins), expected.begin());
    thrust::adjacent_difference(thrust::device, expected.begin(), expected.end(), expected.begin());
  };
  idiom();
  sweep::histogram(sweep::par, samples.begin(), samples.end(), actual.begin(), bins);
  sweep_bench::check_equal(expected, actual, bins, "histogram/int32_index_256");
  const int* d = thrust::raw_pointer_cast(samples.data());
  if (which == impl::sweep)
  {
    sweep_bench::time_region(state, 0, [&] {
      sweep::histogram(sweep::par_nosync, d, d + n, thrust::raw_pointer_cast(actual.data()), bins);
    });
  }
  else
  {
    sweep_bench::time_region(state, 0, idiom);
  }
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(n * sizeof(int)));
}

const bool registered = [] {
  for (impl which : {impl::sweep, impl::cub_i32, impl::cub_i64})
  {
    for (const char* workload : {"uint8_uniform_256", "uint8_one_value_256"})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("histogram", workload, impl_name(which)).c_str(),
                                   [which, workload](benchmark::State& s) {
                                     bench_even<std::uint8_t, int>(s, workload, which, 256, 0, 256);
                                   })
        ->Arg(std::int64_t(1) << 30)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    }
    for (int bins : {256, 1024, 4096, 16384})
    {
      const std::string workload = "float_unit_" + std::to_string(bins);
      benchmark::RegisterBenchmark(sweep_bench::bench_name("histogram", workload, impl_name(which)).c_str(),
                                   [which, workload, bins](benchmark::State& s) {
                                     bench_even<float, float>(s, workload, which, bins, 0.0f, 1.0f);
                                   })
        ->Arg(std::int64_t(1) << 28)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    }
  }
  for (impl which : {impl::sweep, impl::thrust})
  {
    benchmark::RegisterBenchmark(sweep_bench::bench_name("histogram", "int32_index_256", impl_name(which)).c_str(),
                                 [which](benchmark::State& s) {
                                   bench_index(s, which);
                                 })
      ->Arg(std::int64_t(1) << 26)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

} // namespace
