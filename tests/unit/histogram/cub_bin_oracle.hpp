// CUB's own bin functors (the ScaleTransform of HistogramEven, the PassThruTransform of its byte path),
// called on the host as the reference of sweep's bin arithmetic. They are CUB internals, and their
// place and signature moved between the CCCL releases sweep supports; this header names them once
// for each (the tests that use them run against whichever release the build uses).
#pragma once

#include <cub/device/dispatch/dispatch_histogram.cuh>
#include <cub/version.cuh>

#include <limits>
#include <type_traits>

#include <cuda_runtime_api.h>

namespace sweep_test
{

// <= 3.0: members of DispatchHistogram; 3.1 and later: detail::histogram::Transforms.
#if CUB_VERSION >= 300100
template <class SampleT, class LevelT>
using cub_transforms = cub::detail::histogram::Transforms<LevelT, int, SampleT>;
#else
template <class SampleT, class LevelT>
using cub_transforms = cub::DispatchHistogram<1, 1, const SampleT*, int, LevelT, int>;
#endif
template <class SampleT, class LevelT>
using cub_scale_transform = typename cub_transforms<SampleT, LevelT>::ScaleTransform;
template <class SampleT, class LevelT>
using cub_pass_thru_transform = typename cub_transforms<SampleT, LevelT>::PassThruTransform;

//! Initializes `scale` for `bins` even bins over [lower, upper) as HistogramEven does; false where
//! CUB refuses the arguments (its guard against integer overflow in the bin computation: in
//! ScaleTransform::Init up to 3.2, in the dispatcher's MayOverflow from 3.3 on).
template <class SampleT, class LevelT>
bool cub_init_scale(cub_scale_transform<SampleT, LevelT>& scale, int bins, LevelT lower, LevelT upper)
{
#if CUB_VERSION >= 300300
  using scale_t  = cub_scale_transform<SampleT, LevelT>;
  using common_t = typename scale_t::CommonT;
  if constexpr (std::is_integral_v<common_t>)
  {
    using wide_t = typename scale_t::IntArithmeticT;
    if (static_cast<wide_t>(upper - lower) > std::numeric_limits<wide_t>::max() / static_cast<wide_t>(static_cast<common_t>(bins)))
    {
      return false;
    }
  }
  scale.Init(bins + 1, upper, lower);
  return true;
#else
  return scale.Init(bins + 1, upper, lower) == cudaSuccess;
#endif
}

} // namespace sweep_test
