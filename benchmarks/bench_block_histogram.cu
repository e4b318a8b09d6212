// sweep::block_histogram's two ways of keeping a tile's invalid items out of the counts, measured
// against each other on tiles that are all partial (the worst case for either), so that the
// default can be chosen by measurement.
#include "bench_common.cuh"

#include <sweep/block_histogram.cuh>

#include <thrust/device_vector.h>
#include <thrust/reduce.h>

#include <cstdint>
#include <string>

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
