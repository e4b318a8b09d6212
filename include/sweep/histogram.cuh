// sweep's histograms in Thrust's style: sweep::histogram_even, sweep::histogram_range and
// sweep::histogram, customization points found by ADL on the execution policy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

#include <sweep/detail/histogram/dispatch.cuh>
#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/execution_policy.cuh>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

template <class It>
using value_t = std::remove_cv_t<cccl::value_type_t<It>>;

template <class SampleIt, class CountIt>
constexpr void check_types()
{
  static_assert(is_histogram_sample_v<value_t<SampleIt>>,
                "sweep histograms take 8/16/32/64-bit integer, float or double samples");
  static_assert(std::is_arithmetic_v<value_t<CountIt>>,
                "the counts iterator must have an arithmetic value type (its counters' type)");
}

} // namespace histogram_impl

// ---- histogram_even ------------------------------------------------------------------------------

//! sweep and Thrust CUDA policies (sweep's derive from Thrust's): sweep's kernel on the policy's
//! stream, temporary storage from the policy (detail/util/policy.cuh).
template <class Derived, class InputIt, class CountIt, class LevelT>
__host__ CountIt histogram_even(thrust::cuda_cub::execution_policy<Derived>& policy,
                                InputIt first,
                                InputIt last,
                                CountIt counts,
                                int num_bins,
                                LevelT lower,
                                LevelT upper)
{
  histogram_impl::check_types<InputIt, CountIt>();
  using sample_t  = histogram_impl::value_t<InputIt>;
  using counter_t = histogram_impl::value_t<CountIt>;
  const auto n    = static_cast<std::uint64_t>(cccl::distance(first, last));
  auto samples    = thrust::try_unwrap_contiguous_iterator(first);
  auto out        = thrust::try_unwrap_contiguous_iterator(counts);
  histogram_impl::even_on_device<sample_t, counter_t>(policy, samples, n, out, num_bins, lower, upper);
  return counts + num_bins;
}

//! Host policies (thrust::host, thrust::seq, thrust::cpp::par): the same bins, counted on the host.
template <class Derived, class InputIt, class CountIt, class LevelT>
__host__ CountIt histogram_even(cccl::execution_policy<Derived>&,
                                InputIt first,
                                InputIt last,
                                CountIt counts,
                                int num_bins,
                                LevelT lower,
                                LevelT upper)
{
  histogram_impl::check_types<InputIt, CountIt>();
  using op_t = histogram_impl::even_transform<histogram_impl::value_t<InputIt>, LevelT>;
  if (const histogram_impl::arg_check c = op_t::check(num_bins, lower, upper); !c)
  {
    throw_invalid_argument("sweep::histogram_even", c.argument, c.why);
  }
  histogram_impl::count_on_host<histogram_impl::value_t<CountIt>>(first, last, counts, num_bins, op_t::make(num_bins, lower, upper));
  return counts + num_bins;
}

// ---- histogram_range -----------------------------------------------------------------------------

//! sweep and Thrust CUDA policies (see histogram_even).
template <class Derived, class InputIt, class LevelIt, class CountIt>
__host__ CountIt histogram_range(thrust::cuda_cub::execution_policy<Derived>& policy,
                                 InputIt first,
                                 InputIt last,
                                 LevelIt levels_first,
                                 LevelIt levels_last,
                                 CountIt counts)
{
  histogram_impl::check_types<InputIt, CountIt>();
  using sample_t             = histogram_impl::value_t<InputIt>;
  using counter_t            = histogram_impl::value_t<CountIt>;
  const auto n               = static_cast<std::uint64_t>(cccl::distance(first, last));
  const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(cccl::distance(levels_first, levels_last));
  auto samples               = thrust::try_unwrap_contiguous_iterator(first);
  auto levels                = thrust::try_unwrap_contiguous_iterator(levels_first);
  auto out                   = thrust::try_unwrap_contiguous_iterator(counts);
  histogram_impl::range_on_device<sample_t, counter_t>(policy, samples, n, levels, count, out);
  return counts + (count - 1);
}

template <class Derived, class InputIt, class LevelIt, class CountIt>
__host__ CountIt histogram_range(cccl::execution_policy<Derived>&,
                                 InputIt first,
                                 InputIt last,
                                 LevelIt levels_first,
                                 LevelIt levels_last,
                                 CountIt counts)
{
  histogram_impl::check_types<InputIt, CountIt>();
  using level_t = histogram_impl::value_t<LevelIt>;
  const std::vector<level_t> levels(levels_first, levels_last);
  if (const histogram_impl::arg_check c =
        histogram_impl::check_levels(levels.data(), static_cast<std::ptrdiff_t>(levels.size()));
      !c)
  {
    throw_invalid_argument("sweep::histogram_range", c.argument, c.why);
  }
  const int num_bins = static_cast<int>(levels.size()) - 1;
  histogram_impl::count_on_host<histogram_impl::value_t<CountIt>>(
    first, last, counts, num_bins, histogram_impl::range_transform<histogram_impl::value_t<InputIt>, level_t>{levels.data(), num_bins + 1});
  return counts + num_bins;
}

// ---- histogram (bin indices) ---------------------------------------------------------------------

