// Scans on sweep::par against thrust::device over every kind of iterator: counting, transform,
// constant, zip (a tuple operator), reverse in and out, discard, permutation out, raw and device
// pointers (misaligned starts: the vector load and store paths' heads and tails), in place, and an
// output of another value type than the input (Thrust's accumulator type decides the result).
#include "scan_test.cuh"

#include <thrust/copy.h>
#include <thrust/equal.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>

#if CCCL_VERSION >= 3004000
#  include <cuda/iterator>
#endif

#include <cstdint>

using namespace sweep_test;

namespace
{

// Thrust's constant_iterator; from CCCL 3.4 on it is deprecated for libcu++'s, which the test then uses.
#if CCCL_VERSION >= 3004000
using constant_int = ::cuda::constant_iterator<int>;
#else
using constant_int = thrust::constant_iterator<int>;
#endif

//! Sizes around the u32 tile of the kernels over fancy iterators, and of the contiguous inputs'
//! kernel (a function: listing the tests must not touch the GPU).
std::vector<std::size_t> iterator_sizes()
{
  const std::size_t tile       = scan_tile<std::uint32_t, false>();
  const std::size_t contiguous = scan_tile<std::uint32_t, true>();
  return {0, 1, 33, tile - 1, tile + 1, contiguous - 1, contiguous + 1, 37 * tile + 11, 1000003};
}

struct mod_1000
{
  __host__ __device__ int operator()(std::uint32_t x) const
  {
    return static_cast<int>(x % 1000u);
  }
};

//! (sum of the ints, maximum of the floats): exact, so Thrust's bits are the reference.
struct sum_and_max
{
  __host__ __device__ thrust::tuple<int, float> operator()(const thrust::tuple<int, float>& a,
                                                           const thrust::tuple<int, float>& b) const
  {
    const float fa = thrust::get<1>(a), fb = thrust::get<1>(b);
    return thrust::make_tuple(thrust::get<0>(a) + thrust::get<0>(b), fa > fb ? fa : fb);
  }
};

} // namespace

TEST_CASE("scan of counting, transform and constant iterators", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const thrust::counting_iterator<std::uint32_t> count(7u);
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, count, count + static_cast<std::ptrdiff_t>(n), o);
    }, scan_label("counting_iterator inclusive", n));

    const auto data   = random_vector<std::uint32_t>(n, test_seed() + 1);
    const auto mapped = thrust::make_transform_iterator(data.begin(), mod_1000{});
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, mapped, mapped + static_cast<std::ptrdiff_t>(n), o, -5);
    }, scan_label("transform_iterator exclusive", n));

    const constant_int three(3);
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, three, three + static_cast<std::ptrdiff_t>(n), o);
    }, scan_label("constant_iterator inclusive", n));
  }
  // The constant's scan is known: 3, 6, 9, ...
  const std::size_t n = iterator_sizes().back();
  thrust::device_vector<int> out(n);
  const constant_int three(3);
  thrust::inclusive_scan(sweep::par, three, three + static_cast<std::ptrdiff_t>(n), out.begin());
  REQUIRE(thrust::equal(thrust::device, out.begin(), out.end(),
                        thrust::make_transform_iterator(thrust::counting_iterator<int>(1), thrust::placeholders::_1 * 3)));
}

TEST_CASE("scan of a zip iterator of (int, float) under a tuple operator, into a zip iterator", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto ints   = random_vector<int>(n, test_seed() + 2);
    const auto floats = random_vector<float>(n, test_seed() + 3);
    thrust::device_vector<int> ei(n + 4), ai(n + 4);
    thrust::device_vector<float> ef(n + 4), af(n + 4);
    poison(ei);
    poison(ai);
    poison(ef);
    poison(af);
    const auto in    = thrust::make_zip_iterator(ints.begin(), floats.begin());
    const auto e_out = thrust::make_zip_iterator(ei.begin(), ef.begin());
    const auto a_out = thrust::make_zip_iterator(ai.begin(), af.begin());
    const auto e_end = thrust::inclusive_scan(thrust::device, in, in + static_cast<std::ptrdiff_t>(n), e_out, sum_and_max{});
    const auto a_end = thrust::inclusive_scan(sweep::par, in, in + static_cast<std::ptrdiff_t>(n), a_out, sum_and_max{});
    REQUIRE(static_cast<std::size_t>(e_end - e_out) == n);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
    require_bitwise_equal(ei, ai, n, scan_label("zip ints", n));
    require_bitwise_equal(ef, af, n, scan_label("zip floats", n));
    require_poison_intact(ai, n, scan_label("zip ints", n));
    require_poison_intact(af, n, scan_label("zip floats", n));
  }
}

