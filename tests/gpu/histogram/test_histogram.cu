// The histograms: histogram_even, histogram_range, the index histogram, large block histograms,
// graphs, and their tuning.
#include "histogram_test_common.cuh"

#include <thrust/iterator/transform_iterator.h>
#include <utility>
#include <algorithm>
#include <random>
#include <sweep/block_histogram.cuh>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/sequence.h>
#include <sweep/detail/histogram/agent.cuh>
#include <sweep/detail/histogram/dispatch.cuh>
#include <sweep/detail/histogram/kernels.cuh>
#include <sweep/detail/histogram/tuning.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// sweep::histogram_even against cub::DeviceHistogram::HistogramEven: sample types, bin counts up to
// past the shared-memory limit, edge sizes, uniform and skewed data, out-of-range samples and NaN.

namespace
{

template <class T>
struct even_case;
// sample type -> level type and [lower, upper) as CUB users would pass them
template <> struct even_case<std::uint8_t> { using level = int; static constexpr double lo = 0, hi = 256; };
template <> struct even_case<std::int8_t> { using level = int; static constexpr double lo = -100, hi = 100; };
template <> struct even_case<std::uint16_t> { using level = int; static constexpr double lo = 17, hi = 60000; };
template <> struct even_case<std::int16_t> { using level = int; static constexpr double lo = -30000, hi = 30000; };
template <> struct even_case<std::int32_t> { using level = int; static constexpr double lo = -1000003, hi = 999999; };
template <> struct even_case<std::uint32_t> { using level = unsigned; static constexpr double lo = 5, hi = 4000000000.0; };
template <> struct even_case<std::int64_t> { using level = long long; static constexpr double lo = -1099511627776.0, hi = 1099511627775.0; };
template <> struct even_case<std::uint64_t> { using level = unsigned long long; static constexpr double lo = 0, hi = 1e14; };
template <> struct even_case<float> { using level = float; static constexpr double lo = 0, hi = 1; };
template <> struct even_case<double> { using level = double; static constexpr double lo = -2.5, hi = 7.25; };

template <class T, class Counter>
void check_even(std::size_t n, int bins, bool skewed)
{
  using level_t        = typename even_case<T>::level;
  const level_t lower  = static_cast<level_t>(even_case<T>::lo);
  const level_t upper  = static_cast<level_t>(even_case<T>::hi);
  const auto samples   = sweep_test::make_samples<T>(n, even_case<T>::lo, even_case<T>::hi, skewed, sweep_test::test_seed() + n);
  const auto expected  = sweep_test::cub_even<Counter>(samples, bins, lower, upper);
  thrust::device_vector<Counter> actual(static_cast<std::size_t>(bins) + 8);
  sweep_test::poison(actual);
  auto end = sweep::histogram_even(sweep::par, samples.begin(), samples.end(), actual.begin(), bins, lower, upper);
  REQUIRE(end == actual.begin() + bins);
  sweep_test::require_counts(expected, actual, bins, "histogram_even n=" + std::to_string(n) + " bins=" + std::to_string(bins) + (skewed ? " skewed" : " uniform"));
}

} // namespace

TEMPLATE_TEST_CASE("histogram_even matches CUB",
                   "[histogram][even]",
                   (std::pair<std::uint8_t, int>),
                   (std::pair<std::int8_t, unsigned>),
                   (std::pair<std::uint16_t, unsigned long long>),
                   (std::pair<std::int16_t, int>),
                   (std::pair<std::int32_t, unsigned>),
                   (std::pair<std::uint32_t, int>),
                   (std::pair<std::int64_t, unsigned long long>),
                   (std::pair<std::uint64_t, unsigned>),
                   (std::pair<float, int>),
                   (std::pair<double, unsigned long long>))
{
  using T       = typename TestType::first_type;
  using Counter = typename TestType::second_type;
  const std::size_t tile = 256 * (sizeof(T) <= 2 ? 64 : 32) / sizeof(T);
  const std::vector<int> bin_counts = {1, 2, 255, 256, 257, 1024, 4096, 65536, sweep_test::bins_above_shared_limit()};
  for (int bins : bin_counts)
  {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(33), tile - 1, tile + 1, 7 * tile + 5, std::size_t(1) << 20})
    {
      check_even<T, Counter>(n, bins, false);
    }
    check_even<T, Counter>(3 * tile + 1, bins, true);
    check_even<T, Counter>(std::size_t(1) << 20, bins, true);
  }
}

