// copy_if on sweep::par against thrust::device: every value type, edge sizes, selectivities, and
// misaligned input/output starts (the vector paths' head and tail handling).
#include "copy_if_test.cuh"

#include <sweep/detail/copy_if/plan.hpp>

#include <cmath>
#include <limits>

using namespace sweep_test;

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
