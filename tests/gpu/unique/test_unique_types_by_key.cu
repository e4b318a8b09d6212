// unique_copy, unique and unique_count of integers and floating-point values; unique_by_key and
// unique_by_key_copy, and the unique forms past 2^31 items.
#include "unique_test.cuh"

#include <cmath>
#include <limits>
#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// unique_copy, unique (in place) and unique_count of integers of 1, 2, 4 and 8 bytes, signed and
// unsigned, on sweep::par against thrust::device: runs of length 1 (almost everything kept), of 8 on
// average, of 100000 (crossing many tiles) and all equal (almost nothing kept), at the edge sizes of
// the copy_if tile; and more than 300 tiles ([slow]).

namespace
{

template <class T>
void unique_of_runs(const char* name, const std::vector<std::size_t>& sizes)
{
  for (run_shape shape : all_run_shapes)
  {
    const auto ids  = run_ids(sizes.back(), shape, test_seed());
    const auto data = items_of_runs<T>(ids, run_value<T>{test_seed() + 1});
    for (std::size_t n : sizes)
    {
      check_unique_forms(data, n, unique_label(name, shape, n));
    }
  }
}

} // namespace

TEST_CASE("unique of 1-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::uint8_t>("uint8", compaction_sizes<std::uint8_t>());
  unique_of_runs<std::int8_t>("int8", compaction_sizes<std::int8_t>());
}

TEST_CASE("unique of 2-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::int16_t>("int16", compaction_sizes<std::int16_t>());
  unique_of_runs<std::uint16_t>("uint16", compaction_sizes<std::uint16_t>());
}

TEST_CASE("unique of 4-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::int32_t>("int32", compaction_sizes<std::int32_t>());
  unique_of_runs<std::uint32_t>("uint32", compaction_sizes<std::uint32_t>());
}

TEST_CASE("unique of 8-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::int64_t>("int64", compaction_sizes<std::int64_t>());
  unique_of_runs<std::uint64_t>("uint64", compaction_sizes<std::uint64_t>());
}

TEST_CASE("unique of small inputs (0 to 33 items) matches thrust", "[unique][int][small]")
{
  const std::vector<std::size_t> sizes = {0, 1, 2, 3, 31, 32, 33};
  unique_of_runs<std::uint8_t>("uint8", sizes);
  unique_of_runs<std::int32_t>("int32", sizes);
  unique_of_runs<std::uint64_t>("uint64", sizes);
}

TEST_CASE("unique over more than 300 tiles matches thrust", "[unique][int][many_tiles][slow]")
{
  unique_of_runs<std::uint8_t>("uint8", {many_tiles<std::uint8_t>()});
  unique_of_runs<std::uint32_t>("uint32", {many_tiles<std::uint32_t>()});
  unique_of_runs<std::int64_t>("int64", {many_tiles<std::int64_t>()});
}

// --------------------------------------------------------------------------------------------------
// unique_copy, unique (in place) and unique_count of float and double under equal_to on sweep::par
// against thrust::device, bitwise: runs of NaN (never equal to itself: every NaN is kept), of -0.0 and
// +0.0 mixed (equal: a run's first is kept, with its sign), infinities, denormals and finite values,
// in every run shape at the edge sizes of the copy_if tile; and a literal case with its answer.

