// The unique family under every sweep policy form (par, par_nosync, .on(stream), the allocator forms)
// against thrust::device; the call runs after earlier work on its stream; temporary storage comes from
// the policy's allocator and is all given back; n = 0 returns at once; and inside a CUDA graph capture
// (these algorithms return a count to the host) a call is refused before it enqueues anything,
// leaving the capture valid.
#include "unique_test.cuh"
#include "common/policy_forms.cuh"

#include <thrust/sequence.h>

using namespace sweep_test;

namespace
{

std::vector<std::size_t> policy_sizes()
{
  const std::size_t tile = copy_if_tile<std::uint32_t>();
  return {1, 1000, tile + 1, 40 * tile + 7};
}

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : policy_sizes())
  {
    const auto keys   = items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + n),
                                                     run_value<std::uint32_t>{test_seed()});
    const auto values = random_vector<s12>(n, test_seed() + 15);
    const std::string what = unique_label(name, run_shape::short_runs, n);
    check_unique_copy<std::uint32_t>(policy, keys.begin(), n, what);
    check_unique_in_place<std::uint32_t>(policy, keys.begin(), n, what);
    check_unique_count(policy, keys.begin(), n, what);
    check_unique_by_key_copy<std::uint32_t, s12>(policy, keys.begin(), values.begin(), n, what);
    check_unique_by_key_in_place<std::uint32_t, s12>(policy, keys.begin(), values.begin(), n, what);
  }
}

} // namespace

TEST_CASE("unique family under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[unique][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("unique family takes its temporary storage from the policy's allocator and gives it all back",
          "[unique][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("unique_copy and unique_by_key on a stream wait for the work before them on that stream",
          "[unique][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + 16),
                                                     run_value<std::uint32_t>{test_seed() + 17});
  thrust::device_vector<std::uint32_t> expected(n), keys(n), out(n + 4), values(n);
  const std::size_t count =
    static_cast<std::size_t>(thrust::unique_copy(thrust::device, fresh.begin(), fresh.end(), expected.begin()) - expected.begin());
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    thrust::fill(thrust::device, keys.begin(), keys.end(), 5u);
    poison(out);
    overwrite_later(s.stream, fresh, keys);
    const auto end = nosync ? thrust::unique_copy(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), out.begin())
                            : thrust::unique_copy(sweep::par.on(s.stream), keys.begin(), keys.end(), out.begin());
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == count);
    require_bitwise_equal(expected, out, count, "unique_copy after earlier work on its stream");
    require_poison_intact(out, count, "unique_copy after earlier work on its stream");

    // In place: the keys (and the values) written by the stream's earlier work are the ones reduced.
    thrust::fill(thrust::device, keys.begin(), keys.end(), 5u);
    thrust::sequence(thrust::device, values.begin(), values.end());
    overwrite_later(s.stream, fresh, keys);
    const auto kv = nosync ? thrust::unique_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), values.begin())
                           : thrust::unique_by_key(sweep::par.on(s.stream), keys.begin(), keys.end(), values.begin());
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(kv.first - keys.begin()) == count);
    REQUIRE(static_cast<std::size_t>(kv.second - values.begin()) == count);
    require_bitwise_equal(expected, keys, count, "unique_by_key after earlier work on its stream");
  }
}

TEST_CASE("unique family of n = 0 returns its first output and writes nothing", "[unique][policy][small]")
{
  thrust::device_vector<std::uint32_t> in(16, 1u), out(16), values(16);
  poison(out);
  CHECK(thrust::unique_copy(sweep::par, in.begin(), in.begin(), out.begin()) == out.begin());
  CHECK(thrust::unique(sweep::par, in.begin(), in.begin()) == in.begin());
  CHECK(thrust::unique_count(sweep::par, in.begin(), in.begin()) == 0);
  const auto kv = thrust::unique_by_key_copy(sweep::par, in.begin(), in.begin(), values.begin(), out.begin(), values.begin());
  CHECK(kv.first == out.begin());
  CHECK(kv.second == values.begin());
  const auto ip = thrust::unique_by_key(sweep::par_nosync, in.begin(), in.begin(), values.begin());
  CHECK(ip.first == in.begin());
  CHECK(ip.second == values.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(out, 0, "n = 0");
}

TEST_CASE("unique_copy and unique_by_key_copy inside a graph capture are refused and leave the capture valid",
          "[unique][policy][graph]")
{
  const std::size_t n = 100000;
  const auto keys     = items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + 18),
                                                 run_value<std::uint32_t>{test_seed()});
  thrust::device_vector<std::uint32_t> expected(n), out(n), values(n), out_values(n);
  const auto count = thrust::unique_copy(thrust::device, keys.begin(), keys.end(), expected.begin()) - expected.begin();
  require_capture_refused(
    [&](auto policy) {
      // Nothing else here: inside a capture, any other CUDA call could break it.
      const auto end = thrust::unique_copy(policy, keys.begin(), keys.end(), out.begin());
      REQUIRE(end - out.begin() == count); // reached outside a capture only
    },
    "unique_copy");
  require_capture_refused(
    [&](auto policy) {
      const auto ends =
        thrust::unique_by_key_copy(policy, keys.begin(), keys.end(), values.begin(), out.begin(), out_values.begin());
      REQUIRE(ends.first - out.begin() == count);
    },
    "unique_by_key_copy");
}
