// The remove forms of integers, floating-point values and structs, through every kind of iterator,
// under every sweep policy form, and past 2^31 items.
#include "remove_test.cuh"
#include "common/policy_forms.cuh"

#include <limits>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <thrust/count.h>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// remove, remove_if (without a stencil) in place and remove_copy of integers of 1, 2, 4 and 8 bytes,
// signed and unsigned, on sweep::par against thrust::device: 0, 5, 50, 95 and 100% removed (in place:
// almost everything and almost nothing kept) at the edge sizes of the copy_if tile, a value of another
// type than the items, and more than 300 tiles ([slow]).

namespace
{

template <class T>
void remove_of(const char* name, const std::vector<std::size_t>& sizes)
{
  const T value = static_cast<T>(77);
  for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
  {
    const auto data = generated_vector<T>(sizes.back(), value_share<T>{test_seed() + 50, pct, value});
    for (std::size_t n : sizes)
    {
      const std::string what = remove_label(name, n, pct);
      check_remove<T>(sweep::par, data.begin(), n, value, what);
      check_remove_copy<T>(sweep::par, data.begin(), n, value, what);
      check_remove_if<T>(sweep::par, data.begin(), n, no_stencil{}, keep_percent<T>{pct}, what);
    }
  }
}

} // namespace

TEST_CASE("remove of 1-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::uint8_t>("uint8", compaction_sizes<std::uint8_t>());
  remove_of<std::int8_t>("int8", compaction_sizes<std::int8_t>());
}

TEST_CASE("remove of 2-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::int16_t>("int16", compaction_sizes<std::int16_t>());
  remove_of<std::uint16_t>("uint16", compaction_sizes<std::uint16_t>());
}

TEST_CASE("remove of 4-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::uint32_t>("uint32", compaction_sizes<std::uint32_t>());
  remove_of<std::int32_t>("int32", compaction_sizes<std::int32_t>());
}

TEST_CASE("remove of 8-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::int64_t>("int64", compaction_sizes<std::int64_t>());
  remove_of<std::uint64_t>("uint64", compaction_sizes<std::uint64_t>());
}

TEST_CASE("remove of uint8 items with an int value (compared as int: 300 removes nothing)", "[remove][int][small]")
{
  const std::size_t n = 100003;
  const auto data     = generated_vector<std::uint8_t>(n, value_share<std::uint8_t>{test_seed() + 51, 30, 44});
  for (int value : {44, 300, -212})
  {
    const std::string what = "uint8 items, int value " + std::to_string(value) + ", n=" + std::to_string(n);
    check_remove<std::uint8_t>(sweep::par, data.begin(), n, value, what);
    check_remove_copy<std::uint8_t>(sweep::par, data.begin(), n, value, what);
  }
}

TEST_CASE("remove of small inputs (0 to 33 items) matches thrust", "[remove][int][small]")
{
  remove_of<std::uint8_t>("uint8", {0, 1, 2, 31, 32, 33});
  remove_of<std::uint32_t>("uint32", {0, 1, 2, 31, 32, 33});
}

TEST_CASE("remove over more than 300 tiles matches thrust", "[remove][int][many_tiles][slow]")
{
  remove_of<std::uint8_t>("uint8", {many_tiles<std::uint8_t>()});
  remove_of<std::uint32_t>("uint32", {many_tiles<std::uint32_t>()});
}

// --------------------------------------------------------------------------------------------------
// remove, remove_copy and remove_if of float and double with NaN, signed zeros and infinities on
// sweep::par against thrust::device, bitwise: removing 0.0 removes both zeros (they compare equal),
// -0.0 the same, NaN nothing (it equals nothing), an infinity and an ordinary value; and remove_if of
// 12- and 24-byte structs by a hash of their bytes, at 0, 5, 50, 95 and 100% removed; at the edge
// sizes of the copy_if tile.

