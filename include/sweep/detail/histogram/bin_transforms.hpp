// Sample -> bin functions for sweep's histograms (even, range, index), with exactly the bin
// assignment of cub::DeviceHistogram (CCCL 3.0.1, dispatch_histogram.cuh), and the host-side
// argument checks. Host-compilable: nothing here needs nvcc or the CUDA runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <sweep/detail/util/host_device.hpp>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

//! The argument a check rejected and why (argument == nullptr: accepted).
struct arg_check
{
  const char* argument = nullptr;
  const char* why      = nullptr;
  constexpr explicit operator bool() const
  {
    return argument == nullptr;
  }
};

template <class T>
constexpr bool is_histogram_sample_v =
  (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_floating_point_v<T>;

//! floor(p / range) without a 64-bit division (a long software sequence on the GPU), for quotients
//! below 2^31: estimate in double (relative error < 2^-50, so within one of the floor) and correct
//! with exact integer products. Precondition: floor(p / range) < 2^31 and (floor + 1) * range
//! does not overflow (both hold when range * bins <= 2^64 - 1 and p < range * bins).
SWEEP_HOST_DEVICE inline std::uint64_t floor_div_estimated(std::uint64_t p, std::uint64_t range, double inv_range)
{
  std::uint64_t q = static_cast<std::uint64_t>(static_cast<double>(p) * inv_range);
  if (q * range > p)
  {
    --q;
  }
  else if ((q + 1) * range <= p)
  {
    ++q;
  }
  return q;
}

//! Even bins over [lower, upper). Arithmetic as CUB's ScaleTransform with LevelT = the level type
//! and num_levels = num_bins + 1:
//!   common_t = std::common_type_t<LevelT, SampleT>; a sample s counts iff lower <= s < upper (in
//!   common_t; NaN never does);
//!   floating point: bin = int((s - lower) * reciprocal), reciprocal = common_t(common_t(bins) /
//!   common_t(upper - lower)) computed on the host, exactly CUB's operations and rounding;
//!   integers: bin = floor((s - lower) * bins / (upper - lower)), exact (CUB computes the same
//!   exact quotient in 32 or 64 bits; where CUB's 64-bit product would overflow CUB refuses with
//!   cudaErrorInvalidValue, sweep computes the exact quotient with a 128-bit product).
//! One deliberate difference: if floating-point rounding puts a sample just below `upper` at
//! bin == bins, CUB writes past its privatized bins (dropped in its shared-memory path); sweep
//! drops it explicitly, so no count ever lands outside [0, bins).
template <class SampleT, class LevelT>
struct even_transform
{
  using common_t = std::common_type_t<LevelT, SampleT>;
  static_assert(is_histogram_sample_v<SampleT>, "histogram samples are 8-64 bit integers, float or double");
  static_assert(std::is_arithmetic_v<common_t> && sizeof(common_t) <= 8,
                "the common type of the sample and level types must be an arithmetic type of at most 64 bits");
  static constexpr bool is_float = std::is_floating_point_v<common_t>;

  common_t lower{};
  common_t upper{};
  common_t reciprocal{}; // floating point only: CUB's scale.reciprocal
  std::uint64_t range = 1; // integers only: upper - lower, exact
  double inv_range    = 1; // integers only: 1.0 / range, for the device's quotient estimate
  bool wide           = false; // integers only: range * bins may exceed 2^64 - 1
  int bins            = 1;

  //! Checks the arguments as sweep::histogram_even documents them.
  static arg_check check(int num_bins, LevelT lower_level, LevelT upper_level)
  {
    if (num_bins <= 0)
    {
      return {"num_bins", "must be positive"};
    }
    const common_t lo = static_cast<common_t>(lower_level);
    const common_t hi = static_cast<common_t>(upper_level);
    if (!(lo < hi)) // also rejects NaN bounds
    {
      return {"lower/upper", "must satisfy lower < upper (and neither may be NaN)"};
    }
    if constexpr (is_float)
    {
      const common_t width = hi - lo;
      if (!(width <= std::numeric_limits<common_t>::max()))
      {
        return {"lower/upper", "span a range (upper - lower) that is not finite in the common sample/level type"};
      }
    }
    else
    {
      if (static_cast<std::uint64_t>(num_bins) > static_cast<std::uint64_t>(std::numeric_limits<common_t>::max()))
      {
        return {"num_bins", "does not fit the common type of the sample and level types"};
      }
    }
    return {};
  }

  //! Precondition: check(num_bins, lower_level, upper_level) accepted.
  static even_transform make(int num_bins, LevelT lower_level, LevelT upper_level)
  {
    even_transform t;
    t.bins  = num_bins;
    t.lower = static_cast<common_t>(lower_level);
    t.upper = static_cast<common_t>(upper_level);
    if constexpr (is_float)
    {
      t.reciprocal = static_cast<common_t>(static_cast<common_t>(num_bins) / static_cast<common_t>(t.upper - t.lower));
    }
    else
    {
      t.range     = static_cast<std::uint64_t>(t.upper) - static_cast<std::uint64_t>(t.lower);
      t.inv_range = 1.0 / static_cast<double>(t.range);
      t.wide      = t.range > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(num_bins);
    }
    return t;
  }

  //! The bin of `sample`, or -1 when it is not counted.
  SWEEP_HOST_DEVICE int operator()(SampleT sample) const
  {
    const common_t s = static_cast<common_t>(sample);
    if (!(s >= lower && s < upper))
    {
      return -1;
    }
    if constexpr (is_float)
    {
      const common_t scaled = (s - lower) * reciprocal;
      return scaled < static_cast<common_t>(bins) ? static_cast<int>(scaled) : -1;
    }
    else
    {
      // d < range; modular unsigned subtraction gives the exact difference for signed types too.
      const std::uint64_t d = static_cast<std::uint64_t>(s) - static_cast<std::uint64_t>(lower);
      const std::uint64_t b = static_cast<std::uint64_t>(bins);
      if (wide)
      {
        return static_cast<int>((static_cast<unsigned __int128>(d) * b) / range);
      }
      const std::uint64_t p = d * b; // < range * bins <= 2^64 - 1
#if defined(__CUDA_ARCH__)
      return static_cast<int>(floor_div_estimated(p, range, inv_range));
#else
      return static_cast<int>(p / range);
#endif
    }
  }
};

//! Bins between ascending levels, as CUB's SearchTransform: the sample is converted to LevelT,
//! bin = upper_bound(levels, sample) - 1, counted iff 0 <= bin < num_levels - 1 (so NaN, samples
//! below levels[0] and samples >= levels[last] are not counted). `levels` is wherever the caller
//! staged them (shared or global memory on the device, host memory on the host).
template <class SampleT, class LevelT>
struct range_transform
{
  static_assert(is_histogram_sample_v<SampleT>, "histogram samples are 8-64 bit integers, float or double");

  const LevelT* levels = nullptr;
  int num_levels       = 2;

  SWEEP_HOST_DEVICE int operator()(SampleT sample) const
  {
    const LevelT value = static_cast<LevelT>(sample);
    int first          = 0;
    int count          = num_levels;
    while (count > 0) // upper bound: first level greater than value
    {
      const int half = count >> 1;
      if (value < levels[first + half])
      {
        count = half;
      }
      else
      {
        first += half + 1;
        count -= half + 1;
      }
    }
    const int bin = first - 1;
    return bin < num_levels - 1 ? bin : -1; // first == 0 gives -1 already
  }
};

//! Checks a host copy of the levels: at least two, none NaN, never descending (equal neighbours
//! make an empty bin, as in CUB).
template <class LevelT>
arg_check check_levels(const LevelT* levels, std::ptrdiff_t num_levels)
{
  if (num_levels < 2)
  {
    return {"levels", "must hold at least 2 levels (one bin)"};
  }
  if (num_levels - 1 > static_cast<std::ptrdiff_t>(std::numeric_limits<int>::max()))
  {
    return {"levels", "holds more levels than an int number of bins"};
  }
  for (std::ptrdiff_t i = 0; i < num_levels; ++i)
  {
    if (!(levels[i] == levels[i])) // NaN
    {
      return {"levels", "must not contain NaN"};
    }
    if (i > 0 && !(levels[i - 1] <= levels[i]))
    {
      return {"levels", "must be in ascending order"};
    }
  }
  return {};
}

//! Integer samples are bin indices: counted iff 0 <= s < bins.
template <class SampleT>
struct index_transform
{
  static_assert(std::is_integral_v<SampleT> && !std::is_same_v<SampleT, bool>,
                "sweep::histogram takes integer samples (bin indices)");
  int bins = 1;

  SWEEP_HOST_DEVICE int operator()(SampleT sample) const
  {
    if constexpr (std::is_signed_v<SampleT>)
    {
      if (sample < 0)
      {
        return -1;
      }
    }
    return static_cast<std::uint64_t>(sample) < static_cast<std::uint64_t>(bins) ? static_cast<int>(sample) : -1;
  }
};

inline arg_check check_num_bins(int num_bins)
{
  if (num_bins <= 0)
  {
    return {"num_bins", "must be positive"};
  }
  return {};
}

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
