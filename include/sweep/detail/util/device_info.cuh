// Per-device properties sweep's dispatchers size their grids and shared memory from (cached).
#pragma once

#include <cuda_runtime_api.h>

#include <mutex>

#include <sweep/detail/util/error.cuh>

namespace sweep
{
namespace detail
{

struct device_info
{
  int device                    = 0;
  int sm_count                  = 0;
  int cc_major                  = 0;
  int cc_minor                  = 0;
  int max_shared_per_block_optin = 0; // bytes a block may use after cudaFuncSetAttribute
  int max_shared_per_sm         = 0;
  int max_threads_per_sm        = 0;
  int l2_bytes                  = 0;
};

//! Devices sweep's per-device caches have room for.
constexpr int max_cached_devices = 64;

//! `compute(device)` for the current device, computed once per device and process (thread-safe) and
//! then cached. Tag gives each use its own cache. Throws thrust::system_error when there is no current
//! device or its ordinal is beyond the caches, and whatever `compute` throws (the next call retries).
template <class Tag, class T, class Compute>
__host__ const T& once_per_device(Compute&& compute)
{
  static T cache[max_cached_devices];
  static std::once_flag flags[max_cached_devices];
  int device = 0;
  throw_on_error(cudaGetDevice(&device), "sweep: cudaGetDevice");
  if (device < 0 || device >= max_cached_devices)
  {
    throw_on_error(cudaErrorInvalidDevice, "sweep: device ordinal beyond sweep's cache");
  }
  std::call_once(flags[device], [&] {
    cache[device] = compute(device);
  });
  return cache[device];
}

//! Properties of the current device, read once per device and process.
__host__ inline const device_info& current_device_info()
{
  struct tag;
  return once_per_device<tag, device_info>([](int device) {
    device_info info;
    info.device = device;
    throw_on_error(cudaDeviceGetAttribute(&info.sm_count, cudaDevAttrMultiProcessorCount, device), "sweep: SM count");
    throw_on_error(cudaDeviceGetAttribute(&info.cc_major, cudaDevAttrComputeCapabilityMajor, device), "sweep: cc");
    throw_on_error(cudaDeviceGetAttribute(&info.cc_minor, cudaDevAttrComputeCapabilityMinor, device), "sweep: cc");
    throw_on_error(cudaDeviceGetAttribute(
                     &info.max_shared_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                   "sweep: shared memory per block");
    throw_on_error(
      cudaDeviceGetAttribute(&info.max_shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device),
      "sweep: shared memory per SM");
    throw_on_error(
      cudaDeviceGetAttribute(&info.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device),
      "sweep: threads per SM");
    throw_on_error(cudaDeviceGetAttribute(&info.l2_bytes, cudaDevAttrL2CacheSize, device), "sweep: L2 size");
    return info;
  });
}

} // namespace detail
} // namespace sweep
