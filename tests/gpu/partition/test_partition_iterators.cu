// The partition forms on sweep::par against thrust::device through every kind of iterator: counting and
// transform inputs, zip inputs (into zip outputs, and into one output of tuples), zip ranges partitioned
// in place, one side of a copy discarded, the two sides of other value types than the input, raw
// pointers at misaligned starts (the vector paths' heads and tails).
#include "partition_test.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

using namespace sweep_test;

namespace
{

struct square_minus_one
{
  __host__ __device__ float operator()(float x) const
  {
    return x * x - 1.0f;
  }
};

struct positive
{
  __host__ __device__ bool operator()(float x) const
  {
    return x > 0.0f;
  }
};

using pair_t = thrust::tuple<std::int32_t, float>;

} // namespace

TEST_CASE("partition of counting and transform iterators matches thrust", "[partition][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    for (unsigned pct : {0u, 50u, 100u})
    {
      const thrust::counting_iterator<std::int32_t> count(-static_cast<std::int32_t>(n / 3));
      const std::string what = partition_label("counting_iterator", n, pct);
      check_partition_copy<true, std::int32_t>(sweep::par, count, n, no_stencil{}, keep_percent<std::int32_t>{pct}, what);
      check_partition_copy<false, std::int32_t>(sweep::par, count, n, no_stencil{}, keep_percent<std::int32_t>{pct}, what);
    }
    const auto data    = random_vector<float>(n, test_seed() + 32);
    const auto squares = thrust::make_transform_iterator(data.begin(), square_minus_one{});
    const std::string what = "transform_iterator x * x - 1 > 0, n=" + std::to_string(n);
    check_partition_copy<true, float>(sweep::par, squares, n, no_stencil{}, positive{}, what);
    check_partition_copy<false, float>(sweep::par, squares, n, no_stencil{}, positive{}, what);
  }
}

TEST_CASE("partition copies of a zip of (int, float) match thrust", "[partition][iterators][zip]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto ints   = random_vector<std::int32_t>(n, test_seed() + 33);
    const auto floats = items_of_runs<float>(run_ids(n, run_shape::distinct, 0), float_run_value<float>{test_seed() + 34});
    const auto in     = thrust::make_zip_iterator(ints.begin(), floats.begin());
    const auto np     = static_cast<std::ptrdiff_t>(n);
    const std::string what = partition_label("zip (int, float)", n, 50);
    INFO(what << ", seed = " << test_seed());
    {
      // stable_partition_copy into two zip outputs: bitwise.
      thrust::device_vector<std::int32_t> eti(n + 4), efi(n + 4), ati(n + 4), afi(n + 4);
      thrust::device_vector<float> etf(n + 4), eff(n + 4), atf(n + 4), aff(n + 4);
      for (auto* v : {&eti, &efi, &ati, &afi})
      {
        poison(*v);
      }
      for (auto* v : {&etf, &eff, &atf, &aff})
      {
        poison(*v);
      }
      const auto et = thrust::make_zip_iterator(eti.begin(), etf.begin());
      const auto ef = thrust::make_zip_iterator(efi.begin(), eff.begin());
      const auto at = thrust::make_zip_iterator(ati.begin(), atf.begin());
      const auto af = thrust::make_zip_iterator(afi.begin(), aff.begin());
      const auto e  = thrust::stable_partition_copy(thrust::device, in, in + np, et, ef, int_part_selected{50});
      const auto a  = thrust::stable_partition_copy(sweep::par, in, in + np, at, af, int_part_selected{50});
      const std::size_t c = static_cast<std::size_t>(e.first - et);
      REQUIRE(static_cast<std::size_t>(a.first - at) == c);
      REQUIRE(static_cast<std::size_t>(a.second - af) == n - c);
      require_bitwise_equal(eti, ati, c, what + " selected ints");
      require_bitwise_equal(etf, atf, c, what + " selected floats");
      require_bitwise_equal(efi, afi, n - c, what + " rejected ints");
      require_bitwise_equal(eff, aff, n - c, what + " rejected floats");
      require_poison_intact(ati, c, what + " selected ints");
      require_poison_intact(atf, c, what + " selected floats");
      require_poison_intact(afi, n - c, what + " rejected ints");
      require_poison_intact(aff, n - c, what + " rejected floats");
    }
    // partition_copy of the zip into outputs of tuples: the same items on each side.
    check_partition_copy<false, pair_t>(sweep::par, in, n, no_stencil{}, int_part_selected{50}, what);
    check_partition_copy<true, pair_t>(sweep::par, in, n, no_stencil{}, int_part_selected{50}, what);
  }
}

