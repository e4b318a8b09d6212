// When cub::DeviceHistogram (CCCL 3.0.1) silently loses samples, and the sample type the tests hand
// CUB instead so that it stays a correct reference. Host-only (shared by the GPU tests and the
// host unit test that checks this predicate against CUB's own bin functors).
#pragma once

#include <limits>
#include <type_traits>

namespace sweep_test
{

//! CUB 3.0.1 counts in two stages, privatized bin then output bin, and loses samples between them:
//!  - 8-bit samples (its byte path): privatized bin = (int) sample, negative for a negative signed
//!    byte, and negative privatized bins are never counted: every negative int8 sample is dropped
//!    (NVIDIA/cccl#10977);
//!  - wider samples: the privatized bin is cast back to the sample type before the output
//!    transform, `(SampleT) privatized_bin`, which wraps (and the count is dropped) for bin indices
//!    above numeric_limits<SampleT>::max(): int16 samples lose bins 32768 and up (NVIDIA/cccl#10976).
//! Both are fixed upstream by the open NVIDIA/cccl#10993. Floating-point samples represent every
//! bin index below 2^digits exactly (2^24 for float): far above what any test uses.
template <class T>
constexpr bool cub_loses_samples(int bins)
{
  if constexpr (!std::is_integral_v<T>)
  {
    return false;
  }
  else if constexpr (sizeof(T) == 1)
  {
    return std::is_signed_v<T>;
  }
  else
  {
    return static_cast<long long>(bins) - 1 > static_cast<long long>(std::numeric_limits<T>::max());
  }
}

//! Whether cub_loses_samples<T>(bins) can be true for some bins (the tests then instantiate CUB for
//! the widened type as well).
template <class T>
constexpr bool cub_may_lose_samples_v = std::is_integral_v<T> && sizeof(T) < sizeof(int)
                                     && !(sizeof(T) == 1 && std::is_unsigned_v<T>);

//! The type the tests widen such samples to: int holds every 8- and 16-bit value, and CUB's bin
//! arithmetic on integers is exact, so the bins are those of the original values. The common type
//! with the level type must not change (CUB compares and subtracts in it); cub_even/cub_range
//! static_assert that.
using cub_widened_t = int;

} // namespace sweep_test
