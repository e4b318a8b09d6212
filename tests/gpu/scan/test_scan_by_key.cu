// inclusive_scan_by_key / exclusive_scan_by_key on sweep::par against thrust::device, bitwise (integer
// values and user types under exact arithmetic), into poisoned outputs checked past the end: every
// call form, at the edge sizes of the by-key tile, with keys in runs of random lengths (crossing
// tiles), all equal, all distinct; a custom key equality; a non-commutative operator on a 12-byte
// item; accumulator types wider than the values; in place (over the values, over the keys); fancy
// keys, values and outputs; floats reproducible from call to call and within the documented bound;
// and a par_nosync capture into a CUDA graph relaunched on new input.
#include "scan_test.cuh"

#include <sweep/scan_by_key.cuh>

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/copy.h>
#include <thrust/scan.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

using namespace sweep_test;

namespace
{

//! The by-key tile of accumulator type AccT in this binary on the current device: the inclusive
//! scans', or the exclusive ones' (their own rows: tuning.hpp, rows_segmented_shifted for shifted
//! items, rows_segmented_exclusive for integral values; plan.hpp, exclusive_by_key_choice).
template <class AccT>
std::size_t by_key_tile(bool exclusive = false)
{
  namespace sc = sweep::detail::scan_impl;
  return exclusive ? sc::tile_items_for<sc::segment_item<AccT>, true, sc::exclusive_by_key_choice<AccT>>(tuned_arch())
                   : sc::tile_items_for<sc::segment_item<AccT>, true, sc::tuned>(tuned_arch());
}

//! The edge sizes of both by-key tiles (inclusive and exclusive), in order, each once. Of integral
//! accumulators also the latency tiles' edges (plan.hpp, tuned_latency and tuned_latency_wide: the
//! tiles of calls that are one tile's latency, inclusive and exclusive) and the sizes around their
//! switches (pick_latency_tile): the most items that still take the small tile, the most that take a
//! latency tile, and one item and one small tile more.
template <class AccT>
std::vector<std::size_t> by_key_sizes()
{
  namespace sc                   = sweep::detail::scan_impl;
  std::vector<std::size_t> sizes = edge_sizes(by_key_tile<AccT>(false));
  const std::vector<std::size_t> exclusive = edge_sizes(by_key_tile<AccT>(true));
  sizes.insert(sizes.end(), exclusive.begin(), exclusive.end());
  if constexpr (sc::exact_accumulator<sc::segment_item<AccT>>)
  {
    using item               = sc::segment_item<AccT>;
    const std::size_t small  = latency_tile<item>();
    const std::size_t wide   = latency_tile<item, true>();
    const std::size_t to     = latency_switch<item>();
    const std::size_t end    = latency_end<item>();
    sizes.insert(sizes.end(), {small - 1, small + 1, wide, wide + 1, 3 * small - 5, to - 1, to, to + 1, end, end + 1,
                               end + small + 1});
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

//! n around both by-key tiles of uint32: 1, tile - 1, tile + 1 and 37 tiles + 5 of each.
std::vector<std::size_t> in_place_sizes()
{
  std::vector<std::size_t> sizes{1};
  for (bool exclusive : {false, true})
  {
    const std::size_t tile = by_key_tile<std::uint32_t>(exclusive);
    sizes.insert(sizes.end(), {tile - 1, tile + 1, 37 * tile + 5});
  }
  return sizes;
}

//! Key i: which run item i is in, for runs whose lengths are uniform in [1, 2 * mean - 1] (mean 1:
//! every key distinct; mean 0: one run of all keys).
struct run_key
{
  std::uint64_t seed;
  std::uint32_t mean;
  __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
  {
    if (mean == 0)
    {
      return 7;
    }
    if (mean == 1)
    {
      return static_cast<std::uint32_t>(i);
    }
    // Runs of fixed length blocks of 2 * mean, each cut once at a hashed point: lengths vary, and
    // keys repeat between distant runs (only neighbours must differ for a new run).
    const std::uint64_t block = i / (2 * mean);
    std::uint64_t h           = (block + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    const std::uint64_t cut = 1 + h % (2 * mean - 1);
    return static_cast<std::uint32_t>((2 * block + (i % (2 * mean) >= cut ? 1 : 0)) % 1000003);
  }
};

thrust::device_vector<std::uint32_t> run_keys(std::size_t n, std::uint32_t mean)
{
  return generated_vector<std::uint32_t>(n, run_key{test_seed(), mean});
}

//! Keys equal when they agree after dropping their lowest two bits: runs of the runs.
struct same_quarter
{
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const
  {
    return (a >> 2) == (b >> 2);
  }
};

//! x -> a * x + b over uint32 (mod 2^32), composed in order: associative, not commutative. Its
//! segment item is 12 bytes (the tile state's unpacked layout).
struct affine
{
  std::uint32_t a, b;
};
struct compose
{
  __host__ __device__ affine operator()(const affine& f, const affine& g) const
  {
    return {f.a * g.a, g.a * f.b + g.b};
  }
};
//! The same maps packed in a 64-bit integer (a in the high word, b in the low one): an integral
//! value type under an associative, non-commutative operator (the exclusive scans by key of integral
//! values run another path than those of other types: segmented_agent.cuh).
struct packed_compose
{
  __host__ __device__ std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const
  {
    const auto fa = static_cast<std::uint32_t>(f >> 32), fb = static_cast<std::uint32_t>(f);
    const auto ga = static_cast<std::uint32_t>(g >> 32), gb = static_cast<std::uint32_t>(g);
    return (static_cast<std::uint64_t>(fa * ga) << 32) | static_cast<std::uint32_t>(ga * fb + gb);
  }
};
struct make_affine
{
  std::uint64_t seed;
  __host__ __device__ affine operator()(std::uint64_t i) const
  {
    std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    return {static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32)};
  }
};

//! Runs form(policy, keys, keys + n, values, out) on sweep::par against thrust::device for every n
//! in sizes, into poisoned outputs of OutT.
template <class OutT, class K, class V, class Form>
void check_by_key_sizes(const thrust::device_vector<K>& keys,
                        const thrust::device_vector<V>& values,
                        const std::vector<std::size_t>& sizes,
                        Form form,
                        const std::string& what)
{
  for (std::size_t n : sizes)
  {
    const auto k = keys.begin();
    const auto v = values.begin();
    check_scan_against_thrust<OutT>(sweep::par, n,
                                    [&](auto policy, auto out) {
                                      return form(policy, k, k + static_cast<std::ptrdiff_t>(n), v, out);
                                    },
                                    scan_label(what, n));
  }
}

} // namespace

// A partial tile of the flag-word agent loads and stores each of a thread's rows that lies wholly
// before n as a full row (vectors where the keys and values are aligned pointers), the row n cuts
// item by item (segmented_agent.cuh, load and store). Lone partial latency tiles, a partial one after
// a full one, and the tuned tiles' partial last tile past the latency tiles' end; aligned and
// misaligned pointers (the rows' item-by-item fallback); u32 and i64 values, inclusive and exclusive.
TEST_CASE("scan by key: a partial tile's rows before n load as full rows, the row n cuts item by item",
          "[scan][by_key][partial]")
{
  namespace sc = sweep::detail::scan_impl;
  std::vector<std::size_t> sizes;
  const auto add = [&](const std::vector<std::size_t>& more) { sizes.insert(sizes.end(), more.begin(), more.end()); };
  const std::size_t small = latency_tile<sc::segment_item<std::uint32_t>>();
  add(row_cut_sizes(0, small, 4));
  add(row_cut_sizes(small, small, 4));
  add(row_cut_sizes(0, latency_tile<sc::segment_item<std::int64_t>>(), 2));
  const std::size_t end = latency_end<sc::segment_item<std::uint32_t>>();
  for (bool exclusive : {false, true})
  {
    const std::size_t tile = by_key_tile<std::uint32_t>(exclusive);
    add(row_cut_sizes((end / tile + 1) * tile, tile, 4));
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::size_t most = sizes.back() + 1;
  const auto words       = random_vector<std::uint32_t>(most, test_seed() + 31);
  const auto longs       = random_vector<std::int64_t>(most, test_seed() + 32);
  for (std::uint32_t mean : {1u, 8u})
  {
    const auto keys = run_keys(most, mean);
    for (std::size_t offset : {std::size_t(0), std::size_t(1)})
    {
      const std::string runs = ", runs of " + std::to_string(mean) + (offset ? ", keys and values + 1" : "");
      const std::uint32_t* k = thrust::raw_pointer_cast(keys.data()) + offset;
      const std::uint32_t* w = thrust::raw_pointer_cast(words.data()) + offset;
      const std::int64_t* l  = thrust::raw_pointer_cast(longs.data()) + offset;
      for (std::size_t n : sizes)
      {
        const std::string at = runs + " n=" + std::to_string(n);
        check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
          return thrust::inclusive_scan_by_key(p, k, k + n, w, o);
        }, "u32 inclusive" + at);
        check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
          return thrust::exclusive_scan_by_key(p, k, k + n, w, o, 9u);
        }, "u32 exclusive from 9" + at);
        check_scan_against_thrust<std::int64_t>(sweep::par, n, [&](auto p, auto o) {
          return thrust::inclusive_scan_by_key(p, k, k + n, l, o);
        }, "i64 inclusive" + at);
        check_scan_against_thrust<std::int64_t>(sweep::par, n, [&](auto p, auto o) {
          return thrust::exclusive_scan_by_key(p, k, k + n, l, o, std::int64_t(-3));
        }, "i64 exclusive from -3" + at);
      }
    }
  }
}

