// Compile-only check (no test runs it): every public sweep algorithm and every path it dispatches
// to, instantiated once, so that CI builds them for each architecture the README names
// (SWEEP_CHECK_ARCHITECTURES in tests/CMakeLists.txt). Kernels are tuned and tested on sm_90 only.
#include <sweep/sweep.cuh>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include <cuda/std/functional>

#include <cstdint>

namespace
{
struct positive
{
  __host__ __device__ bool operator()(float x) const
  {
    return x > 0;
  }
};
struct odd
{
  template <class T>
  __host__ __device__ bool operator()(T x) const
  {
    return (x & 1) != 0;
  }
};
struct wide_value // over 8 bytes: sort_by_key sorts positions and gathers once
{
  std::uint64_t a, b;
};
struct wide_combine // a 16-byte scan value that does not load as vectors (8-byte aligned)
{
  __host__ __device__ wide_value operator()(const wide_value& x, const wide_value& y) const
  {
    return {x.a + y.a, x.b ^ y.b};
  }
};

//! The sort's four forms (keys ascending; keys descending, nosync; pairs with 4-byte values, moved
//! with the keys; pairs with values over 8 bytes, sorted as positions and gathered).
template <class Key>
void all_forms(thrust::device_vector<Key>& keys, thrust::device_vector<std::uint32_t>& values,
               thrust::device_vector<wide_value>& wide)
{
  thrust::sort(sweep::par, keys.begin(), keys.end());
  thrust::sort(sweep::par_nosync, keys.begin(), keys.end(), cuda::std::greater<Key>());
  thrust::stable_sort_by_key(sweep::par, keys.begin(), keys.end(), values.begin());
  thrust::sort_by_key(sweep::par, keys.begin(), keys.end(), wide.begin(), cuda::std::greater<Key>());
}
} // namespace

void sweep_instantiate_all(thrust::device_vector<float>& f,
                           thrust::device_vector<std::uint8_t>& u8,
                           thrust::device_vector<std::int16_t>& i16,
                           thrust::device_vector<std::uint32_t>& u32,
                           thrust::device_vector<std::int64_t>& i64,
                           thrust::device_vector<double>& d,
                           thrust::device_vector<wide_value>& wide,
                           thrust::device_vector<int>& bins)
{
  thrust::copy_if(sweep::par, f.begin(), f.end(), f.begin(), positive{});
  thrust::copy_if(sweep::par, u32.begin(), u32.end(), f.begin(), u32.begin(), positive{});
  thrust::remove_copy_if(sweep::par_nosync, wide.begin(), wide.end(), f.begin(), wide.begin(), positive{});
  // 1- and 2-byte items: packed in words, their own blocks an SM and schedule on each architecture.
  thrust::copy_if(sweep::par, u8.begin(), u8.end(), u8.begin(), odd{});
  thrust::remove_copy_if(sweep::par, i16.begin(), i16.end(), i16.begin(), odd{});
  // Every form for 4-byte keys; every key width and the floating-point encodings in some form
  // (the kernels are the same templates: each width and form compiled once keeps this check short).
  all_forms(u32, u32, wide);
  thrust::sort(sweep::par, u8.begin(), u8.end());
  thrust::stable_sort_by_key(sweep::par, u8.begin(), u8.end(), u32.begin());
  thrust::sort(sweep::par_nosync, i16.begin(), i16.end(), cuda::std::greater<std::int16_t>());
  thrust::sort_by_key(sweep::par, i16.begin(), i16.end(), wide.begin());
  thrust::sort(sweep::par, f.begin(), f.end(), cuda::std::greater<float>());
  thrust::sort(sweep::par, i64.begin(), i64.end());
  thrust::stable_sort_by_key(sweep::par, i64.begin(), i64.end(), u32.begin(), cuda::std::greater<std::int64_t>());
  thrust::sort_by_key(sweep::par, d.begin(), d.end(), wide.begin());
  // Scans: the packed tile state (4 bytes and less), the unpacked one, integer and in-order folds.
  thrust::inclusive_scan(sweep::par, u32.begin(), u32.end(), u32.begin());
  thrust::exclusive_scan(sweep::par_nosync, f.begin(), f.end(), f.begin(), 0.0f);
  thrust::inclusive_scan(sweep::par, u8.begin(), u8.end(), u8.begin());
  thrust::exclusive_scan(sweep::par, d.begin(), d.end(), d.begin(), 1.0, cuda::std::multiplies<double>());
  thrust::inclusive_scan(sweep::par, wide.begin(), wide.end(), wide.begin(), wide_combine{});
  // Scans by key: (value, head) items in the wide (8-byte) and unpacked tile state.
  thrust::inclusive_scan_by_key(sweep::par, u32.begin(), u32.end(), u32.begin(), u32.begin());
  thrust::exclusive_scan_by_key(sweep::par_nosync, u32.begin(), u32.end(), d.begin(), d.begin(), 0.5);
  // The compaction family: unique (adjacent items), remove in place, partition (two outputs).
  thrust::unique_copy(sweep::par, u32.begin(), u32.end(), u32.begin());
  thrust::unique_by_key(sweep::par, u8.begin(), u8.end(), f.begin());
  thrust::remove_if(sweep::par, f.begin(), f.end(), positive{});
  thrust::partition_copy(sweep::par, u8.begin(), u8.end(), u8.begin(), u8.begin(), odd{});
  thrust::stable_partition(sweep::par, f.begin(), f.end(), positive{});
  thrust::reduce_by_key(sweep::par, u32.begin(), u32.end(), f.begin(), u32.begin(), f.begin());
  sweep::histogram_even(sweep::par, f.begin(), f.end(), bins.begin(), 256, 0.0f, 1.0f);
  sweep::histogram_range(sweep::par, f.begin(), f.end(), f.begin(), f.begin() + 5, bins.begin());
  sweep::histogram(sweep::par, u32.begin(), u32.end(), bins.begin(), 256);
}