namespace
{

template <class T>
void remove_specials(const char* name)
{
  const auto sizes = compaction_sizes<T>();
  const auto data  = items_of_runs<T>(run_ids(sizes.back(), run_shape::short_runs, test_seed() + 52),
                                     float_run_value<T>{test_seed() + 53});
  const T values[] = {T(0), -T(0), std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(), T(1.5)};
  const char* value_names[] = {"0.0", "-0.0", "NaN", "inf", "1.5"};
  for (std::size_t n : sizes)
  {
    for (int v = 0; v < 5; ++v)
    {
      const std::string what = std::string(name) + " value " + value_names[v] + ", n=" + std::to_string(n);
      check_remove<T>(sweep::par, data.begin(), n, values[v], what);
      check_remove_copy<T>(sweep::par, data.begin(), n, values[v], what);
    }
    for (unsigned pct : {0u, 50u, 100u})
    {
      check_remove_if<T>(sweep::par, data.begin(), n, no_stencil{}, keep_percent<T>{pct}, remove_label(name, n, pct));
    }
  }
}

template <class T>
void remove_structs(const char* name)
{
  const auto sizes = compaction_sizes<T>();
  const auto data  = random_vector<T>(sizes.back(), test_seed() + 54);
  for (std::size_t n : sizes)
  {
    for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
    {
      check_remove_if<T>(sweep::par, data.begin(), n, no_stencil{}, keep_percent<T>{pct}, remove_label(name, n, pct));
    }
  }
}

} // namespace

TEST_CASE("remove of floats: both zeros for 0.0 and -0.0, nothing for NaN, as thrust does", "[remove][float]")
{
  remove_specials<float>("float");
}

TEST_CASE("remove of doubles: both zeros for 0.0 and -0.0, nothing for NaN, as thrust does", "[remove][float]")
{
  remove_specials<double>("double");
}

TEST_CASE("remove_if of 12- and 24-byte structs matches thrust at every removed share", "[remove][struct]")
{
  remove_structs<s12>("s12");
  remove_structs<s24>("s24");
}

TEST_CASE("remove of a literal float sequence gives the sequential answer", "[remove][float][small]")
{
  const float nan  = std::numeric_limits<float>::quiet_NaN();
  const thrust::host_vector<float> input    = {-0.0f, 1.0f, 0.0f, nan, 2.0f, -0.0f, nan};
  const thrust::host_vector<float> expected = {1.0f, nan, 2.0f, nan};
  thrust::device_vector<float> data(input.size() + 4);
  thrust::copy(input.begin(), input.end(), data.begin());
  poison_from(data, input.size());
  const auto end = thrust::remove(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(input.size()), 0.0f);
  REQUIRE(static_cast<std::size_t>(end - data.begin()) == expected.size());
  const thrust::host_vector<float> got(data.begin(), end);
  require_bitwise_equal(expected, got, expected.size(), "remove 0.0f of a literal sequence");
  require_poison_intact(data, input.size(), "remove 0.0f of a literal sequence (guard)");
  thrust::copy(input.begin(), input.end(), data.begin());
  CHECK(thrust::remove(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(input.size()), nan)
        == data.begin() + static_cast<std::ptrdiff_t>(input.size()));
}

// --------------------------------------------------------------------------------------------------
// remove_if with a stencil, and the remove forms through other iterators, on sweep::par against
// thrust::device: stencils of another type than the items (double items with a uint8 stencil, uint8
// items with a float stencil with NaN and signed zeros) and a transform-iterator stencil at 0, 5, 50,
// 95 and 100% removed; remove_copy from counting, transform and constant inputs, into a wider output
// type and into a discard_iterator; remove_if over a zip range in place and remove_copy of a zip
// into a zip; raw pointers at misaligned starts (the vector paths' heads and tails).

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

// --------------------------------------------------------------------------------------------------
// remove, remove_if (both forms) and remove_copy under every sweep policy form (par, par_nosync,
// .on(stream), the allocator forms) against thrust::device; the call runs after earlier work on its
// stream; temporary storage comes from the policy's allocator and is all given back; n = 0 returns at
// once; and inside a CUDA graph capture (these algorithms return a count to the host) a call is
// refused before it enqueues anything, leaving the capture valid.

