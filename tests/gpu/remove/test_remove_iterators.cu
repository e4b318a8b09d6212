// remove_if with a stencil, and the remove forms through other iterators, on sweep::par against
// thrust::device: stencils of another type than the items (double items with a uint8 stencil, uint8
// items with a float stencil with NaN and signed zeros) and a transform-iterator stencil at 0, 5, 50,
// 95 and 100% removed; remove_copy from counting, transform and constant inputs, into a wider output
// type and into a discard_iterator; remove_if over a zip range in place and remove_copy of a zip
// into a zip; raw pointers at misaligned starts (the vector paths' heads and tails).
#include "remove_test.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

using namespace sweep_test;

namespace
{

template <class T, class S, class Gen>
void remove_with_stencil(const char* name, Gen stencil_gen)
{
  const auto sizes   = compaction_sizes<T>();
  const auto data    = random_vector<T>(sizes.back(), test_seed() + 55);
  const auto stencil = items_of_runs<S>(run_ids(sizes.back(), run_shape::distinct, 0), stencil_gen);
  for (std::size_t n : sizes)
  {
    for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
    {
      check_remove_if<T>(sweep::par, data.begin(), n, stencil.begin(), keep_percent<S>{pct}, remove_label(name, n, pct));
    }
  }
}

struct below_zero
{
  __host__ __device__ bool operator()(float x) const
  {
    return x < 0.0f;
  }
};

struct third
{
  __host__ __device__ bool operator()(std::uint64_t i) const
  {
    return mix64(i) % 3 == 0;
  }
};

struct divide_by_5
{
  __host__ __device__ std::int32_t operator()(std::int32_t i) const
  {
    return i / 5;
  }
};

using pair_t = thrust::tuple<std::int32_t, float>;

struct odd_int_part
{
  __host__ __device__ bool operator()(const pair_t& t) const
  {
    return (thrust::get<0>(t) & 1) != 0;
  }
};

} // namespace

TEST_CASE("remove_if of doubles with a uint8 stencil matches thrust", "[remove][stencil]")
{
  remove_with_stencil<double, std::uint8_t>("double items, uint8 stencil", run_value<std::uint8_t>{test_seed() + 56});
}

TEST_CASE("remove_if of uint8 items with a float stencil (NaN, signed zeros) matches thrust", "[remove][stencil]")
{
  remove_with_stencil<std::uint8_t, float>("uint8 items, float stencil", float_run_value<float>{test_seed() + 57});
  const auto sizes   = compaction_sizes<std::uint8_t>();
  const auto data    = random_vector<std::uint8_t>(sizes.back(), test_seed() + 58);
  const auto stencil = items_of_runs<float>(run_ids(sizes.back(), run_shape::distinct, 0), float_run_value<float>{test_seed() + 59});
  for (std::size_t n : sizes)
  {
    check_remove_if<std::uint8_t>(sweep::par, data.begin(), n, stencil.begin(), below_zero{},
                                  "uint8 items, float stencil x < 0, n=" + std::to_string(n));
  }
}

TEST_CASE("remove_if with a transform-iterator stencil matches thrust", "[remove][stencil][iterators]")
{
  const auto stencil = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), third{});
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data = random_vector<s12>(n, test_seed() + 60);
    check_remove_if<s12>(sweep::par, data.begin(), n, stencil, is_true{}, "s12 items, transform stencil, n=" + std::to_string(n));
  }
}

TEST_CASE("remove_copy of counting, transform and constant inputs, into a wider type and a discard_iterator",
          "[remove][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const thrust::counting_iterator<std::int32_t> count(-static_cast<std::int32_t>(n / 3));
    check_remove_copy<std::int32_t>(sweep::par, count, n, 0, "counting_iterator, n=" + std::to_string(n));
    const auto fifths = thrust::make_transform_iterator(count, divide_by_5{});
    check_remove_copy<std::int32_t>(sweep::par, fifths, n, 7, "transform_iterator, n=" + std::to_string(n));
    check_remove_copy<std::int64_t>(sweep::par, fifths, n, 7, "transform_iterator into int64, n=" + std::to_string(n));
    const thrust::constant_iterator<std::uint16_t> same(9);
    check_remove_copy<std::uint16_t>(sweep::par, same, n, std::uint16_t(9), "constant_iterator, all removed, n=" + std::to_string(n));
    check_remove_copy<std::uint16_t>(sweep::par, same, n, std::uint16_t(8), "constant_iterator, none removed, n=" + std::to_string(n));

    const auto data = generated_vector<std::int32_t>(n, value_share<std::int32_t>{test_seed() + 61, 30, 5});
    const thrust::discard_iterator<> discard;
    const auto np       = static_cast<std::ptrdiff_t>(n);
    const auto expected = thrust::remove_copy(thrust::device, data.begin(), data.begin() + np, discard, 5) - discard;
    const auto actual   = thrust::remove_copy(sweep::par, data.begin(), data.begin() + np, discard, 5) - discard;
    INFO("remove_copy into a discard_iterator, n = " << n << ", seed = " << test_seed());
    CHECK(actual == expected);
  }
}

