// reduce_by_key under every sweep policy form (par, par_nosync, .on(stream), the allocator forms)
// against thrust::device; the call runs after earlier work on its stream; temporary storage comes from
// the policy's allocator and is all given back; n = 0 returns at once; float sums are the same bits
// under every policy; and inside a CUDA graph capture (reduce_by_key returns its segment count to the
// host) a call is refused before it enqueues anything, leaving the capture valid.
#include "reduce_by_key_test.cuh"
#include "common/policy_forms.cuh"

using namespace sweep_test;

namespace
{

std::vector<std::size_t> policy_sizes()
{
  const std::size_t tile = copy_if_tile<std::uint32_t>();
  return {1, 1000, tile + 1, 40 * tile + 7};
}

thrust::device_vector<std::uint32_t> policy_keys(std::size_t n, std::uint64_t salt)
{
  return items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + salt),
                                      run_value<std::uint32_t>{test_seed() + salt + 1});
}

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : policy_sizes())
  {
    const auto keys   = policy_keys(n, n);
    const auto values = random_vector<std::int64_t>(n, test_seed() + 100);
    const auto maps   = generated_vector<affine>(n, random_affine{test_seed() + 101});
    const std::string what = rbk_label(name, run_shape::short_runs, n);
    check_reduce_by_key<std::uint32_t, std::int64_t>(policy, keys.begin(), values.begin(), n, what);
    check_reduce_by_key<std::uint32_t, std::int64_t>(policy, keys.begin(), values.begin(), n, what,
                                                     ::cuda::std::equal_to<std::uint32_t>{});
    check_reduce_by_key<std::uint32_t, affine>(policy, keys.begin(), maps.begin(), n, what,
                                               ::cuda::std::equal_to<std::uint32_t>{}, compose{});
  }
}

} // namespace

TEST_CASE("reduce_by_key under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[reduce_by_key][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("reduce_by_key takes its temporary storage from the policy's allocator and gives it all back",
          "[reduce_by_key][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("reduce_by_key of float values gives the same bits under every policy", "[reduce_by_key][policy][float][determinism]")
{
  stream_guard s;
  allocation_counts counts;
  counting_allocator<char> alloc(&counts);
  const std::size_t n = 40 * copy_if_tile<float>() + 7;
  const auto keys     = policy_keys(n, 102);
  const auto values   = random_vector<float>(n, test_seed() + 103);
  thrust::device_vector<std::uint32_t> k(n);
  thrust::device_vector<float> first(n), again(n);
  const auto ends = thrust::reduce_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), k.begin(), first.begin());
  const std::size_t segments = static_cast<std::size_t>(ends.second - first.begin());
  auto run = [&](auto policy, const char* name) {
    poison(again);
    const auto e = thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), k.begin(), again.begin());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(e.second - again.begin()) == segments);
    require_bitwise_equal(first, again, segments, std::string("float sums under ") + name);
  };
  run(sweep::par, "par");
  run(sweep::par_nosync, "par_nosync");
  run(sweep::par.on(s.stream), "par.on(stream)");
  run(sweep::par_nosync.on(s.stream), "par_nosync.on(stream)");
  run(sweep::par(alloc), "par(alloc)");
  run(sweep::par_nosync(alloc).on(s.stream), "par_nosync(alloc).on(stream)");
}

TEST_CASE("reduce_by_key on a stream waits for the work before it on that stream", "[reduce_by_key][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = policy_keys(n, 104);
  const auto values   = random_vector<std::int64_t>(n, test_seed() + 105);
  thrust::device_vector<std::uint32_t> expected_keys(n), keys(n), out_keys(n + 4);
  thrust::device_vector<std::int64_t> expected_values(n), out_values(n + 4);
  const auto e = thrust::reduce_by_key(thrust::device, fresh.begin(), fresh.end(), values.begin(), expected_keys.begin(),
                                       expected_values.begin());
  const std::size_t segments = static_cast<std::size_t>(e.first - expected_keys.begin());
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    thrust::fill(thrust::device, keys.begin(), keys.end(), 5u); // one segment, before the stream's copy
    overwrite_later(s.stream, fresh, keys);
    poison(out_keys);
    poison(out_values);
    const auto a = nosync ? thrust::reduce_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), values.begin(),
                                                  out_keys.begin(), out_values.begin())
                          : thrust::reduce_by_key(sweep::par.on(s.stream), keys.begin(), keys.end(), values.begin(),
                                                  out_keys.begin(), out_values.begin());
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(a.first - out_keys.begin()) == segments);
    require_bitwise_equal(expected_keys, out_keys, segments, "keys after earlier work on the stream");
    require_bitwise_equal(expected_values, out_values, segments, "values after earlier work on the stream");
    require_poison_intact(out_keys, segments, "keys after earlier work on the stream");
  }
}

TEST_CASE("reduce_by_key of n = 0 returns its first outputs and writes nothing", "[reduce_by_key][policy][small]")
{
  thrust::device_vector<std::uint32_t> keys(16, 1u), out_keys(16);
  thrust::device_vector<std::int64_t> values(16, 2), out_values(16);
  poison(out_keys);
  poison(out_values);
  const auto a = thrust::reduce_by_key(sweep::par, keys.begin(), keys.begin(), values.begin(), out_keys.begin(), out_values.begin());
  CHECK(a.first == out_keys.begin());
  CHECK(a.second == out_values.begin());
  const auto b = thrust::reduce_by_key(sweep::par_nosync, keys.begin(), keys.begin(), values.begin(), out_keys.begin(),
                                       out_values.begin(), ::cuda::std::equal_to<std::uint32_t>{}, op_plus<std::int64_t>{});
  CHECK(b.first == out_keys.begin());
  CHECK(b.second == out_values.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(out_keys, 0, "n = 0");
  require_poison_intact(out_values, 0, "n = 0");
}

TEST_CASE("reduce_by_key inside a graph capture is refused and leaves the capture valid", "[reduce_by_key][policy][graph]")
{
  const std::size_t n = 100000;
  const auto keys     = policy_keys(n, 106);
  const auto values   = random_vector<std::int64_t>(n, test_seed() + 107);
  thrust::device_vector<std::uint32_t> out_keys(n);
  thrust::device_vector<std::int64_t> out_values(n);
  const auto segments = thrust::reduce_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), out_keys.begin(),
                                              out_values.begin())
                          .first
                      - out_keys.begin();
  require_capture_refused(
    [&](auto policy) {
      const auto ends = thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), out_keys.begin(), out_values.begin());
      REQUIRE(ends.first - out_keys.begin() == segments); // reached outside a capture only
    },
    "reduce_by_key");
}
