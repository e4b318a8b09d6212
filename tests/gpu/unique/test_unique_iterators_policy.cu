// The unique forms through every kind of iterator, and under every sweep policy form.
#include "unique_test.cuh"
#include "common/policy_forms.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <thrust/sequence.h>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// unique_copy, unique, unique_count, unique_by_key_copy and unique_by_key on sweep::par against
// thrust::device through every kind of iterator: counting, transform, constant and reverse inputs,
// zip inputs and outputs (unique_copy of a zip of (int, float), zip values), discard outputs (the
// whole output, or the values or the keys of unique_by_key_copy), counting values, an output of a
// wider type, raw pointers at misaligned starts (the vector load and store paths' heads and tails).

namespace
{

struct divide_by_7
{
  __host__ __device__ std::int32_t operator()(std::int32_t i) const
  {
    return i / 7;
  }
};

//! Keys of the zip tests: runs of 8 on average.
thrust::device_vector<std::int32_t> zip_keys(std::size_t n)
{
  return items_of_runs<std::int32_t>(run_ids(n, run_shape::short_runs, test_seed() + 8),
                                     run_value<std::int32_t>{test_seed() + 9});
}

//! Float halves of the zip items: in runs that cut across the key runs, with NaN and signed zeros.
thrust::device_vector<float> zip_floats(std::size_t n)
{
  return items_of_runs<float>(run_ids(n, run_shape::short_runs, test_seed() + 10), float_run_value<float>{test_seed() + 11});
}

} // namespace

TEST_CASE("unique of counting, transform, constant and reverse iterators matches thrust", "[unique][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const thrust::counting_iterator<std::int32_t> count(-static_cast<std::int32_t>(n / 3));
    check_unique_copy<std::int32_t>(sweep::par, count, n, unique_label("counting_iterator", run_shape::distinct, n));
    check_unique_count(sweep::par, count, n, unique_label("counting_iterator", run_shape::distinct, n));

    const auto sevens = thrust::make_transform_iterator(count, divide_by_7{});
    check_unique_copy<std::int32_t>(sweep::par, sevens, n, "transform_iterator, runs of 7, n=" + std::to_string(n));
    check_unique_count(sweep::par, sevens, n, "transform_iterator, runs of 7, n=" + std::to_string(n));
    // Into a wider output type.
    check_unique_copy<std::int64_t>(sweep::par, sevens, n, "transform_iterator into int64, n=" + std::to_string(n));

    const thrust::constant_iterator<std::uint16_t> same(7);
    check_unique_copy<std::uint16_t>(sweep::par, same, n, unique_label("constant_iterator", run_shape::all_equal, n));
    check_unique_count(sweep::par, same, n, unique_label("constant_iterator", run_shape::all_equal, n));

    const auto keys = zip_keys(n);
    check_unique_copy<std::int32_t>(sweep::par, keys.rbegin(), n, unique_label("reverse_iterator", run_shape::short_runs, n));
    check_unique_count(sweep::par, keys.rbegin(), n, unique_label("reverse_iterator", run_shape::short_runs, n));
  }
}

TEST_CASE("unique_copy of a zip of (int, float) into a zip matches thrust", "[unique][iterators][zip]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto keys   = zip_keys(n);
    const auto floats = zip_floats(n);
    thrust::device_vector<std::int32_t> ek(n + 4), ak(n + 4);
    thrust::device_vector<float> ef(n + 4), af(n + 4);
    poison(ek);
    poison(ak);
    poison(ef);
    poison(af);
    const auto in       = thrust::make_zip_iterator(keys.begin(), floats.begin());
    const auto e_out    = thrust::make_zip_iterator(ek.begin(), ef.begin());
    const auto a_out    = thrust::make_zip_iterator(ak.begin(), af.begin());
    const auto e_end    = thrust::unique_copy(thrust::device, in, in + static_cast<std::ptrdiff_t>(n), e_out);
    const auto a_end    = thrust::unique_copy(sweep::par, in, in + static_cast<std::ptrdiff_t>(n), a_out);
    const std::size_t c = static_cast<std::size_t>(e_end - e_out);
    const std::string what = unique_label("zip (int, float)", run_shape::short_runs, n);
    INFO(what << ", seed = " << test_seed());
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == c);
    require_bitwise_equal(ek, ak, c, what + " ints");
    require_bitwise_equal(ef, af, c, what + " floats");
    require_poison_intact(ak, c, what + " ints");
    require_poison_intact(af, c, what + " floats");
    check_unique_count(sweep::par, in, n, what);
  }
}

