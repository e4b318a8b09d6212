// sweep's execution policies: sweep::par, sweep::par_nosync, .on(stream) and (allocator) forms,
// built on Thrust's CUDA policy so that every algorithm sweep does not override runs on Thrust's
// CUDA backend with the same stream and allocator. The machinery is in detail/util/policy.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <sweep/detail/util/policy.cuh>

namespace sweep
{

//! The type of sweep::par: Thrust's `thrust::cuda::par`, with sweep's kernels for the algorithms
//! sweep overrides. `par.on(stream)`, `par(allocator)` and `par(allocator).on(stream)` work as in Thrust.
struct par_t
    : detail::execution_policy<par_t>
    , detail::cccl::allocator_aware_execution_policy<detail::execute_on_stream_base>
{
  constexpr par_t() = default;

  using stream_attachment_type = detail::execute_on_stream;

  __host__ stream_attachment_type on(cudaStream_t const& stream) const
  {
    return stream_attachment_type(stream);
  }
};

//! The type of sweep::par_nosync: like par_t, but algorithms return as soon as the result is
//! known to the host without synchronizing the stream where Thrust's par_nosync would not.
struct par_nosync_t
    : detail::execution_policy<par_nosync_t>
    , detail::cccl::allocator_aware_execution_policy<detail::execute_on_stream_nosync_base>
{
  constexpr par_nosync_t() = default;

  using stream_attachment_type = detail::execute_on_stream_nosync;

  __host__ stream_attachment_type on(cudaStream_t const& stream) const
  {
    return stream_attachment_type(stream);
  }

private:
  friend __host__ __device__ bool must_perform_optional_stream_synchronization(const par_nosync_t&)
  {
    return false;
  }
};

inline constexpr par_t par{};
inline constexpr par_nosync_t par_nosync{};

} // namespace sweep
