// Drop-in use of sweep's sort: thrust::sort_by_key with sweep::par instead of thrust::device.
#include <sweep/sort.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <cstdio>

int main()
{
  const int n = 1 << 20;
  thrust::host_vector<unsigned> h(n);
  for (int i = 0; i < n; ++i)
  {
    h[i] = (static_cast<unsigned>(i) * 2654435761u) >> 8;
  }
  thrust::device_vector<unsigned> keys = h;
  thrust::device_vector<int> values(n);
  thrust::sequence(values.begin(), values.end());

  thrust::sort_by_key(sweep::par, keys.begin(), keys.end(), values.begin());

  thrust::host_vector<unsigned> sorted = keys;
  for (int i = 1; i < n; ++i)
  {
    if (sorted[i - 1] > sorted[i])
    {
      std::printf("not sorted at %d\n", i);
      return 1;
    }
  }
  std::printf("sorted %d keys\n", n);
  return 0;
}
