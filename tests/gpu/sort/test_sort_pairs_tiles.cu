// Sorts of pairs, and around the sort's tiles.
#include "sort_test_common.cuh"

#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <sweep/detail/sort/block_rank.cuh>
#include <sweep/detail/sort/tuning.hpp>
#include <vector>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// sweep::par sort_by_key against thrust::device: value types of 1 to 24 bytes, values through
// device pointers, device_vector iterators and zip_iterator, ties (stability).

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

// --------------------------------------------------------------------------------------------------
// sweep::par sort against thrust::device on inputs built around the pass's tiles: full tiles whose
// keys share one digit (the short path that skips ranking), tiles of two digits, partial last tiles
// of one digit (which must take the ranked path), for every large tile shape, keys only and pairs;
// and the ranking's warp match (block_rank.cuh) against a brute-force one on crafted digit patterns.

namespace
{

//! Key i is a random value per run of `run` keys, the runs starting `shift` keys into the input:
//! with run = tile and shift = 0 every full tile of the first pass holds one key value (so one
//! digit in every pass); shift = run / 2 gives tiles of two values; later passes see the runs moved.
template <class Key>
struct runs
{
  std::size_t run, shift;
  std::uint64_t seed;
  __host__ __device__ Key operator()(std::uint64_t i) const
  {
    const std::uint64_t r = (i + shift) / run;
    return sweep_test::from_bits<Key>{}(sweep_test::mix64(r ^ sweep_test::mix64(seed)));
  }
};

template <class Key, class Value, class Compare>
void check_tiles(std::size_t tile, Compare comp, const char* name)
{
  const std::uint64_t seed = sweep_test::test_seed();
  // Past the small shape's limit, so that the large shape (whose tile is `tile`) runs.
  const std::size_t k = sweep::detail::sort_impl::small_shape_max_keys / tile + 3;
  for (std::size_t n : {k * tile - 1, k * tile, k * tile + 1, k * tile + 31, (k + 1) * tile - 1})
  {
    for (std::size_t shift : {std::size_t(0), tile / 2, tile - 1})
    {
      INFO(name << ": tile " << tile << ", shift " << shift);
      auto keys = sweep_test::generated_vector<Key>(n, runs<Key>{tile, shift, seed + n});
      if constexpr (std::is_same<Value, void>::value)
      {
        sweep_test::check_keys(keys, comp, std::string(name) + " runs of one tile");
      }
      else
      {
        // Random values: the short path must carry each value with its key, in input order.
        sweep_test::check_pairs(keys, sweep_test::random_vector<Value>(n, seed ^ n), comp,
                                     std::string(name) + " runs of one tile");
      }
    }
    // Runs of a few tiles: consecutive tiles of one digit in the first pass, then moved together.
    auto keys = sweep_test::generated_vector<Key>(n, runs<Key>{3 * tile, 0, seed + 7 * n});
    if constexpr (std::is_same<Value, void>::value)
    {
      sweep_test::check_keys(keys, comp, std::string(name) + " runs of three tiles");
    }
    else
    {
      sweep_test::check_pairs(keys, sweep_test::random_vector<Value>(n, seed ^ (3 * n)), comp,
                                   std::string(name) + " runs of three tiles");
    }
  }
}

template <std::size_t KeyBytes, std::size_t ValueBytes>
std::size_t large_tile()
{
  return sweep_test::pass_tile_items<KeyBytes, ValueBytes, false>();
}

//! One warp a pattern: masks[p * 32 + l] = warp_match_digit(digits[p * 32 + l]) of lane l.
__global__ void match_kernel(const unsigned* digits, unsigned* masks)
{
  const unsigned i = blockIdx.x * 32 + threadIdx.x;
  masks[i]         = sweep::detail::sort_impl::warp_match_digit(digits[i]);
}

} // namespace

