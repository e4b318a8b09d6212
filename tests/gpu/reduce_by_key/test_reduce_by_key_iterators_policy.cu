// reduce_by_key through every kind of iterator, and under every sweep policy form.
#include "reduce_by_key_test.cuh"
#include "common/policy_forms.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// reduce_by_key on sweep::par against thrust::device through every kind of iterator: counting and
// transform keys, constant and counting values, zip keys and zip values into zip outputs, the keys
// output discarded (Thrust's own transform_output_iterator test), a transform_output_iterator for the
// values, both outputs discarded, raw pointers at misaligned starts (the vector paths' heads and tails).

namespace
{

struct divide_by_7
{
  __host__ __device__ std::int64_t operator()(std::int64_t i) const
  {
    return i / 7;
  }
};

struct negate_int
{
  __host__ __device__ std::int32_t operator()(std::int32_t x) const
  {
    return -x;
  }
};

using pair_t = thrust::tuple<std::int32_t, std::uint8_t>;

//! Sums the int parts and xors the byte parts.
struct pair_op
{
  __host__ __device__ pair_t operator()(const pair_t& l, const pair_t& r) const
  {
    return pair_t(thrust::get<0>(l) + thrust::get<0>(r), static_cast<std::uint8_t>(thrust::get<1>(l) ^ thrust::get<1>(r)));
  }
};

thrust::device_vector<std::int32_t> short_run_keys(std::size_t n, std::uint64_t salt)
{
  return items_of_runs<std::int32_t>(run_ids(n, run_shape::short_runs, test_seed() + salt),
                                     run_value<std::int32_t>{test_seed() + salt + 1});
}

} // namespace

TEST_CASE("reduce_by_key of counting and transform keys with constant, counting and stored values",
          "[reduce_by_key][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const thrust::counting_iterator<std::int64_t> count(-static_cast<std::int64_t>(n / 3));
    const auto sevens = thrust::make_transform_iterator(count, divide_by_7{});
    const thrust::constant_iterator<std::int32_t> ones(1);
    const thrust::counting_iterator<std::uint64_t> index(0);
    const auto values = random_vector<std::int32_t>(n, test_seed() + 90);
    const std::string what = "n=" + std::to_string(n);
    check_reduce_by_key<std::int64_t, std::int32_t>(sweep::par, count, values.begin(), n, "counting keys, " + what);
    check_reduce_by_key<std::int64_t, std::int32_t>(sweep::par, sevens, ones, n, "transform keys, constant values, " + what);
    check_reduce_by_key<std::int64_t, std::uint64_t>(sweep::par, sevens, index, n, "transform keys, counting values, " + what);
    // Keys through reverse iterators.
    const auto keys = short_run_keys(n, 91);
    check_reduce_by_key<std::int32_t, std::int32_t>(sweep::par, keys.rbegin(), values.rbegin(), n, "reverse iterators, " + what);
  }
}

TEST_CASE("reduce_by_key of zip keys and zip values into zip outputs", "[reduce_by_key][iterators][zip]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    // Zip keys (int, uint8): both parts in runs, the runs of each part cutting the other's.
    const auto k0 = short_run_keys(n, 92);
    const auto k1 = items_of_runs<std::uint8_t>(run_ids(n, run_shape::short_runs, test_seed() + 93), run_value<std::uint8_t>{test_seed()});
    const auto v0 = random_vector<std::int32_t>(n, test_seed() + 94);
    const auto v1 = random_vector<std::uint8_t>(n, test_seed() + 95);
    const auto keys   = thrust::make_zip_iterator(k0.begin(), k1.begin());
    const auto values = thrust::make_zip_iterator(v0.begin(), v1.begin());
    const auto np     = static_cast<std::ptrdiff_t>(n);
    const std::string what = "zip keys and values, n=" + std::to_string(n);
    INFO(what << ", seed = " << test_seed());
    thrust::device_vector<std::int32_t> ek0(n + 4), ak0(n + 4), ev0(n + 4), av0(n + 4);
    thrust::device_vector<std::uint8_t> ek1(n + 4), ak1(n + 4), ev1(n + 4), av1(n + 4);
    for (auto* v : {&ak0, &av0})
    {
      poison(*v);
    }
    for (auto* v : {&ak1, &av1})
    {
      poison(*v);
    }
    const auto e = thrust::reduce_by_key(thrust::device, keys, keys + np, values, thrust::make_zip_iterator(ek0.begin(), ek1.begin()),
                                         thrust::make_zip_iterator(ev0.begin(), ev1.begin()),
                                         ::cuda::std::equal_to<pair_t>{}, pair_op{});
    const auto a = thrust::reduce_by_key(sweep::par, keys, keys + np, values, thrust::make_zip_iterator(ak0.begin(), ak1.begin()),
                                         thrust::make_zip_iterator(av0.begin(), av1.begin()),
                                         ::cuda::std::equal_to<pair_t>{}, pair_op{});
    const std::size_t segments = static_cast<std::size_t>(e.first - thrust::make_zip_iterator(ek0.begin(), ek1.begin()));
    REQUIRE(static_cast<std::size_t>(a.first - thrust::make_zip_iterator(ak0.begin(), ak1.begin())) == segments);
    REQUIRE(static_cast<std::size_t>(a.second - thrust::make_zip_iterator(av0.begin(), av1.begin())) == segments);
    require_bitwise_equal(ek0, ak0, segments, what + " key ints");
    require_bitwise_equal(ek1, ak1, segments, what + " key bytes");
    require_bitwise_equal(ev0, av0, segments, what + " value ints");
    require_bitwise_equal(ev1, av1, segments, what + " value bytes");
    for (auto* v : {&ak0, &av0})
    {
      require_poison_intact(*v, segments, what);
    }
    for (auto* v : {&ak1, &av1})
    {
      require_poison_intact(*v, segments, what);
    }
  }
}

