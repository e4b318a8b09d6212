// Host-only checks of sweep's histogram bin arithmetic: even bins identical to CUB's own
// ScaleTransform (called on the host) at the edges, range bins identical to an upper-bound search,
// the device's division shortcut exact, and argument validation. No GPU is touched.
#include <sweep/detail/histogram/bin_transforms.hpp>

#include "cub_bin_oracle.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace
{

using sweep::detail::histogram_impl::even_transform;

//! CUB's bin for `sample` (-1: not counted), from the ScaleTransform CUB's HistogramEven uses.
//! Returns false when CUB refuses the arguments (its integer overflow guard).
template <class SampleT, class LevelT>
bool cub_even_bin(int bins, LevelT lower, LevelT upper, SampleT sample, int& bin)
{
  sweep_test::cub_scale_transform<SampleT, LevelT> transform;
  if (!sweep_test::cub_init_scale<SampleT, LevelT>(transform, bins, lower, upper))
  {
    return false;
  }
  bin = -1;
  transform.template BinSelect<cub::LOAD_DEFAULT>(sample, bin, true);
  return true;
}

template <class SampleT, class LevelT>
void compare_even(int bins, LevelT lower, LevelT upper, const std::vector<SampleT>& samples)
{
  using op_t = even_transform<SampleT, LevelT>;
  REQUIRE(static_cast<bool>(op_t::check(bins, lower, upper)));
  const op_t op = op_t::make(bins, lower, upper);
  for (SampleT s : samples)
  {
    int expected = -1;
    if (!cub_even_bin(bins, lower, upper, s, expected))
    {
      continue; // CUB refuses these arguments; sweep's answer is the exact quotient (checked below)
    }
    if (expected >= bins)
    {
      expected = -1; // CUB's rounding overshoot, dropped by both (see even_transform)
    }
    INFO("bins " << bins << " lower " << +lower << " upper " << +upper << " sample " << +s);
    CHECK(op(s) == expected);
  }
}

//! Samples at and around every level, the bounds, and random values across (and past) the range.
template <class SampleT>
std::vector<SampleT> edge_samples(int bins, double lower, double upper, std::uint64_t seed)
{
  std::vector<SampleT> out;
  auto add = [&](double v) {
    if constexpr (std::is_integral<SampleT>::value)
    {
      if (v >= static_cast<double>(std::numeric_limits<SampleT>::lowest())
          && v <= static_cast<double>(std::numeric_limits<SampleT>::max()))
      {
        out.push_back(static_cast<SampleT>(v));
        if (v + 1 <= static_cast<double>(std::numeric_limits<SampleT>::max()))
        {
          out.push_back(static_cast<SampleT>(v + 1));
        }
        if (v - 1 >= static_cast<double>(std::numeric_limits<SampleT>::lowest()))
        {
          out.push_back(static_cast<SampleT>(v - 1));
        }
      }
    }
    else
    {
      const SampleT x = static_cast<SampleT>(v);
      out.push_back(x);
      out.push_back(std::nextafter(x, std::numeric_limits<SampleT>::infinity()));
      out.push_back(std::nextafter(x, -std::numeric_limits<SampleT>::infinity()));
    }
  };
  for (int i = 0; i <= std::min(bins, 4096); ++i)
  {
    add(lower + (upper - lower) * i / bins);
  }
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lower - (upper - lower) * 0.1, upper + (upper - lower) * 0.1);
  for (int i = 0; i < 2000; ++i)
  {
    add(std::floor(dist(gen)));
    add(dist(gen));
  }
  if constexpr (std::is_floating_point<SampleT>::value)
  {
    out.push_back(std::numeric_limits<SampleT>::quiet_NaN());
    out.push_back(std::numeric_limits<SampleT>::infinity());
    out.push_back(-std::numeric_limits<SampleT>::infinity());
    out.push_back(static_cast<SampleT>(-0.0));
  }
  return out;
}

} // namespace

TEST_CASE("even bins are CUB's, float and double", "[histogram][even]")
{
  for (int bins : {1, 2, 3, 7, 10, 255, 256, 257, 1000, 1024, 4096, 16384, 65536})
  {
    compare_even<float, float>(bins, 0.0f, 1.0f, edge_samples<float>(bins, 0, 1, bins));
    compare_even<float, float>(bins, -0.3f, 1.7f, edge_samples<float>(bins, -0.3, 1.7, bins + 1));
    compare_even<double, double>(bins, -2.5, 7.25, edge_samples<double>(bins, -2.5, 7.25, bins + 2));
    compare_even<int, float>(bins, -1000.0f, 3000.0f, edge_samples<int>(bins, -1000, 3000, bins + 3));
    compare_even<float, double>(bins, 0.1, 0.9, edge_samples<float>(bins, 0.1, 0.9, bins + 4));
  }
}