TEST_CASE("scan by key of uint32 matches thrust in every call form (runs crossing tiles, all equal, all distinct)",
          "[scan][by_key]")
{
  const std::vector<std::size_t> sizes = by_key_sizes<std::uint32_t>();
  const std::size_t n                  = sizes.back();
  const auto values                    = random_vector<std::uint32_t>(n, test_seed() + 11);
  for (std::uint32_t mean : {8u, 0u, 1u, 3000u})
  {
    const auto keys         = run_keys(n, mean);
    const std::string label = "runs of " + std::to_string(mean) + ": ";
    check_by_key_sizes<std::uint32_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
      return thrust::inclusive_scan_by_key(p, kf, kl, v, o);
    }, label + "inclusive");
    check_by_key_sizes<std::uint32_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
      return thrust::exclusive_scan_by_key(p, kf, kl, v, o);
    }, label + "exclusive");
    if (mean == 8)
    {
      check_by_key_sizes<std::uint32_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
        return thrust::inclusive_scan_by_key(p, kf, kl, v, o, same_quarter{});
      }, label + "inclusive, custom equality");
      check_by_key_sizes<std::uint32_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
        return thrust::inclusive_scan_by_key(p, kf, kl, v, o, same_quarter{}, op_maximum<std::uint32_t>());
      }, label + "inclusive, custom equality, maximum");
      check_by_key_sizes<std::uint32_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
        return thrust::exclusive_scan_by_key(p, kf, kl, v, o, 17u);
      }, label + "exclusive, init 17");
      check_by_key_sizes<std::uint32_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
        return thrust::exclusive_scan_by_key(p, kf, kl, v, o, 5u, same_quarter{});
      }, label + "exclusive, init 5, custom equality");
      check_by_key_sizes<std::uint32_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
        return thrust::exclusive_scan_by_key(p, kf, kl, v, o, 0x5au, same_quarter{}, op_bit_xor<std::uint32_t>());
      }, label + "exclusive, init 0x5a, custom equality, bit_xor");
    }
  }
}

