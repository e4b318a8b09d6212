// Example: a histogram of device data with sweep, in Thrust's style (no CUB calls, no temp storage
// to manage), on the default stream and on a user stream without a synchronization.
#include <sweep/execution_policy.cuh>
#include <sweep/histogram.cuh>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>

#include <cuda_runtime_api.h>

#include <cstdio>

int main()
{
  // 1,000,000 floats spread over [0, 1), counted in 10 even bins.
  thrust::device_vector<float> samples(1000000);
  thrust::sequence(thrust::device, samples.begin(), samples.end(), 0.0f, 1.0f / 1000000);
  thrust::device_vector<unsigned long long> counts(10);
  sweep::histogram_even(sweep::par, samples.begin(), samples.end(), counts.begin(), 10, 0.0f, 1.0f);

  thrust::host_vector<unsigned long long> h = counts;
  for (int i = 0; i < 10; ++i)
  {
    std::printf("[%.1f, %.1f): %llu\n", i / 10.0, (i + 1) / 10.0, h[i]);
  }

  // Bin indices, on a stream, without waiting: thrust::cuda::par policies work the same way.
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  thrust::device_vector<int> indices(1 << 20);
  thrust::sequence(thrust::device, indices.begin(), indices.end());
  thrust::device_vector<int> index_counts(256);
  sweep::histogram(sweep::par_nosync.on(stream), indices.begin(), indices.end(), index_counts.begin(), 256);
  cudaStreamSynchronize(stream);
  std::printf("index histogram: bin 7 holds %d sample(s)\n", static_cast<int>(index_counts[7]));
  cudaStreamDestroy(stream);
  return 0;
}
