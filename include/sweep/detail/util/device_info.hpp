// Per-device properties sweep's dispatchers size their grids and shared memory from, and the one
// helper every process-wide per-device cache in sweep is built on.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <utility>

#include <sweep/detail/util/error.hpp>

namespace sweep
{
namespace detail
{

//! Devices sweep's per-device caches have room for.
constexpr int max_cached_devices = 64;

//! The current device's ordinal when sweep's per-device caches have room for it; otherwise -1, with
//! the error cleared (for callers that do without the cache rather than throw).
__host__ inline int current_cached_device() noexcept
{
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess)
  {
    (void) cudaGetLastError();
    return -1;
  }
  return device >= 0 && device < max_cached_devices ? device : -1;
}

//! One value of T per device and process for Tag. `make(device)` is called for `device` (in
//! [0, max_cached_devices)) until it returns a value: it returns std::optional<T>, and std::nullopt
//! ("not now") or an exception leaves the slot empty so that a later call tries again. Thread-safe:
//! calls for one device wait for each other while a value is made. Returns the device's value, or
//! nullptr while there is none.
template <class Tag, class T, class Make>
__host__ const T* per_device_value(int device, Make&& make)
{
  struct slot
  {
    std::atomic<bool> ready{false};
    std::mutex mutex;
    T value{};
  };
  static slot slots[max_cached_devices];
  slot& s = slots[device];
  if (!s.ready.load(std::memory_order_acquire))
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.ready.load(std::memory_order_relaxed))
    {
      std::optional<T> made = make(device);
      if (!made)
      {
        return nullptr;
      }
      s.value = std::move(*made);
      s.ready.store(true, std::memory_order_release);
    }
  }
  return &s.value;
}

//! `compute(device)` for the current device, computed once per device and process (thread-safe) and
//! then cached. Tag gives each use its own cache. Throws thrust::system_error when there is no current
//! device or its ordinal is beyond the caches, and whatever `compute` throws (the next call retries).
template <class Tag, class T, class Compute>
__host__ const T& once_per_device(Compute&& compute)
{
  int device = 0;
  throw_on_error(cudaGetDevice(&device), "sweep: cudaGetDevice");
  if (device < 0 || device >= max_cached_devices)
  {
    throw_on_error(cudaErrorInvalidDevice, "sweep: device ordinal beyond sweep's cache");
  }
  return *per_device_value<Tag, T>(device, [&](int d) {
    return std::optional<T>(compute(d));
  });
}

//! The device properties sweep's dispatchers use.
struct device_info
{
  int sm_count                   = 0;
  int max_shared_per_block_optin = 0; // bytes a block may use after cudaFuncSetAttribute
};

//! Properties of the current device, read once per device and process.
__host__ inline const device_info& current_device_info()
{
  struct tag;
  return once_per_device<tag, device_info>([](int device) {
    device_info info;
    throw_on_error(cudaDeviceGetAttribute(&info.sm_count, cudaDevAttrMultiProcessorCount, device), "sweep: SM count");
    throw_on_error(cudaDeviceGetAttribute(
                     &info.max_shared_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                   "sweep: shared memory per block");
    return info;
  });
}

} // namespace detail
} // namespace sweep
