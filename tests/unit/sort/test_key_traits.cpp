// Host-only checks of the radix key transformation and pass planning: the ordered bits must sort
// every key type exactly as stock Thrust (CUB's radix sort) does.
#include <sweep/detail/sort/key_traits.cuh>
#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/sort/tuning.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

using sweep::detail::sort_impl::key_traits;

namespace
{

template <class Key, bool Descending = false>
typename key_traits<Key>::bits_type ord(Key k)
{
  return key_traits<Key>::template ordered<Descending>(key_traits<Key>::to_bits(k));
}

// Requires ordered bits to be strictly increasing along `ascending` (a list in sorted order).
template <class Key>
void require_strictly_increasing(const std::vector<Key>& ascending)
{
  for (std::size_t i = 1; i < ascending.size(); ++i)
  {
    INFO("index " << i);
    REQUIRE(ord(ascending[i - 1]) < ord(ascending[i]));
    REQUIRE(ord<Key, true>(ascending[i - 1]) > ord<Key, true>(ascending[i]));
  }
}

} // namespace

TEST_CASE("unsigned keys keep their bits", "[radix][traits]")
{
  REQUIRE(ord<std::uint32_t>(0u) == 0u);
  REQUIRE(ord<std::uint32_t>(0xdeadbeefu) == 0xdeadbeefu);
  REQUIRE(ord<std::uint32_t, true>(0xdeadbeefu) == ~0xdeadbeefu);
  require_strictly_increasing<std::uint8_t>({0, 1, 127, 128, 255});
  require_strictly_increasing<std::uint64_t>({0, 1, 0xffffffffull, 0x100000000ull, ~0ull});
  require_strictly_increasing<bool>({false, true});
}

TEST_CASE("signed keys order by value", "[radix][traits]")
{
  require_strictly_increasing<std::int8_t>({-128, -1, 0, 1, 127});
  require_strictly_increasing<std::int16_t>({-32768, -300, -1, 0, 1, 300, 32767});
  require_strictly_increasing<std::int32_t>({std::numeric_limits<std::int32_t>::min(), -5, -1, 0, 7,
                                             std::numeric_limits<std::int32_t>::max()});
  require_strictly_increasing<std::int64_t>({std::numeric_limits<std::int64_t>::min(), -1, 0, 1,
                                             std::numeric_limits<std::int64_t>::max()});
}

TEST_CASE("float keys: -inf < negatives < zeros < positives < +inf, NaN by sign", "[radix][traits]")
{
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  require_strictly_increasing<float>({-nan, -inf, -3.5f, -1e-30f, 0.0f, 1e-38f, 2.0f, inf, nan});
  // -0.0 and +0.0 are one key (CUB: "considered equal"), in both directions.
  REQUIRE(ord<float>(-0.0f) == ord<float>(0.0f));
  REQUIRE(ord<float, true>(-0.0f) == ord<float, true>(0.0f));
  REQUIRE(ord<double>(-0.0) == ord<double>(0.0));
  const double dinf = std::numeric_limits<double>::infinity();
  require_strictly_increasing<double>({-dinf, -1e300, -1.0, 0.0, 5e-324, 1.0, dinf, std::nan("")});
}

TEST_CASE("half and bfloat16 keys order by value", "[radix][traits]")
{
  std::vector<__half> h;
  std::vector<__nv_bfloat16> b;
  for (float f : {-65504.0f, -2.0f, -0.5f, 0.0f, 0.25f, 1.0f, 65504.0f})
  {
    h.push_back(__float2half(f));
    b.push_back(__float2bfloat16(f));
  }
  require_strictly_increasing(h);
  require_strictly_increasing(b);
  REQUIRE(ord<__half>(__float2half(-0.0f)) == ord<__half>(__float2half(0.0f)));
  REQUIRE(ord<__nv_bfloat16>(__float2bfloat16(-0.0f)) == ord<__nv_bfloat16>(__float2bfloat16(0.0f)));
}

TEST_CASE("digits are the bytes of the ordered key, least significant first", "[radix][traits]")
{
  using t = key_traits<std::int32_t>;
  const std::int32_t key = -2; // ordered: 0x7ffffffe
  REQUIRE(((t::ordered<false>(t::to_bits(key)) >> (8 * 0)) & 0xffu) == 0xfeu);
  REQUIRE(((t::ordered<false>(t::to_bits(key)) >> (8 * 3)) & 0xffu) == 0x7fu);
  REQUIRE(((t::ordered<true>(t::to_bits(key)) >> (8 * 0)) & 0xffu) == 0x01u);
  REQUIRE(((t::ordered<true>(t::to_bits(key)) >> (8 * 3)) & 0xffu) == 0x80u);
}