TEST_CASE("scan by key of other widths matches thrust (uint8 and int64 values, an int accumulator over uint8)",
          "[scan][by_key]")
{
  {
    const std::vector<std::size_t> sizes = by_key_sizes<std::uint8_t>();
    const auto keys                      = run_keys(sizes.back(), 40);
    const auto values                    = random_vector<std::uint8_t>(sizes.back(), test_seed() + 12);
    check_by_key_sizes<std::uint8_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
      return thrust::inclusive_scan_by_key(p, kf, kl, v, o);
    }, "u8 values inclusive (wraps at 256)");
  }
  {
    // An int initial value: the accumulator is int (Thrust: the initial value's type), so the
    // segments' sums pass 255.
    const std::vector<std::size_t> sizes = by_key_sizes<int>();
    const auto keys                      = run_keys(sizes.back(), 40);
    const auto values                    = random_vector<std::uint8_t>(sizes.back(), test_seed() + 13);
    check_by_key_sizes<int>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
      return thrust::exclusive_scan_by_key(p, kf, kl, v, o, 1000);
    }, "u8 values exclusive into int, init 1000");
  }
  {
    const std::vector<std::size_t> sizes = by_key_sizes<std::int64_t>();
    const auto keys                      = run_keys(sizes.back(), 8);
    const auto values                    = random_vector<std::int64_t>(sizes.back(), test_seed() + 14);
    check_by_key_sizes<std::int64_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
      return thrust::inclusive_scan_by_key(p, kf, kl, v, o, ::cuda::std::equal_to<>{}, op_minimum<std::int64_t>());
    }, "i64 values inclusive minimum");
    check_by_key_sizes<std::int64_t>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
      return thrust::exclusive_scan_by_key(p, kf, kl, v, o, std::int64_t(-3));
    }, "i64 values exclusive init -3");
  }
}

