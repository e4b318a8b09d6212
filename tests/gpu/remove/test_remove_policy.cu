// remove, remove_if (both forms) and remove_copy under every sweep policy form (par, par_nosync,
// .on(stream), the allocator forms) against thrust::device; the call runs after earlier work on its
// stream; temporary storage comes from the policy's allocator and is all given back; n = 0 returns at
// once; and inside a CUDA graph capture (these algorithms return a count to the host) a call is
// refused before it enqueues anything, leaving the capture valid.
#include "remove_test.cuh"
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
    const auto data    = generated_vector<std::uint32_t>(n, value_share<std::uint32_t>{test_seed() + n, 40, 12u});
    const auto stencil = random_vector<std::uint8_t>(n, test_seed() + n + 1);
    const std::string what = remove_label(name, n, 40);
    check_remove<std::uint32_t>(policy, data.begin(), n, 12u, what);
    check_remove_if<std::uint32_t>(policy, data.begin(), n, no_stencil{}, keep_percent<std::uint32_t>{40}, what);
    check_remove_if<std::uint32_t>(policy, data.begin(), n, stencil.begin(), keep_percent<std::uint8_t>{40}, what);
    check_remove_copy<std::uint32_t>(policy, data.begin(), n, 12u, what);
  }
}

} // namespace

TEST_CASE("remove forms under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[remove][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("remove forms take their temporary storage from the policy's allocator and give it all back",
          "[remove][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("remove_if and remove_copy on a stream wait for the work before them on that stream", "[remove][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = generated_vector<std::uint32_t>(n, value_share<std::uint32_t>{test_seed() + 65, 50, 5u});
  thrust::device_vector<std::uint32_t> expected(n), data(n), out(n + 4);
  const std::size_t kept =
    static_cast<std::size_t>(thrust::remove_copy(thrust::device, fresh.begin(), fresh.end(), expected.begin(), 5u) - expected.begin());
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    // Before the stream's copy the data is all 5: removing 5 would leave nothing.
    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    poison(out);
    const auto end = nosync ? thrust::remove_copy(sweep::par_nosync.on(s.stream), data.begin(), data.end(), out.begin(), 5u)
                            : thrust::remove_copy(sweep::par.on(s.stream), data.begin(), data.end(), out.begin(), 5u);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == kept);
    require_bitwise_equal(expected, out, kept, "remove_copy after earlier work on its stream");
    require_poison_intact(out, kept, "remove_copy after earlier work on its stream");

    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    const auto last = nosync ? thrust::remove(sweep::par_nosync.on(s.stream), data.begin(), data.end(), 5u)
                             : thrust::remove(sweep::par.on(s.stream), data.begin(), data.end(), 5u);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(last - data.begin()) == kept);
    require_bitwise_equal(expected, data, kept, "remove after earlier work on its stream");
  }
}

TEST_CASE("remove forms of n = 0 return their first output and write nothing", "[remove][policy][small]")
{
  thrust::device_vector<std::uint32_t> in(16, 1u), out(16);
  poison(out);
  CHECK(thrust::remove(sweep::par, in.begin(), in.begin(), 1u) == in.begin());
  CHECK(thrust::remove_if(sweep::par, in.begin(), in.begin(), keep_percent<std::uint32_t>{50}) == in.begin());
  CHECK(thrust::remove_if(sweep::par_nosync, in.begin(), in.begin(), in.begin(), keep_percent<std::uint32_t>{50}) == in.begin());
  CHECK(thrust::remove_copy(sweep::par, in.begin(), in.begin(), out.begin(), 1u) == out.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(out, 0, "n = 0");
}

TEST_CASE("remove_if and remove_copy inside a graph capture are refused and leave the capture valid",
          "[remove][policy][graph]")
{
  const std::size_t n = 100000;
  const auto data     = generated_vector<std::uint32_t>(n, value_share<std::uint32_t>{test_seed() + 66, 50, 5u});
  thrust::device_vector<std::uint32_t> scratch(data), out(n);
  const auto kept = n - static_cast<std::size_t>(thrust::count(thrust::device, data.begin(), data.end(), 5u));
  require_capture_refused(
    [&](auto policy) {
      const auto end = thrust::remove_copy(policy, data.begin(), data.end(), out.begin(), 5u);
      REQUIRE(static_cast<std::size_t>(end - out.begin()) == kept); // reached outside a capture only
    },
    "remove_copy");
  require_capture_refused(
    [&](auto policy) {
      const auto end = thrust::remove_if(policy, scratch.begin(), scratch.end(), keep_percent<std::uint32_t>{50});
      REQUIRE(end <= scratch.end());
    },
    "remove_if");
}