TEST_CASE("only the radix key types take the onesweep path", "[radix][traits]")
{
  using sweep::detail::sort_impl::is_radix_key;
  REQUIRE(is_radix_key<int>);
  REQUIRE(is_radix_key<bool>);
  REQUIRE(is_radix_key<double>);
  REQUIRE(is_radix_key<__half>);
  REQUIRE_FALSE(is_radix_key<long double>);
  struct custom
  {
    int x;
  };
  REQUIRE_FALSE(is_radix_key<custom>);
}

TEST_CASE("pass routes alternate buffers over the passes that run", "[radix][plan]")
{
  using sweep::detail::sort_impl::pass_route;
  using sweep::detail::sort_impl::route_passes;
  // Pass p reads the buffer the previous running pass wrote; skipped passes leave it in place.
  {
    const bool trivial[4] = {false, true, true, false};
    std::uint32_t route[5];
    REQUIRE(route_passes(trivial, 4, route) == 2);
    REQUIRE(route[0] == (0u | pass_route::runs_bit | pass_route::first_bit));
    REQUIRE(route[1] == 1u);
    REQUIRE(route[2] == 1u);
    REQUIRE(route[3] == (1u | pass_route::runs_bit));
    REQUIRE((route[4] & pass_route::result_bit) == 0u);
    REQUIRE(pass_route::runs(route[4]) == 2);
  }
  {
    // First pass skipped: the first running pass is pass 1 and reads buffer 0; three run, so the
    // result is in buffer 1.
    const bool trivial[4] = {true, false, false, false};
    std::uint32_t route[5];
    REQUIRE(route_passes(trivial, 4, route) == 3);
    REQUIRE(route[0] == 0u);
    REQUIRE(route[1] == (0u | pass_route::runs_bit | pass_route::first_bit));
    REQUIRE(route[2] == (1u | pass_route::runs_bit));
    REQUIRE(route[3] == (0u | pass_route::runs_bit));
    REQUIRE((route[4] & pass_route::result_bit) == 1u);
    REQUIRE(pass_route::runs(route[4]) == 3);
  }
  {
    // Nothing runs: the input is the result.
    const bool trivial[8] = {true, true, true, true, true, true, true, true};
    std::uint32_t route[9];
    REQUIRE(route_passes(trivial, 8, route) == 0);
    for (int p = 0; p < 8; ++p)
    {
      REQUIRE((route[p] & pass_route::runs_bit) == 0u);
    }
    REQUIRE(route[8] == 0u);
  }
  {
    // Every pass runs: buffers alternate and only pass 0 is first.
    const bool trivial[8] = {};
    std::uint32_t route[9];
    REQUIRE(route_passes(trivial, 8, route) == 8);
    for (int p = 0; p < 8; ++p)
    {
      REQUIRE((route[p] & pass_route::source_bit) == static_cast<std::uint32_t>(p % 2));
      REQUIRE((route[p] & pass_route::runs_bit) != 0u);
      REQUIRE(((route[p] & pass_route::first_bit) != 0u) == (p == 0));
    }
    REQUIRE((route[8] & pass_route::result_bit) == 0u);
    REQUIRE(pass_route::runs(route[8]) == 8);
  }
  {
    // One-byte keys: one pass, result in buffer 1.
    const bool trivial[1] = {false};
    std::uint32_t route[2];
    REQUIRE(route_passes(trivial, 1, route) == 1);
    REQUIRE((route[1] & pass_route::result_bit) == 1u);
  }
}

TEST_CASE("portions keep every per-digit count within a uint32 tile word", "[radix][plan]")
{
  using namespace sweep::detail::sort_impl;
  for (const std::size_t tile : {std::size_t(384 * 12), std::size_t(384 * 20), std::size_t(384 * 23)})
  {
    const std::size_t p = portion_keys(tile);
    REQUIRE(p % tile == 0);
    REQUIRE(p <= tile_word32_limit);
    REQUIRE(p + tile > tile_word32_limit);
  }
}