TEST_CASE("unique_copy into a discard_iterator returns the count", "[unique][iterators][discard]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto keys = zip_keys(n);
    const thrust::discard_iterator<> out;
    const auto np       = static_cast<std::ptrdiff_t>(n);
    const auto expected = thrust::unique_copy(thrust::device, keys.begin(), keys.begin() + np, out) - out;
    const auto actual   = thrust::unique_copy(sweep::par, keys.begin(), keys.begin() + np, out) - out;
    INFO("n = " << n << ", seed = " << test_seed());
    CHECK(actual == expected);
  }
}

TEST_CASE("unique_by_key_copy with discarded values, discarded keys, counting values", "[unique][iterators][by_key]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto keys   = zip_keys(n);
    const auto values = random_vector<double>(n, test_seed() + 12);
    const auto np     = static_cast<std::ptrdiff_t>(n);
    const std::string what = unique_label("int32/double", run_shape::short_runs, n);
    INFO(what << ", seed = " << test_seed());
    const thrust::discard_iterator<> discard;
    {
      // Values discarded: the keys and both ends.
      thrust::device_vector<std::int32_t> ek(n + 4), ak(n + 4);
      poison(ek);
      poison(ak);
      const auto e = thrust::unique_by_key_copy(thrust::device, keys.begin(), keys.begin() + np, values.begin(), ek.begin(), discard);
      const auto a = thrust::unique_by_key_copy(sweep::par, keys.begin(), keys.begin() + np, values.begin(), ak.begin(), discard);
      const std::size_t c = static_cast<std::size_t>(e.first - ek.begin());
      REQUIRE(static_cast<std::size_t>(a.first - ak.begin()) == c);
      REQUIRE(a.second - discard == e.second - discard);
      REQUIRE(static_cast<std::size_t>(a.second - discard) == c);
      require_bitwise_equal(ek, ak, c, what + " keys, values discarded");
      require_poison_intact(ak, c, what + " keys, values discarded");
    }
    {
      // Keys discarded: the values and both ends.
      thrust::device_vector<double> ev(n + 4), av(n + 4);
      poison(ev);
      poison(av);
      const auto e = thrust::unique_by_key_copy(thrust::device, keys.begin(), keys.begin() + np, values.begin(), discard, ev.begin());
      const auto a = thrust::unique_by_key_copy(sweep::par, keys.begin(), keys.begin() + np, values.begin(), discard, av.begin());
      const std::size_t c = static_cast<std::size_t>(e.second - ev.begin());
      REQUIRE(static_cast<std::size_t>(a.second - av.begin()) == c);
      REQUIRE(static_cast<std::size_t>(a.first - discard) == c);
      require_bitwise_equal(ev, av, c, what + " values, keys discarded");
      require_poison_intact(av, c, what + " values, keys discarded");
    }
    // Values from a counting iterator: each kept value is the index of the kept item.
    check_unique_by_key_copy<std::int32_t, std::uint64_t>(sweep::par, keys.begin(),
                                                          thrust::counting_iterator<std::uint64_t>(0), n,
                                                          what + " counting values");
    // Keys from a transform iterator.
    const auto sevens = thrust::make_transform_iterator(thrust::counting_iterator<std::int32_t>(0), divide_by_7{});
    check_unique_by_key_copy<std::int32_t, double>(sweep::par, sevens, values.begin(), n, what + " transform keys");
  }
}