TEST_CASE("even bins are CUB's, integers of every width", "[histogram][even]")
{
  for (int bins : {1, 2, 3, 7, 100, 255, 256, 257, 1024, 65536})
  {
    compare_even<std::uint8_t, int>(bins, 0, 256, edge_samples<std::uint8_t>(bins, 0, 256, 1));
    compare_even<std::uint8_t, int>(bins, 10, 200, edge_samples<std::uint8_t>(bins, 10, 200, 2));
    compare_even<std::int8_t, int>(bins, -100, 100, edge_samples<std::int8_t>(bins, -100, 100, 3));
    compare_even<std::uint16_t, int>(bins, 17, 60000, edge_samples<std::uint16_t>(bins, 17, 60000, 4));
    compare_even<std::int16_t, int>(bins, -30000, 30000, edge_samples<std::int16_t>(bins, -30000, 30000, 5));
    compare_even<int, int>(bins, -1000003, 999999, edge_samples<int>(bins, -1000003, 999999, 6));
    compare_even<unsigned, unsigned>(bins, 5u, 4000000000u, edge_samples<unsigned>(bins, 5, 4e9, 7));
    compare_even<long long, long long>(bins, -(1ll << 40), (1ll << 40) - 1, edge_samples<long long>(bins, -(1ll << 40), (1ll << 40) - 1, 8));
    compare_even<unsigned long long, unsigned long long>(bins, 0ull, 100000000000000ull, edge_samples<unsigned long long>(bins, 0, 1e14, 9));
  }
  // Narrow common types (uint8 levels with uint8 samples: CUB computes in 32 bits).
  for (int bins : {1, 3, 100, 255})
  {
    compare_even<std::uint8_t, std::uint8_t>(bins, std::uint8_t(0), std::uint8_t(255), edge_samples<std::uint8_t>(bins, 0, 255, 10));
    compare_even<std::int16_t, std::int16_t>(bins, std::int16_t(-10000), std::int16_t(10000), edge_samples<std::int16_t>(bins, -10000, 10000, 11));
  }
}

TEST_CASE("even bins past CUB's overflow guard are the exact quotient", "[histogram][even]")
{
  using op_t = even_transform<std::uint64_t, std::uint64_t>;
  const std::uint64_t upper = std::numeric_limits<std::uint64_t>::max();
  const int bins            = 1000;
  const op_t op             = op_t::make(bins, 0, upper);
  CHECK(op.wide);
  int cub_bin = 0;
  CHECK_FALSE(cub_even_bin<std::uint64_t, std::uint64_t>(bins, 0, upper, 5, cub_bin)); // CUB refuses
  for (std::uint64_t s : {std::uint64_t(0), std::uint64_t(1), upper / 2, upper - 1, upper / bins, upper / bins + 1})
  {
    const unsigned __int128 exact = static_cast<unsigned __int128>(s) * bins / upper;
    CHECK(op(s) == static_cast<int>(exact));
  }
  CHECK(op(upper) == -1);
}

TEST_CASE("the device's estimated division equals integer division", "[histogram][even]")
{
  std::mt19937_64 gen(12345);
  for (std::uint64_t range : {std::uint64_t(1), std::uint64_t(3), std::uint64_t(255), std::uint64_t(60000),
                              std::uint64_t(4000000000ull), std::uint64_t(1) << 41, std::uint64_t(100000000000000ull),
                              std::uint64_t(1) << 53, (std::uint64_t(1) << 53) + 1})
  {
    for (std::uint64_t bins : {std::uint64_t(1), std::uint64_t(7), std::uint64_t(256), std::uint64_t(65536), std::uint64_t(58113)})
    {
      if (range > std::numeric_limits<std::uint64_t>::max() / bins)
      {
        continue;
      }
      const double inv = 1.0 / static_cast<double>(range);
      std::uniform_int_distribution<std::uint64_t> dist(0, range - 1);
      auto check = [&](std::uint64_t d) {
        const std::uint64_t p = d * bins;
        INFO("range " << range << " bins " << bins << " d " << d);
        CHECK(sweep::detail::histogram_impl::floor_div_estimated(p, range, inv) == p / range);
      };
      for (std::uint64_t k = 0; k < std::min<std::uint64_t>(bins, 300); ++k)
      {
        // d just below, at and above each bin boundary
        const std::uint64_t edge = static_cast<std::uint64_t>((static_cast<unsigned __int128>(k) * range + bins - 1) / bins);
        for (std::uint64_t d : {edge - 1, edge, edge + 1})
        {
          if (d < range)
          {
            check(d);
          }
        }
      }
      for (int i = 0; i < 500; ++i)
      {
        check(dist(gen));
      }
      check(range - 1);
    }
  }
}

