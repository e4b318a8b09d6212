// Compile-only check (no test runs it): every call form thrust_override.cuh routes, with every Thrust
// CUDA policy form it accepts, so that the CCCL matrix (.ci/cccl-matrix) builds the override's
// overloads and their conversions to sweep's policies against each supported CCCL release.
#include <sweep/thrust_override.cuh> // first, before any Thrust header, as users are told to

#include <thrust/copy.h>
#include <thrust/device_allocator.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform_scan.h>
#include <thrust/unique.h>

#include <cuda/std/functional>

#include <cuda/version>

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#ifndef SWEEP_THRUST_OVERRIDE
#  error "thrust_override.cuh must define SWEEP_THRUST_OVERRIDE"
#endif

// sweep's onesweep takes exactly the sorts stock Thrust radix-sorts, in every release (their rule
// differs: util/cccl_compat.cuh); every other comparator and key goes to Thrust's own sort.
namespace sort_rule
{
using sweep::detail::sort_impl::use_onesweep;
static_assert(use_onesweep<float*, ::cuda::std::less<float>> == (CCCL_VERSION >= 2006000), "");
static_assert(use_onesweep<int*, ::cuda::std::greater<void>> == (CCCL_VERSION >= 2006000), "");
static_assert(use_onesweep<thrust::device_ptr<__half>, ::cuda::std::less<__half>> == (CCCL_VERSION >= 2007000), "");
// The comparator of calls without one (sweep's sort(policy, first, last) and its *_by_key forms).
static_assert(use_onesweep<float*, sweep::detail::cccl::default_less<float>>, "");
static_assert(use_onesweep<std::uint32_t*, sweep::detail::cccl::default_less<std::uint32_t>>, "");
static_assert(!use_onesweep<float*, ::cuda::std::less_equal<float>>, "");
static_assert(!use_onesweep<__int128*, ::cuda::std::less<__int128>>, "");
#if CCCL_VERSION < 3000000 // thrust::less is a type of its own (from 3.0 on cuda::std::less, deprecated in 3.1)
static_assert(use_onesweep<float*, thrust::less<float>>, "");
static_assert(use_onesweep<thrust::detail::normal_iterator<thrust::device_ptr<std::uint64_t>>, thrust::greater<std::uint64_t>>, "");
static_assert(use_onesweep<double*, thrust::less<void>> == (CCCL_VERSION >= 2006000), "");
static_assert(use_onesweep<__half*, thrust::less<__half>> == (CCCL_VERSION >= 2007000), "");
#endif
} // namespace sort_rule

namespace
{
struct is_odd
{
  __host__ __device__ bool operator()(int x) const
  {
    return (x & 1) != 0;
  }
};
struct twice
{
  __host__ __device__ int operator()(int x) const
  {
    return 2 * x;
  }
};

//! Every routed algorithm in each of its call forms, under one policy (passed as the caller passes it).
template <class Policy>
void every_form(Policy&& policy, thrust::device_vector<int>& keys, thrust::device_vector<int>& out,
                thrust::device_vector<std::uint64_t>& values)
{
  thrust::copy_if(policy, keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::copy_if(policy, keys.begin(), keys.end(), keys.begin(), out.begin(), is_odd{});
  thrust::remove_copy_if(policy, keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::remove_copy_if(policy, keys.begin(), keys.end(), keys.begin(), out.begin(), is_odd{});
  thrust::sort(policy, keys.begin(), keys.end());
  thrust::sort(policy, keys.begin(), keys.end(), cuda::std::greater<int>());
  thrust::stable_sort(policy, keys.begin(), keys.end());
  thrust::stable_sort(policy, keys.begin(), keys.end(), cuda::std::greater<int>());
  thrust::sort_by_key(policy, keys.begin(), keys.end(), values.begin());
  thrust::sort_by_key(policy, keys.begin(), keys.end(), values.begin(), cuda::std::greater<int>());
  thrust::stable_sort_by_key(policy, keys.begin(), keys.end(), values.begin());
  thrust::stable_sort_by_key(policy, keys.begin(), keys.end(), values.begin(), cuda::std::greater<int>());
  thrust::inclusive_scan(policy, keys.begin(), keys.end(), out.begin());
  thrust::inclusive_scan(policy, keys.begin(), keys.end(), out.begin(), cuda::std::plus<int>());
#if SWEEP_CCCL_HAS_INCLUSIVE_SCAN_INIT
  thrust::inclusive_scan(policy, keys.begin(), keys.end(), out.begin(), 3, cuda::std::plus<int>());
#endif
  thrust::exclusive_scan(policy, keys.begin(), keys.end(), out.begin());
  thrust::exclusive_scan(policy, keys.begin(), keys.end(), out.begin(), 3);
  thrust::exclusive_scan(policy, keys.begin(), keys.end(), out.begin(), 3, cuda::std::plus<int>());
  thrust::transform_inclusive_scan(policy, keys.begin(), keys.end(), out.begin(), twice{}, cuda::std::plus<int>());
#if SWEEP_CCCL_HAS_TRANSFORM_INCLUSIVE_SCAN_INIT
  thrust::transform_inclusive_scan(policy, keys.begin(), keys.end(), out.begin(), twice{}, 3, cuda::std::plus<int>());
#endif
  thrust::transform_exclusive_scan(policy, keys.begin(), keys.end(), out.begin(), twice{}, 3, cuda::std::plus<int>());
  thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), keys.begin(), out.begin());
  thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), keys.begin(), out.begin(), cuda::std::equal_to<int>());
  thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), keys.begin(), out.begin(), cuda::std::equal_to<int>(),
                                cuda::std::plus<int>());
  thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), keys.begin(), out.begin());
  thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), keys.begin(), out.begin(), 3);
  thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), keys.begin(), out.begin(), 3, cuda::std::equal_to<int>());
  thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), keys.begin(), out.begin(), 3, cuda::std::equal_to<int>(),
                                cuda::std::plus<int>());
  thrust::unique(policy, keys.begin(), keys.end());
  thrust::unique(policy, keys.begin(), keys.end(), cuda::std::equal_to<int>());
  thrust::unique_copy(policy, keys.begin(), keys.end(), out.begin());
  thrust::unique_copy(policy, keys.begin(), keys.end(), out.begin(), cuda::std::equal_to<int>());
  thrust::unique_count(policy, keys.begin(), keys.end());
  thrust::unique_count(policy, keys.begin(), keys.end(), cuda::std::equal_to<int>());
  thrust::unique_by_key(policy, keys.begin(), keys.end(), values.begin());
  thrust::unique_by_key(policy, keys.begin(), keys.end(), values.begin(), cuda::std::equal_to<int>());
  thrust::unique_by_key_copy(policy, keys.begin(), keys.end(), values.begin(), out.begin(), values.begin());
  thrust::unique_by_key_copy(policy, keys.begin(), keys.end(), values.begin(), out.begin(), values.begin(),
                             cuda::std::equal_to<int>());
  thrust::remove(policy, keys.begin(), keys.end(), 3);
  thrust::remove_if(policy, keys.begin(), keys.end(), is_odd{});
  thrust::remove_if(policy, keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::remove_copy(policy, keys.begin(), keys.end(), out.begin(), 3);
  thrust::partition(policy, keys.begin(), keys.end(), is_odd{});
  thrust::partition(policy, keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::stable_partition(policy, keys.begin(), keys.end(), is_odd{});
  thrust::stable_partition(policy, keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::partition_copy(policy, keys.begin(), keys.end(), out.begin(), keys.begin(), is_odd{});
  thrust::partition_copy(policy, keys.begin(), keys.end(), out.begin(), out.begin(), keys.begin(), is_odd{});
  thrust::stable_partition_copy(policy, keys.begin(), keys.end(), out.begin(), keys.begin(), is_odd{});
  thrust::stable_partition_copy(policy, keys.begin(), keys.end(), out.begin(), out.begin(), keys.begin(), is_odd{});
  thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin(), values.begin());
  thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin(), values.begin(), cuda::std::equal_to<int>());
  thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin(), values.begin(), cuda::std::equal_to<int>(),
                        cuda::std::plus<std::uint64_t>());
}
} // namespace

