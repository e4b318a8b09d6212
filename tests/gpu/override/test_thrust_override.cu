// GPU tests of sweep/thrust_override.cuh: every Thrust CUDA policy form routes each routed algorithm
// to sweep exactly once per call (routed_calls), with results equal to a host reference;
// device-side calls, sweep's own policies and user overloads are left alone.
// This TU includes the override, so "thrust::sort" here IS sweep: the references are std:: on the host.
#include <sweep/thrust_override.cuh> // first, before any Thrust header, as users are told to

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform_scan.h>
#include <thrust/unique.h>

#include "common/counting_allocator.cuh"
#include "common/test_utils.cuh"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#ifndef SWEEP_THRUST_OVERRIDE
#  error "thrust_override.cuh must define SWEEP_THRUST_OVERRIDE"
#endif

namespace
{
using sweep::routed_algorithm;
using sweep::detail::thrust_override::is_routed_policy;

// Exactly Thrust's CUDA policies are routed; sweep's policies (what its fallbacks pass to Thrust) and
// user policies derived from Thrust's CUDA policy are not, so neither can re-enter the override.
struct user_policy : thrust::cuda::execution_policy<user_policy>
{};
using thrust_alloc_policy = thrust::detail::execute_with_allocator<sweep_test::counting_allocator<char>&,
                                                                   thrust::cuda_cub::execute_on_stream_base>;
static_assert(is_routed_policy<std::remove_cv_t<decltype(thrust::device)>>::value, "");
static_assert(is_routed_policy<thrust::cuda_cub::tag>::value, "");
static_assert(is_routed_policy<thrust::cuda_cub::execute_on_stream_nosync>::value, "");
static_assert(is_routed_policy<thrust_alloc_policy>::value, "");
static_assert(!is_routed_policy<thrust::cuda_cub::execution_policy<thrust::cuda_cub::par_t>>::value, "");
static_assert(!is_routed_policy<thrust::cuda_cub::execution_policy<sweep::detail::execute_on_stream>>::value, "");
static_assert(!is_routed_policy<sweep::par_t>::value, "");
static_assert(!is_routed_policy<user_policy>::value, "");
static_assert(!is_routed_policy<std::remove_cv_t<decltype(thrust::seq)>>::value, "");

using sweep_test::stream_guard;

struct is_odd
{
  __host__ __device__ bool operator()(int x) const
  {
    return (x & 1) != 0;
  }
};

// Counts one algorithm's routed calls across a block of code.
struct routed_delta
{
  routed_algorithm algorithm;
  unsigned long long before = sweep::routed_calls(algorithm);
  unsigned long long operator()() const
  {
    return sweep::routed_calls(algorithm) - before;
  }
};

std::vector<int> to_std(const thrust::device_vector<int>& v)
{
  thrust::host_vector<int> h(v);
  return std::vector<int>(h.begin(), h.end());
}

//! The first `count` items of v on the host.
std::vector<int> first_items(const thrust::device_vector<int>& v, std::size_t count)
{
  const std::vector<int> all = to_std(v);
  return std::vector<int>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(count));
}

constexpr std::size_t n = 100003; // several tiles for both kernels, ragged tail

// sort(policy, keys) must route exactly once and sort like std::sort.
template <class Policy>
void check_sort_routes(Policy policy, const char* form)
{
  INFO("policy form: " << form << ", seed " << sweep_test::test_seed());
  auto keys               = sweep_test::random_vector<int>(n, sweep_test::test_seed());
  std::vector<int> expect = to_std(keys);
  std::sort(expect.begin(), expect.end());
  routed_delta sorts{routed_algorithm::sort};
  thrust::sort(policy, keys.begin(), keys.end());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(sorts() == 1);
  CHECK(to_std(keys) == expect);
}