TEST_CASE("scan by key under a non-commutative operator keeps the order (affine maps, 12-byte items)", "[scan][by_key]")
{
  const std::vector<std::size_t> sizes = by_key_sizes<affine>();
  const auto keys                      = run_keys(sizes.back(), 50);
  const auto values                    = generated_vector<affine>(sizes.back(), make_affine{test_seed()});
  check_by_key_sizes<affine>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
    return thrust::inclusive_scan_by_key(p, kf, kl, v, o, ::cuda::std::equal_to<>{}, compose{});
  }, "affine inclusive");
  check_by_key_sizes<affine>(keys, values, sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
    return thrust::exclusive_scan_by_key(p, kf, kl, v, o, affine{3, 7}, ::cuda::std::equal_to<>{}, compose{});
  }, "affine exclusive init (3, 7)");
  // Around the tiles of u64 values (the exclusive form's are its own: init-folded items).
  const std::vector<std::size_t> packed_sizes = by_key_sizes<std::uint64_t>();
  const auto packed_keys                      = run_keys(packed_sizes.back(), 50);
  const auto packed = random_vector<std::uint64_t>(packed_sizes.back(), test_seed() + 15);
  check_by_key_sizes<std::uint64_t>(packed_keys, packed, packed_sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
    return thrust::inclusive_scan_by_key(p, kf, kl, v, o, ::cuda::std::equal_to<>{}, packed_compose{});
  }, "packed affine (u64) inclusive");
  check_by_key_sizes<std::uint64_t>(packed_keys, packed, packed_sizes, [](auto p, auto kf, auto kl, auto v, auto o) {
    return thrust::exclusive_scan_by_key(p, kf, kl, v, o, (std::uint64_t(3) << 32) | 7u, ::cuda::std::equal_to<>{},
                                         packed_compose{});
  }, "packed affine (u64) exclusive init (3, 7)");
}

namespace
{
//! The exclusive scan by key from `init` where `exclusive`, else the inclusive one (plus, equal_to),
//! under `policy`: the call forms of the in-place tests.
template <class Policy, class KeysIt, class ValuesIt, class OutputIt>
OutputIt scan_by_key_form(
  Policy policy, bool exclusive, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, OutputIt result, std::uint32_t init)
{
  return exclusive ? thrust::exclusive_scan_by_key(policy, keys_first, keys_last, values_first, result, init)
                   : thrust::inclusive_scan_by_key(policy, keys_first, keys_last, values_first, result);
}
} // namespace