namespace
{

template <class T>
void unique_of_specials(const char* name, const std::vector<std::size_t>& sizes)
{
  for (run_shape shape : all_run_shapes)
  {
    const auto ids  = run_ids(sizes.back(), shape, test_seed() + 2);
    const auto data = items_of_runs<T>(ids, float_run_value<T>{test_seed() + 3});
    for (std::size_t n : sizes)
    {
      check_unique_forms(data, n, unique_label(name, shape, n));
    }
  }
}

template <class T>
void literal_case(const char* name)
{
  const T nan  = std::numeric_limits<T>::quiet_NaN();
  const T zero = T(0);
  const T neg  = -zero;
  const thrust::host_vector<T> input    = {neg, zero, zero, nan, nan, T(1), T(1), neg, zero, nan, T(2)};
  const thrust::host_vector<T> expected = {neg, nan, nan, T(1), neg, nan, T(2)};
  const thrust::device_vector<T> data   = input;
  thrust::device_vector<T> out(input.size() + 4);
  poison(out);
  const auto end = thrust::unique_copy(sweep::par, data.begin(), data.end(), out.begin());
  INFO(name);
  REQUIRE(static_cast<std::size_t>(end - out.begin()) == expected.size());
  const thrust::host_vector<T> got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(expected.size()));
  require_bitwise_equal(expected, got, expected.size(), std::string(name) + " literal unique_copy");
  require_poison_intact(out, expected.size(), std::string(name) + " literal unique_copy");
  CHECK(thrust::unique_count(sweep::par, data.begin(), data.end()) == static_cast<std::ptrdiff_t>(expected.size()));
  check_unique_forms(data, data.size(), std::string(name) + " literal");
}

} // namespace

TEST_CASE("unique of floats keeps every NaN and the first of mixed signed zeros, as thrust does", "[unique][float]")
{
  unique_of_specials<float>("float", compaction_sizes<float>());
}

TEST_CASE("unique of doubles keeps every NaN and the first of mixed signed zeros, as thrust does", "[unique][float]")
{
  unique_of_specials<double>("double", compaction_sizes<double>());
}

TEST_CASE("unique of a literal float and double sequence gives the sequential answer", "[unique][float][small]")
{
  literal_case<float>("float");
  literal_case<double>("double");
}

TEST_CASE("unique of float specials over more than 300 tiles matches thrust", "[unique][float][many_tiles][slow]")
{
  unique_of_specials<float>("float", {many_tiles<float>()});
}

// --------------------------------------------------------------------------------------------------
// unique_by_key_copy and unique_by_key (in place) on sweep::par against thrust::device, bitwise, keys
// and values (each value distinct, so the kept item of a run shows): integer keys of 1, 2 and 8 bytes
// under equal_to, int32 keys equal by their tens with 12-byte struct values, 64-bit keys with 24-byte
// struct values, float and double keys with NaN and mixed signed zeros, 12-byte struct keys equal by
// their first word; every run shape at the edge sizes of the key's copy_if tile, and more than 300
// tiles ([slow]).

namespace
{

template <class K, class V, class Gen, class... Pred>
void by_key_of_runs(const char* name, const std::vector<std::size_t>& sizes, Gen gen, Pred... pred)
{
  const auto values = random_vector<V>(sizes.back(), test_seed() + 6);
  for (run_shape shape : all_run_shapes)
  {
    const auto ids  = run_ids(sizes.back(), shape, test_seed() + 7);
    const auto keys = items_of_runs<K>(ids, gen);
    for (std::size_t n : sizes)
    {
      const std::string what = unique_label(name, shape, n);
      check_unique_by_key_copy<K, V>(sweep::par, keys.begin(), values.begin(), n, what, pred...);
      check_unique_by_key_in_place<K, V>(sweep::par, keys.begin(), values.begin(), n, what, pred...);
    }
  }
}

} // namespace

TEST_CASE("unique_by_key of uint8 keys and uint32 values matches thrust", "[unique][by_key]")
{
  by_key_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", compaction_sizes<std::uint8_t>(),
                                              run_value<std::uint8_t>{test_seed()});
}

TEST_CASE("unique_by_key of int16 keys and int64 values matches thrust", "[unique][by_key]")
{
  by_key_of_runs<std::int16_t, std::int64_t>("int16/int64", compaction_sizes<std::int16_t>(),
                                             run_value<std::int16_t>{test_seed()});
}

