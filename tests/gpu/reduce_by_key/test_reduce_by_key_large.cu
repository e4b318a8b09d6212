// reduce_by_key past 2^31 items (64-bit offsets and segment counts): one-byte keys in runs with
// constant and stored values against thrust::device (which dispatches 64-bit offsets there), compared
// on the device; and transform keys past 2^32 with counting values into small outputs, whose sums are
// known.
#include "reduce_by_key_test.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

using namespace sweep_test;

namespace
{

struct segment_of
{
  std::uint64_t length;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const
  {
    return i / length;
  }
};

} // namespace

TEST_CASE("reduce_by_key past 2^31 one-byte keys matches thrust (constant and stored values)", "[reduce_by_key][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 5555;
  if (!device_has_memory(6 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto keys = generated_vector<std::uint8_t>(n, large_run_key{test_seed()});
  const std::size_t room = n / 4;
  thrust::device_vector<std::uint8_t> ek(room), ak(room);
  thrust::device_vector<std::uint32_t> ev(room), av(room);
  {
    // Segment lengths: constant values 1.
    const thrust::constant_iterator<std::uint32_t> ones(1);
    const auto e = thrust::reduce_by_key(thrust::device, keys.begin(), keys.end(), ones, ek.begin(), ev.begin());
    const std::size_t segments = static_cast<std::size_t>(e.first - ek.begin());
    REQUIRE(segments > n / 16);
    REQUIRE(segments + 64 < room);
    poison(ak);
    poison(av);
    const auto a = thrust::reduce_by_key(sweep::par, keys.begin(), keys.end(), ones, ak.begin(), av.begin());
    REQUIRE(static_cast<std::size_t>(a.first - ak.begin()) == segments);
    REQUIRE(static_cast<std::size_t>(a.second - av.begin()) == segments);
    require_equal_on_device<std::uint8_t>(ek.begin(), ak.begin(), segments, "keys past 2^31, constant values");
    require_equal_on_device<std::uint32_t>(ev.begin(), av.begin(), segments, "segment lengths past 2^31");
    require_poison_intact(ak, segments, "keys past 2^31, constant values");
    require_poison_intact(av, segments, "segment lengths past 2^31");
  }
  {
    // Stored one-byte values summed into 4-byte outputs (accumulated as one byte, as Thrust does).
    const auto values = random_vector<std::uint8_t>(n, test_seed() + 1);
    const auto e = thrust::reduce_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), ek.begin(), ev.begin());
    const std::size_t segments = static_cast<std::size_t>(e.first - ek.begin());
    poison(ak);
    poison(av);
    const auto a = thrust::reduce_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), ak.begin(), av.begin());
    REQUIRE(static_cast<std::size_t>(a.first - ak.begin()) == segments);
    REQUIRE(static_cast<std::size_t>(a.second - av.begin()) == segments);
    require_equal_on_device<std::uint8_t>(ek.begin(), ak.begin(), segments, "keys past 2^31, stored values");
    require_equal_on_device<std::uint32_t>(ev.begin(), av.begin(), segments, "sums past 2^31");
    require_poison_intact(ak, segments, "keys past 2^31, stored values");
    require_poison_intact(av, segments, "sums past 2^31");
  }
}

TEST_CASE("reduce_by_key of transform keys past 2^32 with counting values gives the known sums",
          "[reduce_by_key][large][iterators]")
{
  // Thrust's own TestReduceByKeyWithBigIndexes, at 2^32 + 2^20 items in 257 segments of 2^24.
  const std::uint64_t length = std::uint64_t(1) << 24;
  const std::size_t n        = (std::size_t(1) << 32) + (std::size_t(1) << 20);
  const std::size_t segments = (n + length - 1) / length;
  const thrust::counting_iterator<std::uint64_t> index(0);
  const auto keys = thrust::make_transform_iterator(index, segment_of{length});
  thrust::device_vector<std::uint64_t> out_keys(segments + 4), out_values(segments + 4);
  poison(out_keys);
  poison(out_values);
  const auto ends = thrust::reduce_by_key(sweep::par, keys, keys + static_cast<std::ptrdiff_t>(n), index, out_keys.begin(),
                                          out_values.begin());
  REQUIRE(static_cast<std::size_t>(ends.first - out_keys.begin()) == segments);
  REQUIRE(static_cast<std::size_t>(ends.second - out_values.begin()) == segments);
  thrust::host_vector<std::uint64_t> expected_keys(segments), expected_values(segments);
  for (std::size_t s = 0; s < segments; ++s)
  {
    const std::uint64_t first = s * length;
    const std::uint64_t last  = std::min<std::uint64_t>(n, first + length); // exclusive
    expected_keys[s]          = s;
    expected_values[s]        = (first + last - 1) * (last - first) / 2; // below 2^57: exact
  }
  const thrust::host_vector<std::uint64_t> got_keys(out_keys.begin(), out_keys.begin() + static_cast<std::ptrdiff_t>(segments));
  const thrust::host_vector<std::uint64_t> got_values(out_values.begin(), out_values.begin() + static_cast<std::ptrdiff_t>(segments));
  require_bitwise_equal(expected_keys, got_keys, segments, "keys of segments of 2^24 past 2^32");
  require_bitwise_equal(expected_values, got_values, segments, "sums of segments of 2^24 past 2^32");
  require_poison_intact(out_keys, segments, "keys past 2^32");
  require_poison_intact(out_values, segments, "sums past 2^32");
  // The segment count alone, both outputs discarded.
  const thrust::discard_iterator<> discard;
  const auto counted = thrust::reduce_by_key(sweep::par, keys, keys + static_cast<std::ptrdiff_t>(n), index, discard, discard);
  CHECK(static_cast<std::size_t>(counted.first - discard) == segments);
}
