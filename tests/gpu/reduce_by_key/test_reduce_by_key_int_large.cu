// reduce_by_key of integers, and past 2^31 items.
#include "reduce_by_key_test.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// reduce_by_key of integer keys (1, 2, 4 and 8 bytes, signed and unsigned) and integer values on
// sweep::par against thrust::device, bitwise, in its three call forms (default: equal_to and plus;
// with a key equality; with a key equality and a value operator): runs of length 1, of 8 on average,
// of 100000 (crossing many tiles) and all equal, at the edge sizes of the key's copy_if tile; values
// of 1 byte summed into a 4-byte output (Thrust accumulates in the input's value type); more than 300
// tiles ([slow]); runs mostly of one item, where some lanes of a row store their segments as vectors
// and the lanes beside them item by item.

namespace
{

template <class K, class V, class VOut = V, class Op>
void reduce_of_runs(const char* name, const std::vector<std::size_t>& sizes, Op op)
{
  const auto values = random_vector<V>(sizes.back(), test_seed() + 70);
  for (run_shape shape : all_run_shapes)
  {
    const auto keys = items_of_runs<K>(run_ids(sizes.back(), shape, test_seed() + 71), run_value<K>{test_seed() + 72});
    for (std::size_t n : sizes)
    {
      check_reduce_by_key_forms<K, VOut>(keys.begin(), values.begin(), n, ::cuda::std::equal_to<K>{}, op,
                                         rbk_label(name, shape, n));
    }
  }
}

//! Keys in runs of mostly one item (mostly_distinct_run_ids): the lanes whose items all end segments
//! store them as vectors beside lanes that store item by item.
template <class K, class V, class Op>
void reduce_of_mostly_distinct(const char* name, const std::vector<std::size_t>& sizes, Op op)
{
  const auto values = random_vector<V>(sizes.back(), test_seed() + 73);
  const auto keys   = items_of_runs<K>(mostly_distinct_run_ids(sizes.back(), test_seed() + 74), run_value<K>{test_seed() + 75});
  for (std::size_t n : sizes)
  {
    check_reduce_by_key_forms<K, V>(keys.begin(), values.begin(), n, ::cuda::std::equal_to<K>{}, op,
                                    std::string(name) + ", runs mostly of 1, n=" + std::to_string(n));
  }
}

} // namespace

TEST_CASE("reduce_by_key of keys in runs mostly of one item matches thrust", "[reduce_by_key][int][vector_tails]")
{
  reduce_of_mostly_distinct<std::uint8_t, std::uint32_t>("uint8/uint32", compaction_sizes<std::uint8_t>(),
                                                         op_bit_xor<std::uint32_t>{});
  reduce_of_mostly_distinct<std::int16_t, std::int64_t>("int16/int64", compaction_sizes<std::int16_t>(),
                                                        op_minimum<std::int64_t>{});
  reduce_of_mostly_distinct<std::int32_t, std::int32_t>("int32/int32", compaction_sizes<std::int32_t>(),
                                                        op_maximum<std::int32_t>{});
  reduce_of_mostly_distinct<std::uint64_t, std::uint16_t>("uint64/uint16", compaction_sizes<std::uint64_t>(),
                                                          op_plus<std::uint16_t>{});
}

TEST_CASE("reduce_by_key of uint8 keys and uint32 values matches thrust", "[reduce_by_key][int]")
{
  reduce_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", compaction_sizes<std::uint8_t>(), op_bit_xor<std::uint32_t>{});
}

TEST_CASE("reduce_by_key of int16 keys and int64 values matches thrust", "[reduce_by_key][int]")
{
  reduce_of_runs<std::int16_t, std::int64_t>("int16/int64", compaction_sizes<std::int16_t>(), op_minimum<std::int64_t>{});
}

TEST_CASE("reduce_by_key of int32 keys and int32 values matches thrust", "[reduce_by_key][int]")
{
  reduce_of_runs<std::int32_t, std::int32_t>("int32/int32", compaction_sizes<std::int32_t>(), op_maximum<std::int32_t>{});
}

