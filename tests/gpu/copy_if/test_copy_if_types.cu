// copy_if of every item type, and of 1- and 2-byte items.
#include "copy_if_test.cuh"
#include "forced_schedule.cuh"

#include <sweep/detail/copy_if/plan.hpp>
#include <cmath>
#include <limits>
#include <thrust/host_vector.h>
#include <thrust/remove.h>
#include <cstdint>
#include <string>
#include <vector>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// copy_if on sweep::par against thrust::device: every value type, edge sizes, selectivities, and
// misaligned input/output starts (the vector paths' head and tail handling).

namespace
{

template <class T>
void sweep_sizes_and_selectivity(const char* name)
{
  const std::size_t tile = sweep_test::copy_if_tile<T>();
  const auto sizes       = sweep_test::edge_sizes(tile);
  const auto data        = sweep_test::random_vector<T>(sizes.back(), sweep_test::test_seed());
  for (std::size_t n : sizes)
  {
    for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
    {
      check_against_thrust<T>(sweep::par, data.begin(), n, keep_percent<T>{pct}, label(name, n, pct));
    }
  }
}

template <class T>
void misaligned_starts(const char* name)
{
  const std::size_t tile = sweep_test::copy_if_tile<T>();
  const auto data        = sweep_test::random_vector<T>(3 * tile + 64, sweep_test::test_seed() + 1);
  for (std::size_t in_offset : {1u, 3u, 7u, 15u})
  {
    for (std::size_t out_offset : {0u, 1u, 5u, 13u})
    {
      for (std::size_t n : {std::size_t(1), std::size_t(17), tile - in_offset, 3 * tile - 9})
      {
        const std::string what = label(name, n, 50) + " in+" + std::to_string(in_offset) + " out+"
                               + std::to_string(out_offset);
        // Raw pointers take the vector load/store paths.
        const T* first = thrust::raw_pointer_cast(data.data()) + in_offset;
        check_against_thrust<T>(sweep::par, first, n, keep_percent<T>{50}, what, out_offset);
      }
    }
  }
}

} // namespace

TEST_CASE("copy_if matches thrust for 1-byte values", "[copy_if][types]")
{
  sweep_sizes_and_selectivity<std::uint8_t>("uint8");
  sweep_sizes_and_selectivity<std::int8_t>("int8");
}

TEST_CASE("copy_if matches thrust for 2-byte values", "[copy_if][types]")
{
  sweep_sizes_and_selectivity<std::int16_t>("int16");
}

TEST_CASE("copy_if matches thrust for 4-byte values", "[copy_if][types]")
{
  sweep_sizes_and_selectivity<std::uint32_t>("uint32");
  sweep_sizes_and_selectivity<float>("float");
}

TEST_CASE("copy_if matches thrust for 8-byte values", "[copy_if][types]")
{
  sweep_sizes_and_selectivity<std::int64_t>("int64");
  sweep_sizes_and_selectivity<double>("double");
}

TEST_CASE("copy_if matches thrust for 16-byte and struct values", "[copy_if][types]")
{
  sweep_sizes_and_selectivity<s16>("s16");
  sweep_sizes_and_selectivity<float4>("float4");
  sweep_sizes_and_selectivity<s12>("s12");
  sweep_sizes_and_selectivity<s24>("s24");
  sweep_sizes_and_selectivity<s32>("s32");
}

TEST_CASE("copy_if keeps float special values bitwise (x > 0 and x == x)", "[copy_if][types]")
{
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(),
                            1.0f, -1.0f};
  const std::size_t n = 100003;
  auto data           = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 2);
  for (std::size_t i = 0; i < n; i += 7)
  {
    data[i] = specials[(i / 7) % 9];
  }
  check_against_thrust<float>(sweep::par, data.begin(), n, [] __host__ __device__(float x) { return x > 0.0f; },
                              "float specials, x > 0");
  check_against_thrust<float>(sweep::par, data.begin(), n, [] __host__ __device__(float x) { return x == x; },
                              "float specials, not NaN");
  check_against_thrust<float>(sweep::par, data.begin(), n, [] __device__(float x) { return !(x >= 0.0f); },
                              "float specials, device lambda");
}