// copy_if(policy, ...) must route exactly once and select like std::copy_if.
template <class Policy>
void check_copy_if_routes(Policy policy, const char* form)
{
  INFO("policy form: " << form << ", seed " << sweep_test::test_seed());
  auto in                 = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 1);
  std::vector<int> source = to_std(in);
  std::vector<int> expect;
  std::copy_if(source.begin(), source.end(), std::back_inserter(expect), is_odd{});
  thrust::device_vector<int> out(n);
  sweep_test::poison(out);
  routed_delta copies{routed_algorithm::copy_if};
  auto end = thrust::copy_if(policy, in.begin(), in.end(), out.begin(), is_odd{});
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(copies() == 1);
  REQUIRE(static_cast<std::size_t>(end - out.begin()) == expect.size());
  std::vector<int> got = to_std(out);
  got.resize(expect.size());
  CHECK(got == expect);
  sweep_test::require_poison_intact(out, expect.size(), "copy_if output past its end");
}

template <class Policy>
__global__ void sort_in_kernel(Policy policy, int* first, int* last)
{
  thrust::sort(policy, first, last);
}

template <class Policy>
__global__ void copy_if_in_kernel(Policy policy, const int* first, const int* last, int* result, long* count)
{
  *count = thrust::copy_if(policy, first, last, result, is_odd{}) - result;
}
} // namespace

// A user overload more specialised than the override's (here: for one comparator type, found by
// ADL through it) must still win over it, as it wins over stock Thrust's.
namespace user_space
{
struct reverse_marker
{
  __host__ __device__ bool operator()(int a, int b) const
  {
    return a > b;
  }
};
static int user_sort_calls = 0;
template <class Policy, class It>
void sort(Policy&, It, It, reverse_marker)
{
  ++user_sort_calls;
}
} // namespace user_space

TEST_CASE("override: every Thrust CUDA policy form routes sort to sweep", "[override]")
{
  stream_guard s;
  sweep_test::allocation_counts counts;
  sweep_test::counting_allocator<char> alloc(&counts);

  check_sort_routes(thrust::device, "thrust::device");
  check_sort_routes(thrust::cuda::par, "thrust::cuda::par");
  check_sort_routes(thrust::cuda::par.on(s.stream), "thrust::cuda::par.on(s)");
  check_sort_routes(thrust::cuda::par_nosync, "thrust::cuda::par_nosync");
  check_sort_routes(thrust::cuda::par_nosync.on(s.stream), "thrust::cuda::par_nosync.on(s)");
  check_sort_routes(thrust::cuda::par_nosync(alloc).on(s.stream), "thrust::cuda::par_nosync(alloc).on(s)");

  // The allocator forms: sweep's temporary storage must come from the very allocator object.
  const long before = counts.allocations.load();
  check_sort_routes(thrust::cuda::par(alloc), "thrust::cuda::par(alloc)");
  check_sort_routes(thrust::cuda::par(alloc).on(s.stream), "thrust::cuda::par(alloc).on(s)");
  CHECK(counts.allocations.load() > before);
  CHECK(counts.allocations.load() == counts.deallocations.load());

  // No policy: device_vector iterators dispatch on thrust::cuda_cub::tag.
  auto keys               = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 2);
  std::vector<int> expect = to_std(keys);
  std::sort(expect.begin(), expect.end());
  routed_delta sorts{routed_algorithm::sort};
  thrust::sort(keys.begin(), keys.end());
  CHECK(sorts() == 1);
  CHECK(to_std(keys) == expect);
}