TEST_CASE("reduce_by_key of uint64 keys and uint16 values matches thrust", "[reduce_by_key][int]")
{
  reduce_of_runs<std::uint64_t, std::uint16_t>("uint64/uint16", compaction_sizes<std::uint64_t>(), op_plus<std::uint16_t>{});
}

TEST_CASE("reduce_by_key of int8, uint16, uint32 and int64 keys matches thrust", "[reduce_by_key][int]")
{
  reduce_of_runs<std::int8_t, std::uint64_t>("int8/uint64", compaction_sizes<std::int8_t>(), op_plus<std::uint64_t>{});
  reduce_of_runs<std::uint16_t, std::int8_t>("uint16/int8", compaction_sizes<std::uint16_t>(), op_maximum<std::int8_t>{});
  reduce_of_runs<std::uint32_t, std::int16_t>("uint32/int16", compaction_sizes<std::uint32_t>(), op_bit_xor<std::int16_t>{});
  reduce_of_runs<std::int64_t, std::uint32_t>("int64/uint32", compaction_sizes<std::int64_t>(), op_minimum<std::uint32_t>{});
}

TEST_CASE("reduce_by_key of uint8 values into int32 outputs wraps as thrust's does", "[reduce_by_key][int][types]")
{
  reduce_of_runs<std::int32_t, std::uint8_t, std::int32_t>("int32/uint8 into int32", compaction_sizes<std::int32_t>(),
                                                           op_plus<std::int32_t>{});
}

TEST_CASE("reduce_by_key of small inputs (0 to 33 items) matches thrust", "[reduce_by_key][int][small]")
{
  reduce_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", {0, 1, 2, 31, 32, 33}, op_bit_xor<std::uint32_t>{});
  reduce_of_runs<std::int32_t, std::int32_t>("int32/int32", {0, 1, 2, 31, 32, 33}, op_maximum<std::int32_t>{});
}

TEST_CASE("reduce_by_key over more than 300 tiles matches thrust", "[reduce_by_key][int][many_tiles][slow]")
{
  reduce_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", {many_tiles<std::uint8_t>()}, op_bit_xor<std::uint32_t>{});
  reduce_of_runs<std::int32_t, std::int32_t>("int32/int32", {many_tiles<std::int32_t>()}, op_maximum<std::int32_t>{});
}

// --------------------------------------------------------------------------------------------------
// Full tiles that end a set number of segments: each side of the block's threads and of the stage's
// size (run_output::store_tile writes a tile's segments through shared memory where it ends more
// segments than the block has threads and at most tuning.hpp's runs_stage_items; item by item
// otherwise), with and without the tile's first and last items on a segment edge, for values of 1, 2,
// 4 and 8 bytes (tiles of 8192 and 4096 items) and 16 bytes (never staged); the last tile full (the
// stage writes the segment count) and partial. Against thrust::device, bitwise, with the keys also
// discarded.