TEST_CASE("copy_if handles misaligned starts on the vector paths", "[copy_if][alignment]")
{
  misaligned_starts<std::uint8_t>("uint8");
  misaligned_starts<std::int16_t>("int16");
  misaligned_starts<float>("float");
  misaligned_starts<double>("double");
  misaligned_starts<s16>("s16");
  misaligned_starts<s12>("s12");
}

namespace
{
struct alignas(32) aligned32
{
  std::uint64_t a;
  std::uint32_t b;
};
static_assert(alignof(aligned32) == 32 && sizeof(aligned32) == 32, "an over-aligned value type");
} // namespace

TEST_CASE("copy_if of an over-aligned type (alignas(32)) takes Thrust's kernel and matches", "[copy_if][types]")
{
  STATIC_REQUIRE_FALSE(sweep::detail::copy_if_impl::supported_type<aligned32>);
  sweep_sizes_and_selectivity<aligned32>("alignas(32)");
}

// --------------------------------------------------------------------------------------------------
// copy_if of 1- and 2-byte items on the vector path, whose items a thread keeps packed four or two to
// a 32-bit word (agent.cuh, packed_items) and whose staging skips rows with nothing selected: crafted
// selection patterns against stock Thrust, under each forced schedule and through the public call.
// Patterns: nothing, everything, whole 16-byte rows on and off, runs of every length around a row and
// a word, one item a tile at the thread, row and tile edges, sparse and dense random selections;
// misaligned inputs (partial first chunks) and outputs (unaligned store bodies).