namespace
{
struct identity_float
{
  __host__ __device__ float operator()(float x) const
  {
    return x;
  }
};
} // namespace

TEST_CASE("histogram_even: unaligned pointers, non-pointer iterators, every policy", "[histogram][even]")
{
  const std::size_t n  = 1000003;
  const auto bytes     = sweep_test::make_samples<std::uint8_t>(n, 0, 256, false, sweep_test::test_seed());
  const auto floats    = sweep_test::make_samples<float>(n, 0, 1, false, sweep_test::test_seed() + 1);
  for (std::size_t shift : {1, 3, 15})
  {
    thrust::device_vector<std::uint8_t> tail(bytes.begin() + shift, bytes.end());
    const auto expected = sweep_test::cub_even<unsigned>(tail, 256, 0, 256);
    thrust::device_vector<unsigned> actual(264);
    sweep_test::poison(actual);
    sweep::histogram_even(sweep::par, bytes.begin() + shift, bytes.end(), actual.begin(), 256, 0, 256);
    sweep_test::require_counts(expected, actual, 256, "uint8 from an unaligned start");
  }
  const auto expected = sweep_test::cub_even<int>(floats, 1000, 0.0f, 1.0f);
  auto check = [&](auto&& policy, const char* what) {
    thrust::device_vector<int> actual(1008);
    sweep_test::poison(actual);
    sweep::histogram_even(policy, floats.begin(), floats.end(), actual.begin(), 1000, 0.0f, 1.0f);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    sweep_test::require_counts(expected, actual, 1000, what);
  };
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  check(sweep::par, "sweep::par");
  check(sweep::par.on(stream), "sweep::par.on");
  check(sweep::par_nosync.on(stream), "sweep::par_nosync.on");
  check(thrust::device, "thrust::device");
  check(thrust::cuda::par.on(stream), "thrust::cuda::par.on");
  check(thrust::cuda::par_nosync.on(stream), "thrust::cuda::par_nosync.on");
  cudaStreamDestroy(stream);

  // A transform iterator is not contiguous: the scalar-load path.
  thrust::device_vector<int> actual(1008);
  sweep_test::poison(actual);
  auto it = thrust::make_transform_iterator(floats.begin(), identity_float{});
  sweep::histogram_even(sweep::par, it, it + n, actual.begin(), 1000, 0.0f, 1.0f);
  sweep_test::require_counts(expected, actual, 1000, "transform_iterator samples");

  // Host policy: the same counts from host data.
  thrust::host_vector<float> host_samples = floats;
  thrust::host_vector<int> host_counts(1000);
  sweep::histogram_even(thrust::host, host_samples.begin(), host_samples.end(), host_counts.begin(), 1000, 0.0f, 1.0f);
  thrust::host_vector<int> expected_host = expected;
  sweep_test::require_bitwise_equal(expected_host, host_counts, 1000, "thrust::host");
  std::vector<int> seq_counts(1000);
  sweep::histogram_even(thrust::seq, host_samples.begin(), host_samples.end(), seq_counts.begin(), 1000, 0.0f, 1.0f);
  REQUIRE(std::equal(seq_counts.begin(), seq_counts.end(), expected_host.begin()));
}