namespace
{

namespace sc = sweep::detail::scan_impl;

//! Items of a full tile of reduce_by_key over values V (sm_90's tuning; u32 head counts below 2^31).
template <class V>
constexpr std::size_t rbk_tile_items = sc::tile_shape<sc::run_item<V, std::uint32_t>, sc::tuning_sm90, false>::tile_items;

//! Whether the agent of reduce_by_key's kernel over contiguous u32 keys and values V (sm_90's tuning)
//! stages full tiles: the [stage] tests reach run_output::store_tile's staged path only where it does.
template <class V>
constexpr bool rbk_agent_stages =
  sc::agent<sc::run_item<V, std::uint32_t>, sc::tuning_sm90, sc::scan_mode<false, false>,
            sc::run_input<V, std::uint32_t, const std::uint32_t*, const V*, ::cuda::std::equal_to<std::uint32_t>>,
            sc::run_output<V, std::uint32_t, const std::uint32_t*, std::uint32_t*, V*>,
            sc::run_op<V, std::uint32_t, ::cuda::std::plus<V>>>::stages;

//! Keys whose tile t ends ends[t % ends.size()] segments at seeded places (the key goes up by one after
//! each): every other cycle of the list with the tile's last item among them.
inline thrust::device_vector<std::uint32_t> keys_ending(std::size_t tile, std::size_t n, const std::vector<std::size_t>& ends,
                                                        std::uint64_t seed)
{
  thrust::host_vector<std::uint32_t> keys(n);
  std::mt19937_64 g(seed);
  std::vector<std::size_t> places(tile);
  std::uint32_t key = 0;
  for (std::size_t t = 0; t * tile < n; ++t)
  {
    const std::size_t e = std::min(ends[t % ends.size()], tile);
    for (std::size_t k = 0; k < tile; ++k)
    {
      places[k] = k;
    }
    std::shuffle(places.begin(), places.end(), g);
    std::vector<char> tail(tile, 0);
    for (std::size_t k = 0; k < e; ++k)
    {
      tail[places[k]] = 1;
    }
    if (e > 0 && (t / ends.size()) % 2 == 1 && !tail[tile - 1])
    {
      tail[places[0]]  = 0; // the tile's last item ends a segment instead
      tail[tile - 1] = 1;
    }
    for (std::size_t k = 0; k < tile && t * tile + k < n; ++k)
    {
      keys[t * tile + k] = key;
      key += tail[k];
    }
  }
  return thrust::device_vector<std::uint32_t>(keys.begin(), keys.end());
}

template <class V, class Op>
void reduce_of_tiles_ending(const char* name, Op op)
{
  const std::size_t tile    = rbk_tile_items<V>;
  const std::size_t threads = sc::tuning_sm90::block_threads;
  const std::size_t cap     = sc::tuning_sm90::runs_stage_items;
  const std::vector<std::size_t> ends{0, 1, threads - 1, threads, threads + 1, cap - 1, cap, cap + 1, tile / 2, tile, 700, 1500};
  const std::size_t tiles = 2 * ends.size() + 1;
  const auto keys         = keys_ending(tile, tiles * tile, ends, test_seed() + 76);
  const auto values       = random_vector<V>(tiles * tile, test_seed() + 77);
  for (std::size_t n : {tiles * tile, tiles * tile - tile / 3, (tiles - 1) * tile + 1, 4 * tile})
  {
    const std::string what = std::string(name) + ", tiles ending set segment counts, n=" + std::to_string(n);
    check_reduce_by_key_forms<std::uint32_t, V>(keys.begin(), values.begin(), n, ::cuda::std::equal_to<std::uint32_t>{}, op, what);
    // The keys discarded: the values and the returned ends as with both outputs.
    thrust::device_vector<V> ev(n + 4), av(n + 4);
    poison(ev);
    poison(av);
    const auto np = static_cast<std::ptrdiff_t>(n);
    const auto e  = thrust::reduce_by_key(thrust::device, keys.begin(), keys.begin() + np, values.begin(),
                                          thrust::make_discard_iterator(), ev.begin());
    const auto a  = thrust::reduce_by_key(sweep::par, keys.begin(), keys.begin() + np, values.begin(),
                                          thrust::make_discard_iterator(), av.begin());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    INFO(what << ", keys discarded, seed = " << test_seed());
    const std::size_t segments = static_cast<std::size_t>(e.second - ev.begin());
    REQUIRE(static_cast<std::size_t>(a.second - av.begin()) == segments);
    REQUIRE(static_cast<std::size_t>(a.first - thrust::make_discard_iterator()) == segments);
    require_bitwise_equal(ev, av, segments, "reduce_by_key values, keys discarded, " + what);
    require_poison_intact(av, segments, "reduce_by_key values, keys discarded, " + what);
  }
}

struct pair16
{
  std::uint64_t a;
  std::uint64_t b;
};
//! Affine maps v -> a * v + b mod 2^64, x then y: associative, not commutative.
struct pair16_op
{
  __host__ __device__ pair16 operator()(const pair16& x, const pair16& y) const
  {
    return pair16{y.a * x.a, y.a * x.b + y.b};
  }
};
struct pair16_of
{
  __host__ __device__ pair16 operator()(std::uint64_t i) const
  {
    return pair16{mix64(i) | 1, mix64(i + 1)};
  }
};

} // namespace