namespace
{

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : policy_sizes_of_copy_if())
  {
    const auto data    = generated_vector<std::uint32_t>(n, value_share<std::uint32_t>{test_seed() + n, 40, 12u});
    const auto stencil = random_vector<std::uint8_t>(n, test_seed() + n + 1);
    const std::string what = remove_label(name, n, 40);
    check_remove<std::uint32_t>(policy, data.begin(), n, 12u, what);
    check_remove_if<std::uint32_t>(policy, data.begin(), n, no_stencil{}, keep_percent<std::uint32_t>{40}, what);
    check_remove_if<std::uint32_t>(policy, data.begin(), n, stencil.begin(), keep_percent<std::uint8_t>{40}, what);
    check_remove_copy<std::uint32_t>(policy, data.begin(), n, 12u, what);
  }
}

} // namespace

TEST_CASE("remove forms under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[remove][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("remove forms take their temporary storage from the policy's allocator and give it all back",
          "[remove][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("remove_if and remove_copy on a stream wait for the work before them on that stream", "[remove][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = generated_vector<std::uint32_t>(n, value_share<std::uint32_t>{test_seed() + 65, 50, 5u});
  thrust::device_vector<std::uint32_t> expected(n), data(n), out(n + 4);
  const std::size_t kept =
    static_cast<std::size_t>(thrust::remove_copy(thrust::device, fresh.begin(), fresh.end(), expected.begin(), 5u) - expected.begin());
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    // Before the stream's copy the data is all 5: removing 5 would leave nothing.
    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    poison(out);
    const auto end = nosync ? thrust::remove_copy(sweep::par_nosync.on(s.stream), data.begin(), data.end(), out.begin(), 5u)
                            : thrust::remove_copy(sweep::par.on(s.stream), data.begin(), data.end(), out.begin(), 5u);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == kept);
    require_bitwise_equal(expected, out, kept, "remove_copy after earlier work on its stream");
    require_poison_intact(out, kept, "remove_copy after earlier work on its stream");

    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    const auto last = nosync ? thrust::remove(sweep::par_nosync.on(s.stream), data.begin(), data.end(), 5u)
                             : thrust::remove(sweep::par.on(s.stream), data.begin(), data.end(), 5u);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(last - data.begin()) == kept);
    require_bitwise_equal(expected, data, kept, "remove after earlier work on its stream");
  }
}

