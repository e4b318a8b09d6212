// sweep::par sort: policy forms, patterns (sorted, reverse, all equal, skewed), pass skipping on and
// off, repeatability, Thrust fallbacks, allocation failure, and one input past 2^31 keys.
#include "sort_test_common.cuh"

#include <common/counting_allocator.cuh>

#include <sweep/detail/radix/dispatch.cuh>

#include <thrust/equal.h>
#include <thrust/sequence.h>

#include <new>

namespace
{

struct by_low_byte // a custom comparator: Thrust's merge sort
{
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const
  {
    return (a & 0xff) < (b & 0xff);
  }
};

struct custom_key
{
  int major, minor;
};
struct custom_less
{
  __host__ __device__ bool operator()(const custom_key& a, const custom_key& b) const
  {
    return a.major < b.major;
  }
};

struct half_one_value
{
  std::uint64_t seed;
  __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
  {
    const std::uint64_t r = sweep_test::mix64(i ^ sweep_test::mix64(seed));
    return (r & 1) ? 12345u : static_cast<std::uint32_t>(r >> 32);
  }
};

struct refuse_allocator : thrust::device_allocator<char>
{
  using pointer    = thrust::device_allocator<char>::pointer;
  using size_type  = std::size_t;
  using value_type = char;
  pointer allocate(size_type)
  {
    throw std::bad_alloc();
  }
  void deallocate(pointer, size_type) {}
};

} // namespace

TEST_CASE("sort patterns: sorted, reverse, all equal, skewed, small range", "[sort][patterns]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : {std::size_t(5000), std::size_t(200000), std::size_t(3) << 20})
  {
    thrust::device_vector<std::uint32_t> v(n);
    thrust::sequence(thrust::device, v.begin(), v.end());
    sweep_sort_test::check_keys(v, thrust::less<std::uint32_t>(), "sorted");
    sweep_sort_test::check_keys(v, thrust::greater<std::uint32_t>(), "reverse sorted");
    thrust::fill(thrust::device, v.begin(), v.end(), 7u);
    sweep_sort_test::check_keys(v, thrust::less<std::uint32_t>(), "all equal");
    thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed);
    sweep_sort_test::check_pairs(v, values, thrust::less<std::uint32_t>(), "all equal pairs");
    v = sweep_test::generated_vector<std::uint32_t>(n, half_one_value{seed});
    sweep_sort_test::check_pairs(v, values, thrust::less<std::uint32_t>(), "half one value");
    sweep_sort_test::check_keys(sweep_sort_test::few_valued_vector<std::uint32_t>(n, 4, seed), thrust::less<std::uint32_t>(),
                                "four values");
    thrust::device_vector<std::uint32_t> small = sweep_test::random_vector<std::uint16_t>(n, seed + 1);
    sweep_sort_test::check_pairs(small, values, thrust::less<std::uint32_t>(), "keys below 2^16");
  }
}

TEST_CASE("pass skipping on and off give the same result", "[sort][skip]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  // At least pass_skip_min_keys, so that "on" really skips the six trivial passes.
  const std::size_t n      = sweep::detail::radix::pass_skip_min_keys + 12345;
  thrust::device_vector<std::uint64_t> keys = sweep_test::random_vector<std::uint16_t>(n, seed);
  thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed + 1);
  auto& flag = sweep::detail::radix::pass_skipping_enabled();
  flag       = false;
  sweep_sort_test::check_pairs(keys, values, thrust::less<std::uint64_t>(), "skipping off");
  flag = true;
  sweep_sort_test::check_pairs(keys, values, thrust::less<std::uint64_t>(), "skipping on");
  sweep_sort_test::check_pairs(keys, values, thrust::greater<std::uint64_t>(), "skipping on, greater");
}

TEST_CASE("sort gives identical output 100 times", "[sort][repeat]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = (std::size_t(1) << 22) + 77;
  const thrust::device_vector<std::uint32_t> keys = sweep_sort_test::few_valued_vector<std::uint32_t>(n, 1000, seed);
  thrust::device_vector<std::uint32_t> positions(n);
  thrust::sequence(thrust::device, positions.begin(), positions.end());
  thrust::device_vector<std::uint32_t> first_keys = keys, first_positions = positions;
  thrust::sort_by_key(sweep::par, first_keys.begin(), first_keys.end(), first_positions.begin());
  thrust::host_vector<std::uint32_t> hk = first_keys, hp = first_positions;
  for (int r = 0; r < 100; ++r)
  {
    thrust::device_vector<std::uint32_t> k = keys, p = positions;
    thrust::sort_by_key(sweep::par, k.begin(), k.end(), p.begin());
    thrust::host_vector<std::uint32_t> rk = k, rp = p;
    INFO("repeat " << r);
    REQUIRE(rk == hk);
    REQUIRE(rp == hp);
  }
}