//! sweep and Thrust CUDA policies (see histogram_even).
//! Its first lines repeat histogram_even's on purpose: each entry point states its own type checks
//! and iterator unwrapping next to the call it makes (a shared helper would hide which types reach
//! the dispatch).
template <class Derived, class InputIt, class CountIt>
__host__ CountIt histogram(
  thrust::cuda_cub::execution_policy<Derived>& policy, InputIt first, InputIt last, CountIt counts, int num_bins)
{
  histogram_impl::check_types<InputIt, CountIt>();
  using sample_t  = histogram_impl::value_t<InputIt>;
  using counter_t = histogram_impl::value_t<CountIt>;
  const auto n    = static_cast<std::uint64_t>(cccl::distance(first, last));
  auto samples    = thrust::try_unwrap_contiguous_iterator(first);
  auto out        = thrust::try_unwrap_contiguous_iterator(counts);
  histogram_impl::index_on_device<sample_t, counter_t>(policy, samples, n, out, num_bins);
  return counts + num_bins;
}

template <class Derived, class InputIt, class CountIt>
__host__ CountIt histogram(cccl::execution_policy<Derived>&,
                           InputIt first,
                           InputIt last,
                           CountIt counts,
                           int num_bins)
{
  histogram_impl::check_types<InputIt, CountIt>();
  if (const histogram_impl::arg_check c = histogram_impl::check_num_bins(num_bins); !c)
  {
    throw_invalid_argument("sweep::histogram", c.argument, c.why);
  }
  histogram_impl::count_on_host<histogram_impl::value_t<CountIt>>(
    first, last, counts, num_bins, histogram_impl::index_transform<histogram_impl::value_t<InputIt>>{num_bins});
  return counts + num_bins;
}

} // namespace detail

//! Counts samples into num_bins even bins over [lower, upper): bin i is [lower + i*w, lower +
//! (i+1)*w), w = (upper - lower) / num_bins, with exactly the bins of
//! cub::DeviceHistogram::HistogramEven (num_bins + 1 levels, LevelT as given). Samples outside
//! [lower, upper) and NaN are not counted; every other sample is. (CUB 3.0.1 itself drops negative
//! int8 samples and 16-bit samples whose bin index exceeds the sample type's maximum,
//! NVIDIA/cccl#10977 and #10976; sweep counts them in the bins CUB's arithmetic assigns.)
//! counts[0, num_bins) is overwritten with counters of its own value type (int, unsigned, 64-bit).
//! Samples: 8-64 bit integers, float, double; any random-access iterator accessible to `exec`'s
//! system. sweep and Thrust CUDA policies run on the device on the policy's stream (synchronizing
//! like Thrust unless nosync); host policies count on the host; another system may provide its own
//! overload, found by ADL.
//! Throws std::invalid_argument for num_bins <= 0, !(lower < upper) (NaN bounds), an infinite
//! range, or num_bins not representable in the common sample/level type; thrust::system_error for
//! CUDA errors; std::bad_alloc when temporary storage cannot be had. Returns counts + num_bins.
template <class DerivedPolicy, class InputIt, class CountIt, class LevelT>
__host__ CountIt histogram_even(const detail::cccl::execution_policy_base<DerivedPolicy>& exec,
                                InputIt first,
                                InputIt last,
                                CountIt counts,
                                int num_bins,
                                LevelT lower,
                                LevelT upper)
{
  using sweep::detail::histogram_even;
  return histogram_even(
    detail::cccl::derived_cast(detail::cccl::strip_const(exec)), first, last, counts, num_bins, lower, upper);
}

//! Counts samples into the bins between consecutive levels [levels_first, levels_last), exactly as
//! cub::DeviceHistogram::HistogramRange (sample converted to the level type, upper-bound search).
//! Samples below the first level, at or above the last, and NaN are not counted; every other
//! sample is (unlike CUB 3.0.1 for int8 and 16-bit samples, see histogram_even). Writes
//! num_levels - 1 counters and returns counts + num_levels - 1. The levels are read once on the
//! host to check them (device policies: one stream synchronization). Throws std::invalid_argument
//! for fewer than 2 levels, NaN levels or descending levels (equal neighbours make an empty bin).
template <class DerivedPolicy, class InputIt, class LevelIt, class CountIt>
__host__ CountIt histogram_range(const detail::cccl::execution_policy_base<DerivedPolicy>& exec,
                                 InputIt first,
                                 InputIt last,
                                 LevelIt levels_first,
                                 LevelIt levels_last,
                                 CountIt counts)
{
  using sweep::detail::histogram_range;
  return histogram_range(
    detail::cccl::derived_cast(detail::cccl::strip_const(exec)), first, last, levels_first, levels_last, counts);
}

//! Integer samples are bin indices: counts[i] = number of samples equal to i, for i in
//! [0, num_bins); other samples are not counted. Throws std::invalid_argument for num_bins <= 0.
//! Returns counts + num_bins.
template <class DerivedPolicy, class InputIt, class CountIt>
__host__ CountIt histogram(const detail::cccl::execution_policy_base<DerivedPolicy>& exec,
                           InputIt first,
                           InputIt last,
                           CountIt counts,
                           int num_bins)
{
  using sweep::detail::histogram;
  return histogram(detail::cccl::derived_cast(detail::cccl::strip_const(exec)), first, last, counts, num_bins);
}

} // namespace sweep