void sweep_override_all(thrust::device_vector<int>& keys, thrust::device_vector<int>& out,
                        thrust::device_vector<std::uint64_t>& values, cudaStream_t stream)
{
  thrust::device_allocator<char> alloc;
  // Temporaries, as users write them.
  every_form(thrust::device, keys, out, values);
  every_form(thrust::cuda::par, keys, out, values);
  every_form(thrust::cuda::par_nosync, keys, out, values);
  every_form(thrust::cuda::par.on(stream), keys, out, values);
  every_form(thrust::cuda::par_nosync.on(stream), keys, out, values);
  every_form(thrust::cuda::par(alloc), keys, out, values);
  every_form(thrust::cuda::par(alloc).on(stream), keys, out, values);
  every_form(thrust::cuda::par_nosync(alloc).on(stream), keys, out, values);
  // A named, non-const policy object (the execution_policy<P>& overloads).
  auto on_stream = thrust::cuda::par.on(stream);
  every_form(on_stream, keys, out, values);

  // Without a policy: device_vector iterators and device_ptr.
  thrust::copy_if(keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::copy_if(keys.begin(), keys.end(), keys.begin(), out.begin(), is_odd{});
  thrust::remove_copy_if(keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::remove_copy_if(keys.begin(), keys.end(), keys.begin(), out.begin(), is_odd{});
  thrust::sort(keys.begin(), keys.end());
  thrust::stable_sort(keys.begin(), keys.end(), cuda::std::greater<int>());
  thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
  thrust::stable_sort_by_key(keys.begin(), keys.end(), values.begin(), cuda::std::greater<int>());
  thrust::inclusive_scan(keys.begin(), keys.end(), out.begin());
  thrust::exclusive_scan(keys.begin(), keys.end(), out.begin(), 3, cuda::std::plus<int>());
  thrust::transform_exclusive_scan(keys.begin(), keys.end(), out.begin(), twice{}, 3, cuda::std::plus<int>());
  thrust::inclusive_scan_by_key(keys.begin(), keys.end(), keys.begin(), out.begin());
  thrust::exclusive_scan_by_key(keys.begin(), keys.end(), keys.begin(), out.begin(), 3, cuda::std::equal_to<int>(),
                                cuda::std::plus<int>());
  thrust::unique(keys.begin(), keys.end());
  thrust::unique_count(keys.begin(), keys.end());
  thrust::unique_by_key_copy(keys.begin(), keys.end(), values.begin(), out.begin(), values.begin());
  thrust::remove_if(keys.begin(), keys.end(), out.begin(), is_odd{});
  thrust::stable_partition(keys.begin(), keys.end(), is_odd{});
  thrust::partition_copy(keys.begin(), keys.end(), out.begin(), keys.begin(), is_odd{});
  const thrust::device_ptr<int> first = keys.data();
  thrust::remove(first, first + keys.size(), 3);
  thrust::reduce_by_key(keys.begin(), keys.end(), values.begin(), out.begin(), values.begin());
  thrust::sort(first, first + keys.size());
  thrust::copy_if(first, first + keys.size(), out.begin(), is_odd{});
  thrust::inclusive_scan(first, first + keys.size(), out.begin(), cuda::std::plus<int>());
}
