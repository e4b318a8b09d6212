// reduce_by_key under custom equality and operators, and of floating-point values.
#include "reduce_by_key_test.cuh"

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// reduce_by_key under user operators and key equalities on sweep::par against thrust::device,
// bitwise: values under associative operators that do not commute (affine maps composed in order, 2x2
// matrix products: a segment folded out of order gives other bits), 12- and 24-byte struct values
// (the 24-byte operator projects its two ends), keys equal by their tens (a segment's keys differ:
// Thrust's CUDA backend writes each segment's last key), a key predicate neither symmetric nor
// transitive (Thrust compares adjacent keys as eq(previous, current)), 12-byte keys equal by their
// first word; every run shape at the edge sizes of the copy_if tile.

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

// --------------------------------------------------------------------------------------------------
// reduce_by_key with floating-point keys or values on sweep policies.
// - Float and double keys with NaN: stock Thrust is no reference there (its last tile pads with the
//   tile's first key, and padded NaN keys each start a segment: wrong counts, writes past the end), so
//   the expected result is the sequential definition computed on the host: a new segment wherever
//   !(previous == key) (each NaN its own segment), unsigned integer values folded left to right, each
//   segment's last key (Thrust's CUDA backend's choice); keys and values bitwise.
// - Keys without NaN but with -0.0 and +0.0 mixed in one segment, infinities: against thrust::device.
// - Float and double values: sweep promises the same bits on every call (a fixed association order),
//   and each segment within (length + 64) * eps * sum |x| of its exact sum (long double), NaN and the
//   infinities where the exact sum has them; keys and counts against thrust::device. The same sums
//   with the operator passed explicitly (another kernel): the same bits but for a NaN's sign and
//   payload.

namespace
{

//! Requires the first n values of two float ranges to have the same bits, or both to be NaN.
template <class V>
void require_same_bits_or_both_nan(const thrust::device_vector<V>& expected,
                                   const thrust::device_vector<V>& actual,
                                   std::size_t n,
                                   const std::string& what)
{
  INFO(what << ", n = " << n << ", seed = " << test_seed());
  const thrust::host_vector<V> e(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(n));
  const thrust::host_vector<V> a(actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n));
  for (std::size_t i = 0; i < n; ++i)
  {
    if (!bitwise_equal(e[i], a[i]) && !(std::isnan(e[i]) && std::isnan(a[i])))
    {
      FAIL("first mismatch at index " << i << ": expected " << describe(e[i]) << ", got " << describe(a[i]));
    }
  }
  SUCCEED();
}

template <class T>
struct fp_equal
{
  __host__ __device__ bool operator()(T a, T b) const
  {
    return a == b;
  }
};

template <class K>
void nan_keys(const char* name, const std::vector<std::size_t>& sizes)
{
  const auto ints = random_vector<std::uint32_t>(sizes.back(), test_seed() + 80); // wrapping sums
  const auto maps = generated_vector<affine>(sizes.back(), random_affine{test_seed() + 81});
  for (run_shape shape : all_run_shapes)
  {
    const auto keys = items_of_runs<K>(run_ids(sizes.back(), shape, test_seed() + 82), float_run_value<K>{test_seed() + 83});
    for (std::size_t n : sizes)
    {
      const std::string what = rbk_label(name, shape, n);
      check_against_reference<false>(sweep::par, keys, ints, n, fp_equal<K>{}, op_plus<std::uint32_t>{},
                              what + ", uint32 values, default form");
      check_against_reference<true>(sweep::par, keys, maps, n, fp_equal<K>{}, compose{},
                              what + ", affine values, equality and operator");
    }
  }
}

//! Values: random finite floats over many magnitudes, both signs; with specials, about one in 500 is
//! +inf, -inf or NaN.
template <class V>
struct float_value
{
  std::uint64_t seed;
  bool specials;
  __host__ __device__ V operator()(std::uint64_t i) const
  {
    const std::uint64_t h = mix64(i ^ mix64(seed));
    if (specials && h % 500 == 0)
    {
      const int which = static_cast<int>((h >> 20) % 3);
      return which == 0 ? from_raw<V>(float_bits<V>::inf)
           : which == 1 ? from_raw<V>(float_bits<V>::sign | float_bits<V>::inf)
                        : from_raw<V>(float_bits<V>::quiet_nan);
    }
    return from_bits<V>{}(h);
  }
};