TEST_CASE("scan through reverse iterators in and out", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 4);
    const auto rin  = thrust::make_reverse_iterator(data.end());
    // Reverse input, forward output.
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, rin, rin + static_cast<std::ptrdiff_t>(n), o);
    }, scan_label("reverse input inclusive", n));
    // Forward input, reverse output (a suffix scan read backwards): the returned iterator is rout + n.
    thrust::device_vector<std::uint32_t> expected(n + 4), actual(n + 4);
    poison(expected);
    poison(actual);
    auto e_rout = thrust::make_reverse_iterator(expected.begin() + static_cast<std::ptrdiff_t>(n));
    auto a_rout = thrust::make_reverse_iterator(actual.begin() + static_cast<std::ptrdiff_t>(n));
    const auto e_end = thrust::exclusive_scan(thrust::device, rin, rin + static_cast<std::ptrdiff_t>(n), e_rout, 9u);
    const auto a_end = thrust::exclusive_scan(sweep::par, rin, rin + static_cast<std::ptrdiff_t>(n), a_rout, 9u);
    REQUIRE(static_cast<std::size_t>(e_end - e_rout) == n);
    REQUIRE(static_cast<std::size_t>(a_end - a_rout) == n);
    require_bitwise_equal(expected, actual, n, scan_label("reverse in and out exclusive", n));
    require_poison_intact(actual, n, scan_label("reverse in and out exclusive", n));
  }
}

TEST_CASE("scan into a discard_iterator returns its end", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 5);
    thrust::discard_iterator<> out;
    CHECK(static_cast<std::size_t>(thrust::inclusive_scan(sweep::par, data.begin(), data.end(), out) - out) == n);
    CHECK(static_cast<std::size_t>(thrust::exclusive_scan(sweep::par, data.begin(), data.end(), out, 1u) - out) == n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
}

TEST_CASE("scan into a permutation_iterator", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 6);
    // A random permutation: 0..n-1 sorted by random keys.
    auto keys = random_vector<std::uint64_t>(n, test_seed() + 7);
    thrust::device_vector<std::uint32_t> perm(n);
    thrust::sequence(thrust::device, perm.begin(), perm.end());
    thrust::sort_by_key(thrust::device, keys.begin(), keys.end(), perm.begin());
    thrust::device_vector<std::uint32_t> expected(n + 4), actual(n + 4);
    poison(expected);
    poison(actual);
    auto e_out = thrust::make_permutation_iterator(expected.begin(), perm.begin());
    auto a_out = thrust::make_permutation_iterator(actual.begin(), perm.begin());
    const auto e_end = thrust::inclusive_scan(thrust::device, data.begin(), data.end(), e_out, op_maximum<std::uint32_t>());
    const auto a_end = thrust::inclusive_scan(sweep::par, data.begin(), data.end(), a_out, op_maximum<std::uint32_t>());
    REQUIRE(static_cast<std::size_t>(e_end - e_out) == n);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
    require_bitwise_equal(expected, actual, n, scan_label("permutation output", n));
    require_poison_intact(actual, n, scan_label("permutation output", n));
  }
}

TEST_CASE("scan on raw pointers and device_ptr, and raw pointers of misaligned starts", "[scan][iterators][alignment]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data     = random_vector<std::uint32_t>(n, test_seed() + 8);
    const std::uint32_t* raw = thrust::raw_pointer_cast(data.data());
    const thrust::device_ptr<const std::uint32_t> dptr = data.data();
    // The returned pointers, as offsets from the output's start, become iterators of the output.
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      std::uint32_t* out = thrust::raw_pointer_cast(&*o);
      return o + (thrust::inclusive_scan(p, raw, raw + n, out) - out);
    }, scan_label("raw pointers inclusive", n));
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      const thrust::device_ptr<std::uint32_t> out = &*o;
      return o + (thrust::exclusive_scan(p, dptr, dptr + static_cast<std::ptrdiff_t>(n), out, 3u) - out);
    }, scan_label("device_ptr exclusive", n));
  }
}

