// The histograms, and sweep::block_histogram's two ways of keeping invalid items out of the counts.
// Each section in a namespace of its own.
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
#include <sweep/block_histogram.cuh>
#include <thrust/reduce.h>

// --------------------------------------------------------------------------------------------------
// Histogram benchmarks: sweep vs cub::DeviceHistogram (temp storage preallocated; `int` and 64-bit
// sample counts, cub_i32 and cub_i64) vs the
// sort + upper_bound idiom on thrust::device; the counts are checked equal before anything is timed.

namespace bench_histogram
{

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

} // namespace bench_histogram

// --------------------------------------------------------------------------------------------------
// sweep::block_histogram's two ways of keeping a tile's invalid items out of the counts, measured
// against each other on tiles that are all partial (the worst case for either), so that the
// default can be chosen by measurement.

namespace bench_block_histogram
{

namespace
{

constexpr int block_threads = 256;
constexpr int items         = 16;
constexpr int tile_items    = block_threads * items;
constexpr int bins          = 256;
// every tile leaves this many items invalid: the tail path runs on every tile
constexpr int invalid_per_tile = 100;

template <sweep::block_histogram_tail Tail>
__global__ void __launch_bounds__(block_threads)
  partial_tiles_kernel(const std::uint8_t* samples, std::size_t tiles, unsigned long long* out)
{
  using histo_t = sweep::block_histogram<std::uint8_t, block_threads, items, bins, unsigned int, Tail>;
  __shared__ typename histo_t::temp_storage storage;
  __shared__ unsigned int counts[bins];
  histo_t histo(storage);
  histo.init_histogram(counts);
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x)
  {
    std::uint8_t v[items];
    const std::uint8_t* base = samples + tile * tile_items + threadIdx.x * items;
#pragma unroll
    for (int k = 0; k < items; ++k)
    {
      v[k] = base[k];
    }
    histo.composite(v, counts, tile_items - invalid_per_tile);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += block_threads)
  {
    atomicAdd(out + b, static_cast<unsigned long long>(counts[b]));
  }
}

template <sweep::block_histogram_tail Tail>
void run(const thrust::device_vector<std::uint8_t>& samples, thrust::device_vector<unsigned long long>& out,
         cudaStream_t stream)
{
  const std::size_t tiles = samples.size() / tile_items;
  sweep_bench::check_cuda(cudaMemsetAsync(thrust::raw_pointer_cast(out.data()), 0, bins * sizeof(unsigned long long), stream),
                          "memset");
  partial_tiles_kernel<Tail><<<132 * 8, block_threads, 0, stream>>>(
    thrust::raw_pointer_cast(samples.data()), tiles, thrust::raw_pointer_cast(out.data()));
  sweep_bench::check_cuda(cudaGetLastError(), "partial_tiles_kernel");
}

template <sweep::block_histogram_tail Tail>
void bench_tail(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  thrust::device_vector<std::uint8_t> samples(n);
  sweep_bench::fill_random(samples, 7, [] __device__(std::uint64_t bits) {
    return static_cast<std::uint8_t>(bits);
  });
  thrust::device_vector<unsigned long long> out(bins), other(bins);
  cudaStream_t stream = 0;
  // correctness first: both designs agree, and the counts add up to the valid items only
  constexpr auto other_tail = Tail == sweep::block_histogram_tail::guard_bin ? sweep::block_histogram_tail::subtract_padding
                                                                             : sweep::block_histogram_tail::guard_bin;
  run<Tail>(samples, out, stream);
  run<other_tail>(samples, other, stream);
  sweep_bench::check_equal(other, out, bins, "block_histogram guard_bin vs subtract_padding");
  const unsigned long long total = thrust::reduce(thrust::device, out.begin(), out.end(), 0ull);
  if (total != (n / tile_items) * static_cast<unsigned long long>(tile_items - invalid_per_tile))
  {
    sweep_bench::fail("block_histogram counted invalid items");
  }
  sweep_bench::time_region(state, stream, [&] {
    run<Tail>(samples, out, stream);
  });
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(n));
}

} // namespace

BENCHMARK(bench_tail<sweep::block_histogram_tail::guard_bin>)
  ->Name("block_histogram/u8_256_partial_tiles_guard_bin/sweep")
  ->Arg(std::int64_t(1) << 28)
  ->UseManualTime()
  ->Unit(benchmark::kMillisecond);
BENCHMARK(bench_tail<sweep::block_histogram_tail::subtract_padding>)
  ->Name("block_histogram/u8_256_partial_tiles_subtract_padding/sweep")
  ->Arg(std::int64_t(1) << 28)
  ->UseManualTime()
  ->Unit(benchmark::kMillisecond);

} // namespace bench_block_histogram