TEST_CASE("override: copy_if and remove_copy_if route to sweep", "[override]")
{
  stream_guard s;
  check_copy_if_routes(thrust::device, "thrust::device");
  check_copy_if_routes(thrust::cuda::par_nosync.on(s.stream), "thrust::cuda::par_nosync.on(s)");

  auto in                 = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 3);
  auto stencil            = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 4);
  std::vector<int> source = to_std(in);
  std::vector<int> flags  = to_std(stencil);
  std::vector<int> keep_odd, drop_odd, keep_odd_stencil, drop_odd_stencil;
  for (std::size_t i = 0; i < n; ++i)
  {
    (is_odd{}(source[i]) ? keep_odd : drop_odd).push_back(source[i]);
    (is_odd{}(flags[i]) ? keep_odd_stencil : drop_odd_stencil).push_back(source[i]);
  }
  thrust::device_vector<int> out(n);

  routed_delta copies{routed_algorithm::copy_if};
  routed_delta removes{routed_algorithm::remove_copy_if};
  auto end = thrust::copy_if(in.begin(), in.end(), stencil.begin(), out.begin(), is_odd{});
  std::vector<int> got = to_std(out);
  got.resize(static_cast<std::size_t>(end - out.begin()));
  CHECK(got == keep_odd_stencil);

  end = thrust::remove_copy_if(thrust::cuda::par.on(s.stream), in.begin(), in.end(), out.begin(), is_odd{});
  got = to_std(out);
  got.resize(static_cast<std::size_t>(end - out.begin()));
  CHECK(got == drop_odd);

  end = thrust::remove_copy_if(thrust::device, in.begin(), in.end(), stencil.begin(), out.begin(), is_odd{});
  got = to_std(out);
  got.resize(static_cast<std::size_t>(end - out.begin()));
  CHECK(got == drop_odd_stencil);

  CHECK(copies() == 1);
  CHECK(removes() == 2);
}

TEST_CASE("override: stable_sort, sort_by_key and stable_sort_by_key route to sweep", "[override]")
{
  auto keys   = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 5);
  auto values = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 6);
  // Few distinct keys, so that stability shows in the values.
  std::vector<int> k = to_std(keys), v = to_std(values);
  for (int& key : k)
  {
    key &= 0xFF;
  }
  keys = thrust::device_vector<int>(k.begin(), k.end());

  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return k[a] > k[b]; });
  std::vector<int> expect_keys(n), expect_values(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expect_keys[i]   = k[order[i]];
    expect_values[i] = v[order[i]];
  }

  routed_delta stable{routed_algorithm::stable_sort};
  routed_delta by_key{routed_algorithm::sort_by_key};
  routed_delta stable_by_key{routed_algorithm::stable_sort_by_key};

  thrust::device_vector<int> d_keys = keys, d_values = values;
  thrust::stable_sort_by_key(thrust::device, d_keys.begin(), d_keys.end(), d_values.begin(), thrust::greater<int>());
  CHECK(to_std(d_keys) == expect_keys);
  CHECK(to_std(d_values) == expect_values);

  // sweep's sort_by_key is stable too (radix); Thrust only promises the key order, which is checked.
  d_keys   = keys;
  d_values = values;
  thrust::sort_by_key(thrust::device, d_keys.begin(), d_keys.end(), d_values.begin(), thrust::greater<int>());
  CHECK(to_std(d_keys) == expect_keys);

  d_keys = keys;
  thrust::stable_sort(thrust::device, d_keys.begin(), d_keys.end(), thrust::greater<int>());
  CHECK(to_std(d_keys) == expect_keys);

  CHECK(stable() == 1);
  CHECK(by_key() == 1);
  CHECK(stable_by_key() == 1);
}

