// A user's program: the one-token swap thrust::device -> sweep::par, built against an installed sweep
// with the user's own compiler flags (none of sweep's development flags such as
// --expt-relaxed-constexpr or --extended-lambda), so every sweep kernel it instantiates must compile
// under plain nvcc.
#include <sweep/sweep.cuh>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <cstdio>

struct is_odd
{
  __host__ __device__ bool operator()(int x) const
  {
    return x % 2 != 0;
  }
};

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

  // copy_if, sort and histogram on sweep's own kernels.
  thrust::device_vector<int> odd(v.size());
  const auto odd_end = thrust::copy_if(sweep::par, v.begin(), v.end(), odd.begin(), is_odd{});
  thrust::sort(sweep::par, odd.begin(), odd_end, thrust::greater<int>());
  const int largest = odd.front();
  thrust::device_vector<int> bins(10);
  sweep::histogram_even(sweep::par, v.begin(), v.end(), bins.begin(), 10, 0, 1000);
  const int first_bin = bins.front();
  std::printf("odd = %d, largest odd = %d, first bin = %d\n", static_cast<int>(odd_end - odd.begin()), largest,
              first_bin);
  return sum == 999 * 1000 / 2 && odd_end - odd.begin() == 500 && largest == 999 && first_bin == 100 ? 0 : 1;
}