namespace
{
template <class Tuning, std::size_t KeyBytes, std::size_t ValueBytes, bool Small>
void require_shape_fits()
{
  using shape = sweep::detail::sort_impl::pass_shape<Tuning, KeyBytes, ValueBytes, Small>;
  // One thread per digit, 16-bit ranks, and within 48 KiB of static shared memory: the tile (the
  // wider of key and value) or the 32-bit per-warp digit counters, whichever is larger, the 64-bit
  // scatter bases and the digit scan's per-warp totals.
  constexpr std::size_t warps    = shape::threads / 32;
  constexpr std::size_t tile     = shape::tile_items * shape::wide;
  constexpr std::size_t counters = warps * 256 * 4;
  STATIC_REQUIRE(shape::threads % 32 == 0);
  STATIC_REQUIRE(shape::threads >= sweep::detail::sort_impl::radix_digits);
  STATIC_REQUIRE(shape::tile_items < 65536);
  STATIC_REQUIRE((tile > counters ? tile : counters) + 256 * 8 + 8 * 4 + 16 <= 48 * 1024);
}

template <class Tuning>
void require_shapes_fit()
{
  require_shape_fits<Tuning, 1, 0, true>();
  require_shape_fits<Tuning, 4, 0, true>();
  require_shape_fits<Tuning, 8, 8, true>();
  require_shape_fits<Tuning, 1, 0, false>();
  require_shape_fits<Tuning, 4, 0, false>();
  require_shape_fits<Tuning, 4, 4, false>();
  require_shape_fits<Tuning, 8, 8, false>();
  require_shape_fits<Tuning, 2, 8, false>();
  require_shape_fits<Tuning, 8, 0, false>();
  require_shape_fits<Tuning, 4, 8, false>();
  require_shape_fits<Tuning, 1, 1, false>();
  require_shape_fits<Tuning, 2, 0, false>();
}
} // namespace

TEST_CASE("small sorts take the small tile shape, larger ones the large", "[radix][plan]")
{
  using namespace sweep::detail::sort_impl;
  STATIC_REQUIRE(use_small_shape(std::size_t(1) << 16));
  STATIC_REQUIRE(use_small_shape(small_shape_max_keys));
  STATIC_REQUIRE_FALSE(use_small_shape(small_shape_max_keys + 1));
  STATIC_REQUIRE_FALSE(use_small_shape(std::size_t(1) << 20));
  // The small shape starts where the single-block sort ends, and tiles of both fit their limits.
  STATIC_REQUIRE(pass_shape<tuning_sm90, 4, 0, true>::tile_items < small_shape_max_keys);
  STATIC_REQUIRE(single_block_shape<tuning_sm90, 4, 0>::tile_items < small_shape_max_keys);
  require_shapes_fit<tuning_sm90>();
  require_shapes_fit<tuning_sm86>();
  require_shapes_fit<tuning_sm75>();
}

TEST_CASE("sort shapes of sm_90 as measured on the H200", "[radix][plan]")
{
  using namespace sweep::detail::sort_impl;
  STATIC_REQUIRE(pass_shape<tuning_sm90, 4, 0, false>::tile_items == 512 * 21);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 4, 0, false>::persistent);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 1, 0, false>::tile_items == 512 * 21);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 8, 0, false>::tile_items == 384 * 14);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 8, 0, false>::lookback_first);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 8, 0, false>::min_blocks == 3);
  STATIC_REQUIRE_FALSE(pass_shape<tuning_sm90, 8, 0, false>::persistent);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 4, 4, false>::tile_items == 512 * 20);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 4, 4, false>::lookback_first);
  STATIC_REQUIRE_FALSE(pass_shape<tuning_sm90, 4, 0, false>::lookback_first);
  STATIC_REQUIRE_FALSE(pass_shape<tuning_sm90, 4, 4, false>::persistent);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 4, 8, false>::tile_items == 512 * 11);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 8, 4, false>::tile_items == 512 * 11);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 8, 4, false>::lookback_first);
  STATIC_REQUIRE_FALSE(pass_shape<tuning_sm90, 4, 8, false>::persistent);
  STATIC_REQUIRE(pass_shape<tuning_sm90, 8, 8, true>::tile_items == 256 * 8);
  STATIC_REQUIRE_FALSE(pass_shape<tuning_sm90, 4, 0, true>::persistent);
  STATIC_REQUIRE(single_block_shape<tuning_sm90, 4, 0>::tile_items == 4096);
  STATIC_REQUIRE(single_block_shape<tuning_sm90, 4, 4>::tile_items == 4096);
  STATIC_REQUIRE(single_block_shape<tuning_sm90, 8, 0>::tile_items == 2048);
  STATIC_REQUIRE(single_block_shape<tuning_sm90, 2, 8>::tile_items == 2048);
}

