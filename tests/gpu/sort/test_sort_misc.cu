// sweep::par sort: policy forms, patterns (sorted, reverse, all equal, skewed), pass skipping on and
// off, repeatability, Thrust fallbacks, allocation failure, and one input past 2^31 keys.
#include "sort_test_common.cuh"

#include <common/counting_allocator.cuh>

#include <sweep/detail/sort/dispatch.cuh>

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
    sweep_test::check_keys(v, thrust::less<std::uint32_t>(), "sorted");
    sweep_test::check_keys(v, thrust::greater<std::uint32_t>(), "reverse sorted");
    thrust::fill(thrust::device, v.begin(), v.end(), 7u);
    sweep_test::check_keys(v, thrust::less<std::uint32_t>(), "all equal");
    thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed);
    sweep_test::check_pairs(v, values, thrust::less<std::uint32_t>(), "all equal pairs");
    v = sweep_test::generated_vector<std::uint32_t>(n, half_one_value{seed});
    sweep_test::check_pairs(v, values, thrust::less<std::uint32_t>(), "half one value");
    sweep_test::check_keys(sweep_test::few_valued_vector<std::uint32_t>(n, 4, seed), thrust::less<std::uint32_t>(),
                                "four values");
    thrust::device_vector<std::uint32_t> small = sweep_test::random_vector<std::uint16_t>(n, seed + 1);
    sweep_test::check_pairs(small, values, thrust::less<std::uint32_t>(), "keys below 2^16");
  }
}

TEST_CASE("pass skipping on and off give the same result", "[sort][skip]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  // Past pass_skip_min_keys, so that "on" really skips the six trivial passes.
  const std::size_t n      = (std::size_t(1) << 22) + 12345;
  thrust::device_vector<std::uint64_t> keys = sweep_test::random_vector<std::uint16_t>(n, seed);
  thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed + 1);
  {
    const sweep_test::hook_setting<bool> off(sweep::detail::sort_impl::pass_skipping_enabled(), false);
    sweep_test::check_pairs(keys, values, thrust::less<std::uint64_t>(), "skipping off");
  }
  sweep_test::check_pairs(keys, values, thrust::less<std::uint64_t>(), "skipping on");
  sweep_test::check_pairs(keys, values, thrust::greater<std::uint64_t>(), "skipping on, greater");
}

TEST_CASE("sort gives identical output 100 times", "[sort][repeat]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = (std::size_t(1) << 22) + 77;
  const thrust::device_vector<std::uint32_t> keys = sweep_test::few_valued_vector<std::uint32_t>(n, 1000, seed);
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
  thrust::device_vector<float> keys          = sweep_test::few_valued_vector<float>(n, 9, seed);
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
  if (!sweep_test::stock_sorts_past_int_max)
  {
    WARN("skipped: CCCL " << CCCL_MAJOR_VERSION << "." << CCCL_MINOR_VERSION << " sorts at most 2^31 - 1 keys");
    return;
  }
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
  {
    const sweep_test::hook_setting<bool> off(sweep::detail::sort_impl::pass_skipping_enabled(), false);
    thrust::sort(sweep::par, keys.begin(), keys.end());
  }
  REQUIRE(thrust::is_sorted(thrust::device, keys.begin(), keys.end()));
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));
}

TEST_CASE("sort_by_key past 2^32 keys (64-bit global positions)", "[sort][large]")
{
  // Past 2^32 - 1 keys the passes address the output with 64-bit positions (below it, 32-bit);
  // 1-byte keys and values keep the test within ~40 GB of device memory. Few distinct keys: every
  // value's place depends on stability across portions and tiles.
  if (!sweep_test::stock_sorts_past_int_max)
  {
    WARN("skipped: CCCL " << CCCL_MAJOR_VERSION << "." << CCCL_MINOR_VERSION << " sorts at most 2^31 - 1 keys");
    return;
  }
  const std::size_t n = (std::size_t(1) << 32) + 4099;
  if (!sweep_test::device_has_memory(n * 10))
  {
    WARN("not enough device memory; skipped");
    return;
  }
  const std::uint64_t seed = sweep_test::test_seed();
  thrust::device_vector<std::uint8_t> keys   = sweep_test::random_vector<std::uint8_t>(n, seed);
  thrust::device_vector<std::uint8_t> values = sweep_test::random_vector<std::uint8_t>(n, seed + 1);
  thrust::device_vector<std::uint8_t> expected_keys   = keys;
  thrust::device_vector<std::uint8_t> expected_values = values;
  thrust::sort_by_key(thrust::device, expected_keys.begin(), expected_keys.end(), expected_values.begin(),
                      thrust::greater<std::uint8_t>());
  thrust::sort_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), thrust::greater<std::uint8_t>());
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected_keys.begin()));
  REQUIRE(thrust::equal(thrust::device, values.begin(), values.end(), expected_values.begin()));
}