TEST_CASE("histogram_even: boundary samples land in CUB's bins", "[histogram][even]")
{
  // Values exactly on level boundaries, just below them, the largest float below upper, lower
  // itself, upper itself (not counted), NaN and infinities (not counted), -0.0.
  std::vector<float> values = {0.0f, -0.0f, 1.0f, std::nextafter(1.0f, 0.0f), std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
  for (int bins : {3, 7, 10, 256, 1000, 1024})
  {
    for (int i = 0; i <= bins; ++i)
    {
      const float edge = static_cast<float>(i) / static_cast<float>(bins);
      values.push_back(edge);
      values.push_back(std::nextafter(edge, 0.0f));
      values.push_back(std::nextafter(edge, 2.0f));
    }
  }
  thrust::device_vector<float> samples(values.begin(), values.end());
  for (int bins : {3, 7, 10, 256, 1000, 1024})
  {
    const auto expected = sweep_test::cub_even<int>(samples, bins, 0.0f, 1.0f);
    thrust::device_vector<int> actual(bins + 8);
    sweep_test::poison(actual);
    sweep::histogram_even(sweep::par, samples.begin(), samples.end(), actual.begin(), bins, 0.0f, 1.0f);
    sweep_test::require_counts(expected, actual, bins, "float boundaries, bins=" + std::to_string(bins));
  }
  // Integer samples at the edges of a range that does not divide evenly.
  std::vector<int> ints;
  for (int v = -20; v <= 120; ++v)
  {
    ints.push_back(v);
  }
  thrust::device_vector<int> int_samples(ints.begin(), ints.end());
  for (int bins : {1, 3, 7, 33, 100})
  {
    const auto expected = sweep_test::cub_even<unsigned>(int_samples, bins, -7, 101);
    thrust::device_vector<unsigned> actual(bins + 8);
    sweep_test::poison(actual);
    sweep::histogram_even(sweep::par, int_samples.begin(), int_samples.end(), actual.begin(), bins, -7, 101);
    sweep_test::require_counts(expected, actual, bins, "int boundaries, bins=" + std::to_string(bins));
  }
}

TEST_CASE("histogram_even: bad arguments throw std::invalid_argument", "[histogram][even][errors]")
{
  thrust::device_vector<float> samples(10, 0.5f);
  thrust::device_vector<int> counts(10);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(sweep::histogram_even(sweep::par, samples.begin(), samples.end(), counts.begin(), 0, 0.0f, 1.0f), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram_even(sweep::par, samples.begin(), samples.end(), counts.begin(), -3, 0.0f, 1.0f), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram_even(sweep::par, samples.begin(), samples.end(), counts.begin(), 4, 1.0f, 1.0f), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram_even(sweep::par, samples.begin(), samples.end(), counts.begin(), 4, 2.0f, 1.0f), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram_even(sweep::par, samples.begin(), samples.end(), counts.begin(), 4, nan, 1.0f), std::invalid_argument);
  CHECK_THROWS_AS(sweep::histogram_even(thrust::device, samples.begin(), samples.end(), counts.begin(), 4, 0.0f, nan), std::invalid_argument);
  thrust::host_vector<float> h(10, 0.5f);
  thrust::host_vector<int> hc(10);
  CHECK_THROWS_AS(sweep::histogram_even(thrust::host, h.begin(), h.end(), hc.begin(), 0, 0.0f, 1.0f), std::invalid_argument);
  // Empty input writes zeros.
  thrust::device_vector<int> zeros(4, 77);
  sweep::histogram_even(sweep::par, samples.begin(), samples.begin(), zeros.begin(), 4, 0.0f, 1.0f);
  thrust::host_vector<int> hz = zeros;
  CHECK((hz[0] == 0 && hz[1] == 0 && hz[2] == 0 && hz[3] == 0));
}

TEST_CASE("histogram_even/range: negative int8 samples and int16 bins past 32767 are counted", "[histogram][even][range]")
{
  // Exact host references, not CUB: CUB 3.0.1 drops exactly these samples (cub_sample_loss.hpp).
  // Every int8 value `copies` times, interleaved: each of 256 bins over [-128, 128) gets `copies`.
  const int copies = 37;
  std::vector<std::int8_t> bytes;
  for (int k = 0; k < copies; ++k)
  {
    for (int v = -128; v < 128; ++v)
    {
      bytes.push_back(static_cast<std::int8_t>(v ^ (k & 0x55))); // a permutation of the 256 values
    }
  }
  const thrust::device_vector<std::int8_t> d_bytes(bytes.begin(), bytes.end());
  {
    thrust::device_vector<unsigned> actual(256 + 8);
    sweep_test::poison(actual);
    sweep::histogram_even(sweep::par, d_bytes.begin(), d_bytes.end(), actual.begin(), 256, -128, 128);
    const thrust::host_vector<unsigned> expected(256, copies);
    thrust::host_vector<unsigned> got(actual.begin(), actual.begin() + 256);
    sweep_test::require_bitwise_equal(expected, got, 256, "int8 even, every value");
    sweep_test::require_poison_intact(actual, 256, "int8 even, every value");
  }
  {
    // [-100, 100) in 7 bins: bin = (s + 100) * 7 / 200; samples outside are not counted.
    thrust::device_vector<unsigned> actual(7 + 8);
    sweep_test::poison(actual);
    sweep::histogram_even(sweep::par, d_bytes.begin(), d_bytes.end(), actual.begin(), 7, -100, 100);
    thrust::host_vector<unsigned> expected(7, 0);
    for (int v = -100; v < 100; ++v)
    {
      expected[static_cast<std::size_t>((v + 100) * 7 / 200)] += copies;
    }
    thrust::host_vector<unsigned> got(actual.begin(), actual.begin() + 7);
    sweep_test::require_bitwise_equal(expected, got, 7, "int8 even [-100, 100), 7 bins");
    sweep_test::require_poison_intact(actual, 7, "int8 even [-100, 100), 7 bins");
  }
  // Every int16 value once, bins of width 1 over [-32768, 32768): bins 32768..65535 hold the
  // non-negative values.
  thrust::device_vector<std::int16_t> shorts(65536);
  thrust::transform(thrust::device,
                    thrust::counting_iterator<int>(0),
                    thrust::counting_iterator<int>(65536),
                    shorts.begin(),
                    [] __device__(int i) { return static_cast<std::int16_t>(((i * 40503) & 0xffff) - 32768); });
  thrust::device_vector<int> actual(65536 + 8);
  sweep_test::poison(actual);
  sweep::histogram_even(sweep::par, shorts.begin(), shorts.end(), actual.begin(), 65536, -32768, 32768);
  const thrust::host_vector<int> ones(65536, 1);
  thrust::host_vector<int> got(actual.begin(), actual.begin() + 65536);
  sweep_test::require_bitwise_equal(ones, got, 65536, "int16 even, every value, 65536 bins");
  sweep_test::require_poison_intact(actual, 65536, "int16 even, every value, 65536 bins");
}

// --------------------------------------------------------------------------------------------------
// sweep::histogram_range against cub::DeviceHistogram::HistogramRange, and sweep::histogram (bin
// indices) against a host count; bad levels and bin counts throw.

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

// --------------------------------------------------------------------------------------------------
// sweep::block_histogram in a user-style kernel (partial tiles by count and by mask, both tail
// designs), and a > 2^32-sample histogram whose one bin passes 2^32 in 64-bit counters.

namespace
{

constexpr int threads = 128;
constexpr int items   = 4;
constexpr int bins    = 64;
constexpr int tile    = threads * items;

//! One block per tile of bin indices; tile b's histogram goes to out[b * bins ...]. The last tile
//! is partial (by count), or (mask) only even-ranked items are valid.
template <sweep::block_histogram_tail Tail, bool Mask>
__global__ void user_kernel(const int* bin_indices, int n, unsigned* out)
{
  using block_hist = sweep::block_histogram<int, threads, items, bins, unsigned, Tail>;
  __shared__ typename block_hist::temp_storage storage;
  __shared__ unsigned histogram[bins];
  const int base  = blockIdx.x * tile;
  const int valid = min(tile, n - base);
  int values[items];
  bool flags[items];
  for (int k = 0; k < items; ++k)
  {
    const int rank = threadIdx.x * items + k; // blocked arrangement
    // Invalid slots hold garbage bin numbers that must never be counted or dereferenced.
    values[k] = rank < valid ? bin_indices[base + rank] : 0x7fff0000 + rank;
    flags[k]  = rank < valid && (rank % 2 == 0);
  }
  block_hist h(storage);
  h.init_histogram(histogram);
  if constexpr (Mask)
  {
    h.composite(values, histogram, flags);
  }
  else
  {
    h.composite(values, histogram, valid);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += threads)
  {
    out[blockIdx.x * bins + b] = histogram[b];
  }
}

template <sweep::block_histogram_tail Tail, bool Mask>
void check_block(int n)
{
  INFO("n = " << n << ", mask = " << Mask << ", seed = " << sweep_test::test_seed());
  const auto samples = sweep_test::make_samples<int>(static_cast<std::size_t>(n), 0, bins, false, sweep_test::test_seed());
  thrust::host_vector<int> h = samples;
  for (int& v : h)
  {
    v = ((v % bins) + bins) % bins; // the primitive takes in-range bin indices
  }
  thrust::device_vector<int> d = h;
  const int blocks = (n + tile - 1) / tile;
  thrust::device_vector<unsigned> out(static_cast<std::size_t>(blocks) * bins);
  user_kernel<Tail, Mask><<<blocks, threads>>>(thrust::raw_pointer_cast(d.data()), n, thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  thrust::host_vector<unsigned> expected(out.size(), 0);
  for (int i = 0; i < n; ++i)
  {
    if (!Mask || (i % tile) % 2 == 0)
    {
      ++expected[static_cast<std::size_t>(i / tile) * bins + h[i]];
    }
  }
  thrust::host_vector<unsigned> got = out;
  sweep_test::require_bitwise_equal(expected, got, expected.size(), "block_histogram");
}

} // namespace

TEST_CASE("block_histogram in a user kernel with partial tiles", "[histogram][block]")
{
  for (int n : {1, tile - 1, tile, tile + 1, 7 * tile + 77})
  {
    check_block<sweep::block_histogram_tail::guard_bin, false>(n);
    check_block<sweep::block_histogram_tail::guard_bin, true>(n);
    check_block<sweep::block_histogram_tail::subtract_padding, false>(n);
    check_block<sweep::block_histogram_tail::subtract_padding, true>(n);
  }
}

namespace
{
// 2^32 + 2^23 + 4097 samples through an iterator: one in every 1000 is 200, the others are 7, so
// bin 7 passes 2^32 (the H200 run of commit 51c68cc had n = 2^32 + 4097 with one in five at 200:
// bin 7 then held 4/5 of n = 3435977114 < 2^32, correct, and the test's expectation was wrong).
constexpr std::uint64_t large_n       = (std::uint64_t(1) << 32) + (std::uint64_t(1) << 23) + 4097;
constexpr std::uint64_t large_stride  = 1000;
constexpr std::uint64_t large_count_200 = (large_n + large_stride - 1) / large_stride; // i % 1000 == 0 in [0, n)
constexpr std::uint64_t large_count_7   = large_n - large_count_200;
static_assert(large_count_7 > (std::uint64_t(1) << 32), "the input must put more than 2^32 samples in bin 7");
static_assert(large_count_7 == 4299056640ull, "n = 4303360001, 4303361 samples at 200");

struct byte_of_index
{
  __host__ __device__ std::uint8_t operator()(std::uint64_t i) const
  {
    return (i % large_stride == 0) ? std::uint8_t(200) : std::uint8_t(7);
  }
};
} // namespace

TEST_CASE("histogram of more than 2^32 samples: a 64-bit bin passes 2^32", "[histogram][large]")
{
  const std::uint64_t n = large_n;
  // Through an iterator (no memory needed).
  auto it = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), byte_of_index{});
  thrust::device_vector<unsigned long long> counts(256 + 8);
  sweep_test::poison(counts);
  sweep::histogram_even(sweep::par, it, it + n, counts.begin(), 256, 0, 256);
  thrust::host_vector<unsigned long long> h(counts.begin(), counts.begin() + 256);
  CHECK(h[200] == large_count_200);
  CHECK(h[7] == large_count_7);
  CHECK(h[7] > (std::uint64_t(1) << 32));
  std::uint64_t others = 0;
  for (int b = 0; b < 256; ++b)
  {
    others += (b == 7 || b == 200) ? 0 : h[b];
  }
  CHECK(others == 0);
  sweep_test::require_poison_intact(counts, 256, "large histogram");

  // From memory (the vector-load path), when the device has room: all samples one value.
  if (sweep_test::device_has_memory(n))
  {
    thrust::device_vector<std::uint8_t> bytes(n);
    REQUIRE(cudaMemset(thrust::raw_pointer_cast(bytes.data()), 42, n) == cudaSuccess);
    thrust::device_vector<unsigned long long> c2(256);
    sweep::histogram(sweep::par, bytes.begin(), bytes.end(), c2.begin(), 256);
    thrust::host_vector<unsigned long long> h2 = c2;
    CHECK(h2[42] == n);
    CHECK(h2[41] == 0);
  }
}