TEST_CASE("stable_partition and partition of a zip range in place match thrust", "[partition][iterators][zip]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    for (unsigned pct : {5u, 50u, 95u})
    {
      const auto ints   = random_vector<std::int32_t>(n, test_seed() + 35);
      const auto floats = random_vector<float>(n, test_seed() + 36);
      const auto np     = static_cast<std::ptrdiff_t>(n);
      const std::string what = partition_label("zip (int, float) in place", n, pct);
      INFO(what << ", seed = " << test_seed());
      for (bool stable : {true, false})
      {
        auto ei = guarded_copy<std::int32_t>(ints.begin(), n), ai = guarded_copy<std::int32_t>(ints.begin(), n);
        auto ef = guarded_copy<float>(floats.begin(), n), af = guarded_copy<float>(floats.begin(), n);
        const auto e_first = thrust::make_zip_iterator(ei.begin(), ef.begin());
        const auto a_first = thrust::make_zip_iterator(ai.begin(), af.begin());
        const auto e = stable ? thrust::stable_partition(thrust::device, e_first, e_first + np, int_part_selected{pct})
                              : thrust::partition(thrust::device, e_first, e_first + np, int_part_selected{pct});
        const auto a = stable ? thrust::stable_partition(sweep::par, a_first, a_first + np, int_part_selected{pct})
                              : thrust::partition(sweep::par, a_first, a_first + np, int_part_selected{pct});
        const std::size_t c = static_cast<std::size_t>(e - e_first);
        REQUIRE(static_cast<std::size_t>(a - a_first) == c);
        if (stable)
        {
          require_bitwise_equal(ei, ai, n, what + " stable ints");
          require_bitwise_equal(ef, af, n, what + " stable floats");
        }
        else
        {
          // Pairs as one 64-bit word each: the same pairs on each side.
          thrust::device_vector<pair_t> e_pairs(e_first, e_first + np), a_pairs(a_first, a_first + np);
          require_same_items<pair_t>(e_pairs.begin(), a_pairs.begin(), c, what + " selected");
          require_same_items<pair_t>(e_pairs.begin() + static_cast<std::ptrdiff_t>(c),
                                     a_pairs.begin() + static_cast<std::ptrdiff_t>(c), n - c, what + " rejected");
          require_sides(a_pairs.begin(), c, a_pairs.begin() + static_cast<std::ptrdiff_t>(c), n - c,
                        int_part_selected{pct}, what);
        }
        require_poison_intact(ai, n, what + " ints (guard)");
        require_poison_intact(af, n, what + " floats (guard)");
      }
    }
  }
}

TEST_CASE("partition copies with one side discarded return both ends", "[partition][iterators][discard]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 37);
    const auto np   = static_cast<std::ptrdiff_t>(n);
    const thrust::discard_iterator<> discard;
    const auto pred = keep_percent<std::uint32_t>{30};
    const std::string what = partition_label("uint32, one side discarded", n, 30);
    INFO(what << ", seed = " << test_seed());
    thrust::device_vector<std::uint32_t> e(n + 4), a(n + 4);
    for (bool stable : {true, false})
    {
      // The rejected side discarded.
      poison(e);
      poison(a);
      const auto es = stable ? thrust::stable_partition_copy(thrust::device, data.begin(), data.begin() + np, e.begin(), discard, pred)
                             : thrust::partition_copy(thrust::device, data.begin(), data.begin() + np, e.begin(), discard, pred);
      const auto as = stable ? thrust::stable_partition_copy(sweep::par, data.begin(), data.begin() + np, a.begin(), discard, pred)
                             : thrust::partition_copy(sweep::par, data.begin(), data.begin() + np, a.begin(), discard, pred);
      const std::size_t c = static_cast<std::size_t>(es.first - e.begin());
      REQUIRE(static_cast<std::size_t>(as.first - a.begin()) == c);
      REQUIRE(static_cast<std::size_t>(as.second - discard) == n - c);
      stable ? require_bitwise_equal(e, a, c, what + " selected") : require_same_items<std::uint32_t>(e.begin(), a.begin(), c, what + " selected");
      require_poison_intact(a, c, what + " selected");
      // The selected side discarded.
      poison(e);
      poison(a);
      const auto er = stable ? thrust::stable_partition_copy(thrust::device, data.begin(), data.begin() + np, discard, e.begin(), pred)
                             : thrust::partition_copy(thrust::device, data.begin(), data.begin() + np, discard, e.begin(), pred);
      const auto ar = stable ? thrust::stable_partition_copy(sweep::par, data.begin(), data.begin() + np, discard, a.begin(), pred)
                             : thrust::partition_copy(sweep::par, data.begin(), data.begin() + np, discard, a.begin(), pred);
      REQUIRE(static_cast<std::size_t>(er.second - e.begin()) == n - c);
      REQUIRE(static_cast<std::size_t>(ar.second - a.begin()) == n - c);
      REQUIRE(static_cast<std::size_t>(ar.first - discard) == c);
      stable ? require_bitwise_equal(e, a, n - c, what + " rejected") : require_same_items<std::uint32_t>(e.begin(), a.begin(), n - c, what + " rejected");
      require_poison_intact(a, n - c, what + " rejected");
    }
  }
}