namespace
{
namespace ci = sweep::detail::copy_if_impl;
using ci::schedule_choice;

//! Keeps the items whose low bit is set: the patterns below put the selection in that bit and
//! random bits above it, so that equal selections carry different values.
template <class T>
struct low_bit_set
{
  __host__ __device__ bool operator()(T x) const
  {
    return (static_cast<unsigned>(x) & 1u) != 0;
  }
};

//! One selection pattern over n items: item i is selected where keep(i) holds.
template <class T, class Keep>
thrust::device_vector<T> make_items(std::size_t n, std::uint64_t seed, Keep keep)
{
  thrust::host_vector<T> h(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    const auto noise = static_cast<unsigned>(sweep_test::mix64(seed + i)) & 0xfffeu;
    h[i]             = static_cast<T>(noise | (keep(i) ? 1u : 0u));
  }
  return thrust::device_vector<T>(h);
}

//! Every pattern, at input offsets 0, 1 and 3 items (partial first chunks) and output offsets 0 to 3.
template <class T>
void patterns(const char* name)
{
  const std::size_t tile = sweep_test::copy_if_tile<T>();
  const std::size_t vec  = 16 / sizeof(T); // items a thread loads a row
  const std::size_t n    = 3 * tile + 5 * vec + 3;
  const std::uint64_t seed = sweep_test::test_seed() + 90;
  struct named
  {
    std::string what;
    thrust::device_vector<T> items;
  };
  std::vector<named> cases;
  cases.push_back({"none", make_items<T>(n + 8, seed, [](std::size_t) { return false; })});
  cases.push_back({"all", make_items<T>(n + 8, seed + 1, [](std::size_t) { return true; })});
  cases.push_back({"every other row", make_items<T>(n + 8, seed + 2, [vec](std::size_t i) { return (i / vec) % 2 == 0; })});
  cases.push_back({"one row in 7", make_items<T>(n + 8, seed + 3, [vec](std::size_t i) { return (i / vec) % 7 == 3; })});
  for (std::size_t run : {std::size_t(1), std::size_t(3), std::size_t(4), std::size_t(5), vec - 1, vec + 1, 2 * vec + 3, std::size_t(100)})
  {
    cases.push_back({"runs of " + std::to_string(run),
                     make_items<T>(n + 8, seed + 4 + run, [run](std::size_t i) { return (i / run) % 2 == 1; })});
  }
  // One item a tile, at a thread's first and last item, a row's last, the tile's first and last.
  for (std::size_t at : {std::size_t(0), vec - 1, 512 * vec - 1, 512 * vec, tile - 1})
  {
    cases.push_back({"one a tile at " + std::to_string(at),
                     make_items<T>(n + 8, seed + 200 + at, [at, tile](std::size_t i) { return i % tile == at % tile; })});
  }
  cases.push_back({"sparse", make_items<T>(n + 8, seed + 300, [seed](std::size_t i) { return sweep_test::mix64(seed * 7 + i) % 64 == 0; })});
  cases.push_back({"dense", make_items<T>(n + 8, seed + 301, [seed](std::size_t i) { return sweep_test::mix64(seed * 7 + i) % 64 != 0; })});

  for (const auto& c : cases)
  {
    const T* raw = thrust::raw_pointer_cast(c.items.data());
    for (std::size_t in_offset : {std::size_t(0), std::size_t(1), std::size_t(3)})
    {
      const std::size_t out_offset = in_offset;
      const std::string what = std::string(name) + " " + c.what + " n=" + std::to_string(n) + " in+"
                             + std::to_string(in_offset) + " out+" + std::to_string(out_offset);
      check_schedule<T, schedule_choice::in_order>(raw + in_offset, n, low_bit_set<T>{}, what, out_offset);
      check_schedule<T, schedule_choice::pipelined>(raw + in_offset, n, low_bit_set<T>{}, what, out_offset);
      check_schedule<T, schedule_choice::bulk>(raw + in_offset, n, low_bit_set<T>{}, what, out_offset);
      check_schedule<T, schedule_choice::specialized>(raw + in_offset, n, low_bit_set<T>{}, what, out_offset);
      check_against_thrust<T>(sweep::par, c.items.begin() + in_offset, n, low_bit_set<T>{}, what + ", public call",
                              (out_offset + 2) % 4);
    }
  }
}

//! Packed items chosen by a stencil of another type (the items are loaded and staged packed, the
//! flags come from the stencil), and remove_copy_if of packed items: against stock Thrust, at input
//! offsets 0 and 3 items, into poisoned outputs.
template <class T>
void stencil_and_remove(const char* name)
{
  const std::size_t tile = sweep_test::copy_if_tile<T>();
  const std::size_t n    = 5 * tile + 77;
  const auto items       = sweep_test::random_vector<T>(n + 8, sweep_test::test_seed() + 95);
  const auto stencil     = sweep_test::random_vector<std::uint32_t>(n + 8, sweep_test::test_seed() + 96);
  for (std::size_t offset : {std::size_t(0), std::size_t(3)})
  {
    const std::string what = std::string(name) + " n=" + std::to_string(n) + " in+" + std::to_string(offset);
    INFO(what << ", seed = " << sweep_test::test_seed());
    thrust::device_vector<T> expected(n + 4), actual(n + 4);
    sweep_test::poison(expected);
    sweep_test::poison(actual);
    const auto e_end = thrust::copy_if(thrust::device, items.begin() + offset, items.begin() + offset + n,
                                       stencil.begin() + offset, expected.begin(), low_bit_set<std::uint32_t>{});
    const auto a_end = thrust::copy_if(sweep::par, items.begin() + offset, items.begin() + offset + n,
                                       stencil.begin() + offset, actual.begin(), low_bit_set<std::uint32_t>{});
    std::size_t count = static_cast<std::size_t>(e_end - expected.begin());
    REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == count);
    sweep_test::require_bitwise_equal(expected, actual, count, what + " stencil");
    sweep_test::require_poison_intact(actual, count, what + " stencil");

    sweep_test::poison(expected);
    sweep_test::poison(actual);
    const auto r_end = thrust::remove_copy_if(thrust::device, items.begin() + offset, items.begin() + offset + n,
                                              expected.begin(), low_bit_set<T>{});
    const auto s_end = thrust::remove_copy_if(sweep::par, items.begin() + offset, items.begin() + offset + n,
                                              actual.begin(), low_bit_set<T>{});
    count = static_cast<std::size_t>(r_end - expected.begin());
    REQUIRE(static_cast<std::size_t>(s_end - actual.begin()) == count);
    sweep_test::require_bitwise_equal(expected, actual, count, what + " remove_copy_if");
    sweep_test::require_poison_intact(actual, count, what + " remove_copy_if");
  }
}

} // namespace

TEST_CASE("copy_if of 1- and 2-byte items: crafted selection patterns match thrust", "[copy_if][small_items]")
{
  patterns<std::uint8_t>("uint8");
  patterns<std::int8_t>("int8");
  patterns<std::uint16_t>("uint16");
}

TEST_CASE("copy_if of 1- and 2-byte items: stencils and remove_copy_if match thrust", "[copy_if][small_items]")
{
  stencil_and_remove<std::uint8_t>("uint8");
  stencil_and_remove<std::uint16_t>("uint16");
}