TEST_CASE("override: device-side calls keep Thrust's device path and are not routed", "[override]")
{
  const std::size_t small = 1000;
  auto keys               = sweep_test::random_vector<int>(small, sweep_test::test_seed() + 7);
  std::vector<int> source = to_std(keys);
  std::vector<int> sorted = source;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> odd;
  std::copy_if(source.begin(), source.end(), std::back_inserter(odd), is_odd{});

  routed_delta sorts{routed_algorithm::sort};
  routed_delta copies{routed_algorithm::copy_if};
  thrust::device_vector<int> out(small);
  thrust::device_vector<long> count(1);
  int* raw = thrust::raw_pointer_cast(keys.data());
  copy_if_in_kernel<<<1, 1>>>(thrust::device, raw, raw + small, thrust::raw_pointer_cast(out.data()),
                              thrust::raw_pointer_cast(count.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  sort_in_kernel<<<1, 1>>>(thrust::device, raw, raw + small);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

  CHECK(sorts() == 0);
  CHECK(copies() == 0);
  CHECK(to_std(keys) == sorted);
  REQUIRE(static_cast<std::size_t>(count[0]) == odd.size());
  std::vector<int> got = to_std(out);
  got.resize(odd.size());
  CHECK(got == odd);
}

namespace
{
// Generic code that hands the policy to Thrust as its base type reaches Thrust's own entry point;
// that instantiation must stay stock Thrust (its body is then the same in every translation unit).
template <class Policy>
void sort_through_base(const thrust::detail::execution_policy_base<Policy>& exec, thrust::device_vector<int>& v)
{
  thrust::sort(exec, v.begin(), v.end());
}
} // namespace

TEST_CASE("override: policy variables route; Thrust's entry point reached through generic code does not",
          "[override]")
{
  stream_guard s;
  auto keys               = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 9);
  std::vector<int> expect = to_std(keys);
  std::sort(expect.begin(), expect.end());

  routed_delta sorts{routed_algorithm::sort};
  thrust::device_vector<int> v = keys;
  auto policy                  = thrust::cuda::par.on(s.stream); // non-const lvalue
  thrust::sort(policy, v.begin(), v.end());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(to_std(v) == expect);
  const auto const_policy = thrust::cuda::par_nosync.on(s.stream); // const lvalue
  v                       = keys;
  thrust::sort(const_policy, v.begin(), v.end());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(to_std(v) == expect);
  thrust::cuda_cub::par_t plain; // non-const par_t
  v = keys;
  thrust::sort(plain, v.begin(), v.end());
  CHECK(to_std(v) == expect);
  CHECK(sorts() == 3);

  routed_delta through_base{routed_algorithm::sort};
  v = keys;
  sort_through_base(thrust::device, v);
  CHECK(to_std(v) == expect);
  CHECK(through_base() == 0);
}

TEST_CASE("override: a more specialised user overload still wins", "[override]")
{
  thrust::device_vector<int> keys(16, 1);
  routed_delta sorts{routed_algorithm::sort};
  const int before = user_space::user_sort_calls;
  thrust::sort(thrust::device, keys.begin(), keys.end(), user_space::reverse_marker{});
  CHECK(user_space::user_sort_calls == before + 1);
  CHECK(sorts() == 0);
}

namespace
{
struct squared
{
  __host__ __device__ int operator()(int x) const
  {
    return x * x;
  }
};
} // namespace

TEST_CASE("override: the scans route to sweep", "[override][scan]")
{
  stream_guard s;
  auto in                 = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 10);
  std::vector<int> source = to_std(in);
  // Host references in unsigned arithmetic (wrapping like the device's int scans).
  std::vector<int> incl(n), excl(n), incl_init(n), tr_incl(n), tr_excl(n);
  unsigned a = 0, b = 7, c = 5, d = 0, e = 3;
  for (std::size_t i = 0; i < n; ++i)
  {
    const unsigned x = static_cast<unsigned>(source[i]);
    excl[i]          = static_cast<int>(b);
    tr_excl[i]       = static_cast<int>(e);
    a += x;
    b += x;
    c += x;
    d += x * x;
    e += x * x;
    incl[i]      = static_cast<int>(a);
    incl_init[i] = static_cast<int>(c);
    tr_incl[i]   = static_cast<int>(d);
  }
  thrust::device_vector<int> out(n);

  routed_delta inclusive{routed_algorithm::inclusive_scan};
  routed_delta exclusive{routed_algorithm::exclusive_scan};
  routed_delta tr_inclusive{routed_algorithm::transform_inclusive_scan};
  routed_delta tr_exclusive{routed_algorithm::transform_exclusive_scan};

  auto end = thrust::inclusive_scan(thrust::device, in.begin(), in.end(), out.begin());
  CHECK(end == out.end());
  CHECK(to_std(out) == incl);
  sweep_test::poison(out);
  thrust::inclusive_scan(thrust::cuda::par_nosync.on(s.stream), in.begin(), in.end(), out.begin(), thrust::plus<int>());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(to_std(out) == incl);
  sweep_test::poison(out);
  thrust::inclusive_scan(in.begin(), in.end(), out.begin()); // no policy: device_vector iterators
  CHECK(to_std(out) == incl);
#if SWEEP_CCCL_HAS_INCLUSIVE_SCAN_INIT
  sweep_test::poison(out);
  thrust::inclusive_scan(thrust::cuda::par.on(s.stream), in.begin(), in.end(), out.begin(), 5, thrust::plus<int>());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(to_std(out) == incl_init);
#endif
  sweep_test::poison(out);
  thrust::exclusive_scan(thrust::device, in.begin(), in.end(), out.begin(), 7);
  CHECK(to_std(out) == excl);
  sweep_test::poison(out);
  thrust::exclusive_scan(thrust::device, in.begin(), in.end(), out.begin(), 7, thrust::plus<int>());
  CHECK(to_std(out) == excl);
  sweep_test::poison(out);
  auto policy = thrust::cuda::par.on(s.stream); // a non-const lvalue
  thrust::transform_inclusive_scan(policy, in.begin(), in.end(), out.begin(), squared{}, thrust::plus<int>());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(to_std(out) == tr_incl);
  sweep_test::poison(out);
  thrust::transform_exclusive_scan(thrust::device, in.begin(), in.end(), out.begin(), squared{}, 3, thrust::plus<int>());
  CHECK(to_std(out) == tr_excl);

  CHECK(inclusive() == (SWEEP_CCCL_HAS_INCLUSIVE_SCAN_INIT ? 4 : 3));
  CHECK(exclusive() == 2);
  CHECK(tr_inclusive() == 1);
  CHECK(tr_exclusive() == 1);
}