TEST_CASE("scan by key in place: over the values, and over the keys", "[scan][by_key][in_place]")
{
  for (std::size_t n : in_place_sizes())
  {
    const auto keys   = run_keys(n, 8);
    const auto values = random_vector<std::uint32_t>(n, test_seed() + 15);
    thrust::device_vector<std::uint32_t> expected(n);
    for (bool exclusive : {false, true})
    {
      const std::string what = scan_label(exclusive ? "exclusive in place" : "inclusive in place", n);
      scan_by_key_form(thrust::device, exclusive, keys.begin(), keys.end(), values.begin(), expected.begin(), 9u);
      // Over the values (result == values_first).
      thrust::device_vector<std::uint32_t> v = values;
      const auto v_end = scan_by_key_form(sweep::par, exclusive, keys.begin(), keys.end(), v.begin(), v.begin(), 9u);
      REQUIRE(v_end == v.end());
      require_bitwise_equal(expected, v, n, what + ", over the values");
      // Over the keys (result == keys_first): the scan must read the keys as they were.
      thrust::device_vector<std::uint32_t> k = keys;
      const auto k_end = scan_by_key_form(sweep::par, exclusive, k.begin(), k.end(), values.begin(), k.begin(), 9u);
      REQUIRE(k_end == k.end());
      require_bitwise_equal(expected, k, n, what + ", over the keys");
    }
  }
}

TEST_CASE("scan by key in place where only the overwritten input is a pointer: keys under constant values, "
          "values under transformed keys",
          "[scan][by_key][in_place][iterators]")
{
  const auto ones        = thrust::constant_iterator<std::uint32_t>(1);
  const auto fancy_keys  = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0),
                                                           [] __host__ __device__(std::uint32_t i) { return i / 3; });
  for (std::size_t n : in_place_sizes())
  {
    const auto keys   = run_keys(n, 8);
    const auto values = random_vector<std::uint32_t>(n, test_seed() + 17);
    const auto kl     = fancy_keys + static_cast<std::ptrdiff_t>(n);
    thrust::device_vector<std::uint32_t> expected(n);
    for (bool exclusive : {false, true})
    {
      const std::string what = scan_label(exclusive ? "exclusive in place" : "inclusive in place", n);
      // Over pointer keys, with values from a constant iterator (result == keys_first): every tile
      // boundary's head must be read from the keys as they were.
      scan_by_key_form(thrust::device, exclusive, keys.begin(), keys.end(), ones, expected.begin(), 5u);
      thrust::device_vector<std::uint32_t> k = keys;
      const auto k_end = scan_by_key_form(sweep::par, exclusive, k.begin(), k.end(), ones, k.begin(), 5u);
      REQUIRE(k_end == k.end());
      require_bitwise_equal(expected, k, n, what + ", over pointer keys, constant values");
      // Over pointer values, with keys from a transform iterator (result == values_first): the
      // exclusive scan reads the value before each tile's first item.
      scan_by_key_form(thrust::device, exclusive, fancy_keys, kl, values.begin(), expected.begin(), 5u);
      thrust::device_vector<std::uint32_t> v = values;
      const auto v_end = scan_by_key_form(sweep::par, exclusive, fancy_keys, kl, v.begin(), v.begin(), 5u);
      REQUIRE(v_end == v.end());
      require_bitwise_equal(expected, v, n, what + ", over pointer values, transformed keys");
    }
  }
}

TEST_CASE("scan by key from fancy iterators and into a discard iterator", "[scan][by_key][iterators]")
{
  const std::size_t tile = by_key_tile<std::uint32_t>();
  for (std::size_t n : {std::size_t(33), 5 * tile + 3})
  {
    // Keys i / 7 from a transform of a counting iterator, values all 3 from a constant iterator.
    const auto keys   = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0), [] __host__ __device__(std::uint32_t i) { return i / 7; });
    const auto values = thrust::constant_iterator<std::uint32_t>(3);
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto out) {
      return thrust::inclusive_scan_by_key(p, keys, keys + static_cast<std::ptrdiff_t>(n), values, out);
    }, scan_label("fancy keys and values, inclusive", n));
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto out) {
      return thrust::exclusive_scan_by_key(p, keys, keys + static_cast<std::ptrdiff_t>(n), values, out, 1u);
    }, scan_label("fancy keys and values, exclusive", n));
    // A discard output: nothing to compare but the returned end.
    const auto d_end = thrust::inclusive_scan_by_key(sweep::par, keys, keys + static_cast<std::ptrdiff_t>(n), values,
                                                     thrust::make_discard_iterator());
    REQUIRE(static_cast<std::size_t>(d_end - thrust::make_discard_iterator()) == n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
}

