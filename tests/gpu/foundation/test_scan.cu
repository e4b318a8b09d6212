// The single-pass exclusive sum on the look-back core, against thrust::exclusive_scan.
#include <sweep/sweep.cuh>

#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/logical.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include "common/test_utils.cuh"
#include "lookback_scan.cuh"

#include <cstdint>

namespace
{
struct to_u64
{
  template <class T>
  __host__ __device__ unsigned long long operator()(T x) const
  {
    return static_cast<unsigned long long>(x);
  }
};

template <class In>
void check_scan(std::size_t n, std::uint64_t seed)
{
  INFO("n = " << n << ", seed = " << seed);
  auto input = sweep_test::random_vector<In>(n, seed);
  thrust::device_vector<unsigned long long> expected(n), actual(n);
  thrust::exclusive_scan(thrust::device,
                         thrust::make_transform_iterator(input.begin(), to_u64{}),
                         thrust::make_transform_iterator(input.end(), to_u64{}),
                         expected.begin());
  sweep_test::poison(actual);
  sweep_test::exclusive_sum(sweep::par, input.begin(), n, thrust::raw_pointer_cast(actual.data()));
  REQUIRE(thrust::equal(thrust::device, expected.begin(), expected.end(), actual.begin()));
}
} // namespace

TEST_CASE("exclusive_sum matches thrust::exclusive_scan at the edge sizes", "[scan]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : sweep_test::edge_sizes(sweep_test::scan_tuning::tile_items))
  {
    check_scan<std::uint32_t>(n, seed + n);
  }
}

TEST_CASE("exclusive_sum over many tile counts and input types", "[scan]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t tiles : {2, 3, 31, 32, 33, 63, 64, 65, 1000, 4097})
  {
    const std::size_t n = tiles * sweep_test::scan_tuning::tile_items - tiles / 2;
    check_scan<std::uint8_t>(n, seed ^ tiles);
    check_scan<std::uint16_t>(n, seed + tiles);
  }
  check_scan<std::uint32_t>(std::size_t(1) << 24, seed);
}

TEST_CASE("exclusive_sum is deterministic over 100 repeats", "[scan]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = (std::size_t(1) << 24) + 12345;
  INFO("seed = " << seed);
  auto input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<unsigned long long> first(n), again(n);
  sweep_test::exclusive_sum(sweep::par, input.begin(), n, thrust::raw_pointer_cast(first.data()));
  int mismatches = 0;
  for (int repeat = 0; repeat < 100; ++repeat)
  {
    sweep_test::poison(again);
    sweep_test::exclusive_sum(sweep::par, input.begin(), n, thrust::raw_pointer_cast(again.data()));
    if (!thrust::equal(thrust::device, first.begin(), first.end(), again.begin()))
    {
      ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("exclusive_sum past 2^31 items", "[scan][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  if (!sweep_test::device_has_memory(n * (1 + 2 * sizeof(unsigned long long))))
  {
    WARN("not enough device memory for the > 2^31 test; skipped");
    return;
  }
  check_scan<std::uint8_t>(n, sweep_test::test_seed());
}