TEST_CASE("override: the scans by key route to sweep", "[override][scan]")
{
  sweep_test::stream_guard s;
  const std::size_t n = 50000;
  std::vector<int> keys_h(n), values_h(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    keys_h[i]   = static_cast<int>((i / 7) % 13); // runs of 7 (neighbouring runs differ)
    values_h[i] = static_cast<int>((i * 2654435761u) % 1000);
  }
  // Host references: per run, inclusive sums, and exclusive sums from 3.
  std::vector<int> incl(n), excl(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    const bool head = i == 0 || keys_h[i] != keys_h[i - 1];
    incl[i]         = head ? values_h[i] : incl[i - 1] + values_h[i];
    excl[i]         = head ? 3 : excl[i - 1] + values_h[i - 1];
  }
  thrust::device_vector<int> keys(keys_h.begin(), keys_h.end()), values(values_h.begin(), values_h.end()), out(n);

  routed_delta inclusive{routed_algorithm::inclusive_scan_by_key};
  routed_delta exclusive{routed_algorithm::exclusive_scan_by_key};

  auto end = thrust::inclusive_scan_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), out.begin());
  CHECK(end == out.end());
  CHECK(to_std(out) == incl);
  sweep_test::poison(out);
  thrust::inclusive_scan_by_key(thrust::cuda::par_nosync.on(s.stream), keys.begin(), keys.end(), values.begin(),
                                out.begin(), thrust::equal_to<int>(), thrust::plus<int>());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(to_std(out) == incl);
  sweep_test::poison(out);
  thrust::inclusive_scan_by_key(keys.begin(), keys.end(), values.begin(), out.begin()); // no policy
  CHECK(to_std(out) == incl);
  sweep_test::poison(out);
  end = thrust::exclusive_scan_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), out.begin(), 3);
  CHECK(end == out.end());
  CHECK(to_std(out) == excl);
  sweep_test::poison(out);
  auto policy = thrust::cuda::par.on(s.stream); // a non-const lvalue
  thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin(), 3,
                                thrust::equal_to<int>(), thrust::plus<int>());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(to_std(out) == excl);

  CHECK(inclusive() == 3);
  CHECK(exclusive() == 2);
}