TEST_CASE("float scans by key are reproducible and within the documented bound of the exact segment sums",
          "[scan][by_key][float]")
{
  using acc               = float;
  const std::size_t tile  = by_key_tile<acc>();
  for (std::size_t n : {std::size_t(1000), 3 * tile + 1, 300 * tile + 7})
  {
    for (std::uint32_t mean : {0u, 64u, 100000u})
    {
      const auto keys = run_keys(n, mean);
      thrust::device_vector<float> values = random_vector<float>(n, test_seed() + 16);
      thrust::device_vector<float> first(n), again(n);
      thrust::inclusive_scan_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), first.begin());
      const std::string what = scan_label("float inclusive by key, runs of " + std::to_string(mean), n);
      // Again, while another stream keeps the GPU busy: the same bits.
      {
        stream_guard busy;
        thrust::device_vector<float> load(std::size_t(1) << 26);
        for (int i = 0; i < 4; ++i)
        {
          thrust::inclusive_scan(sweep::par_nosync.on(busy.stream), load.begin(), load.end(), load.begin());
        }
        thrust::inclusive_scan_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), again.begin());
        REQUIRE(cudaStreamSynchronize(busy.stream) == cudaSuccess);
      }
      require_bitwise_equal(first, again, n, what + ", repeated");
      // Against an exact reference per segment.
      const thrust::host_vector<std::uint32_t> h_keys = keys;
      const thrust::host_vector<float> h_values       = values;
      const thrust::host_vector<float> h_out          = first;
      INFO(what << ", seed = " << test_seed());
      // The bound of the plain scans (scan_error_factor) with the by-key tile.
      const long double factor = static_cast<long double>((n + tile - 1) / tile + tile + 64)
                               * static_cast<long double>(std::numeric_limits<acc>::epsilon());
      long double exact = 0, magnitude = 0;
      for (std::size_t i = 0; i < n; ++i)
      {
        if (i == 0 || h_keys[i] != h_keys[i - 1])
        {
          exact = magnitude = 0;
        }
        exact += h_values[i];
        magnitude += std::fabs(static_cast<long double>(h_values[i]));
        const long double error = std::fabs(static_cast<long double>(h_out[i]) - exact);
        if (!(error <= factor * magnitude))
        {
          FAIL("index " << i << ": " << h_out[i] << " is " << static_cast<double>(error) << " from "
                        << static_cast<double>(exact) << ", more than the bound " << static_cast<double>(factor * magnitude));
        }
      }
      SUCCEED();
    }
  }
}

namespace
{
//! Operators of the graph test only (their kernels run nowhere else in this binary).
struct graph_by_key_plus
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a + b;
  }
};
} // namespace

