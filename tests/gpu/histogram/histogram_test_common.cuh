// Shared pieces of the histogram GPU tests: CUB references, sample generators, host references.
#pragma once

#include <sweep/execution_policy.cuh>
#include <sweep/histogram.cuh>

#include <cub/device/device_histogram.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include "common/test_utils.cuh"
#include "cub_sample_loss.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace sweep_test
{

//! Samples around [lower, upper): mostly inside, some below/above, and NaN for floating point.
template <class T>
struct around_range
{
  std::uint64_t seed;
  double lower, upper;
  bool skewed; // 90% of samples in one value
  __host__ __device__ T operator()(std::uint64_t i) const
  {
    const std::uint64_t r = sweep_test::mix64(i ^ sweep_test::mix64(seed));
    const double u        = static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0); // [0, 1)
    if (skewed && (r & 0xf) < 14)
    {
      return static_cast<T>(std::floor(lower + (upper - lower) * 0.37));
    }
    if constexpr (std::is_floating_point<T>::value)
    {
      if ((r & 0x3ff) == 5)
      {
        return std::numeric_limits<T>::quiet_NaN();
      }
    }
    const double width = upper - lower;
    double v           = lower - 0.1 * width + 1.2 * width * u;
    if constexpr (std::is_integral<T>::value)
    {
      // keep the value representable (a cast of an out-of-range double is undefined)
      const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
      const double hi = static_cast<double>(std::numeric_limits<T>::max());
      v               = v < lo ? lo : (v >= hi ? lo : std::floor(v));
    }
    return static_cast<T>(v);
  }
};

template <class T>
thrust::device_vector<T> make_samples(std::size_t n, double lower, double upper, bool skewed, std::uint64_t seed)
{
  return sweep_test::generated_vector<T>(n, around_range<T>{seed, lower, upper, skewed});
}

inline void check_cuda(cudaError_t e)
{
  REQUIRE(e == cudaSuccess);
}

//! cub::DeviceHistogram::HistogramEven into a fresh vector of Counter. Where CUB 3.0.1 would lose
//! samples (cub_sample_loss.hpp: negative int8 samples, int16 bins past 32767), CUB is given the
//! same values widened to int, so it remains a correct reference.
template <class Counter, class T, class LevelT>
thrust::device_vector<Counter> cub_even(const thrust::device_vector<T>& samples, int bins, LevelT lower, LevelT upper)
{
  if constexpr (cub_may_lose_samples_v<T>)
  {
    static_assert(std::is_same_v<std::common_type_t<LevelT, T>, std::common_type_t<LevelT, cub_widened_t>>,
                  "widening the samples must not change CUB's common sample/level type");
    if (cub_loses_samples<T>(bins))
    {
      const thrust::device_vector<cub_widened_t> widened(samples.begin(), samples.end());
      return cub_even<Counter>(widened, bins, lower, upper);
    }
  }
  thrust::device_vector<Counter> out(bins);
  std::size_t bytes = 0;
  const T* d        = thrust::raw_pointer_cast(samples.data());
  Counter* h        = thrust::raw_pointer_cast(out.data());
  const int n       = static_cast<int>(samples.size());
  check_cuda(cub::DeviceHistogram::HistogramEven(nullptr, bytes, d, h, bins + 1, lower, upper, n));
  thrust::device_vector<unsigned char> temp(bytes);
  check_cuda(cub::DeviceHistogram::HistogramEven(thrust::raw_pointer_cast(temp.data()), bytes, d, h, bins + 1, lower, upper, n));
  check_cuda(cudaDeviceSynchronize());
  return out;
}

//! cub::DeviceHistogram::HistogramRange, with the same widening as cub_even.
template <class Counter, class T, class LevelT>
thrust::device_vector<Counter>
cub_range(const thrust::device_vector<T>& samples, const thrust::device_vector<LevelT>& levels)
{
  const int bins = static_cast<int>(levels.size()) - 1;
  if constexpr (cub_may_lose_samples_v<T>)
  {
    // CUB converts each sample to LevelT before its search: the same value from T or from int.
    if (cub_loses_samples<T>(bins))
    {
      const thrust::device_vector<cub_widened_t> widened(samples.begin(), samples.end());
      return cub_range<Counter>(widened, levels);
    }
  }
  thrust::device_vector<Counter> out(bins);
  std::size_t bytes = 0;
  const T* d        = thrust::raw_pointer_cast(samples.data());
  Counter* h        = thrust::raw_pointer_cast(out.data());
  const LevelT* lv  = thrust::raw_pointer_cast(levels.data());
  const int n       = static_cast<int>(samples.size());
  check_cuda(cub::DeviceHistogram::HistogramRange(nullptr, bytes, d, h, bins + 1, lv, n));
  thrust::device_vector<unsigned char> temp(bytes);
  check_cuda(cub::DeviceHistogram::HistogramRange(thrust::raw_pointer_cast(temp.data()), bytes, d, h, bins + 1, lv, n));
  check_cuda(cudaDeviceSynchronize());
  return out;
}

//! Counts must equal, and nothing past counts + bins may be written (the vectors have 8 poisoned
//! slots of slack).
template <class Counter>
void require_counts(const thrust::device_vector<Counter>& expected,
                    const thrust::device_vector<Counter>& actual,
                    int bins,
                    const std::string& what)
{
  sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), what);
  sweep_test::require_poison_intact(actual, static_cast<std::size_t>(bins), what);
}

//! The largest bin count whose 32-bit counters fit the device's opt-in shared memory, plus one.
inline int bins_above_shared_limit()
{
  int device = 0, optin = 0;
  check_cuda(cudaGetDevice(&device));
  check_cuda(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return optin / 4 + 1;
}

} // namespace sweep_test
