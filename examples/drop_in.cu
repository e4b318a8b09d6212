// The one-token swap: existing Thrust code runs on sweep by passing sweep::par instead of thrust::device.
#include <sweep/sweep.cuh>

#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

#include <cstdio>

int main()
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    std::printf("no CUDA device\n");
    return 77;
  }
  thrust::device_vector<int> v(1 << 20);
  thrust::sequence(sweep::par, v.begin(), v.end()); // not overridden: Thrust's CUDA backend runs it
  const long long sum = thrust::reduce(sweep::par, v.begin(), v.end(), 0ll);
  std::printf("sum of 0..2^20-1 = %lld\n", sum);
  return 0;
}