TEST_CASE("override: the compaction family routes to sweep (unique, remove, partition, reduce_by_key)",
          "[override][compaction]")
{
  sweep_test::stream_guard s;
  const std::size_t n = 70001; // several tiles, ragged tail
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    h[i] = static_cast<int>(((i / 5) * 2654435761u) % 97); // runs of 5, neighbouring runs mostly differ
  }
  // Host references.
  std::vector<int> uniq, odd, even, run_keys, run_sums;
  for (std::size_t i = 0; i < n; ++i)
  {
    const bool head = i == 0 || h[i] != h[i - 1];
    if (head)
    {
      uniq.push_back(h[i]);
      run_keys.push_back(h[i]);
      run_sums.push_back(0);
    }
    run_keys.back() = h[i];
    run_sums.back() += h[i];
    ((h[i] & 1) ? odd : even).push_back(h[i]);
  }
  std::vector<int> partitioned(odd);
  partitioned.insert(partitioned.end(), even.begin(), even.end());
  const thrust::device_vector<int> input(h.begin(), h.end());

  routed_delta uniques{routed_algorithm::unique};
  routed_delta unique_copies{routed_algorithm::unique_copy};
  routed_delta unique_counts{routed_algorithm::unique_count};
  routed_delta removes{routed_algorithm::remove_if};
  routed_delta partitions{routed_algorithm::stable_partition};
  routed_delta partition_copies{routed_algorithm::partition_copy};
  routed_delta reductions{routed_algorithm::reduce_by_key};

  thrust::device_vector<int> v(input), out(n), out2(n);
  auto end = thrust::unique(thrust::device, v.begin(), v.end());
  CHECK(static_cast<std::size_t>(end - v.begin()) == uniq.size());
  CHECK(first_items(v, uniq.size()) == uniq);
  auto copy_end = thrust::unique_copy(thrust::cuda::par.on(s.stream), input.begin(), input.end(), out.begin());
  CHECK(static_cast<std::size_t>(copy_end - out.begin()) == uniq.size());
  CHECK(first_items(out, uniq.size()) == uniq);
  CHECK(thrust::unique_count(input.begin(), input.end()) == static_cast<std::ptrdiff_t>(uniq.size())); // no policy

  v = input;
  auto policy = thrust::cuda::par_nosync.on(s.stream); // a non-const lvalue
  end         = thrust::remove_if(policy, v.begin(), v.end(), is_odd{}); // keeps the even items
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(static_cast<std::size_t>(end - v.begin()) == even.size());
  CHECK(first_items(v, even.size()) == even);

  v   = input;
  end = thrust::stable_partition(thrust::device, v.begin(), v.end(), is_odd{});
  CHECK(static_cast<std::size_t>(end - v.begin()) == odd.size());
  CHECK(to_std(v) == partitioned);
  const auto ends = thrust::partition_copy(thrust::device, input.begin(), input.end(), out.begin(), out2.begin(), is_odd{});
  CHECK(static_cast<std::size_t>(ends.first - out.begin()) == odd.size());
  CHECK(static_cast<std::size_t>(ends.second - out2.begin()) == even.size());
  // sweep's partition_copy keeps both sides in input order (README; Thrust promises no order).
  CHECK(first_items(out, odd.size()) == odd);
  CHECK(first_items(out2, even.size()) == even);

  const auto runs = thrust::reduce_by_key(thrust::device, input.begin(), input.end(), input.begin(), out.begin(), out2.begin());
  const std::size_t segments = static_cast<std::size_t>(runs.first - out.begin());
  CHECK(segments == run_keys.size());
  CHECK(first_items(out, segments) == run_keys);
  CHECK(first_items(out2, segments) == run_sums);

  CHECK(uniques() == 1);
  CHECK(unique_copies() == 1);
  CHECK(unique_counts() == 1);
  CHECK(removes() == 1);
  CHECK(partitions() == 1);
  CHECK(partition_copies() == 1);
  CHECK(reductions() == 1);
}
