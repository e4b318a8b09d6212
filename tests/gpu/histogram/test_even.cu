// sweep::histogram_even against cub::DeviceHistogram::HistogramEven: sample types, bin counts up to
// past the shared-memory limit, edge sizes, uniform and skewed data, out-of-range samples and NaN.
#include "histogram_test_common.cuh"

#include <thrust/iterator/transform_iterator.h>

#include <utility>

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
