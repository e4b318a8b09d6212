// The partition forms under every sweep policy form (par, par_nosync, .on(stream), the allocator
// forms) against thrust::device; the call runs after earlier work on its stream; temporary storage
// comes from the policy's allocator and is all given back; n = 0 returns at once; and inside a CUDA
// graph capture (these algorithms return a count to the host) a call is refused before it enqueues
// anything, leaving the capture valid.
#include "partition_test.cuh"
#include "common/policy_forms.cuh"

#include <thrust/count.h>

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
    const auto data    = random_vector<std::uint32_t>(n, test_seed() + n);
    const auto stencil = random_vector<std::uint8_t>(n, test_seed() + n + 1);
    const auto pred    = keep_percent<std::uint32_t>{40};
    const auto spred   = keep_percent<std::uint8_t>{60};
    const std::string what = partition_label(name, n, 40);
    check_partition_copy<true, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_copy<false, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_in_place<true, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_in_place<false, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_copy<true, std::uint32_t>(policy, data.begin(), n, stencil.begin(), spred, what + ", stencil");
    check_partition_in_place<false, std::uint32_t>(policy, data.begin(), n, stencil.begin(), spred, what + ", stencil");
  }
}

} // namespace

TEST_CASE("partition forms under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[partition][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("partition forms take their temporary storage from the policy's allocator and give it all back",
          "[partition][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("stable_partition and stable_partition_copy on a stream wait for the work before them on that stream",
          "[partition][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = random_vector<std::uint32_t>(n, test_seed() + 40);
  const auto pred     = keep_percent<std::uint32_t>{50};
  auto expected       = fresh;
  const std::size_t count =
    static_cast<std::size_t>(thrust::stable_partition(thrust::device, expected.begin(), expected.end(), pred) - expected.begin());
  thrust::device_vector<std::uint32_t> data(n), selected(n), rejected(n);
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    const auto mid = nosync ? thrust::stable_partition(sweep::par_nosync.on(s.stream), data.begin(), data.end(), pred)
                            : thrust::stable_partition(sweep::par.on(s.stream), data.begin(), data.end(), pred);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(mid - data.begin()) == count);
    require_bitwise_equal(expected, data, n, "stable_partition after earlier work on its stream");

    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    const auto ends =
      nosync ? thrust::stable_partition_copy(sweep::par_nosync.on(s.stream), data.begin(), data.end(), selected.begin(), rejected.begin(), pred)
             : thrust::stable_partition_copy(sweep::par.on(s.stream), data.begin(), data.end(), selected.begin(), rejected.begin(), pred);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(ends.first - selected.begin()) == count);
    require_bitwise_equal(expected, selected, count, "stable_partition_copy after earlier work on its stream");
  }
}

TEST_CASE("partition forms of n = 0 return their first outputs and write nothing", "[partition][policy][small]")
{
  thrust::device_vector<std::uint32_t> in(16, 1u), t(16), f(16);
  poison(t);
  poison(f);
  const auto pred = keep_percent<std::uint32_t>{50};
  const auto e1   = thrust::stable_partition_copy(sweep::par, in.begin(), in.begin(), t.begin(), f.begin(), pred);
  CHECK(e1.first == t.begin());
  CHECK(e1.second == f.begin());
  const auto e2 = thrust::partition_copy(sweep::par, in.begin(), in.begin(), in.begin(), t.begin(), f.begin(), pred);
  CHECK(e2.first == t.begin());
  CHECK(e2.second == f.begin());
  CHECK(thrust::partition(sweep::par, in.begin(), in.begin(), pred) == in.begin());
  CHECK(thrust::stable_partition(sweep::par_nosync, in.begin(), in.begin(), in.begin(), pred) == in.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(t, 0, "n = 0");
  require_poison_intact(f, 0, "n = 0");
}

TEST_CASE("stable_partition_copy and partition inside a graph capture are refused and leave the capture valid",
          "[partition][policy][graph]")
{
  const std::size_t n = 100000;
  const auto data     = random_vector<std::uint32_t>(n, test_seed() + 41);
  const auto pred     = keep_percent<std::uint32_t>{50};
  thrust::device_vector<std::uint32_t> selected(n), rejected(n), scratch(data);
  const auto count = thrust::count_if(thrust::device, data.begin(), data.end(), pred);
  require_capture_refused(
    [&](auto policy) {
      const auto ends = thrust::stable_partition_copy(policy, data.begin(), data.end(), selected.begin(), rejected.begin(), pred);
      REQUIRE(ends.first - selected.begin() == count); // reached outside a capture only
    },
    "stable_partition_copy");
  require_capture_refused(
    [&](auto policy) {
      const auto mid = thrust::partition(policy, scratch.begin(), scratch.end(), pred);
      REQUIRE(mid - scratch.begin() == count);
    },
    "partition");
}