TEST_CASE("unique_by_key of int32 keys equal by their tens and 12-byte values keeps each run's first",
          "[unique][by_key][custom]")
{
  by_key_of_runs<std::int32_t, s12>("int32 by tens/s12", compaction_sizes<std::int32_t>(),
                                    tens_key<std::int32_t>{test_seed(), tens_of<std::int32_t>()},
                                    equal_div_10<std::int32_t>{});
}

TEST_CASE("unique_by_key of uint64 keys and 24-byte values matches thrust", "[unique][by_key]")
{
  by_key_of_runs<std::uint64_t, s24>("uint64/s24", compaction_sizes<std::uint64_t>(),
                                     run_value<std::uint64_t>{test_seed()});
}

TEST_CASE("unique_by_key of float and double keys with NaN and signed zeros matches thrust", "[unique][by_key][float]")
{
  by_key_of_runs<float, double>("float/double", compaction_sizes<float>(), float_run_value<float>{test_seed()});
  by_key_of_runs<double, std::uint8_t>("double/uint8", compaction_sizes<double>(), float_run_value<double>{test_seed()});
}

TEST_CASE("unique_by_key of 12-byte keys equal by their first word matches thrust", "[unique][by_key][custom]")
{
  by_key_of_runs<s12, float>("s12/float", compaction_sizes<s12>(), keyed_item<s12>{test_seed()}, same_first_word<s12>{});
}

TEST_CASE("unique_by_key of small inputs (0 to 33 items) matches thrust", "[unique][by_key][small]")
{
  by_key_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", {0, 1, 2, 31, 32, 33}, run_value<std::uint8_t>{test_seed()});
  by_key_of_runs<std::int32_t, s12>("int32 by tens/s12", {0, 1, 2, 31, 32, 33},
                                    tens_key<std::int32_t>{test_seed(), tens_of<std::int32_t>()},
                                    equal_div_10<std::int32_t>{});
}

TEST_CASE("unique_by_key over more than 300 tiles matches thrust", "[unique][by_key][many_tiles][slow]")
{
  by_key_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", {many_tiles<std::uint8_t>()},
                                              run_value<std::uint8_t>{test_seed()});
  by_key_of_runs<std::uint64_t, s24>("uint64/s24", {many_tiles<std::uint64_t>()}, run_value<std::uint64_t>{test_seed()});
}

// --------------------------------------------------------------------------------------------------
// The unique family past 2^31 items (64-bit offsets and counts). Stock Thrust's unique_copy and unique
// count in int (thrust/system/cuda/detail/unique.h, `using size_type = int`), so the reference here is
// computed on the device from its definition: an item is kept when it is the first or differs from
// the one before it (thrust::copy_if, 64-bit, with that stencil). Compared on the device
// (thrust::mismatch); nothing of that size goes to the host. Also counting and transform inputs past
// 2^32 into discard outputs, whose answers are known.

namespace
{

//! Whether item i of `keys` is kept by unique: the first, or unequal to the one before it.
struct is_head
{
  const std::uint8_t* keys;
  __host__ __device__ bool operator()(std::uint64_t i) const
  {
    return i == 0 || keys[i] != keys[i - 1];
  }
};

struct divide_by_3
{
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const
  {
    return i / 3;
  }
};

} // namespace

