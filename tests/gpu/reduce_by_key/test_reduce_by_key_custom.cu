// reduce_by_key under user operators and key equalities on sweep::par against thrust::device,
// bitwise: values under associative operators that do not commute (affine maps composed in order, 2x2
// matrix products: a segment folded out of order gives other bits), 12- and 24-byte struct values
// (the 24-byte operator projects its two ends), keys equal by their tens (a segment's keys differ:
// Thrust's CUDA backend writes each segment's last key), a key predicate neither symmetric nor
// transitive (Thrust compares adjacent keys as eq(previous, current)), 12-byte keys equal by their
// first word; every run shape at the edge sizes of the copy_if tile.
#include "reduce_by_key_test.cuh"

using namespace sweep_test;

namespace
{

template <class K, class V, class KeyGen, class ValueGen, class Eq, class Op>
void reduce_under(const char* name, KeyGen key_gen, ValueGen value_gen, Eq eq, Op op)
{
  const auto sizes  = compaction_sizes<V>();
  const auto values = generated_vector<V>(sizes.back(), value_gen);
  for (run_shape shape : all_run_shapes)
  {
    const auto keys = items_of_runs<K>(run_ids(sizes.back(), shape, test_seed() + 73), key_gen);
    for (std::size_t n : sizes)
    {
      check_reduce_by_key<K, V>(sweep::par, keys.begin(), values.begin(), n, rbk_label(name, shape, n), eq, op);
    }
  }
}

} // namespace

TEST_CASE("reduce_by_key of affine maps composes each segment in order", "[reduce_by_key][custom]")
{
  reduce_under<std::int32_t, affine>("int32 keys, affine values", run_value<std::int32_t>{test_seed()},
                                     random_affine{test_seed() + 1}, ::cuda::std::equal_to<std::int32_t>{}, compose{});
}

TEST_CASE("reduce_by_key of 2x2 matrices multiplies each segment in order", "[reduce_by_key][custom]")
{
  reduce_under<std::uint16_t, mat2>("uint16 keys, mat2 values", run_value<std::uint16_t>{test_seed()},
                                    random_mat2{test_seed() + 2}, ::cuda::std::equal_to<std::uint16_t>{}, mat2_product{});
}

TEST_CASE("reduce_by_key of 12- and 24-byte struct values matches thrust", "[reduce_by_key][custom][struct]")
{
  reduce_under<std::uint32_t, s12>("uint32 keys, s12 values", run_value<std::uint32_t>{test_seed()},
                                   random_element<s12>{test_seed() + 3}, ::cuda::std::equal_to<std::uint32_t>{}, s12_op{});
  reduce_under<std::int64_t, s24>("int64 keys, s24 values", run_value<std::int64_t>{test_seed()},
                                  random_element<s24>{test_seed() + 4}, ::cuda::std::equal_to<std::int64_t>{}, s24_op{});
}

TEST_CASE("reduce_by_key of keys equal by their tens writes each segment's key as thrust does",
          "[reduce_by_key][custom]")
{
  const auto sizes  = compaction_sizes<std::int32_t>();
  const auto values = random_vector<std::int32_t>(sizes.back(), test_seed() + 5);
  for (run_shape shape : all_run_shapes)
  {
    const auto keys = items_of_runs<std::int32_t>(run_ids(sizes.back(), shape, test_seed() + 74),
                                                  tens_key<std::int32_t>{test_seed(), tens_of<std::int32_t>()});
    for (std::size_t n : sizes)
    {
      const std::string what = rbk_label("int32 keys by tens", shape, n);
      check_reduce_by_key<std::int32_t, std::int32_t>(sweep::par, keys.begin(), values.begin(), n, what,
                                                      equal_div_10<std::int32_t>{});
      check_reduce_by_key<std::int32_t, std::int32_t>(sweep::par, keys.begin(), values.begin(), n, what,
                                                      equal_div_10<std::int32_t>{}, op_bit_xor<std::int32_t>{});
    }
  }
}

TEST_CASE("reduce_by_key under an asymmetric, non-transitive key predicate compares adjacent keys as thrust does",
          "[reduce_by_key][custom]")
{
  const auto sizes  = compaction_sizes<std::uint8_t>();
  const auto values = random_vector<std::uint32_t>(sizes.back(), test_seed() + 6);
  for (run_shape shape : all_run_shapes)
  {
    const auto keys = items_of_runs<std::uint8_t>(run_ids(sizes.back(), shape, test_seed() + 75), step_key<std::uint8_t>{test_seed()});
    for (std::size_t n : sizes)
    {
      check_reduce_by_key<std::uint8_t, std::uint32_t>(sweep::par, keys.begin(), values.begin(), n,
                                                       rbk_label("uint8 keys, steps_up", shape, n), steps_up<std::uint8_t>{});
    }
  }
}

TEST_CASE("reduce_by_key of 12-byte keys equal by their first word matches thrust", "[reduce_by_key][custom][struct]")
{
  reduce_under<s12, std::uint32_t>("s12 keys by first word, uint32 values", keyed_item<s12>{test_seed()},
                                   random_element<std::uint32_t>{test_seed() + 7}, same_first_word<s12>{},
                                   op_plus<std::uint32_t>{});
}
