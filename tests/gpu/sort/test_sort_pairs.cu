// sweep::par sort_by_key against thrust::device: value types of 1 to 24 bytes, values through
// device pointers, device_vector iterators and zip_iterator, ties (stability).
#include "sort_test_common.cuh"

#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

namespace
{

struct value16
{
  std::uint64_t a, b;
};
struct value24
{
  std::uint32_t a;
  float b;
  std::uint64_t c;
  std::uint64_t d;
};
static_assert(sizeof(value24) == 24, "a 24-byte value");

template <class Key, class Value, class Compare>
void check_all_sizes(Compare comp, const char* name)
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : sweep_test::sizes())
  {
    // Few distinct keys: equal keys must keep their values' input order.
    sweep_test::check_pairs(sweep_test::few_valued_vector<Key>(n, 5, seed + n),
                                 sweep_test::random_vector<Value>(n, seed ^ n), comp,
                                 std::string(name) + " five keys");
    sweep_test::check_pairs(sweep_test::random_vector<Key>(n, seed + 3 * n),
                                 sweep_test::random_vector<Value>(n, seed ^ (5 * n)), comp,
                                 std::string(name) + " random");
  }
}

} // namespace

TEST_CASE("sort_by_key uint32 keys, 4- and 8-byte values", "[sort][pairs]")
{
  check_all_sizes<std::uint32_t, std::uint32_t>(thrust::less<std::uint32_t>(), "u32/u32 less");
  check_all_sizes<std::uint32_t, std::uint64_t>(thrust::greater<std::uint32_t>(), "u32/u64 greater");
}

TEST_CASE("sort_by_key float and 64-bit keys", "[sort][pairs]")
{
  check_all_sizes<float, std::uint32_t>(thrust::less<float>(), "float/u32 less");
  check_all_sizes<std::uint64_t, double>(thrust::less<std::uint64_t>(), "u64/double less");
  check_all_sizes<std::uint8_t, std::uint16_t>(thrust::less<std::uint8_t>(), "u8/u16 less");
}

TEST_CASE("sort_by_key 16- and 24-byte values", "[sort][pairs]")
{
  check_all_sizes<std::int32_t, value16>(thrust::less<std::int32_t>(), "i32/16-byte less");
  check_all_sizes<std::uint32_t, value24>(thrust::greater<std::uint32_t>(), "u32/24-byte greater");
}

TEST_CASE("sort_by_key with raw device pointers", "[sort][pairs]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : {std::size_t(1000), std::size_t(300000)})
  {
    thrust::device_vector<std::uint32_t> keys   = sweep_test::random_vector<std::uint32_t>(n, seed);
    thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed + 1);
    thrust::device_vector<std::uint32_t> ek = keys, ev = values;
    thrust::sort_by_key(thrust::device, ek.begin(), ek.end(), ev.begin());
    std::uint32_t* k = thrust::raw_pointer_cast(keys.data());
    std::uint32_t* v = thrust::raw_pointer_cast(values.data());
    thrust::sort_by_key(sweep::par, k, k + n, v);
    sweep_test::require_bitwise_equal(ek, keys, n, "pointer keys");
    sweep_test::require_bitwise_equal(ev, values, n, "pointer values");
    // keys only through pointers, greater
    thrust::device_vector<std::uint32_t> again = sweep_test::random_vector<std::uint32_t>(n, seed + 2);
    thrust::device_vector<std::uint32_t> expected = again;
    thrust::sort(thrust::device, expected.begin(), expected.end(), thrust::greater<std::uint32_t>());
    std::uint32_t* a = thrust::raw_pointer_cast(again.data());
    thrust::sort(sweep::par, a, a + n, thrust::greater<std::uint32_t>());
    sweep_test::require_bitwise_equal(expected, again, n, "pointer keys, greater");
  }
}

TEST_CASE("sort_by_key with zip_iterator values", "[sort][pairs][zip]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : {std::size_t(0), std::size_t(33), std::size_t(4097), std::size_t(100000), std::size_t(1) << 20})
  {
    thrust::device_vector<std::uint32_t> keys = sweep_test::few_valued_vector<std::uint32_t>(n, 7, seed + n);
    thrust::device_vector<std::uint16_t> a    = sweep_test::random_vector<std::uint16_t>(n, seed + 1);
    thrust::device_vector<double> b           = sweep_test::random_vector<double>(n, seed + 2);
    thrust::device_vector<std::uint32_t> ek = keys, ak = keys;
    thrust::device_vector<std::uint16_t> ea = a;
    thrust::device_vector<double> eb        = b;
    thrust::sort_by_key(thrust::device, ek.begin(), ek.end(),
                        thrust::make_zip_iterator(thrust::make_tuple(ea.begin(), eb.begin())));
    thrust::sort_by_key(sweep::par, ak.begin(), ak.end(),
                        thrust::make_zip_iterator(thrust::make_tuple(a.begin(), b.begin())));
    sweep_test::require_bitwise_equal(ek, ak, n, "zip keys");
    sweep_test::require_bitwise_equal(ea, a, n, "zip values 0");
    sweep_test::require_bitwise_equal(eb, b, n, "zip values 1");
  }
}

TEST_CASE("sort_by_key with the large pass tiles, small enough for compute-sanitizer", "[sort][pairs][san]")
{
  // Past small_shape_max_keys the passes run the large tiles, which on sm_90 look back before they
  // rank (tuning.hpp, lookback_first): 4-byte pairs and 8-byte values; a few tiles and a partial
  // last one.
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = sweep::detail::sort_impl::small_shape_max_keys + 12345;
  sweep_test::check_pairs(sweep_test::random_vector<std::uint32_t>(n, seed),
                          sweep_test::random_vector<std::uint32_t>(n, seed + 1), thrust::less<std::uint32_t>(),
                          "u32/u32 large tiles");
  sweep_test::check_pairs(sweep_test::few_valued_vector<std::uint16_t>(n, 5, seed + 2),
                          sweep_test::random_vector<std::uint16_t>(n, seed + 3), thrust::greater<std::uint16_t>(),
                          "u16/u16 five keys, large tiles");
  sweep_test::check_pairs(sweep_test::random_vector<std::uint32_t>(n, seed + 4),
                          sweep_test::random_vector<std::uint64_t>(n, seed + 5), thrust::less<std::uint32_t>(),
                          "u32/u64 large tiles");
}