TEST_CASE("sort tunings: sm_90's on sm_80, sm_90 and sm_100, sized-from-limits ones elsewhere", "[radix][arch]")
{
  using namespace sweep::detail::sort_impl;
  namespace sd = sweep::detail;
  STATIC_REQUIRE(std::is_same<tuning_for<800>, tuning_sm90>::value);
  STATIC_REQUIRE(std::is_same<tuning_for<900>, tuning_sm90>::value);
  STATIC_REQUIRE(std::is_same<tuning_for<1000>, tuning_sm90>::value);
  STATIC_REQUIRE(std::is_same<tuning_for<0>, tuning_sm90>::value);
  STATIC_REQUIRE(std::is_same<tuning_for<860>, tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<tuning_for<890>, tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<tuning_for<1200>, tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<tuning_for<750>, tuning_sm75>::value);
  // Every struct fits the architectures it is chosen for: each pass tile's blocks per SM (threads
  // and shared memory, over the widest keys and values it serves).
  for (int arch : sd::tuning_archs)
  {
    const sd::arch_limits limits = sd::limits_of(arch);
    const bool fitting           = sd::with_tuning_arch(arch, [&](auto a) {
      using tuning = tuning_for<decltype(a)::value>;
      const std::pair<pass_tile, std::size_t> tiles[] = {{tuning::small_tiles, 8}, {tuning::narrow_keys, 4},
                                                         {tuning::wide_keys, 8}, {tuning::narrow_pairs, 4},
                                                         {tuning::wide_pairs, 8}};
      for (const auto& [tile, wide] : tiles)
      {
        CHECK(tile.threads * tile.min_blocks <= limits.threads_per_sm);
        CHECK(tile.min_blocks * sd::shared_footprint(limits, pass_shared_bytes(tile, wide)) <= limits.shared_per_sm);
      }
      return fits<tuning>(limits);
    });
    CHECK(fitting);
  }
  // sm_90's shapes would not fit the smaller SMs: the reason for their structs.
  CHECK_FALSE(fits<tuning_sm90>(sd::limits_of(860)));
  CHECK_FALSE(fits<tuning_sm90>(sd::limits_of(750)));
  CHECK_FALSE(fits<tuning_sm86>(sd::limits_of(750)));
  // What the host launches for a kernel compiled for each architecture.
  CHECK(pass_tile_for<4, 0, false>(900).items == 21);
  CHECK(pass_tile_for<4, 0, false>(800).items == 21);
  CHECK(pass_tile_for<4, 0, false>(750).items == 14);
  CHECK(pass_tile_for<8, 0, false>(890).min_blocks == 2);
  CHECK(pass_tile_for<8, 0, false>(1000).min_blocks == 3);
  CHECK(pass_tile_for<4, 8, false>(750).persistent);
  CHECK(pass_tile_for<4, 0, true>(750).threads * pass_tile_for<4, 0, true>(750).items == 2048);
  CHECK(single_block_dims_for<4, 0>(750).tile_items == 4096);
  CHECK(single_block_dims_for<8, 4>(1200).threads == 256);
}

namespace
{
// The pass keeps keys in encode() form: decode must give back the exact input bits, radix_bits must
// equal ordered() of the raw bits, and all-ones encoded bits (a partial tile's padding) must have
// all-ones radix bits, so that padding ranks after every real key in every pass.
template <class Key, bool Descending>
void require_codec(const std::vector<typename key_traits<Key>::bits_type>& raw_bits)
{
  using traits = key_traits<Key>;
  for (auto b : raw_bits)
  {
    INFO("raw bits " << static_cast<unsigned long long>(b) << ", descending " << Descending);
    const auto s = traits::template encode<Descending>(b);
    REQUIRE(traits::template decode<Descending>(s) == b);
    REQUIRE(traits::template radix_bits<Descending>(s) == traits::template ordered<Descending>(b));
  }
  REQUIRE(traits::template radix_bits<Descending>(traits::all_ones) == traits::all_ones);
}

template <class Key>
void require_codec_both_ways(std::uint64_t seed)
{
  using bits_type = typename key_traits<Key>::bits_type;
  std::vector<bits_type> raw = {bits_type(0), key_traits<Key>::high_bit, key_traits<Key>::all_ones,
                                static_cast<bits_type>(key_traits<Key>::all_ones ^ key_traits<Key>::high_bit),
                                bits_type(1), static_cast<bits_type>(key_traits<Key>::high_bit | 1u)};
  std::uint64_t x = seed;
  for (int i = 0; i < 2000; ++i)
  {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    raw.push_back(static_cast<bits_type>(x >> (64 - 8 * sizeof(bits_type))));
  }
  require_codec<Key, false>(raw);
  require_codec<Key, true>(raw);
}
} // namespace

TEST_CASE("the pass's key encoding is reversible and sorts like ordered()", "[radix][traits]")
{
  require_codec_both_ways<bool>(1);
  require_codec_both_ways<std::uint8_t>(2);
  require_codec_both_ways<std::int8_t>(3);
  require_codec_both_ways<std::int16_t>(4);
  require_codec_both_ways<std::uint16_t>(5);
  require_codec_both_ways<__half>(6);
  require_codec_both_ways<std::int32_t>(7);
  require_codec_both_ways<std::uint32_t>(8);
  require_codec_both_ways<float>(9);
  require_codec_both_ways<std::int64_t>(10);
  require_codec_both_ways<std::uint64_t>(11);
  require_codec_both_ways<double>(12);
}