TEST_CASE("reduce_by_key with the keys discarded, a transform_output_iterator for the values, both discarded",
          "[reduce_by_key][iterators][discard]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto keys   = short_run_keys(n, 96);
    const auto values = random_vector<std::int32_t>(n, test_seed() + 97);
    const auto np     = static_cast<std::ptrdiff_t>(n);
    const std::string what = "n=" + std::to_string(n);
    INFO(what << ", seed = " << test_seed());
    const thrust::discard_iterator<> discard;
    thrust::device_vector<std::int32_t> e(n + 4), a(n + 4);
    {
      poison(e);
      poison(a);
      const auto er = thrust::reduce_by_key(thrust::device, keys.begin(), keys.begin() + np, values.begin(), discard, e.begin());
      const auto ar = thrust::reduce_by_key(sweep::par, keys.begin(), keys.begin() + np, values.begin(), discard, a.begin());
      const std::size_t segments = static_cast<std::size_t>(er.second - e.begin());
      REQUIRE(static_cast<std::size_t>(ar.second - a.begin()) == segments);
      REQUIRE(static_cast<std::size_t>(ar.first - discard) == segments);
      require_bitwise_equal(e, a, segments, "keys discarded, values " + what);
      require_poison_intact(a, segments, "keys discarded, values " + what);
    }
    {
      // Thrust's own test: keys discarded, values through a transform_output_iterator.
      poison(e);
      poison(a);
      const auto e_out = thrust::make_transform_output_iterator(e.begin(), negate_int{});
      const auto a_out = thrust::make_transform_output_iterator(a.begin(), negate_int{});
      const auto er    = thrust::reduce_by_key(thrust::device, keys.begin(), keys.begin() + np, values.begin(), discard, e_out);
      const auto ar    = thrust::reduce_by_key(sweep::par, keys.begin(), keys.begin() + np, values.begin(), discard, a_out);
      const std::size_t segments = static_cast<std::size_t>(er.second - e_out);
      REQUIRE(static_cast<std::size_t>(ar.second - a_out) == segments);
      require_bitwise_equal(e, a, segments, "transform_output_iterator values " + what);
      require_poison_intact(a, segments, "transform_output_iterator values " + what);
    }
    {
      const auto er = thrust::reduce_by_key(thrust::device, keys.begin(), keys.begin() + np, values.begin(), discard, discard);
      const auto ar = thrust::reduce_by_key(sweep::par, keys.begin(), keys.begin() + np, values.begin(), discard, discard);
      CHECK(ar.first - discard == er.first - discard);
      CHECK(ar.second - discard == er.second - discard);
    }
  }
}