// --------------------------------------------------------------------------------------------------
// The histograms inside CUDA graphs (issue 15): histogram_even, histogram_range and histogram
// (bin indices) with device-resident samples, captured with sweep::par_nosync on a stream in
// global capture mode, give the uncaptured call's counts on every launch of the graph, for bin
// counts that take each kernel path (shared counters within 48 KB, opted-in shared memory beyond
// it, global counters).

namespace
{

//! Captures body(policy) into a graph, launches it `launches` times, poisoning `counts` before each.
template <class Counter, class Body>
void run_captured(cudaStream_t stream, thrust::device_vector<Counter>& counts, Body body, int launches)
{
  cudaGraph_t graph{};
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  body(sweep::par_nosync.on(stream));
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  cudaGraphExec_t exec{};
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int launch = 0; launch < launches; ++launch)
  {
    sweep_test::poison(counts);
    REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  }
  REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
}

} // namespace

TEST_CASE("histograms are captured into CUDA graphs and give the uncaptured counts", "[histogram][graph]")
{
  sweep_test::stream_guard s;
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : {std::size_t(1000), (std::size_t(1) << 20) + 7})
  {
    const thrust::device_vector<float> samples     = sweep_test::make_samples<float>(n, 0.0, 1.0, false, seed + n);
    const thrust::device_vector<std::uint8_t> bytes = sweep_test::random_vector<std::uint8_t>(n, seed ^ n);
    const thrust::device_vector<std::uint32_t> indices = sweep_test::random_vector<std::uint16_t>(n, seed + 3 * n);
    for (int bins : {1, 256, 20000, sweep_test::bins_above_shared_limit()})
    {
      INFO("n = " << n << ", bins = " << bins);
      thrust::device_vector<unsigned> expected(bins), actual(bins);

      sweep::histogram_even(sweep::par, samples.begin(), samples.end(), expected.begin(), bins, 0.0f, 1.0f);
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram_even(policy, samples.begin(), samples.end(), actual.begin(), bins, 0.0f, 1.0f);
      }, 3);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram_even float");

      sweep::histogram_even(sweep::par, bytes.begin(), bytes.end(), expected.begin(), bins, 0, 256);
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram_even(policy, bytes.begin(), bytes.end(), actual.begin(), bins, 0, 256);
      }, 2);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram_even bytes");

      // Levels 0, 1/bins, ..., 1: device-resident, not read back inside the capture.
      thrust::host_vector<float> host_levels(static_cast<std::size_t>(bins) + 1);
      for (int i = 0; i <= bins; ++i)
      {
        host_levels[static_cast<std::size_t>(i)] = static_cast<float>(i) / static_cast<float>(bins);
      }
      const thrust::device_vector<float> levels = host_levels;
      sweep::histogram_range(sweep::par, samples.begin(), samples.end(), levels.begin(), levels.end(), expected.begin());
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram_range(policy, samples.begin(), samples.end(), levels.begin(), levels.end(), actual.begin());
      }, 2);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram_range float");

      sweep::histogram(sweep::par, indices.begin(), indices.end(), expected.begin(), bins);
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram(policy, indices.begin(), indices.end(), actual.begin(), bins);
      }, 2);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram indices");
    }
  }
}

