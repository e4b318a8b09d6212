// copy_if on sweep: the drop-in swap thrust::device -> sweep::par, here on two streams at once
// (each call has its own temporary storage, so concurrent calls never share state).
#include <sweep/copy_if.cuh>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <cstdio>

struct is_multiple_of
{
  int divisor;
  __host__ __device__ bool operator()(int x) const
  {
    return x % divisor == 0;
  }
};

int main()
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    std::printf("no CUDA device\n");
    return 77;
  }
  const int n = 1 << 22;
  thrust::device_vector<int> in(n), threes(n), sevens(n);
  thrust::sequence(sweep::par, in.begin(), in.end());

  cudaStream_t a, b;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);

  // Before: thrust::copy_if(thrust::cuda::par.on(a), ...). Each call returns once its count is known.
  const auto threes_end = thrust::copy_if(sweep::par.on(a), in.begin(), in.end(), threes.begin(), is_multiple_of{3});
  const auto sevens_end = thrust::copy_if(sweep::par_nosync.on(b), in.begin(), in.end(), sevens.begin(), is_multiple_of{7});

  const long long kept3 = threes_end - threes.begin();
  const long long kept7 = sevens_end - sevens.begin();
  std::printf("multiples of 3: %lld (expected %d), of 7: %lld (expected %d)\n", kept3, (n + 2) / 3, kept7, (n + 6) / 7);
  const bool ok = kept3 == (n + 2) / 3 && kept7 == (n + 6) / 7 && threes[1] == 3 && sevens[kept7 - 1] == 7 * (kept7 - 1);

  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
  return ok ? 0 : 1;
}