namespace
{

//! reduce_by_key on raw pointers misaligned by `offset` items, into outputs misaligned by `out_offset`.
template <class K, class V>
void misaligned(const char* name)
{
  const std::size_t tile = copy_if_tile<K>();
  const auto values = random_vector<V>(3 * tile + 64, test_seed() + 99);
  // Runs of 8 on average, of one item (every lane's items end segments: the vector stores, which the
  // outputs' offsets misalign), and mostly of one item.
  for (int shape = 0; shape < 3; ++shape)
  {
    const auto keys = items_of_runs<K>(shape == 0   ? run_ids(3 * tile + 64, run_shape::short_runs, test_seed() + 98)
                                       : shape == 1 ? run_ids(3 * tile + 64, run_shape::distinct, 0)
                                                    : mostly_distinct_run_ids(3 * tile + 64, test_seed() + 97),
                                       run_value<K>{test_seed()});
    for (std::size_t offset : {0u, 1u, 3u, 7u, 15u})
    {
      for (std::size_t out_offset : {0u, 1u, 5u})
      {
        for (std::size_t n : {std::size_t(1), std::size_t(17), tile - offset, 3 * tile - 9})
        {
          const std::string what = std::string(name) + (shape == 0 ? ", runs of 8" : shape == 1 ? ", distinct" : ", runs mostly of 1")
                                 + " in+" + std::to_string(offset) + " out+"
                                 + std::to_string(out_offset) + ", n=" + std::to_string(n);
          INFO(what << ", seed = " << test_seed());
          const K* k = thrust::raw_pointer_cast(keys.data()) + offset;
          const V* v = thrust::raw_pointer_cast(values.data()) + offset;
          thrust::device_vector<K> ek(n + out_offset + 4), ak(n + out_offset + 4);
          thrust::device_vector<V> ev(n + out_offset + 4), av(n + out_offset + 4);
          poison(ek);
          poison(ak);
          poison(ev);
          poison(av);
          const auto e = thrust::reduce_by_key(thrust::device, k, k + n, v, thrust::raw_pointer_cast(ek.data()) + out_offset,
                                               thrust::raw_pointer_cast(ev.data()) + out_offset);
          const auto a = thrust::reduce_by_key(sweep::par, k, k + n, v, thrust::raw_pointer_cast(ak.data()) + out_offset,
                                               thrust::raw_pointer_cast(av.data()) + out_offset);
          const std::size_t segments = static_cast<std::size_t>(e.first - (thrust::raw_pointer_cast(ek.data()) + out_offset));
          REQUIRE(static_cast<std::size_t>(a.first - (thrust::raw_pointer_cast(ak.data()) + out_offset)) == segments);
          REQUIRE(static_cast<std::size_t>(a.second - (thrust::raw_pointer_cast(av.data()) + out_offset)) == segments);
          require_bitwise_equal(ek, ak, out_offset + segments, "keys " + what);
          require_bitwise_equal(ev, av, out_offset + segments, "values " + what);
          require_poison_intact(ak, out_offset + segments, "keys " + what);
          require_poison_intact(av, out_offset + segments, "values " + what);
        }
      }
    }
  }
}

} // namespace

TEST_CASE("reduce_by_key on raw pointers at misaligned starts matches thrust", "[reduce_by_key][iterators][alignment]")
{
  misaligned<std::uint8_t, std::uint16_t>("uint8/uint16");
  misaligned<std::int16_t, std::uint8_t>("int16/uint8");
  misaligned<float, std::int64_t>("float/int64"); // integer values: bitwise comparable
  misaligned<std::uint64_t, std::int32_t>("uint64/int32");
}

// --------------------------------------------------------------------------------------------------
// reduce_by_key under every sweep policy form (par, par_nosync, .on(stream), the allocator forms)
// against thrust::device; the call runs after earlier work on its stream; temporary storage comes from
// the policy's allocator and is all given back; n = 0 returns at once; float sums are the same bits
// under every policy; and inside a CUDA graph capture (reduce_by_key returns its segment count to the
// host) a call is refused before it enqueues anything, leaving the capture valid.

namespace
{

thrust::device_vector<std::uint32_t> policy_keys(std::size_t n, std::uint64_t salt)
{
  return items_of_runs<std::uint32_t>(run_ids(n, run_shape::short_runs, test_seed() + salt),
                                      run_value<std::uint32_t>{test_seed() + salt + 1});
}

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : policy_sizes_of_copy_if())
  {
    const auto keys   = policy_keys(n, n);
    const auto values = random_vector<std::int64_t>(n, test_seed() + 100);
    const auto maps   = generated_vector<affine>(n, random_affine{test_seed() + 101});
    const std::string what = rbk_label(name, run_shape::short_runs, n);
    check_reduce_by_key<std::uint32_t, std::int64_t>(policy, keys.begin(), values.begin(), n, what);
    check_reduce_by_key<std::uint32_t, std::int64_t>(policy, keys.begin(), values.begin(), n, what,
                                                     ::cuda::std::equal_to<std::uint32_t>{});
    check_reduce_by_key<std::uint32_t, affine>(policy, keys.begin(), maps.begin(), n, what,
                                               ::cuda::std::equal_to<std::uint32_t>{}, compose{});
  }
}

} // namespace

