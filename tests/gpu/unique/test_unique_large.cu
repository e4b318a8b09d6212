// The unique family past 2^31 items (64-bit offsets and counts). Stock Thrust's unique_copy and unique
// count in int (thrust/system/cuda/detail/unique.h, `using size_type = int`), so the reference here is
// computed on the device from its definition: an item is kept when it is the first or differs from
// the one before it (thrust::copy_if, 64-bit, with that stencil). Compared on the device
// (thrust::mismatch); nothing of that size goes to the host. Also counting and transform inputs past
// 2^32 into discard outputs, whose answers are known.
#include "unique_test.cuh"

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

using namespace sweep_test;

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