namespace
{
//! Temporary storage from one preallocated device buffer (no CUDA call in allocate or deallocate):
//! what a graph needs, since its nodes keep using the memory at every launch.
struct arena_allocator : thrust::device_allocator<char>
{
  using pointer    = thrust::device_allocator<char>::pointer;
  using size_type  = std::size_t;
  using value_type = char;
  char* base       = nullptr;
  std::size_t size = 0;
  pointer allocate(size_type n)
  {
    if (n > size)
    {
      throw std::bad_alloc();
    }
    return pointer(base);
  }
  void deallocate(pointer, size_type) {}
};

//! Spins until *flag is set or about `limit` clock cycles have passed (so a test that fails cannot hang).
__global__ void spin_until(const volatile int* flag, long long limit)
{
  const long long start = clock64();
  while (*flag == 0 && clock64() - start < limit)
  {
  }
}
} // namespace

TEST_CASE("sort and sort_by_key are captured into a CUDA graph at every size", "[sort][graph]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  thrust::device_vector<char> arena(std::size_t(256) << 20);
  arena_allocator alloc;
  alloc.base = thrust::raw_pointer_cast(arena.data());
  alloc.size = arena.size();
  // Both sides of pass_skip_min_keys (past it the device decides which passes run), and large.
  for (std::size_t n : {std::size_t(3000), sweep::detail::sort_impl::pass_skip_min_keys - 1,
                        sweep::detail::sort_impl::pass_skip_min_keys + 77, (std::size_t(1) << 22) + 77})
  {
    INFO("n = " << n);
    // Keys below 2^16: two of the four passes are trivial (skipped inside the graph past
    // pass_skip_min_keys).
    thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint16_t>(n, seed + n);
    thrust::device_vector<std::uint32_t> input_values = sweep_test::random_vector<std::uint32_t>(n, seed ^ n);
    thrust::device_vector<std::uint32_t> expected = input, expected_values = input_values;
    thrust::sort_by_key(thrust::device, expected.begin(), expected.end(), expected_values.begin());
    thrust::device_vector<std::uint32_t> keys(n), values(n);

    for (int with_allocator = 0; with_allocator < 2; ++with_allocator)
    {
      cudaGraph_t graph{};
      REQUIRE(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
      // The graph restores the input first, so that every launch sorts the same unsorted data.
      // cudaMemcpyAsync, not thrust::copy: Thrust before CCCL 3.0 synchronizes after a device copy
      // even under par_nosync, which a capture forbids.
      REQUIRE(cudaMemcpyAsync(thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(input.data()),
                              n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, s.stream)
              == cudaSuccess);
      REQUIRE(cudaMemcpyAsync(thrust::raw_pointer_cast(values.data()), thrust::raw_pointer_cast(input_values.data()),
                              n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, s.stream)
              == cudaSuccess);
      if (with_allocator)
      {
        thrust::sort_by_key(sweep::par_nosync(alloc).on(s.stream), keys.begin(), keys.end(), values.begin());
      }
      else
      {
        thrust::sort_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), values.begin());
      }
      REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
      cudaGraphExec_t exec{};
      REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
      for (int launch = 0; launch < 3; ++launch)
      {
        sweep_test::poison(keys);
        sweep_test::poison(values);
        REQUIRE(cudaGraphLaunch(exec, s.stream) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
        REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));
        REQUIRE(thrust::equal(thrust::device, values.begin(), values.end(), expected_values.begin()));
      }
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
    }
  }
}

TEST_CASE("a par_nosync sort does not wait for its stream", "[sort][nosync]")
{
  sweep_test::stream_guard s;
  int* flag = nullptr;
  REQUIRE(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  *flag = 0;
  int* device_flag = nullptr;
  REQUIRE(cudaHostGetDevicePointer(&device_flag, flag, 0) == cudaSuccess);
  // Large, with trivial passes that are skipped (decided on the device, nothing read back).
  const std::size_t n = std::size_t(1) << 22;
  thrust::device_vector<std::uint32_t> keys = sweep_test::random_vector<std::uint16_t>(n, sweep_test::test_seed());
  thrust::device_vector<std::uint32_t> expected = keys;
  thrust::sort(thrust::device, expected.begin(), expected.end());
  // About 10 s at 2 GHz: the sort must return long before the kernel queued ahead of it ends.
  spin_until<<<1, 1, 0, s.stream>>>(device_flag, 20000000000ll);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  thrust::sort(sweep::par_nosync.on(s.stream), keys.begin(), keys.end());
  const cudaError_t still_running = cudaStreamQuery(s.stream);
  *flag                           = 1;
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(still_running == cudaErrorNotReady);
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));
  cudaFreeHost(flag);
}