TEST_CASE("range bins are an upper-bound search; levels are validated", "[histogram][range]")
{
  using sweep::detail::histogram_impl::check_levels;
  using sweep::detail::histogram_impl::range_transform;
  const std::vector<float> levels = {-1.0f, 0.0f, 0.0f, 0.5f, 2.0f, 10.0f};
  const range_transform<float, float> op{levels.data(), static_cast<int>(levels.size())};
  for (float s : {-2.0f, -1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f, 2.0f, 9.99f, 10.0f, 11.0f, std::nanf("")})
  {
    const int ub       = static_cast<int>(std::upper_bound(levels.begin(), levels.end(), s) - levels.begin());
    int expected       = ub - 1;
    if (expected >= static_cast<int>(levels.size()) - 1 || std::isnan(s))
    {
      expected = -1;
    }
    INFO("sample " << s);
    CHECK(op(s) == expected);
  }
  CHECK(static_cast<bool>(check_levels(levels.data(), 6)));
  CHECK_FALSE(static_cast<bool>(check_levels(levels.data(), 1)));
  const std::vector<float> descending = {0.0f, 2.0f, 1.0f};
  CHECK_FALSE(static_cast<bool>(check_levels(descending.data(), 3)));
  const std::vector<float> with_nan = {0.0f, std::nanf(""), 1.0f};
  CHECK_FALSE(static_cast<bool>(check_levels(with_nan.data(), 3)));
  // int levels, double samples: samples are converted to the level type first (as CUB does)
  const std::vector<int> int_levels = {0, 10, 20};
  const range_transform<double, int> iop{int_levels.data(), 3};
  CHECK(iop(9.9) == 0);
  CHECK(iop(10.0) == 1);
  CHECK(iop(19.999) == 1);
  CHECK(iop(20.5) == -1); // converts to 20, not below the last level
}

TEST_CASE("even and index arguments are validated", "[histogram][errors]")
{
  using sweep::detail::histogram_impl::check_num_bins;
  using sweep::detail::histogram_impl::index_transform;
  using ef = even_transform<float, float>;
  CHECK_FALSE(static_cast<bool>(ef::check(0, 0.0f, 1.0f)));
  CHECK_FALSE(static_cast<bool>(ef::check(-1, 0.0f, 1.0f)));
  CHECK_FALSE(static_cast<bool>(ef::check(4, 1.0f, 1.0f)));
  CHECK_FALSE(static_cast<bool>(ef::check(4, 1.0f, 0.0f)));
  CHECK_FALSE(static_cast<bool>(ef::check(4, std::nanf(""), 1.0f)));
  CHECK_FALSE(static_cast<bool>(ef::check(4, -std::numeric_limits<float>::infinity(), 1.0f)));
  CHECK_FALSE(static_cast<bool>(ef::check(4, -3e38f, 3e38f))); // upper - lower overflows to inf
  CHECK(static_cast<bool>(ef::check(4, 0.0f, 1.0f)));
  CHECK_FALSE(static_cast<bool>(even_transform<std::uint8_t, std::uint8_t>::check(256, 0, 255)));
  CHECK(static_cast<bool>(even_transform<std::uint8_t, int>::check(256, 0, 256)));
  CHECK_FALSE(static_cast<bool>(check_num_bins(0)));
  CHECK(static_cast<bool>(check_num_bins(1)));
  const index_transform<int> idx{10};
  CHECK(idx(-1) == -1);
  CHECK(idx(0) == 0);
  CHECK(idx(9) == 9);
  CHECK(idx(10) == -1);
  const index_transform<std::uint64_t> big{10};
  CHECK(big(std::uint64_t(1) << 40) == -1);
}
