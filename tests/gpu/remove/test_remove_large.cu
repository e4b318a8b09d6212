// remove, remove_if (with a stencil) in place and remove_copy past 2^31 one-byte items (64-bit offsets
// and counts) against thrust::device (whose copy_if, on which its remove forms run, dispatches 64-bit
// offsets), compared on the device; and remove_copy of a counting input past 2^32 into a discard
// iterator, whose answer is known.
#include "remove_test.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

using namespace sweep_test;

namespace
{

constexpr std::size_t large_n = (std::size_t(1) << 31) + 999;

struct low_byte
{
  __host__ __device__ std::uint8_t operator()(std::uint64_t i) const
  {
    return static_cast<std::uint8_t>(i);
  }
};

} // namespace

TEST_CASE("remove and remove_copy past 2^31 one-byte items match thrust", "[remove][large]")
{
  const std::size_t n = large_n;
  if (!device_has_memory(4 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const std::uint8_t value = 9;
  const auto data          = generated_vector<std::uint8_t>(n, value_share<std::uint8_t>{test_seed() + 67, 50, value});
  thrust::device_vector<std::uint8_t> expected(n);
  const std::size_t kept = static_cast<std::size_t>(
    thrust::remove_copy(thrust::device, data.begin(), data.end(), expected.begin(), value) - expected.begin());
  {
    thrust::device_vector<std::uint8_t> out(kept + 64);
    poison(out);
    const auto end = thrust::remove_copy(sweep::par, data.begin(), data.end(), out.begin(), value);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == kept);
    require_equal_on_device<std::uint8_t>(expected.begin(), out.begin(), kept, "remove_copy past 2^31");
    require_poison_intact(out, kept, "remove_copy past 2^31");
  }
  thrust::device_vector<std::uint8_t> in_place(n + 64);
  thrust::copy(thrust::device, data.begin(), data.end(), in_place.begin());
  poison_from(in_place, n);
  const auto last = thrust::remove(sweep::par, in_place.begin(), in_place.begin() + static_cast<std::ptrdiff_t>(n), value);
  REQUIRE(static_cast<std::size_t>(last - in_place.begin()) == kept);
  require_equal_on_device<std::uint8_t>(expected.begin(), in_place.begin(), kept, "remove past 2^31");
  require_poison_intact(in_place, n, "remove past 2^31 (guard)");
}

TEST_CASE("remove_if with a stencil past 2^31 one-byte items matches thrust", "[remove][stencil][large]")
{
  const std::size_t n = large_n;
  if (!device_has_memory(4 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto stencil = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), low_byte{});
  const auto pred    = keep_percent<std::uint8_t>{70};
  auto expected      = random_vector<std::uint8_t>(n, test_seed() + 68);
  thrust::device_vector<std::uint8_t> actual(n + 64);
  thrust::copy(thrust::device, expected.begin(), expected.end(), actual.begin());
  poison_from(actual, n);
  const auto e_last      = thrust::remove_if(thrust::device, expected.begin(), expected.end(), stencil, pred);
  const auto a_last      = thrust::remove_if(sweep::par, actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n), stencil, pred);
  const std::size_t kept = static_cast<std::size_t>(e_last - expected.begin());
  REQUIRE(static_cast<std::size_t>(a_last - actual.begin()) == kept);
  require_equal_on_device<std::uint8_t>(expected.begin(), actual.begin(), kept, "remove_if with a stencil past 2^31");
  require_poison_intact(actual, n, "remove_if with a stencil past 2^31 (guard)");
}

TEST_CASE("remove_copy of a counting input past 2^32 into a discard iterator counts right", "[remove][large][discard]")
{
  const std::size_t n = (std::size_t(1) << 32) + 3;
  const thrust::counting_iterator<std::uint64_t> first(0);
  const thrust::discard_iterator<> discard;
  const auto one = thrust::remove_copy(sweep::par, first, first + static_cast<std::ptrdiff_t>(n), discard, std::uint64_t(1) << 32);
  CHECK(static_cast<std::size_t>(one - discard) == n - 1);
  const auto bytes = thrust::make_transform_iterator(first, low_byte{});
  const auto most  = thrust::remove_copy(sweep::par, bytes, bytes + static_cast<std::ptrdiff_t>(n), discard, std::uint8_t(0));
  CHECK(static_cast<std::size_t>(most - discard) == n - (n + 255) / 256);
}
