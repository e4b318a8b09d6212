// The block-level counting step of the device histogram kernel, which sweep::block_histogram's
// full-tile composite calls too: each thread adds its items' bins into a shared-memory histogram
// with shared atomics.
#pragma once

#include <cuda_runtime_api.h>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

//! Adds one to hist[bin * stride + copy] for every item with bin >= 0 (bin < 0: not counted).
//! Shared atomics commute, so no barrier is needed between threads calling this; the caller puts
//! a barrier between zeroing the histogram, counting and reading it.
template <int Items, class Counter>
__device__ __forceinline__ void count_bins(const int (&bins)[Items], Counter* hist, int stride, int copy)
{
#pragma unroll
  for (int k = 0; k < Items; ++k)
  {
    if (bins[k] >= 0)
    {
      atomicAdd(hist + bins[k] * stride + copy, Counter(1));
    }
  }
}

//! As count_bins, but equal bins that follow each other in a thread's items are added as one run
//! (one atomic per run). On skewed data (all samples in a few bins) this turns ItemsPerThread
//! same-address atomics into one; on uniform data it costs one compare per item.
template <int Items, class Counter>
__device__ __forceinline__ void count_bin_runs(const int (&bins)[Items], Counter* hist, int stride, int copy)
{
  int run_bin       = bins[0];
  Counter run_count = 1;
#pragma unroll
  for (int k = 1; k < Items; ++k)
  {
    if (bins[k] == run_bin)
    {
      ++run_count;
    }
    else
    {
      if (run_bin >= 0)
      {
        atomicAdd(hist + run_bin * stride + copy, run_count);
      }
      run_bin   = bins[k];
      run_count = 1;
    }
  }
  if (run_bin >= 0)
  {
    atomicAdd(hist + run_bin * stride + copy, run_count);
  }
}

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