//! Float values summed by key: keys and counts against thrust::device; sweep's values the same bits on
//! a second call (another policy and stream, while another stream keeps the GPU busy) and within the
//! bound of the exact segment sums.
template <class V>
void float_values(const char* name, const std::vector<std::size_t>& sizes, bool specials)
{
  const auto values = generated_vector<V>(sizes.back(), float_value<V>{test_seed() + 84, specials});
  stream_guard s;
  for (run_shape shape : all_run_shapes)
  {
    const auto keys = items_of_runs<std::int32_t>(run_ids(sizes.back(), shape, test_seed() + 85),
                                                  run_value<std::int32_t>{test_seed() + 86});
    for (std::size_t n : sizes)
    {
      const std::string what = rbk_label(std::string(name) + (specials ? " with inf and NaN" : ""), shape, n);
      INFO(what << ", seed = " << test_seed());
      const auto np = static_cast<std::ptrdiff_t>(n);
      thrust::device_vector<std::int32_t> ek(n + 4), ak(n + 4), ak2(n + 4), ak3(n + 4);
      thrust::device_vector<V> ev(n + 4), av(n + 4), av2(n + 4), av3(n + 4);
      poison(ak);
      poison(av);
      poison(ak2);
      poison(av2);
      poison(ak3);
      poison(av3);
      const auto e = thrust::reduce_by_key(thrust::device, keys.begin(), keys.begin() + np, values.begin(), ek.begin(), ev.begin());
      const auto a = thrust::reduce_by_key(sweep::par, keys.begin(), keys.begin() + np, values.begin(), ak.begin(), av.begin());
      const std::size_t segments = static_cast<std::size_t>(e.first - ek.begin());
      REQUIRE(static_cast<std::size_t>(a.first - ak.begin()) == segments);
      REQUIRE(static_cast<std::size_t>(a.second - av.begin()) == segments);
      require_bitwise_equal(ek, ak, segments, "keys " + what);
      require_poison_intact(ak, segments, "keys " + what);
      require_poison_intact(av, segments, "values " + what);
      {
        // Again on another policy and stream, while the GPU is busy: the same bits, NaNs included.
        // Then with the explicit equality and operator: the same association, so the same bits,
        // except that a NaN's sign and payload may differ. Where two NaNs meet (an input NaN and
        // one made by inf + -inf), the result is one of them by operand position, and the compiler
        // may order the operands of a commutative add differently in another operator's kernel.
        stream_guard busy;
        thrust::device_vector<float> load(std::size_t(1) << 22);
        for (int i = 0; i < 4; ++i)
        {
          thrust::inclusive_scan(sweep::par_nosync.on(busy.stream), load.begin(), load.end(), load.begin());
        }
        const auto a2 = thrust::reduce_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.begin() + np, values.begin(),
                                              ak2.begin(), av2.begin());
        const auto a3 = thrust::reduce_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.begin() + np, values.begin(),
                                              ak3.begin(), av3.begin(), ::cuda::std::equal_to<std::int32_t>{}, op_plus<V>{});
        REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(busy.stream) == cudaSuccess);
        REQUIRE(static_cast<std::size_t>(a2.first - ak2.begin()) == segments);
        REQUIRE(static_cast<std::size_t>(a2.second - av2.begin()) == segments);
        REQUIRE(static_cast<std::size_t>(a3.first - ak3.begin()) == segments);
        REQUIRE(static_cast<std::size_t>(a3.second - av3.begin()) == segments);
      }
      require_bitwise_equal(av, av2, segments, "values, repeated " + what);
      require_same_bits_or_both_nan(av, av3, segments, "values, explicit operator " + what);
      require_bitwise_equal(ak, ak3, segments, "keys, explicit operator " + what);
      const thrust::host_vector<std::int32_t> h_keys(keys.begin(), keys.begin() + np);
      const thrust::host_vector<V> h_values(values.begin(), values.begin() + np);
      const thrust::host_vector<V> h_sums(av.begin(), av.begin() + static_cast<std::ptrdiff_t>(segments));
      require_segment_sums_within_bound(h_keys, h_values, n, h_sums, fp_equal<std::int32_t>{}, "values " + what);
    }
  }
}