// --------------------------------------------------------------------------------------------------
// The histograms' tuning, host against device: a kernel templated and bounded like the histogram
// kernels writes the values its code took from tuning_for<compiled_arch>; the plan the host makes
// for the real kernels (make_plan, from their PTX versions) must use the same block size, samples a
// thread, copies budget and grid cap, and the real kernels must carry that block size in their
// launch bounds.

namespace
{
namespace hi = sweep::detail::histogram_impl;
using sweep::detail::compiled_arch;

//! What device code chose. (The three algorithms' tuning tests have the same layout on purpose; each
//! reports the fields of its own tuning struct.)
struct device_choice
{
  int arch;
  int block_threads;
  int items_per_thread;
  unsigned long long copies_budget_bytes;
  int max_copies;
  int max_blocks_per_sm;
};

//! Templated like the histogram kernels (a mapping) and bounded the same way.
template <class Mapping>
__global__ void __launch_bounds__(hi::tuning_for<compiled_arch>::block_threads) report_tuning(device_choice* out)
{
  using tuning = hi::tuning_for<compiled_arch>;
  if (threadIdx.x == 0)
  {
    out->arch                = compiled_arch;
    out->block_threads       = tuning::block_threads;
    out->items_per_thread    = hi::items_per_thread<tuning, typename Mapping::sample_type>;
    out->copies_budget_bytes = tuning::copies_budget_bytes;
    out->max_copies          = tuning::max_copies;
    out->max_blocks_per_sm   = tuning::max_blocks_per_sm;
  }
}

//! The copies plan_shared_memory keeps for priv_bins bins under a budget and a cap.
int expected_copies(int priv_bins, unsigned long long budget, int max_copies)
{
  int copies = 1;
  while (copies * 2 <= max_copies && static_cast<unsigned long long>(priv_bins) * 4 * copies * 2 <= budget)
  {
    copies *= 2;
  }
  return copies;
}

template <class Mapping, class SampleIt, class Accum>
void check_plan(const char* name, int priv_bins)
{
  INFO(name << ", " << priv_bins << " privatized bins");
  constexpr auto probe = &report_tuning<Mapping>;
  const int arch       = sweep::detail::kernel_arch<probe>();
  thrust::device_vector<device_choice> out(1);
  const int threads = sweep::detail::with_tuning_arch(arch, [](auto a) {
    return hi::tuning_for<decltype(a)::value>::block_threads;
  });
  probe<<<1, threads>>>(thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const device_choice device = out[0];
  CHECK(device.arch == arch);

  const hi::launch_plan plan = hi::make_plan<Mapping, SampleIt, Accum>(priv_bins, 0);
  CHECK(plan.block_threads == device.block_threads);
  CHECK(plan.items_per_thread == device.items_per_thread);
  const int sm_count = sweep::detail::current_device_info().sm_count;
  CHECK(plan.grid <= sm_count * device.max_blocks_per_sm);
  constexpr auto shared_kernel = &hi::shared_histogram_kernel<Mapping, SampleIt, Accum>;
  constexpr auto global_kernel = &hi::global_histogram_kernel<Mapping, SampleIt, Accum>;
  cudaFuncAttributes attributes{};
  if (plan.use_shared)
  {
    CHECK(plan.copies == expected_copies(priv_bins, device.copies_budget_bytes, device.max_copies));
    CHECK(sweep::detail::kernel_arch<shared_kernel>() == device.arch);
    REQUIRE(cudaFuncGetAttributes(&attributes, shared_kernel) == cudaSuccess);
  }
  else
  {
    CHECK(sweep::detail::kernel_arch<global_kernel>() == device.arch);
    REQUIRE(cudaFuncGetAttributes(&attributes, global_kernel) == cudaSuccess);
  }
  CHECK(attributes.maxThreadsPerBlock == plan.block_threads);
}
} // namespace

TEST_CASE("histograms: the host plans each kernel with the tuning its code was compiled with", "[histogram][tuning]")
{
  INFO("device code's architecture for this binary: " << sweep_test::tuned_arch());
  using byte_mapping  = hi::raw_byte_mapping<std::uint8_t, hi::even_transform<std::uint8_t, float>>;
  using float_mapping = hi::direct_mapping<float, hi::even_transform<float, float>>;
  using index_mapping = hi::direct_mapping<int, hi::index_transform<int>>;
  check_plan<byte_mapping, const std::uint8_t*, unsigned int>("uint8 samples", 256);
  check_plan<float_mapping, const float*, unsigned int>("float samples", 256);
  check_plan<float_mapping, const float*, unsigned long long>("float samples", 384);
  check_plan<float_mapping, const float*, unsigned long long>("float samples", 4096);
  check_plan<index_mapping, const int*, unsigned int>("int samples", 1000);
  // More bins than one copy fits in a block's shared memory: the global-atomics kernel's plan.
  const int beyond = sweep::detail::current_device_info().max_shared_per_block_optin / 4 + 1;
  check_plan<index_mapping, const int*, unsigned int>("int samples", beyond);
}