TEST_CASE("stable_partition_copy into sides of other value types than the input", "[partition][iterators][types]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data = random_vector<std::int16_t>(n, test_seed() + 38);
    const auto np   = static_cast<std::ptrdiff_t>(n);
    const auto pred = keep_percent<std::int16_t>{50};
    thrust::device_vector<std::int32_t> et(n + 4), at(n + 4);
    thrust::device_vector<std::int64_t> ef(n + 4), af(n + 4);
    poison(et);
    poison(at);
    poison(ef);
    poison(af);
    const auto e = thrust::stable_partition_copy(thrust::device, data.begin(), data.begin() + np, et.begin(), ef.begin(), pred);
    const auto a = thrust::stable_partition_copy(sweep::par, data.begin(), data.begin() + np, at.begin(), af.begin(), pred);
    const std::size_t c    = static_cast<std::size_t>(e.first - et.begin());
    const std::string what = partition_label("int16 into int32 and int64", n, 50);
    INFO(what << ", seed = " << test_seed());
    REQUIRE(static_cast<std::size_t>(a.first - at.begin()) == c);
    REQUIRE(static_cast<std::size_t>(a.second - af.begin()) == n - c);
    require_bitwise_equal(et, at, c, what + " selected");
    require_bitwise_equal(ef, af, n - c, what + " rejected");
    require_poison_intact(at, c, what + " selected");
    require_poison_intact(af, n - c, what + " rejected");
  }
}

namespace
{

//! stable_partition_copy and stable_partition on raw pointers misaligned by `offset` items.
template <class T>
void misaligned(const char* name)
{
  const std::size_t tile = copy_if_tile<T>();
  const auto data        = random_vector<T>(3 * tile + 64, test_seed() + 39);
  for (std::size_t offset : {1u, 3u, 7u, 15u})
  {
    for (std::size_t n : {std::size_t(1), std::size_t(17), tile - offset, 3 * tile - 9})
    {
      const std::string what = partition_label(std::string(name) + " in+" + std::to_string(offset), n, 50);
      const T* first         = thrust::raw_pointer_cast(data.data()) + offset;
      check_partition_copy<true, T>(sweep::par, first, n, no_stencil{}, keep_percent<T>{50}, what);
      // In place on a raw pointer at the same misalignment: the items around the range stay.
      thrust::device_vector<T> e_copy(data), a_copy(data);
      T* e_first = thrust::raw_pointer_cast(e_copy.data()) + offset;
      T* a_first = thrust::raw_pointer_cast(a_copy.data()) + offset;
      T* e_mid   = thrust::stable_partition(thrust::device, e_first, e_first + n, keep_percent<T>{50});
      T* a_mid   = thrust::stable_partition(sweep::par, a_first, a_first + n, keep_percent<T>{50});
      INFO(what << ", seed = " << test_seed());
      REQUIRE(a_mid - a_first == e_mid - e_first);
      require_bitwise_equal(e_copy, a_copy, data.size(), "stable_partition (in place) " + what);
    }
  }
}

} // namespace

TEST_CASE("partition on raw pointers at misaligned starts matches thrust", "[partition][iterators][alignment]")
{
  misaligned<std::uint8_t>("uint8");
  misaligned<std::int16_t>("int16");
  misaligned<float>("float");
  misaligned<double>("double");
}
