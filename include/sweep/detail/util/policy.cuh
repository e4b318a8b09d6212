// sweep's policy layer, below every dispatcher: the tag every sweep policy derives from, the
// stream-bound policy bases, and what a dispatcher asks of a policy (its stream, synchronization,
// temporary device memory). The public sweep::par / sweep::par_nosync (execution_policy.cuh) are
// built on it; the dispatchers include this file, never the public header.
#pragma once

#include <thrust/memory.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <type_traits>

#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/stream.hpp>

namespace sweep
{
namespace detail
{

//! The tag every sweep policy derives from. sweep's algorithm overloads take
//! `sweep::detail::execution_policy<Derived>&`; since this type derives from Thrust's CUDA policy,
//! those overloads are preferred over Thrust's CUDA ones (a closer base wins overload resolution),
//! and every algorithm sweep does not define resolves to Thrust's CUDA backend.
template <class Derived>
struct execution_policy : thrust::cuda_cub::execution_policy<Derived>
{
  constexpr execution_policy() = default;
};

//! A sweep policy bound to a stream; algorithms synchronize where Thrust's `par.on(s)` would.
template <class Derived>
struct execute_on_stream_base : execution_policy<Derived>
{
  cudaStream_t stream_;

  __host__ __device__ execute_on_stream_base(cudaStream_t stream = thrust::cuda_cub::default_stream())
      : stream_(stream)
  {}

  __host__ Derived on(cudaStream_t const& stream) const
  {
    Derived result = static_cast<Derived const&>(*this);
    result.stream_ = stream;
    return result;
  }

  friend __host__ __device__ cudaStream_t get_stream(const execute_on_stream_base& exec)
  {
    return exec.stream_;
  }
};

//! A sweep policy bound to a stream that skips every synchronization not needed for correctness.
//! Deliberately a second class with the same stream members as execute_on_stream_base, not a class
//! derived from it: it mirrors Thrust's execute_on_stream / execute_on_stream_nosync pair, whose
//! overloads (get_stream, must_perform_optional_stream_synchronization) match on these exact bases.
template <class Derived>
struct execute_on_stream_nosync_base : execution_policy<Derived>
{
  cudaStream_t stream_;

  __host__ __device__ execute_on_stream_nosync_base(cudaStream_t stream = thrust::cuda_cub::default_stream())
      : stream_(stream)
  {}

  __host__ Derived on(cudaStream_t const& stream) const
  {
    Derived result = static_cast<Derived const&>(*this);
    result.stream_ = stream;
    return result;
  }

  friend __host__ __device__ cudaStream_t get_stream(const execute_on_stream_nosync_base& exec)
  {
    return exec.stream_;
  }

