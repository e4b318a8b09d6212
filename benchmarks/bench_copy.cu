// The card's ceiling: a device-to-device copy (bytes read + bytes written), measured in the same run.
#include "bench_common.cuh"

#include <thrust/device_vector.h>

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