TEST_CASE("par_nosync scans by key can be captured into a CUDA graph and relaunched on new input",
          "[scan][by_key][graph]")
{
  // Small latency tiles, wide ones (plan.hpp, pick_latency_tile), and the tuned tile with blocks
  // looping over tiles.
  namespace sc = sweep::detail::scan_impl;
  for (std::size_t n : {latency_switch<sc::segment_item<std::uint32_t>>() - 3, latency_end<sc::segment_item<std::uint32_t>>() - 3,
                        300 * by_key_tile<std::uint32_t>() + 7})
  {
    thrust::device_vector<std::uint32_t> keys(n), values(n), inc(n + 4), exc(n + 4);
    stream_guard s;
    std::uint32_t* const k = thrust::raw_pointer_cast(keys.data());
    std::uint32_t* const v = thrust::raw_pointer_cast(values.data());
    // Capture on the test's stream (global capture mode: no other thread makes CUDA calls meanwhile).
    REQUIRE(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
    std::uint32_t* const i_end = thrust::inclusive_scan_by_key(sweep::par_nosync.on(s.stream), k, k + n, v,
                                                               thrust::raw_pointer_cast(inc.data()),
                                                               ::cuda::std::equal_to<>{}, graph_by_key_plus{});
    std::uint32_t* const e_end = thrust::exclusive_scan_by_key(sweep::par_nosync.on(s.stream), k, k + n, v,
                                                               thrust::raw_pointer_cast(exc.data()), 4u,
                                                               ::cuda::std::equal_to<>{}, graph_by_key_plus{});
    cudaGraph_t graph{};
    REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
    REQUIRE(i_end == thrust::raw_pointer_cast(inc.data()) + n);
    REQUIRE(e_end == thrust::raw_pointer_cast(exc.data()) + n);
    cudaGraphExec_t exec{};
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    for (std::uint32_t round = 0; round < 3; ++round)
    {
      // New input in the same buffers (the graph holds their addresses).
      const auto new_keys   = run_keys(n, 5 + 20 * round);
      const auto new_values = random_vector<std::uint32_t>(n, test_seed() + 100 + round);
      thrust::copy(new_keys.begin(), new_keys.end(), keys.begin());
      thrust::copy(new_values.begin(), new_values.end(), values.begin());
      poison(inc);
      poison(exc);
      REQUIRE(cudaGraphLaunch(exec, s.stream) == cudaSuccess);
      REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
      thrust::device_vector<std::uint32_t> expected(n);
      thrust::inclusive_scan_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), expected.begin(),
                                    ::cuda::std::equal_to<>{}, graph_by_key_plus{});
      require_bitwise_equal(expected, inc, n, scan_label("graph inclusive by key, round " + std::to_string(round), n));
      require_poison_intact(inc, n, "graph inclusive by key");
      thrust::exclusive_scan_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), expected.begin(), 4u,
                                    ::cuda::std::equal_to<>{}, graph_by_key_plus{});
      require_bitwise_equal(expected, exc, n, scan_label("graph exclusive by key, round " + std::to_string(round), n));
      require_poison_intact(exc, n, "graph exclusive by key");
    }
    REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
    REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
  }
}

namespace
{
namespace sc = sweep::detail::scan_impl;

//! sm_90's scan tuning with agent.cuh's generic agent over segment_items instead of segmented_agent
//! (the flag word): the reference of the next test. (One struct for the host's and the device's
//! passes; its by-key kernel fits every architecture sweep has.)
struct generic_segments : sc::tuning_sm90
{
  static constexpr bool segment_items_generic = true;
};

//! One scan by key of n items through sweep's dispatcher under tuning Choice (exclusive: of the
//! shifted items, from init), as scan_by_key.cuh makes it.
template <class Choice, bool Exclusive, class V, class KeysIt, class ValuesIt, class Op>
void by_key_under(KeysIt keys, ValuesIt values, thrust::device_vector<V>& out, std::size_t n, V init, Op op)
{
  using item = sc::segment_item<V>;
  const sc::segment_input<V, KeysIt, ValuesIt, ::cuda::std::equal_to<>, Exclusive> input{
    keys, values, {}, init, 0, sc::aligned16(keys) && sc::aligned16(values)};
  V* const raw = thrust::raw_pointer_cast(out.data());
  const sc::inclusive_by_key_output<V, V*> output{raw, 0, sc::aligned16(raw)};
  auto policy = sweep::par;
  sc::dispatch<item, sc::scan_mode<false, false>, Choice>(policy, input, static_cast<std::uint64_t>(n), output,
                                                          sc::segmented_op<V, Op>{op}, item{}, "test");
}

//! segmented_agent against the generic agent on the same input: the same bits (the same association,
//! operation for operation; for the exclusive scans of integral values, which segmented_agent makes
//! from the inclusive scan of init-folded items and the generic agent from shifted items, the same
//! bits because integer operators are exact in every association), nothing written past n.
template <bool Exclusive, class V, class KeysIt, class ValuesIt, class Op>
void require_generic_bits(KeysIt keys, ValuesIt values, std::size_t n, V init, Op op, const std::string& what)
{
  thrust::device_vector<V> generic(n + 4), flags(n + 4);
  poison(generic);
  poison(flags);
  // The exclusive forms at their own rows (exclusive_by_key_choice), the reference at the shifted
  // items' rows (the same association for those; integral values are exact in every one).
  using reference = std::conditional_t<Exclusive, sc::shifted_rows<generic_segments>, generic_segments>;
  using tuned     = std::conditional_t<Exclusive, sc::exclusive_by_key_choice<V>, sc::tuned>;
  by_key_under<reference, Exclusive>(keys, values, generic, n, init, op);
  by_key_under<tuned, Exclusive>(keys, values, flags, n, init, op);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_bitwise_equal(generic, flags, n, scan_label(what, n));
  require_poison_intact(flags, n, scan_label(what, n));
}
} // namespace

