// reduce_by_key of integer keys (1, 2, 4 and 8 bytes, signed and unsigned) and integer values on
// sweep::par against thrust::device, bitwise, in its three call forms (default: equal_to and plus;
// with a key equality; with a key equality and a value operator): runs of length 1, of 8 on average,
// of 100000 (crossing many tiles) and all equal, at the edge sizes of the key's copy_if tile; values
// of 1 byte summed into a 4-byte output (Thrust accumulates in the input's value type); more than 300
// tiles ([slow]); runs mostly of one item, where some lanes of a row store their segments as vectors
// and the lanes beside them item by item.
#include "reduce_by_key_test.cuh"

using namespace sweep_test;

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