TEST_CASE("every policy form sorts", "[sort][policy]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 300001;
  const thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<std::uint32_t> expected    = input;
  thrust::sort(thrust::device, expected.begin(), expected.end());
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  sweep_test::allocation_counts counts;
  sweep_test::counting_allocator<char> alloc(&counts);
  auto run = [&](auto policy, const char* name, bool needs_sync) {
    thrust::device_vector<std::uint32_t> v = input;
    thrust::sort(policy, v.begin(), v.end());
    if (needs_sync)
    {
      REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    }
    sweep_test::require_bitwise_equal(expected, v, n, name);
    thrust::device_vector<std::uint32_t> s = input;
    thrust::stable_sort(policy, s.begin(), s.end(), thrust::less<std::uint32_t>());
    if (needs_sync)
    {
      REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    }
    sweep_test::require_bitwise_equal(expected, s, n, std::string(name) + " stable_sort");
  };
  run(sweep::par, "par", false);
  run(sweep::par.on(stream), "par.on", false);
  run(sweep::par_nosync, "par_nosync", true);
  run(sweep::par_nosync.on(stream), "par_nosync.on", true);
  run(sweep::par(alloc), "par(alloc)", false);
  run(sweep::par(alloc).on(stream), "par(alloc).on", false);
  REQUIRE(counts.allocations > 0);
  REQUIRE(counts.allocations == counts.deallocations);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("stable_sort_by_key equals sort_by_key", "[sort][stable]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 500000;
  thrust::device_vector<float> keys          = sweep_sort_test::few_valued_vector<float>(n, 9, seed);
  thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed + 1);
  thrust::device_vector<float> k1 = keys, k2 = keys;
  thrust::device_vector<std::uint32_t> v1 = values, v2 = values;
  thrust::stable_sort_by_key(thrust::device, k1.begin(), k1.end(), v1.begin(), thrust::greater<float>());
  thrust::stable_sort_by_key(sweep::par, k2.begin(), k2.end(), v2.begin(), thrust::greater<float>());
  sweep_test::require_bitwise_equal(k1, k2, n, "stable keys");
  sweep_test::require_bitwise_equal(v1, v2, n, "stable values");
}

TEST_CASE("custom comparators and key types fall back to Thrust's sort", "[sort][fallback]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 100000;
  thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<std::uint32_t> e = input, a = input;
  thrust::stable_sort(thrust::device, e.begin(), e.end(), by_low_byte());
  thrust::stable_sort(sweep::par, a.begin(), a.end(), by_low_byte());
  sweep_test::require_bitwise_equal(e, a, n, "custom comparator");

  thrust::host_vector<custom_key> host(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    host[i] = custom_key{static_cast<int>(sweep_test::mix64(seed + i) % 100), static_cast<int>(i)};
  }
  thrust::device_vector<custom_key> ce = host, ca = host;
  thrust::sort(thrust::device, ce.begin(), ce.end(), custom_less());
  thrust::sort(sweep::par, ca.begin(), ca.end(), custom_less());
  sweep_test::require_bitwise_equal(ce, ca, n, "custom key type");
}

TEST_CASE("allocation failure throws bad_alloc and leaves the input untouched", "[sort][errors]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 1 << 20;
  const thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<std::uint32_t> v           = input;
  refuse_allocator alloc;
  REQUIRE_THROWS_AS(thrust::sort(sweep::par(alloc), v.begin(), v.end()), std::bad_alloc);
  sweep_test::require_bitwise_equal(input, v, n, "input after bad_alloc");
}

TEST_CASE("sort past 2^31 keys", "[sort][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  if (!sweep_test::device_has_memory(n * 2 * 4))
  {
    WARN("not enough device memory; skipped");
    return;
  }
  const std::uint64_t seed = sweep_test::test_seed();
  thrust::device_vector<std::uint16_t> keys = sweep_test::random_vector<std::uint16_t>(n, seed);
  thrust::device_vector<std::uint16_t> expected = keys;
  thrust::sort(thrust::device, expected.begin(), expected.end());
  sweep::detail::radix::pass_skipping_enabled() = false;
  thrust::sort(sweep::par, keys.begin(), keys.end());
  sweep::detail::radix::pass_skipping_enabled() = true;
  REQUIRE(thrust::is_sorted(thrust::device, keys.begin(), keys.end()));
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));
}
