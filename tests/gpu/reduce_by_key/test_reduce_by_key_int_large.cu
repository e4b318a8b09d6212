// reduce_by_key of integers, and past 2^31 items.
#include "reduce_by_key_test.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

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
