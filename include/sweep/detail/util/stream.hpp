// Stream queries shared by the dispatchers.
#pragma once

#include <cuda_runtime_api.h>

namespace sweep
{
namespace detail
{

//! True while `stream` is being captured into a graph, and when CUDA cannot tell: the legacy default
//! stream while another stream captures (cudaErrorStreamCaptureImplicit), where a wait or a pool
//! change would break that capture. The error such a query leaves is taken back.
__host__ inline bool stream_may_be_capturing(cudaStream_t stream)
{
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess)
  {
    (void) cudaGetLastError();
    return true;
  }
  return status != cudaStreamCaptureStatusNone;
}

} // namespace detail
} // namespace sweep
