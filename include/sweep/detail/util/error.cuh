// Turns CUDA errors into the exceptions Thrust users expect (thrust::system_error with the cudaError_t).
#pragma once

#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>

#include <cuda_runtime_api.h>

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

//! Checks the launch that was just made (configuration errors, missing device code).
__host__ inline void check_launch(const char* kernel_name)
{
  throw_on_error(cudaPeekAtLastError(), kernel_name);
}

//! Throws std::invalid_argument naming the argument and the reason.
[[noreturn]] __host__ inline void throw_invalid_argument(const char* function, const char* argument, const char* why)
{
  throw std::invalid_argument(std::string(function) + ": argument '" + argument + "' " + why);
}

} // namespace detail
} // namespace sweep