TEST_CASE("reduce_by_key under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[reduce_by_key][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("reduce_by_key takes its temporary storage from the policy's allocator and gives it all back",
          "[reduce_by_key][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("reduce_by_key of float values gives the same bits under every policy", "[reduce_by_key][policy][float][determinism]")
{
  stream_guard s;
  allocation_counts counts;
  counting_allocator<char> alloc(&counts);
  const std::size_t n = 40 * copy_if_tile<float>() + 7;
  const auto keys     = policy_keys(n, 102);
  const auto values   = random_vector<float>(n, test_seed() + 103);
  thrust::device_vector<std::uint32_t> k(n);
  thrust::device_vector<float> first(n), again(n);
  const auto ends = thrust::reduce_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), k.begin(), first.begin());
  const std::size_t segments = static_cast<std::size_t>(ends.second - first.begin());
  auto run = [&](auto policy, const char* name) {
    poison(again);
    const auto e = thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), k.begin(), again.begin());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(e.second - again.begin()) == segments);
    require_bitwise_equal(first, again, segments, std::string("float sums under ") + name);
  };
  run(sweep::par, "par");
  run(sweep::par_nosync, "par_nosync");
  run(sweep::par.on(s.stream), "par.on(stream)");
  run(sweep::par_nosync.on(s.stream), "par_nosync.on(stream)");
  run(sweep::par(alloc), "par(alloc)");
  run(sweep::par_nosync(alloc).on(s.stream), "par_nosync(alloc).on(stream)");
}

TEST_CASE("reduce_by_key on a stream waits for the work before it on that stream", "[reduce_by_key][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = policy_keys(n, 104);
  const auto values   = random_vector<std::int64_t>(n, test_seed() + 105);
  thrust::device_vector<std::uint32_t> expected_keys(n), keys(n), out_keys(n + 4);
  thrust::device_vector<std::int64_t> expected_values(n), out_values(n + 4);
  const auto e = thrust::reduce_by_key(thrust::device, fresh.begin(), fresh.end(), values.begin(), expected_keys.begin(),
                                       expected_values.begin());
  const std::size_t segments = static_cast<std::size_t>(e.first - expected_keys.begin());
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    thrust::fill(thrust::device, keys.begin(), keys.end(), 5u); // one segment, before the stream's copy
    overwrite_later(s.stream, fresh, keys);
    poison(out_keys);
    poison(out_values);
    const auto a = nosync ? thrust::reduce_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), values.begin(),
                                                  out_keys.begin(), out_values.begin())
                          : thrust::reduce_by_key(sweep::par.on(s.stream), keys.begin(), keys.end(), values.begin(),
                                                  out_keys.begin(), out_values.begin());
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(a.first - out_keys.begin()) == segments);
    require_bitwise_equal(expected_keys, out_keys, segments, "keys after earlier work on the stream");
    require_bitwise_equal(expected_values, out_values, segments, "values after earlier work on the stream");
    require_poison_intact(out_keys, segments, "keys after earlier work on the stream");
  }
}

TEST_CASE("reduce_by_key of n = 0 returns its first outputs and writes nothing", "[reduce_by_key][policy][small]")
{
  thrust::device_vector<std::uint32_t> keys(16, 1u), out_keys(16);
  thrust::device_vector<std::int64_t> values(16, 2), out_values(16);
  poison(out_keys);
  poison(out_values);
  const auto a = thrust::reduce_by_key(sweep::par, keys.begin(), keys.begin(), values.begin(), out_keys.begin(), out_values.begin());
  CHECK(a.first == out_keys.begin());
  CHECK(a.second == out_values.begin());
  const auto b = thrust::reduce_by_key(sweep::par_nosync, keys.begin(), keys.begin(), values.begin(), out_keys.begin(),
                                       out_values.begin(), ::cuda::std::equal_to<std::uint32_t>{}, op_plus<std::int64_t>{});
  CHECK(b.first == out_keys.begin());
  CHECK(b.second == out_values.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(out_keys, 0, "n = 0");
  require_poison_intact(out_values, 0, "n = 0");
}

TEST_CASE("reduce_by_key inside a graph capture is refused and leaves the capture valid", "[reduce_by_key][policy][graph]")
{
  const std::size_t n = 100000;
  const auto keys     = policy_keys(n, 106);
  const auto values   = random_vector<std::int64_t>(n, test_seed() + 107);
  thrust::device_vector<std::uint32_t> out_keys(n);
  thrust::device_vector<std::int64_t> out_values(n);
  const auto segments = thrust::reduce_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), out_keys.begin(),
                                              out_values.begin())
                          .first
                      - out_keys.begin();
  require_capture_refused(
    [&](auto policy) {
      const auto ends = thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), out_keys.begin(), out_values.begin());
      REQUIRE(ends.first - out_keys.begin() == segments); // reached outside a capture only
    },
    "reduce_by_key");
}