TEST_CASE("scans by key: the flag-word agent gives the generic agent's bits (floats, a non-commutative "
          "operator, fancy keys, partial tiles, runs crossing tiles)",
          "[scan][by_key][agent]")
{
  const std::size_t tile = by_key_tile<float>();
  std::vector<std::size_t> sizes = by_key_sizes<float>();
  sizes.push_back(300 * tile + 7);
  // And around the tiles of the u32 and u64 exclusive forms (init-folded items: rows of their own).
  for (std::size_t n : by_key_sizes<std::uint32_t>())
  {
    sizes.push_back(n);
  }
  for (std::size_t n : by_key_sizes<std::uint64_t>())
  {
    sizes.push_back(n);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::size_t most = *std::max_element(sizes.begin(), sizes.end());
  const auto values      = random_vector<float>(most, test_seed() + 21);
  const auto maps        = generated_vector<affine>(most, make_affine{test_seed()});
  const auto words       = random_vector<std::uint32_t>(most, test_seed() + 22);
  const auto packed      = random_vector<std::uint64_t>(most, test_seed() + 23);
  for (std::uint32_t mean : {0u, 1u, 8u, 100000u})
  {
    const auto keys       = run_keys(most, mean);
    const std::uint32_t* k = thrust::raw_pointer_cast(keys.data());
    const float* v         = thrust::raw_pointer_cast(values.data());
    const affine* m        = thrust::raw_pointer_cast(maps.data());
    const std::string runs = ", runs of " + std::to_string(mean);
    for (std::size_t n : sizes)
    {
      require_generic_bits<false>(k, v, n, 0.0f, op_plus<>{}, "float inclusive" + runs);
      require_generic_bits<true>(k, v, n, 0.5f, op_plus<>{}, "float exclusive from 0.5" + runs);
      require_generic_bits<false>(k, m, n, affine{1, 0}, compose{}, "affine inclusive" + runs);
      require_generic_bits<true>(k, m, n, affine{3, 7}, compose{}, "affine exclusive from (3, 7)" + runs);
      require_generic_bits<true>(k, thrust::raw_pointer_cast(words.data()), n, 9u, op_plus<>{},
                                 "u32 exclusive from 9" + runs);
      require_generic_bits<true>(k, thrust::raw_pointer_cast(packed.data()), n, (std::uint64_t(3) << 32) | 7u,
                                 packed_compose{}, "packed affine (u64) exclusive from (3, 7)" + runs);
    }
  }
  // Keys that are not a pointer (items made one at a time, not by rows), values as floats.
  const auto fancy_keys = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0),
                                                          [] __host__ __device__(std::uint32_t i) { return i / 5; });
  for (std::size_t n : {std::size_t(33), 7 * tile + 3})
  {
    require_generic_bits<false>(fancy_keys, thrust::raw_pointer_cast(values.data()), n, 0.0f, op_plus<>{},
                                "float inclusive, keys i / 5 from a transform iterator");
  }
}
