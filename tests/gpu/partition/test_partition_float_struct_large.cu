// The partition forms of floating-point values and structs, and past 2^31 items.
#include "partition_test.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/sort.h>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// stable_partition_copy, stable_partition, partition_copy and partition (in place) of float and double
// (with NaN, signed zeros and infinities; selected by a hash of their bits, and by x > 0, which NaN and
// both zeros fail) and of 12- and 24-byte structs, without a stencil, on sweep::par against
// thrust::device at the edge sizes of the copy_if tile.

namespace
{

template <class T, class Gen>
void partition_of(const char* name, Gen gen)
{
  const auto sizes = compaction_sizes<T>();
  check_partition_shares(items_of_runs<T>(run_ids(sizes.back(), run_shape::distinct, 0), gen), sizes, name);
}

template <class T>
struct positive
{
  __host__ __device__ bool operator()(T x) const
  {
    return x > T(0);
  }
};

} // namespace

TEST_CASE("partition of floats with NaN and signed zeros matches thrust", "[partition][float]")
{
  partition_of<float>("float", float_run_value<float>{test_seed() + 21});
  const auto sizes = compaction_sizes<float>();
  const auto data  = items_of_runs<float>(run_ids(sizes.back(), run_shape::distinct, 0), float_run_value<float>{test_seed() + 22});
  for (std::size_t n : sizes)
  {
    check_partition_forms(data, n, no_stencil{}, positive<float>{}, "float x > 0, n=" + std::to_string(n));
  }
}

TEST_CASE("partition of doubles with NaN and signed zeros matches thrust", "[partition][float]")
{
  partition_of<double>("double", float_run_value<double>{test_seed() + 23});
}

TEST_CASE("partition of 12- and 24-byte structs matches thrust", "[partition][struct]")
{
  partition_of<s12>("s12", run_value<s12>{test_seed() + 24});
  partition_of<s24>("s24", run_value<s24>{test_seed() + 25});
}

// --------------------------------------------------------------------------------------------------
// The partition forms past 2^31 one-byte items (64-bit offsets and counts) against thrust::device
// (which dispatches 64-bit offsets there), compared on the device: stable_partition_copy and
// stable_partition bitwise; partition in place the same items on each side (each side sorted on the
// device) and the sides as the predicate says. And a counting input past 2^32 into a discarded side,
// whose answer is known.

namespace
{

constexpr std::size_t large_n = (std::size_t(1) << 31) + 4321;

//! Every item of 1000003.
struct every_millionth
{
  __host__ __device__ bool operator()(std::uint64_t i) const
  {
    return i % 1000003 == 0;
  }
};

} // namespace

TEST_CASE("stable_partition_copy and stable_partition past 2^31 one-byte items match thrust", "[partition][large]")
{
  const std::size_t n = large_n;
  if (!device_has_memory(5 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto pred = keep_percent<std::uint8_t>{50};
  thrust::device_vector<std::uint8_t> expected(n), actual(n + 64);
  std::size_t count = 0;
  {
    const auto data = random_vector<std::uint8_t>(n, test_seed() + 42);
    // The copy: selected into expected's front, rejected into actual's (then moved behind them).
    const auto e = thrust::stable_partition_copy(thrust::device, data.begin(), data.end(), expected.begin(), actual.begin(), pred);
    count        = static_cast<std::size_t>(e.first - expected.begin());
    REQUIRE(static_cast<std::size_t>(e.second - actual.begin()) == n - count);
    thrust::copy(thrust::device, actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n - count),
                 expected.begin() + static_cast<std::ptrdiff_t>(count));
    // Now sweep's, into the two halves of one poisoned output.
    poison(actual);
    thrust::device_vector<std::uint8_t> rejected(n - count + 64);
    poison(rejected);
    const auto a = thrust::stable_partition_copy(sweep::par, data.begin(), data.end(), actual.begin(), rejected.begin(), pred);
    REQUIRE(static_cast<std::size_t>(a.first - actual.begin()) == count);
    REQUIRE(static_cast<std::size_t>(a.second - rejected.begin()) == n - count);
    require_equal_on_device<std::uint8_t>(expected.begin(), actual.begin(), count, "stable_partition_copy selected past 2^31");
    require_equal_on_device<std::uint8_t>(expected.begin() + static_cast<std::ptrdiff_t>(count), rejected.begin(), n - count,
                                          "stable_partition_copy rejected past 2^31");
    require_poison_intact(actual, count, "stable_partition_copy selected past 2^31");
    require_poison_intact(rejected, n - count, "stable_partition_copy rejected past 2^31");
    // In place: the data becomes what the copy gave.
    thrust::copy(thrust::device, data.begin(), data.end(), actual.begin());
  }
  poison_from(actual, n);
  const auto mid = thrust::stable_partition(sweep::par, actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n), pred);
  REQUIRE(static_cast<std::size_t>(mid - actual.begin()) == count);
  require_equal_on_device<std::uint8_t>(expected.begin(), actual.begin(), n, "stable_partition past 2^31");
  require_poison_intact(actual, n, "stable_partition past 2^31 (guard)");
}