TEST_CASE("remove forms of n = 0 return their first output and write nothing", "[remove][policy][small]")
{
  thrust::device_vector<std::uint32_t> in(16, 1u), out(16);
  poison(out);
  CHECK(thrust::remove(sweep::par, in.begin(), in.begin(), 1u) == in.begin());
  CHECK(thrust::remove_if(sweep::par, in.begin(), in.begin(), keep_percent<std::uint32_t>{50}) == in.begin());
  CHECK(thrust::remove_if(sweep::par_nosync, in.begin(), in.begin(), in.begin(), keep_percent<std::uint32_t>{50}) == in.begin());
  CHECK(thrust::remove_copy(sweep::par, in.begin(), in.begin(), out.begin(), 1u) == out.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(out, 0, "n = 0");
}

TEST_CASE("remove_if and remove_copy inside a graph capture are refused and leave the capture valid",
          "[remove][policy][graph]")
{
  const std::size_t n = 100000;
  const auto data     = generated_vector<std::uint32_t>(n, value_share<std::uint32_t>{test_seed() + 66, 50, 5u});
  thrust::device_vector<std::uint32_t> scratch(data), out(n);
  const auto kept = n - static_cast<std::size_t>(thrust::count(thrust::device, data.begin(), data.end(), 5u));
  require_capture_refused(
    [&](auto policy) {
      const auto end = thrust::remove_copy(policy, data.begin(), data.end(), out.begin(), 5u);
      REQUIRE(static_cast<std::size_t>(end - out.begin()) == kept); // reached outside a capture only
    },
    "remove_copy");
  require_capture_refused(
    [&](auto policy) {
      const auto end = thrust::remove_if(policy, scratch.begin(), scratch.end(), keep_percent<std::uint32_t>{50});
      REQUIRE(end <= scratch.end());
    },
    "remove_if");
}

// --------------------------------------------------------------------------------------------------
// remove, remove_if (with a stencil) in place and remove_copy past 2^31 one-byte items (64-bit offsets
// and counts) against thrust::device (whose copy_if, on which its remove forms run, dispatches 64-bit
// offsets), compared on the device; and remove_copy of a counting input past 2^32 into a discard
// iterator, whose answer is known.

namespace
{

constexpr std::size_t large_n = (std::size_t(1) << 31) + 999;

struct low_byte
{
  __host__ __device__ std::uint8_t operator()(std::uint64_t i) const
  {
    return static_cast<std::uint8_t>(i);
  }
};

} // namespace

TEST_CASE("remove and remove_copy past 2^31 one-byte items match thrust", "[remove][large]")
{
  const std::size_t n = large_n;
  if (!device_has_memory(4 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const std::uint8_t value = 9;
  const auto data          = generated_vector<std::uint8_t>(n, value_share<std::uint8_t>{test_seed() + 67, 50, value});
  thrust::device_vector<std::uint8_t> expected(n);
  const std::size_t kept = static_cast<std::size_t>(
    thrust::remove_copy(thrust::device, data.begin(), data.end(), expected.begin(), value) - expected.begin());
  {
    thrust::device_vector<std::uint8_t> out(kept + 64);
    poison(out);
    const auto end = thrust::remove_copy(sweep::par, data.begin(), data.end(), out.begin(), value);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == kept);
    require_equal_on_device<std::uint8_t>(expected.begin(), out.begin(), kept, "remove_copy past 2^31");
    require_poison_intact(out, kept, "remove_copy past 2^31");
  }
  thrust::device_vector<std::uint8_t> in_place(n + 64);
  thrust::copy(thrust::device, data.begin(), data.end(), in_place.begin());
  poison_from(in_place, n);
  const auto last = thrust::remove(sweep::par, in_place.begin(), in_place.begin() + static_cast<std::ptrdiff_t>(n), value);
  REQUIRE(static_cast<std::size_t>(last - in_place.begin()) == kept);
  require_equal_on_device<std::uint8_t>(expected.begin(), in_place.begin(), kept, "remove past 2^31");
  require_poison_intact(in_place, n, "remove past 2^31 (guard)");
}

TEST_CASE("remove_if with a stencil past 2^31 one-byte items matches thrust", "[remove][stencil][large]")
{
  const std::size_t n = large_n;
  if (!device_has_memory(4 * n))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto stencil = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), low_byte{});
  const auto pred    = keep_percent<std::uint8_t>{70};
  auto expected      = random_vector<std::uint8_t>(n, test_seed() + 68);
  thrust::device_vector<std::uint8_t> actual(n + 64);
  thrust::copy(thrust::device, expected.begin(), expected.end(), actual.begin());
  poison_from(actual, n);
  const auto e_last      = thrust::remove_if(thrust::device, expected.begin(), expected.end(), stencil, pred);
  const auto a_last      = thrust::remove_if(sweep::par, actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n), stencil, pred);
  const std::size_t kept = static_cast<std::size_t>(e_last - expected.begin());
  REQUIRE(static_cast<std::size_t>(a_last - actual.begin()) == kept);
  require_equal_on_device<std::uint8_t>(expected.begin(), actual.begin(), kept, "remove_if with a stencil past 2^31");
  require_poison_intact(actual, n, "remove_if with a stencil past 2^31 (guard)");
}

TEST_CASE("remove_copy of a counting input past 2^32 into a discard iterator counts right", "[remove][large][discard]")
{
  const std::size_t n = (std::size_t(1) << 32) + 3;
  const thrust::counting_iterator<std::uint64_t> first(0);
  const thrust::discard_iterator<> discard;
  const auto one = thrust::remove_copy(sweep::par, first, first + static_cast<std::ptrdiff_t>(n), discard, std::uint64_t(1) << 32);
  CHECK(static_cast<std::size_t>(one - discard) == n - 1);
  const auto bytes = thrust::make_transform_iterator(first, low_byte{});
  const auto most  = thrust::remove_copy(sweep::par, bytes, bytes + static_cast<std::ptrdiff_t>(n), discard, std::uint8_t(0));
  CHECK(static_cast<std::size_t>(most - discard) == n - (n + 255) / 256);
}