std::vector<std::size_t> float_value_sizes()
{
  const std::size_t tile = copy_if_tile<float>();
  return {0, 1, 31, 33, 1000, tile - 1, tile + 1, 7 * tile + 5, (std::size_t(1) << 20) + 1};
}

} // namespace

TEST_CASE("reduce_by_key of float keys with NaN gives the sequential definition's segments", "[reduce_by_key][float][nan]")
{
  nan_keys<float>("float keys", compaction_sizes<float>());
}

TEST_CASE("reduce_by_key of double keys with NaN gives the sequential definition's segments", "[reduce_by_key][float][nan]")
{
  nan_keys<double>("double keys", compaction_sizes<double>());
}

TEST_CASE("reduce_by_key of a literal float key sequence with NaN and signed zeros", "[reduce_by_key][float][nan][small]")
{
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const thrust::device_vector<float> keys = thrust::host_vector<float>{-0.0f, 0.0f, nan, nan, 1.0f, 1.0f, 0.0f, -0.0f, nan};
  const thrust::device_vector<std::int32_t> values = thrust::host_vector<std::int32_t>{1, 2, 4, 8, 16, 32, 64, 128, 256};
  // Segments: {-0, +0} {NaN} {NaN} {1, 1} {+0, -0} {NaN}; each written with its last key.
  const thrust::host_vector<float> expected_keys          = {0.0f, nan, nan, 1.0f, -0.0f, nan};
  const thrust::host_vector<std::int32_t> expected_values = {3, 4, 8, 48, 192, 256};
  thrust::device_vector<float> out_keys(13);
  thrust::device_vector<std::int32_t> out_values(13);
  poison(out_keys);
  poison(out_values);
  const auto ends = thrust::reduce_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), out_keys.begin(), out_values.begin());
  REQUIRE(static_cast<std::size_t>(ends.first - out_keys.begin()) == expected_keys.size());
  REQUIRE(static_cast<std::size_t>(ends.second - out_values.begin()) == expected_values.size());
  const thrust::host_vector<float> got_keys(out_keys.begin(), ends.first);
  const thrust::host_vector<std::int32_t> got_values(out_values.begin(), ends.second);
  require_bitwise_equal(expected_keys, got_keys, expected_keys.size(), "literal keys");
  require_bitwise_equal(expected_values, got_values, expected_values.size(), "literal values");
  require_poison_intact(out_keys, expected_keys.size(), "literal keys");
  require_poison_intact(out_values, expected_values.size(), "literal values");
}

TEST_CASE("reduce_by_key of float keys with mixed signed zeros and infinities (no NaN) matches thrust",
          "[reduce_by_key][float]")
{
  const auto sizes  = compaction_sizes<float>();
  const auto values = random_vector<std::uint32_t>(sizes.back(), test_seed() + 87);
  for (run_shape shape : all_run_shapes)
  {
    const auto keys = items_of_runs<float>(run_ids(sizes.back(), shape, test_seed() + 88), float_run_value<float>{test_seed() + 89, false});
    for (std::size_t n : sizes)
    {
      check_reduce_by_key_forms<float, std::uint32_t>(keys.begin(), values.begin(), n, fp_equal<float>{},
                                                      op_bit_xor<std::uint32_t>{}, rbk_label("float keys, no NaN", shape, n));
    }
  }
}

TEST_CASE("reduce_by_key of float values is reproducible and within the bound of the exact segment sums",
          "[reduce_by_key][float][determinism]")
{
  float_values<float>("float values", float_value_sizes(), false);
  float_values<float>("float values", {1000, 100003}, true);
}

TEST_CASE("reduce_by_key of double values is reproducible and within the bound of the exact segment sums",
          "[reduce_by_key][float][determinism]")
{
  float_values<double>("double values", float_value_sizes(), false);
  float_values<double>("double values", {1000, 100003}, true);
}

TEST_CASE("reduce_by_key of float values over more than 300 tiles is reproducible and within the bound",
          "[reduce_by_key][float][many_tiles][slow]")
{
  float_values<float>("float values", {many_tiles<float>()}, false);
}