  friend __host__ __device__ bool must_perform_optional_stream_synchronization(const execute_on_stream_nosync_base&)
  {
    return false;
  }
};

struct execute_on_stream : execute_on_stream_base<execute_on_stream>
{
  __host__ __device__ execute_on_stream()
      : execute_on_stream_base<execute_on_stream>()
  {}
  __host__ __device__ explicit execute_on_stream(cudaStream_t stream)
      : execute_on_stream_base<execute_on_stream>(stream)
  {}
};

struct execute_on_stream_nosync : execute_on_stream_nosync_base<execute_on_stream_nosync>
{
  __host__ __device__ execute_on_stream_nosync()
      : execute_on_stream_nosync_base<execute_on_stream_nosync>()
  {}
  __host__ __device__ explicit execute_on_stream_nosync(cudaStream_t stream)
      : execute_on_stream_nosync_base<execute_on_stream_nosync>(stream)
  {}
};

//! True for the `par(allocator)` forms (sweep's and Thrust's), whose temporary storage comes from
//! the allocator.
template <class Policy>
struct has_allocator : std::false_type
{};
template <class Allocator, template <class> class Base>
struct has_allocator<cccl::execute_with_allocator<Allocator, Base>> : std::true_type
{};

//! True for sweep's policies (sweep::par and its forms), false for Thrust's own CUDA policies
//! (thrust::device, thrust::cuda::par...), which some of sweep's algorithms accept too.
template <class Policy>
constexpr bool is_sweep_policy_v = std::is_base_of_v<execution_policy<Policy>, Policy>;

//! The policy as Thrust's CUDA backend sees it; sweep's fallbacks call Thrust through this so that
//! overload resolution can never pick a sweep overload again.
template <class Derived>
__host__ thrust::cuda_cub::execution_policy<Derived>& thrust_policy(execution_policy<Derived>& policy)
{
  return policy;
}

// What a dispatcher asks of a policy, below, takes any Thrust CUDA policy: sweep's derive from
// Thrust's, and the histograms also run under Thrust's own (thrust::device, thrust::cuda::par...).

//! The stream the policy runs on (the default stream unless `.on(s)` was given).
template <class Derived>
__host__ cudaStream_t stream_of(thrust::cuda_cub::execution_policy<Derived>& policy)
{
  return thrust::cuda_cub::stream(policy);
}

//! Synchronizes the policy's stream unless it is a nosync policy; throws on a CUDA error.
template <class Derived>
__host__ void synchronize_optional(thrust::cuda_cub::execution_policy<Derived>& policy, const char* what)
{
  throw_on_error(thrust::cuda_cub::synchronize_optional(policy), what);
}

//! Whether synchronize_optional waits for the policy's stream (sweep::par and Thrust's synchronizing
//! policies) or not (the nosync ones), asked as Thrust's own synchronize_optional asks it.
template <class Derived>
__host__ bool synchronizes_optionally(thrust::cuda_cub::execution_policy<Derived>& policy)
{
  using thrust::cuda_cub::must_perform_optional_stream_synchronization;
  return must_perform_optional_stream_synchronization(static_cast<Derived&>(policy));
}

//! Synchronizes the policy's stream unconditionally (a result the host must read); throws.
template <class Derived>
__host__ void synchronize(thrust::cuda_cub::execution_policy<Derived>& policy, const char* what)
{
  throw_on_error(cudaStreamSynchronize(stream_of(policy)), what);
}

//! The bytes a device's stream-ordered memory pool keeps after a synchronization (its release
//! threshold) when sweep finds it at CUDA's default of 0: one eighth of the device's memory, at
//! least 64 MiB. With 0, every synchronizing call hands its temporary memory back to the driver and
//! the next call maps it again: tens of microseconds for a small call, about 1.3 ms per GiB (the
//! second key buffer of a 2^28-key sort) on the H200. Memory the pool keeps is not lost to the
//! process: on the H200 a cudaMalloc larger than the free memory took it back from the pool
//! (112 GB kept, then a 112 GB cudaMalloc succeeded and the pool held 0). A pool whose threshold
//! the application has set is left alone.
__host__ inline std::uint64_t pool_keep_bytes_of_current_device()
{
  constexpr std::uint64_t floor = 64ull << 20;
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
  {
    total = 0; // the caller clears the error
  }
  const std::uint64_t eighth = static_cast<std::uint64_t>(total) / 8;
  return eighth > floor ? eighth : floor;
}

//! Raises the current device's pool release threshold (pool_keep_bytes_of_current_device) once per
//! device and process, the first time a call finds the stream outside a graph capture. Never throws.
__host__ inline void keep_pool_memory_between_calls(cudaStream_t stream)
{
  const int device = current_cached_device();
  if (device < 0)
  {
    return;
  }
  struct tag;
  (void) per_device_value<tag, bool>(device, [stream](int dev) -> std::optional<bool> {
    // Pool attributes may not be changed while the stream is being captured into a graph (that
    // would invalidate the capture): try again on a later call.
    if (stream_may_be_capturing(stream))
    {
      return std::nullopt;
    }
    cudaMemPool_t pool{};
    std::uint64_t threshold = 0;
    if (cudaDeviceGetMemPool(&pool, dev) == cudaSuccess
        && cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess
        && threshold == 0)
    {
      std::uint64_t keep = pool_keep_bytes_of_current_device();
      (void) cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    }
    (void) cudaGetLastError(); // an unsupported pool is not an error for sweep: it only costs time
    return true;
  });
}

//! Temporary device memory for sweep's kernels, the one mechanism for every policy: from the
//! policy's allocator if it has one (par(alloc), thrust::cuda::par(alloc)); stream-ordered on the
//! policy's stream for sweep's other policies; Thrust's own temporary storage for Thrust's other
//! CUDA policies (what Thrust's algorithms use under the same policy). Throws std::bad_alloc when
//! none is left.
template <class Derived>
__host__ void* allocate_temporary(thrust::cuda_cub::execution_policy<Derived>& policy, std::size_t bytes)
{
  if (bytes == 0)
  {
    return nullptr;
  }
  Derived& derived = static_cast<Derived&>(policy);
  if constexpr (has_allocator<Derived>::value)
  {
    auto buffer = cccl::get_temporary_buffer<std::uint8_t>(derived, static_cast<std::ptrdiff_t>(bytes));
    if (buffer.first == nullptr)
    {
      throw std::bad_alloc();
    }
    return buffer.first;
  }
  else if constexpr (is_sweep_policy_v<Derived>)
  {
    keep_pool_memory_between_calls(stream_of(policy));
    void* ptr          = nullptr;
    cudaError_t status = cudaMallocAsync(&ptr, bytes, stream_of(policy));
    if (status == cudaErrorMemoryAllocation)
    {
      cudaGetLastError(); // clear the sticky-free error so later launches do not see it
      throw std::bad_alloc();
    }
    throw_on_error(status, "sweep: cudaMallocAsync of temporary storage");
    return ptr;
  }
  else
  {
    auto buffer = thrust::get_temporary_buffer<std::uint8_t>(derived, static_cast<std::ptrdiff_t>(bytes));
    if (thrust::raw_pointer_cast(buffer.first) == nullptr || buffer.second < static_cast<std::ptrdiff_t>(bytes))
    {
      thrust::return_temporary_buffer(derived, buffer.first, buffer.second);
      throw std::bad_alloc();
    }
    return thrust::raw_pointer_cast(buffer.first);
  }
}

//! Returns memory from allocate_temporary. Never throws (it runs in destructors).
template <class Derived>
__host__ void deallocate_temporary(thrust::cuda_cub::execution_policy<Derived>& policy, void* ptr, std::size_t bytes) noexcept
{
  if (ptr == nullptr)
  {
    return;
  }
  Derived& derived = static_cast<Derived&>(policy);
  if constexpr (has_allocator<Derived>::value)
  {
    try
    {
      cccl::return_temporary_buffer(
        derived, static_cast<std::uint8_t*>(ptr), static_cast<std::ptrdiff_t>(bytes));
    }
    catch (...)
    {}
  }
  else if constexpr (is_sweep_policy_v<Derived>)
  {
    (void) cudaFreeAsync(ptr, stream_of(policy));
  }
  else
  {
    try
    {
      thrust::return_temporary_buffer(derived,
                                      thrust::pointer<std::uint8_t, Derived>(static_cast<std::uint8_t*>(ptr)),
                                      static_cast<std::ptrdiff_t>(bytes));
    }
    catch (...)
    {}
  }
}

} // namespace detail
} // namespace sweep
