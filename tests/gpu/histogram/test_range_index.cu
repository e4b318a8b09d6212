// sweep::histogram_range against cub::DeviceHistogram::HistogramRange, and sweep::histogram (bin
// indices) against a host count; bad levels and bin counts throw.
#include "histogram_test_common.cuh"

#include <algorithm>
#include <random>

namespace
{

template <class LevelT>
thrust::device_vector<LevelT> ascending_levels(int count, double lo, double hi, std::uint64_t seed)
{
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<LevelT> levels(static_cast<std::size_t>(count));
  for (auto& l : levels)
  {
    l = static_cast<LevelT>(dist(gen));
  }
  std::sort(levels.begin(), levels.end());
  return thrust::device_vector<LevelT>(levels.begin(), levels.end());
}

template <class T, class LevelT, class Counter>
void check_range(std::size_t n, int num_levels, double lo, double hi, bool skewed)
{
  const auto samples = sweep_test::make_samples<T>(n, lo, hi, skewed, sweep_test::test_seed() + n);
  const auto levels  = ascending_levels<LevelT>(num_levels, lo, hi, sweep_test::test_seed() + num_levels);
  const auto expected = sweep_test::cub_range<Counter>(samples, levels);
  const int bins      = num_levels - 1;
  thrust::device_vector<Counter> actual(static_cast<std::size_t>(bins) + 8);
  sweep_test::poison(actual);
  auto end = sweep::histogram_range(sweep::par, samples.begin(), samples.end(), levels.begin(), levels.end(), actual.begin());
  REQUIRE(end == actual.begin() + bins);
  sweep_test::require_counts(expected, actual, bins, "histogram_range n=" + std::to_string(n) + " levels=" + std::to_string(num_levels));
}

} // namespace

TEST_CASE("histogram_range matches CUB", "[histogram][range]")
{
  for (int levels : {2, 3, 256, 257, 258, 1025, 4097, 65537})
  {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(16383), std::size_t(16385), std::size_t(1) << 20})
    {
      check_range<std::uint8_t, int, unsigned>(n, levels, 0, 256, false);
      check_range<float, float, int>(n, levels, -1, 3, false);
      check_range<int, int, unsigned long long>(n, levels, -50000, 50000, false);
      check_range<double, double, unsigned>(n, levels, -1e6, 1e6, false);
    }
    check_range<float, float, int>(1 << 20, levels, -1, 3, true);
    check_range<short, int, int>(1 << 20, levels, -3000, 3000, true);
  }
  check_range<float, float, int>(1 << 16, sweep_test::bins_above_shared_limit() + 1, -1, 3, false);
}

TEST_CASE("histogram_range: host policy agrees; bad levels throw", "[histogram][range][errors]")
{
  const auto samples = sweep_test::make_samples<float>(100000, -1, 3, false, sweep_test::test_seed());
  const auto levels  = ascending_levels<float>(100, -1, 3, sweep_test::test_seed());
  const auto expected = sweep_test::cub_range<int>(samples, levels);
  thrust::host_vector<float> hs = samples;
  thrust::host_vector<float> hl = levels;
  thrust::host_vector<int> hc(99);
  sweep::histogram_range(thrust::host, hs.begin(), hs.end(), hl.begin(), hl.end(), hc.begin());
  thrust::host_vector<int> he = expected;
  sweep_test::require_bitwise_equal(he, hc, 99, "histogram_range thrust::host");

  thrust::device_vector<int> counts(16);
  thrust::device_vector<float> one(1, 0.5f);
  CHECK_THROWS_AS(sweep::histogram_range(sweep::par, samples.begin(), samples.end(), one.begin(), one.end(), counts.begin()), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram_range(sweep::par, samples.begin(), samples.end(), one.begin(), one.begin(), counts.begin()), std::invalid_argument);
  std::vector<float> bad = {0.0f, 2.0f, 1.0f, 3.0f};
  thrust::device_vector<float> d_bad(bad.begin(), bad.end());
  CHECK_THROWS_AS(sweep::histogram_range(sweep::par, samples.begin(), samples.end(), d_bad.begin(), d_bad.end(), counts.begin()), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram_range(thrust::device, samples.begin(), samples.end(), d_bad.begin(), d_bad.end(), counts.begin()), std::invalid_argument);
  bad[2] = std::numeric_limits<float>::quiet_NaN();
  thrust::device_vector<float> d_nan(bad.begin(), bad.end());
  CHECK_THROWS_AS(sweep::histogram_range(sweep::par, samples.begin(), samples.end(), d_nan.begin(), d_nan.end(), counts.begin()), std::invalid_argument);
  thrust::host_vector<float> h_bad(bad.begin(), bad.end());
  CHECK_THROWS_AS(sweep::histogram_range(thrust::host, hs.begin(), hs.end(), h_bad.begin(), h_bad.end(), hc.begin()), std::invalid_argument);
}