namespace
{

//! Raw pointers at offsets from a 256-byte aligned allocation, in and out: sizes around a tile, both
//! scan kinds.
template <class T>
void misaligned(const char* name)
{
  const std::size_t tile = scan_tile<T>();
  const auto data        = random_vector<T>(3 * tile + 64, test_seed() + 9 + sizeof(T));
  for (std::size_t in_offset : {1u, 3u})
  {
    for (std::size_t out_offset : {0u, 1u, 3u})
    {
      for (std::size_t n : {std::size_t(1), std::size_t(17), tile - in_offset, 3 * tile - 9})
      {
        const std::string what = scan_label(std::string(name) + " in+" + std::to_string(in_offset) + " out+"
                                              + std::to_string(out_offset), n);
        const T* first = thrust::raw_pointer_cast(data.data()) + in_offset;
        thrust::device_vector<T> expected(n + out_offset + 4), actual(n + out_offset + 4);
        poison(expected);
        poison(actual);
        T* e_out          = thrust::raw_pointer_cast(expected.data()) + out_offset;
        T* a_out          = thrust::raw_pointer_cast(actual.data()) + out_offset;
        const T* e_end    = thrust::inclusive_scan(thrust::device, first, first + n, e_out);
        const T* a_end    = thrust::inclusive_scan(sweep::par, first, first + n, a_out);
        REQUIRE(static_cast<std::size_t>(e_end - e_out) == n);
        REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
        require_bitwise_equal(expected, actual, n + out_offset, what + " inclusive");
        require_poison_intact(actual, n + out_offset, what + " inclusive");
        poison(actual);
        thrust::exclusive_scan(thrust::device, first, first + n, e_out, T(5));
        a_end = thrust::exclusive_scan(sweep::par, first, first + n, a_out, T(5));
        REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
        require_bitwise_equal(expected, actual, n + out_offset, what + " exclusive");
        require_poison_intact(actual, n + out_offset, what + " exclusive");
      }
    }
  }
}

} // namespace

TEST_CASE("scan of misaligned 1 and 2-byte raw pointers (vector paths' heads and tails)", "[scan][iterators][alignment]")
{
  misaligned<std::uint8_t>("u8");
  misaligned<std::uint16_t>("u16");
}

TEST_CASE("scan in place (output == input), inclusive and exclusive, up to many tiles", "[scan][iterators]")
{
  const std::size_t tile = scan_tile<std::uint32_t>();
  for (std::size_t n : {std::size_t(1), std::size_t(1000), tile, tile + 1, 37 * tile + 11, 400 * tile + 3})
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 10);
    for (bool inclusive : {true, false})
    {
      const std::string what = scan_label(inclusive ? "in place inclusive" : "in place exclusive", n);
      thrust::device_vector<std::uint32_t> expected(n), actual = data;
      std::uint32_t* a   = thrust::raw_pointer_cast(actual.data());
      const auto a_end   = inclusive ? thrust::inclusive_scan(sweep::par, actual.begin(), actual.end(), actual.begin())
                                     : thrust::exclusive_scan(sweep::par, actual.begin(), actual.end(), actual.begin(), 11u);
      if (inclusive)
      {
        thrust::inclusive_scan(thrust::device, data.begin(), data.end(), expected.begin());
      }
      else
      {
        thrust::exclusive_scan(thrust::device, data.begin(), data.end(), expected.begin(), 11u);
      }
      REQUIRE(a_end == actual.end());
      require_bitwise_equal(expected, actual, n, what);
      // Raw pointers, in place, the other kind.
      thrust::copy(thrust::device, data.begin(), data.end(), actual.begin());
      const std::uint32_t* r_end = inclusive ? thrust::exclusive_scan(sweep::par, a, a + n, a, 11u)
                                             : thrust::inclusive_scan(sweep::par, a, a + n, a);
      REQUIRE(r_end == a + n);
      if (inclusive)
      {
        thrust::exclusive_scan(thrust::device, data.begin(), data.end(), expected.begin(), 11u);
      }
      else
      {
        thrust::inclusive_scan(thrust::device, data.begin(), data.end(), expected.begin());
      }
      require_bitwise_equal(expected, actual, n, what + " (raw pointers, other kind)");
    }
  }
}

TEST_CASE("scan into another value type: Thrust's accumulator type decides the result", "[scan][iterators][types]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto ints  = random_vector<int>(n, test_seed() + 11);
    const auto bytes = random_vector<std::uint8_t>(n, test_seed() + 12);
    // int input into float and double: Thrust accumulates in int (the input's value type), so the sums
    // are exact integers, converted at the store.
    check_scan_against_thrust<float>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, ints.begin(), ints.end(), o);
    }, scan_label("int into float inclusive", n));
    check_scan_against_thrust<double>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, ints.begin(), ints.end(), o);
    }, scan_label("int into double exclusive", n));
    // uint8 input into int: without an initial value Thrust accumulates in uint8 (wrapping at 256);
    // with an int initial value, in int.
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, bytes.begin(), bytes.end(), o);
    }, scan_label("u8 into int inclusive", n));
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, bytes.begin(), bytes.end(), o, 0);
    }, scan_label("u8 into int exclusive, int init", n));
  }
}