TEST_CASE("unique_copy, unique and unique_count past 2^31 one-byte items match the definition", "[unique][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 12345;
  if (!device_has_memory(4 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto keys = generated_vector<std::uint8_t>(n, large_run_key{test_seed()});
  const auto heads =
    thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), is_head{thrust::raw_pointer_cast(keys.data())});
  thrust::device_vector<std::uint8_t> reference(n / 4);
  const std::size_t count = static_cast<std::size_t>(
    thrust::copy_if(thrust::device, keys.begin(), keys.end(), heads, reference.begin(), is_true{}) - reference.begin());
  REQUIRE(count > n / 16);
  REQUIRE(count < n / 4);
  {
    thrust::device_vector<std::uint8_t> out(count + 64);
    poison(out);
    const auto end = thrust::unique_copy(sweep::par, keys.begin(), keys.end(), out.begin());
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == count);
    require_equal_on_device<std::uint8_t>(reference.begin(), out.begin(), count, "unique_copy past 2^31");
    require_poison_intact(out, count, "unique_copy past 2^31");
  }
  CHECK(static_cast<std::size_t>(thrust::unique_count(sweep::par, keys.begin(), keys.end())) == count);
  {
    thrust::device_vector<std::uint8_t> in_place(keys);
    const auto end = thrust::unique(sweep::par, in_place.begin(), in_place.end());
    REQUIRE(static_cast<std::size_t>(end - in_place.begin()) == count);
    require_equal_on_device<std::uint8_t>(reference.begin(), in_place.begin(), count, "unique (in place) past 2^31");
  }
}

TEST_CASE("unique_by_key_copy past 2^31 one-byte keys with counting values matches the definition",
          "[unique][by_key][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 777;
  if (!device_has_memory(8 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto keys = generated_vector<std::uint8_t>(n, large_run_key{test_seed() + 1});
  const auto heads =
    thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), is_head{thrust::raw_pointer_cast(keys.data())});
  const thrust::counting_iterator<std::uint64_t> index(0);
  thrust::device_vector<std::uint8_t> ref_keys(n / 4);
  thrust::device_vector<std::uint64_t> ref_values(n / 4);
  const std::size_t count = static_cast<std::size_t>(
    thrust::copy_if(thrust::device, keys.begin(), keys.end(), heads, ref_keys.begin(), is_true{}) - ref_keys.begin());
  thrust::copy_if(thrust::device, index, index + static_cast<std::ptrdiff_t>(n), heads, ref_values.begin(), is_true{});
  thrust::device_vector<std::uint8_t> out_keys(count + 64);
  thrust::device_vector<std::uint64_t> out_values(count + 64);
  poison(out_keys);
  poison(out_values);
  const auto ends = thrust::unique_by_key_copy(sweep::par, keys.begin(), keys.end(), index, out_keys.begin(), out_values.begin());
  REQUIRE(static_cast<std::size_t>(ends.first - out_keys.begin()) == count);
  REQUIRE(static_cast<std::size_t>(ends.second - out_values.begin()) == count);
  require_equal_on_device<std::uint8_t>(ref_keys.begin(), out_keys.begin(), count, "unique_by_key_copy keys past 2^31");
  require_equal_on_device<std::uint64_t>(ref_values.begin(), out_values.begin(), count, "unique_by_key_copy values past 2^31");
  require_poison_intact(out_keys, count, "unique_by_key_copy keys past 2^31");
  require_poison_intact(out_values, count, "unique_by_key_copy values past 2^31");
}

TEST_CASE("unique of counting and transform inputs past 2^32 items into discard outputs counts right",
          "[unique][large][discard]")
{
  const std::size_t n = (std::size_t(1) << 32) + 5;
  const thrust::counting_iterator<std::uint64_t> count(0);
  const thrust::discard_iterator<> discard;
  const auto np = static_cast<std::ptrdiff_t>(n);
  CHECK(static_cast<std::size_t>(thrust::unique_copy(sweep::par, count, count + np, discard) - discard) == n);
  CHECK(static_cast<std::size_t>(thrust::unique_count(sweep::par, count, count + np)) == n);
  const auto thirds = thrust::make_transform_iterator(count, divide_by_3{});
  CHECK(static_cast<std::size_t>(thrust::unique_count(sweep::par, thirds, thirds + np)) == (n + 2) / 3);
  const auto ends = thrust::unique_by_key_copy(sweep::par, thirds, thirds + np, count, discard, discard);
  CHECK(static_cast<std::size_t>(ends.first - discard) == (n + 2) / 3);
  CHECK(static_cast<std::size_t>(ends.second - discard) == (n + 2) / 3);
}