TEST_CASE("remove_if over a zip range in place and remove_copy of a zip into a zip", "[remove][iterators][zip]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto ints   = random_vector<std::int32_t>(n, test_seed() + 62);
    const auto floats = items_of_runs<float>(run_ids(n, run_shape::distinct, 0), float_run_value<float>{test_seed() + 63});
    const auto np     = static_cast<std::ptrdiff_t>(n);
    const std::string what = "zip (int, float), n=" + std::to_string(n);
    INFO(what << ", seed = " << test_seed());
    {
      auto ei = guarded_copy<std::int32_t>(ints.begin(), n), ai = guarded_copy<std::int32_t>(ints.begin(), n);
      auto ef = guarded_copy<float>(floats.begin(), n), af = guarded_copy<float>(floats.begin(), n);
      const auto e_first = thrust::make_zip_iterator(ei.begin(), ef.begin());
      const auto a_first = thrust::make_zip_iterator(ai.begin(), af.begin());
      const auto e       = thrust::remove_if(thrust::device, e_first, e_first + np, odd_int_part{});
      const auto a       = thrust::remove_if(sweep::par, a_first, a_first + np, odd_int_part{});
      const std::size_t kept = static_cast<std::size_t>(e - e_first);
      REQUIRE(static_cast<std::size_t>(a - a_first) == kept);
      require_bitwise_equal(ei, ai, kept, "remove_if " + what + " ints");
      require_bitwise_equal(ef, af, kept, "remove_if " + what + " floats");
      require_poison_intact(ai, n, "remove_if " + what + " ints (guard)");
      require_poison_intact(af, n, "remove_if " + what + " floats (guard)");
    }
    {
      thrust::device_vector<std::int32_t> ei(n + 4), ai(n + 4);
      thrust::device_vector<float> ef(n + 4), af(n + 4);
      poison(ei);
      poison(ai);
      poison(ef);
      poison(af);
      const auto in    = thrust::make_zip_iterator(ints.begin(), floats.begin());
      const auto e_out = thrust::make_zip_iterator(ei.begin(), ef.begin());
      const auto a_out = thrust::make_zip_iterator(ai.begin(), af.begin());
      // The value: the first item (present at least once when n > 0).
      const pair_t value = n > 0 ? pair_t(in[0]) : pair_t(0, 0.0f);
      const auto e       = thrust::remove_copy(thrust::device, in, in + np, e_out, value);
      const auto a       = thrust::remove_copy(sweep::par, in, in + np, a_out, value);
      const std::size_t kept = static_cast<std::size_t>(e - e_out);
      REQUIRE(static_cast<std::size_t>(a - a_out) == kept);
      require_bitwise_equal(ei, ai, kept, "remove_copy " + what + " ints");
      require_bitwise_equal(ef, af, kept, "remove_copy " + what + " floats");
      require_poison_intact(ai, kept, "remove_copy " + what + " ints");
      require_poison_intact(af, kept, "remove_copy " + what + " floats");
    }
  }
}

namespace
{

//! remove and remove_copy on raw pointers misaligned by `offset` items, into outputs misaligned by
//! `out_offset` items.
template <class T>
void misaligned(const char* name)
{
  const std::size_t tile = copy_if_tile<T>();
  const T value          = static_cast<T>(3);
  const auto data        = generated_vector<T>(3 * tile + 64, value_share<T>{test_seed() + 64, 50, value});
  check_misaligned(
    data, name, "remove_copy", "remove (in place)",
    [value](auto policy, const T* first, const T* last, T* out) { return thrust::remove_copy(policy, first, last, out, value); },
    [value](auto policy, T* first, T* last) { return thrust::remove(policy, first, last, value); });
}

} // namespace

TEST_CASE("remove on raw pointers at misaligned starts matches thrust", "[remove][iterators][alignment]")
{
  misaligned<std::uint8_t>("uint8");
  misaligned<std::int16_t>("int16");
  misaligned<float>("float");
  misaligned<double>("double");
}