TEST_CASE("partition in place past 2^31 one-byte items puts the same items on each side as thrust",
          "[partition][large]")
{
  const std::size_t n = large_n;
  if (!device_has_memory(5 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto pred = keep_percent<std::uint8_t>{30};
  auto expected   = random_vector<std::uint8_t>(n, test_seed() + 43);
  thrust::device_vector<std::uint8_t> actual(n + 64);
  thrust::copy(thrust::device, expected.begin(), expected.end(), actual.begin());
  poison_from(actual, n);
  const auto e_mid         = thrust::partition(thrust::device, expected.begin(), expected.end(), pred);
  const auto a_mid         = thrust::partition(sweep::par, actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n), pred);
  const std::size_t count  = static_cast<std::size_t>(e_mid - expected.begin());
  REQUIRE(static_cast<std::size_t>(a_mid - actual.begin()) == count);
  require_poison_intact(actual, n, "partition past 2^31 (guard)");
  require_sides(actual.begin(), count, a_mid, n - count, pred, "partition past 2^31");
  // The same items on each side: each side sorted.
  thrust::sort(thrust::device, expected.begin(), e_mid);
  thrust::sort(thrust::device, e_mid, expected.end());
  thrust::sort(thrust::device, actual.begin(), a_mid);
  thrust::sort(thrust::device, a_mid, actual.begin() + static_cast<std::ptrdiff_t>(n));
  require_equal_on_device<std::uint8_t>(expected.begin(), actual.begin(), n, "partition past 2^31, sides sorted");
}

TEST_CASE("partition copies of a counting input past 2^32 with a side discarded count right",
          "[partition][large][discard]")
{
  const std::size_t n = (std::size_t(1) << 32) + 11;
  const thrust::counting_iterator<std::uint64_t> first(0);
  const thrust::discard_iterator<> discard;
  const std::size_t expected_count = (n + 1000002) / 1000003;
  thrust::host_vector<std::uint64_t> expected(expected_count);
  for (std::size_t i = 0; i < expected_count; ++i)
  {
    expected[i] = i * 1000003;
  }
  for (bool stable : {true, false})
  {
    INFO((stable ? "stable_partition_copy" : "partition_copy"));
    thrust::device_vector<std::uint64_t> selected(expected_count + 64);
    poison(selected);
    const auto ends = stable ? thrust::stable_partition_copy(sweep::par, first, first + static_cast<std::ptrdiff_t>(n),
                                                             selected.begin(), discard, every_millionth{})
                             : thrust::partition_copy(sweep::par, first, first + static_cast<std::ptrdiff_t>(n),
                                                      selected.begin(), discard, every_millionth{});
    REQUIRE(static_cast<std::size_t>(ends.first - selected.begin()) == expected_count);
    REQUIRE(static_cast<std::size_t>(ends.second - discard) == n - expected_count);
    thrust::host_vector<std::uint64_t> got(selected.begin(), selected.begin() + static_cast<std::ptrdiff_t>(expected_count));
    if (!stable)
    {
      std::sort(got.begin(), got.end());
    }
    require_bitwise_equal(expected, got, expected_count, "selected items of the counting input");
    require_poison_intact(selected, expected_count, "selected items of the counting input");
  }
}