TEST_CASE("reduce_by_key of tiles ending segment counts on each side of the block's threads and the stage matches thrust",
          "[reduce_by_key][int][stage]")
{
  STATIC_REQUIRE(sc::tuning_sm90::runs_stage_items > sc::tuning_sm90::block_threads);
  STATIC_REQUIRE(rbk_tile_items<std::uint32_t> == 8192);
  STATIC_REQUIRE(rbk_tile_items<std::uint64_t> == 4096);
  STATIC_REQUIRE(rbk_agent_stages<std::uint32_t>);
  STATIC_REQUIRE(rbk_agent_stages<std::uint64_t>);
  STATIC_REQUIRE(rbk_agent_stages<std::uint8_t>);
  STATIC_REQUIRE(rbk_agent_stages<std::int16_t>);
  reduce_of_tiles_ending<std::uint32_t>("uint32/uint32", op_plus<std::uint32_t>{});
  reduce_of_tiles_ending<std::uint64_t>("uint32/uint64", op_bit_xor<std::uint64_t>{});
  reduce_of_tiles_ending<std::uint8_t>("uint32/uint8", op_maximum<std::uint8_t>{});
  reduce_of_tiles_ending<std::int16_t>("uint32/int16", op_minimum<std::int16_t>{});
}

TEST_CASE("reduce_by_key of three staged tiles matches thrust (the sanitizers' size)", "[reduce_by_key][int][stage][small]")
{
  STATIC_REQUIRE(rbk_agent_stages<std::uint32_t>);
  const std::size_t tile    = rbk_tile_items<std::uint32_t>;
  const std::size_t threads = sc::tuning_sm90::block_threads;
  const std::size_t cap     = sc::tuning_sm90::runs_stage_items;
  const auto keys           = keys_ending(tile, 3 * tile, {threads + 1, cap, threads}, test_seed() + 79);
  const auto values         = random_vector<std::uint32_t>(3 * tile, test_seed() + 80);
  for (std::size_t n : {3 * tile, 2 * tile + 5})
  {
    check_reduce_by_key<std::uint32_t, std::uint32_t>(sweep::par, keys.begin(), values.begin(), n,
                                                      "uint32/uint32, three tiles, n=" + std::to_string(n));
  }
}

TEST_CASE("reduce_by_key of 16-byte values in tiles ending many segments matches thrust", "[reduce_by_key][int][stage][struct]")
{
  STATIC_REQUIRE(!rbk_agent_stages<pair16>); // values over 8 bytes store item by item
  const std::size_t tile = rbk_tile_items<pair16>;
  const std::vector<std::size_t> ends{0, 300, tile / 4, tile / 2, tile};
  const std::size_t n = 2 * ends.size() * tile + tile / 2;
  const auto keys     = keys_ending(tile, n, ends, test_seed() + 78);
  const auto values   = generated_vector<pair16>(n, pair16_of{});
  check_reduce_by_key<std::uint32_t, pair16>(sweep::par, keys.begin(), values.begin(), n, "uint32/pair16",
                                             ::cuda::std::equal_to<std::uint32_t>{}, pair16_op{});
}

// --------------------------------------------------------------------------------------------------
// reduce_by_key past 2^31 items (64-bit offsets and segment counts): one-byte keys in runs with
// constant and stored values against thrust::device (which dispatches 64-bit offsets there), compared
// on the device; and transform keys past 2^32 with counting values into small outputs, whose sums are
// known.

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
