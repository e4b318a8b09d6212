// A user's program: the one-token swap thrust::device -> sweep::par, built against an installed sweep
// with the user's own compiler flags (none of sweep's development flags such as
// --expt-relaxed-constexpr or --extended-lambda), so every sweep kernel it instantiates must compile
// under plain nvcc.
#include <sweep/sweep.cuh>
#include <sweep/version.cuh>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <cuda/std/functional>
#include <cuda/version>

#include <cstdio>

#ifdef SWEEP_CONSUMER_EXPECT_CCCL
static_assert(CCCL_VERSION == SWEEP_CONSUMER_EXPECT_CCCL,
              "the consumer compiles against another CCCL release than the one its project brought");
#endif
static_assert(SWEEP_VERSION > 0 && SWEEP_MAJOR_VERSION * 100000 + SWEEP_MINOR_VERSION * 100 + SWEEP_PATCH_VERSION == SWEEP_VERSION,
              "sweep/version.cuh");

struct is_odd
{
  __host__ __device__ bool operator()(int x) const
  {
    return x % 2 != 0;
  }
};

int main()
{
  std::printf("sweep %d.%d.%d on CCCL %d.%d.%d\n", SWEEP_MAJOR_VERSION, SWEEP_MINOR_VERSION, SWEEP_PATCH_VERSION,
              CCCL_VERSION / 1000000, CCCL_VERSION / 1000 % 1000, CCCL_VERSION % 1000);
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

  // copy_if, sort and histogram on sweep's own kernels.
  thrust::device_vector<int> odd(v.size());
  const auto odd_end = thrust::copy_if(sweep::par, v.begin(), v.end(), odd.begin(), is_odd{});
  thrust::sort(sweep::par, odd.begin(), odd_end, cuda::std::greater<int>());
  const int largest = odd.front();
  thrust::device_vector<int> bins(10);
  sweep::histogram_even(sweep::par, v.begin(), v.end(), bins.begin(), 10, 0, 1000);
  const int first_bin = bins.front();
  std::printf("odd = %d, largest odd = %d, first bin = %d\n", static_cast<int>(odd_end - odd.begin()), largest,
              first_bin);
  return sum == 999 * 1000 / 2 && odd_end - odd.begin() == 500 && largest == 999 && first_bin == 100 ? 0 : 1;
}