TEST_CASE("unique_by_key in place with zip values of (int, float)", "[unique][iterators][by_key][zip]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto keys   = zip_keys(n);
    const auto ints   = random_vector<std::int32_t>(n, test_seed() + 13);
    const auto floats = zip_floats(n);
    const auto np     = static_cast<std::ptrdiff_t>(n);
    auto ek = guarded_copy<std::int32_t>(keys.begin(), n), ak = guarded_copy<std::int32_t>(keys.begin(), n);
    auto ei = guarded_copy<std::int32_t>(ints.begin(), n), ai = guarded_copy<std::int32_t>(ints.begin(), n);
    auto ef = guarded_copy<float>(floats.begin(), n), af = guarded_copy<float>(floats.begin(), n);
    const auto e = thrust::unique_by_key(thrust::device, ek.begin(), ek.begin() + np,
                                         thrust::make_zip_iterator(ei.begin(), ef.begin()));
    const auto a = thrust::unique_by_key(sweep::par, ak.begin(), ak.begin() + np,
                                         thrust::make_zip_iterator(ai.begin(), af.begin()));
    const std::size_t c    = static_cast<std::size_t>(e.first - ek.begin());
    const std::string what = unique_label("unique_by_key, zip values", run_shape::short_runs, n);
    INFO(what << ", seed = " << test_seed());
    REQUIRE(static_cast<std::size_t>(a.first - ak.begin()) == c);
    REQUIRE(static_cast<std::size_t>(a.second - thrust::make_zip_iterator(ai.begin(), af.begin())) == c);
    require_bitwise_equal(ek, ak, c, what + " keys");
    require_bitwise_equal(ei, ai, c, what + " ints");
    require_bitwise_equal(ef, af, c, what + " floats");
    require_poison_intact(ak, n, what + " keys (guard)");
    require_poison_intact(ai, n, what + " ints (guard)");
    require_poison_intact(af, n, what + " floats (guard)");
  }
}

namespace
{

//! unique_copy and unique on raw pointers whose starts are misaligned by `offset` items, and into
//! outputs misaligned by `out_offset` items.
template <class T, class Gen>
void misaligned(const char* name, Gen gen)
{
  const std::size_t tile = copy_if_tile<T>();
  const auto data = items_of_runs<T>(run_ids(3 * tile + 64, run_shape::short_runs, test_seed() + 14), gen);
  check_misaligned(
    data, name, "unique_copy", "unique (in place)",
    [](auto policy, const T* first, const T* last, T* out) { return thrust::unique_copy(policy, first, last, out); },
    [](auto policy, T* first, T* last) { return thrust::unique(policy, first, last); });
}

} // namespace

TEST_CASE("unique on raw pointers at misaligned starts matches thrust", "[unique][iterators][alignment]")
{
  misaligned<std::uint8_t>("uint8", run_value<std::uint8_t>{test_seed()});
  misaligned<std::int16_t>("int16", run_value<std::int16_t>{test_seed()});
  misaligned<float>("float", float_run_value<float>{test_seed()});
  misaligned<double>("double", run_value<double>{test_seed()});
}

// --------------------------------------------------------------------------------------------------
// The unique family under every sweep policy form (par, par_nosync, .on(stream), the allocator forms)
// against thrust::device; the call runs after earlier work on its stream; temporary storage comes from
// the policy's allocator and is all given back; n = 0 returns at once; and inside a CUDA graph capture
// (these algorithms return a count to the host) a call is refused before it enqueues anything,
// leaving the capture valid.

namespace
{

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : policy_sizes_of_copy_if())
  {
    const auto keys   = items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + n),
                                                     run_value<std::uint32_t>{test_seed()});
    const auto values = random_vector<s12>(n, test_seed() + 15);
    const std::string what = unique_label(name, run_shape::short_runs, n);
    check_unique_copy<std::uint32_t>(policy, keys.begin(), n, what);
    check_unique_in_place<std::uint32_t>(policy, keys.begin(), n, what);
    check_unique_count(policy, keys.begin(), n, what);
    check_unique_by_key_copy<std::uint32_t, s12>(policy, keys.begin(), values.begin(), n, what);
    check_unique_by_key_in_place<std::uint32_t, s12>(policy, keys.begin(), values.begin(), n, what);
  }
}

} // namespace