namespace
{

template <class T, class Counter>
void check_index(std::size_t n, int bins, bool skewed)
{
  // Samples from -bins/8 to 9*bins/8: some negative (signed types), some >= bins.
  const double lo = std::is_signed<T>::value ? -bins / 8.0 - 1 : 0;
  const auto samples = sweep_test::make_samples<T>(n, lo, bins * 9.0 / 8.0 + 1, skewed, sweep_test::test_seed() + n);
  thrust::host_vector<T> h = samples;
  thrust::host_vector<Counter> expected(static_cast<std::size_t>(bins), 0);
  for (T v : h)
  {
    if (!(static_cast<double>(v) < 0.0) && static_cast<std::uint64_t>(v) < static_cast<std::uint64_t>(bins))
    {
      ++expected[static_cast<std::size_t>(v)];
    }
  }
  thrust::device_vector<Counter> actual(static_cast<std::size_t>(bins) + 8);
  sweep_test::poison(actual);
  auto end = sweep::histogram(sweep::par, samples.begin(), samples.end(), actual.begin(), bins);
  REQUIRE(end == actual.begin() + bins);
  thrust::host_vector<Counter> got(actual.begin(), actual.begin() + bins);
  sweep_test::require_bitwise_equal(expected, got, static_cast<std::size_t>(bins), "histogram n=" + std::to_string(n) + " bins=" + std::to_string(bins));
  sweep_test::require_poison_intact(actual, static_cast<std::size_t>(bins), "histogram");
  thrust::host_vector<Counter> host_counts(static_cast<std::size_t>(bins));
  sweep::histogram(thrust::host, h.begin(), h.end(), host_counts.begin(), bins);
  sweep_test::require_bitwise_equal(expected, host_counts, static_cast<std::size_t>(bins), "histogram thrust::host");
}

} // namespace

TEST_CASE("histogram (bin indices) matches a host count", "[histogram][index]")
{
  for (int bins : {1, 2, 255, 256, 257, 1024, 4096, 65536, sweep_test::bins_above_shared_limit()})
  {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2047), std::size_t(2049), std::size_t(1) << 20})
    {
      check_index<int, int>(n, bins, false);
      check_index<std::uint32_t, unsigned long long>(n, bins, false);
      check_index<std::int64_t, unsigned>(n, bins, false);
    }
    check_index<std::uint8_t, int>(100001, std::min(bins, 255), false);
    check_index<std::int8_t, unsigned>(100001, std::min(bins, 127), true);
    check_index<std::uint16_t, int>(100001, bins, true);
    check_index<int, int>(1 << 20, bins, true);
  }
  thrust::device_vector<int> s(10, 1);
  thrust::device_vector<int> c(10);
  CHECK_THROWS_AS(sweep::histogram(sweep::par, s.begin(), s.end(), c.begin(), 0), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram(thrust::device, s.begin(), s.end(), c.begin(), -1), std::invalid_argument);
}

TEST_CASE("histogram_range counts negative int8 samples", "[histogram][range]")
{
  // Exact host reference (upper-bound search), not CUB: CUB 3.0.1 drops every negative int8 sample
  // (cub_sample_loss.hpp). Every int8 value 41 times; 127 is at the last level, so not counted.
  std::vector<std::int8_t> samples;
  for (int k = 0; k < 41; ++k)
  {
    for (int v = -128; v < 128; ++v)
    {
      samples.push_back(static_cast<std::int8_t>(v ^ (k & 0x33)));
    }
  }
  const std::vector<int> levels = {-128, -100, -50, -1, 0, 1, 60, 127};
  const int bins                = static_cast<int>(levels.size()) - 1;
  thrust::host_vector<int> expected(static_cast<std::size_t>(bins), 0);
  for (std::int8_t s : samples)
  {
    const int bin = static_cast<int>(std::upper_bound(levels.begin(), levels.end(), int{s}) - levels.begin()) - 1;
    if (bin >= 0 && bin < bins)
    {
      ++expected[static_cast<std::size_t>(bin)];
    }
  }
  const thrust::device_vector<std::int8_t> d_samples(samples.begin(), samples.end());
  const thrust::device_vector<int> d_levels(levels.begin(), levels.end());
  thrust::device_vector<int> actual(static_cast<std::size_t>(bins) + 8);
  sweep_test::poison(actual);
  sweep::histogram_range(sweep::par, d_samples.begin(), d_samples.end(), d_levels.begin(), d_levels.end(), actual.begin());
  thrust::host_vector<int> got(actual.begin(), actual.begin() + bins);
  sweep_test::require_bitwise_equal(expected, got, static_cast<std::size_t>(bins), "int8 range");
  sweep_test::require_poison_intact(actual, static_cast<std::size_t>(bins), "int8 range");
  CHECK(expected[0] == 28 * 41); // -128..-101: the negative samples are really in the reference
}
