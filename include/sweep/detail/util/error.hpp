// Turns CUDA errors into the exceptions Thrust users expect (thrust::system_error with the cudaError_t).
#pragma once

#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>

#include <cuda_runtime_api.h>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace sweep
{
namespace detail
{

//! Throws thrust::system_error(status, cuda_category, what) unless status is cudaSuccess;
//! cudaErrorMemoryAllocation becomes std::bad_alloc. The sticky last-error state is cleared first
//! so that the error does not leak into unrelated later launches.
__host__ inline void throw_on_error(cudaError_t status, const char* what)
{
  if (status == cudaSuccess)
  {
    return;
  }
  (void) cudaGetLastError();
  if (status == cudaErrorMemoryAllocation)
  {
    throw std::bad_alloc();
  }
  throw thrust::system_error(status, thrust::cuda_category(), what);
}

//! Throws (and clears) an error that an earlier, unrelated CUDA call left pending, before a sweep call
//! enqueues anything. Left alone, it would surface at the call's first launch check, after work was
//! enqueued, and end the call while its kernels may still run on temporary storage about to be freed
//! or on the thread's reused scratch (stock Thrust reports such an error too, from its first launch
//! check). Sticky errors (a faulted context) cannot be cleared and keep failing every call.
__host__ inline void throw_on_pending_error(const char* what)
{
  throw_on_error(cudaPeekAtLastError(), what);
}

//! Checks the launch that was just made (configuration errors, missing device code).
__host__ inline void check_launch(const char* kernel_name)
{
  throw_on_error(cudaPeekAtLastError(), kernel_name);
}

//! Scope guard: when its scope is left by an exception, waits for `stream` (errors ignored: one is
//! already on its way), so that kernels already enqueued finish before the memory they use is freed
//! or reused.
struct drain_stream_on_throw
{
  cudaStream_t stream;
  int exceptions_at_start = std::uncaught_exceptions();

  ~drain_stream_on_throw()
  {
    if (std::uncaught_exceptions() > exceptions_at_start)
    {
      (void) cudaStreamSynchronize(stream);
      (void) cudaGetLastError();
    }
  }
};

//! Throws std::invalid_argument naming the argument and the reason.
[[noreturn]] __host__ inline void throw_invalid_argument(const char* function, const char* argument, const char* why)
{
  throw std::invalid_argument(std::string(function) + ": argument '" + argument + "' " + why);
}

} // namespace detail
} // namespace sweep
