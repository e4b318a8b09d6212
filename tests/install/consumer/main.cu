// A user's program: the one-token swap thrust::device -> sweep::par, built against an installed sweep.
#include <sweep/sweep.cuh>

#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

#include <cstdio>

int main()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
  {
    std::printf("no CUDA device\n");
    return 77;
  }
  thrust::device_vector<int> v(1000);
  thrust::sequence(sweep::par, v.begin(), v.end());
  const int sum = thrust::reduce(sweep::par, v.begin(), v.end());
  std::printf("sum = %d\n", sum);
  return sum == 999 * 1000 / 2 ? 0 : 1;
}