TEST_CASE("ranking: a warp's match masks equal a brute-force match on crafted digit patterns", "[sort][tiles][match]")
{
  // 32 lanes' 8-bit digits, one pattern a row: every lane equal (each value with a bit set or
  // clear), every lane distinct, two groups that differ in one bit (each bit), groups of 2..16 lanes,
  // and seeded random digits drawn from 2, 4, 16 and 256 values.
  std::vector<unsigned> digits;
  auto add = [&](auto digit_of) {
    for (unsigned l = 0; l < 32; ++l)
    {
      digits.push_back(static_cast<unsigned>(digit_of(l)) & 0xffu);
    }
  };
  for (unsigned v : {0u, 1u, 0x80u, 0x55u, 0xaau, 0xffu})
  {
    add([v](unsigned) { return v; });
  }
  add([](unsigned l) { return l; });
  add([](unsigned l) { return 255 - 8 * l; });
  for (unsigned bit = 0; bit < 8; ++bit)
  {
    add([bit](unsigned l) { return (l & 1u) << bit; });
    add([bit](unsigned l) { return l < 16 ? 0xffu : 0xffu ^ (1u << bit); });
  }
  for (unsigned group : {2u, 3u, 4u, 8u, 16u})
  {
    add([group](unsigned l) { return (l / group) * 37u; });
  }
  const std::uint64_t seed = sweep_test::test_seed();
  for (unsigned values : {2u, 4u, 16u, 256u})
  {
    for (std::uint64_t r = 0; r < 16; ++r)
    {
      add([&](unsigned l) { return sweep_test::mix64(seed ^ (r * 32 + l) ^ (std::uint64_t(values) << 40)) % values * (256 / values); });
    }
  }
  const std::size_t patterns = digits.size() / 32;
  thrust::device_vector<unsigned> d_digits(digits.begin(), digits.end());
  thrust::device_vector<unsigned> d_masks(digits.size(), 0xdeadbeefu);
  match_kernel<<<static_cast<unsigned>(patterns), 32>>>(thrust::raw_pointer_cast(d_digits.data()),
                                                        thrust::raw_pointer_cast(d_masks.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<unsigned> masks(d_masks.begin(), d_masks.end());
  std::size_t wrong = 0;
  for (std::size_t p = 0; p < patterns; ++p)
  {
    for (unsigned l = 0; l < 32; ++l)
    {
      unsigned expected = 0;
      for (unsigned j = 0; j < 32; ++j)
      {
        expected |= digits[p * 32 + j] == digits[p * 32 + l] ? 1u << j : 0u;
      }
      if (masks[p * 32 + l] != expected && wrong++ < 5)
      {
        UNSCOPED_INFO("pattern " << p << " lane " << l << ": mask " << std::hex << masks[p * 32 + l] << ", expected " << expected);
      }
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("one-digit tiles take the short path: keys only", "[sort][tiles]")
{
  check_tiles<std::uint32_t, void>(large_tile<4, 0>(), thrust::less<std::uint32_t>(), "u32 less");
  check_tiles<float, void>(large_tile<4, 0>(), thrust::greater<float>(), "float greater");
  check_tiles<std::int64_t, void>(large_tile<8, 0>(), thrust::less<std::int64_t>(), "i64 less");
  check_tiles<std::uint16_t, void>(large_tile<2, 0>(), thrust::less<std::uint16_t>(), "u16 less");
}

TEST_CASE("one-digit tiles take the short path: pairs", "[sort][tiles]")
{
  check_tiles<std::uint32_t, std::uint32_t>(large_tile<4, 4>(), thrust::less<std::uint32_t>(), "u32/u32 less");
  check_tiles<std::uint32_t, std::uint64_t>(large_tile<4, 8>(), thrust::greater<std::uint32_t>(), "u32/u64 greater");
  check_tiles<double, std::uint32_t>(large_tile<8, 4>(), thrust::less<double>(), "double/u32 less");
  // Values over 8 bytes travel as 32-bit positions (index mode): the short path of the first pass
  // writes positions it makes itself.
  check_tiles<std::uint32_t, value16>(large_tile<4, 4>(), thrust::less<std::uint32_t>(), "u32/16-byte less");
}