TEST_CASE("unique family under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[unique][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("unique family takes its temporary storage from the policy's allocator and gives it all back",
          "[unique][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("unique_copy and unique_by_key on a stream wait for the work before them on that stream",
          "[unique][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + 16),
                                                     run_value<std::uint32_t>{test_seed() + 17});
  thrust::device_vector<std::uint32_t> expected(n), keys(n), out(n + 4), values(n);
  const std::size_t count =
    static_cast<std::size_t>(thrust::unique_copy(thrust::device, fresh.begin(), fresh.end(), expected.begin()) - expected.begin());
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    thrust::fill(thrust::device, keys.begin(), keys.end(), 5u);
    poison(out);
    overwrite_later(s.stream, fresh, keys);
    const auto end = nosync ? thrust::unique_copy(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), out.begin())
                            : thrust::unique_copy(sweep::par.on(s.stream), keys.begin(), keys.end(), out.begin());
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == count);
    require_bitwise_equal(expected, out, count, "unique_copy after earlier work on its stream");
    require_poison_intact(out, count, "unique_copy after earlier work on its stream");

    // In place: the keys (and the values) written by the stream's earlier work are the ones reduced.
    thrust::fill(thrust::device, keys.begin(), keys.end(), 5u);
    thrust::sequence(thrust::device, values.begin(), values.end());
    overwrite_later(s.stream, fresh, keys);
    const auto kv = nosync ? thrust::unique_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), values.begin())
                           : thrust::unique_by_key(sweep::par.on(s.stream), keys.begin(), keys.end(), values.begin());
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(kv.first - keys.begin()) == count);
    REQUIRE(static_cast<std::size_t>(kv.second - values.begin()) == count);
    require_bitwise_equal(expected, keys, count, "unique_by_key after earlier work on its stream");
  }
}

TEST_CASE("unique family of n = 0 returns its first output and writes nothing", "[unique][policy][small]")
{
  thrust::device_vector<std::uint32_t> in(16, 1u), out(16), values(16);
  poison(out);
  CHECK(thrust::unique_copy(sweep::par, in.begin(), in.begin(), out.begin()) == out.begin());
  CHECK(thrust::unique(sweep::par, in.begin(), in.begin()) == in.begin());
  CHECK(thrust::unique_count(sweep::par, in.begin(), in.begin()) == 0);
  const auto kv = thrust::unique_by_key_copy(sweep::par, in.begin(), in.begin(), values.begin(), out.begin(), values.begin());
  CHECK(kv.first == out.begin());
  CHECK(kv.second == values.begin());
  const auto ip = thrust::unique_by_key(sweep::par_nosync, in.begin(), in.begin(), values.begin());
  CHECK(ip.first == in.begin());
  CHECK(ip.second == values.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(out, 0, "n = 0");
}

TEST_CASE("unique_copy and unique_by_key_copy inside a graph capture are refused and leave the capture valid",
          "[unique][policy][graph]")
{
  const std::size_t n = 100000;
  const auto keys     = items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + 18),
                                                 run_value<std::uint32_t>{test_seed()});
  thrust::device_vector<std::uint32_t> expected(n), out(n), values(n), out_values(n);
  const auto count = thrust::unique_copy(thrust::device, keys.begin(), keys.end(), expected.begin()) - expected.begin();
  require_capture_refused(
    [&](auto policy) {
      // Nothing else here: inside a capture, any other CUDA call could break it.
      const auto end = thrust::unique_copy(policy, keys.begin(), keys.end(), out.begin());
      REQUIRE(end - out.begin() == count); // reached outside a capture only
    },
    "unique_copy");
  require_capture_refused(
    [&](auto policy) {
      const auto ends =
        thrust::unique_by_key_copy(policy, keys.begin(), keys.end(), values.begin(), out.begin(), out_values.begin());
      REQUIRE(ends.first - out.begin() == count);
    },
    "unique_by_key_copy");
}
