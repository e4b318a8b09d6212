// What host code knows of one of sweep's kernels on the current device, found once per device and
// kernel: the architecture its code was compiled for, which chose the kernel's tuning struct at
// compile time (util/arch.hpp), what the dispatcher derives from that struct, and how many of its
// blocks the device holds at once.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>

namespace sweep
{
namespace detail
{

//! The architecture (util/arch.hpp, tuning_arch) of `kernel`'s code on the current device: its PTX
//! version x 10, the virtual architecture that code was compiled for, which is what __CUDA_ARCH__ was
//! when the kernel chose its tuning struct. Not the device's compute capability: a binary whose newest
//! code for the device is older (sm_80 code on an sm_90 device, or PTX the driver compiles there) runs
//! the tuning of that older architecture. A driver call: callers cache (per_kernel_value).
__host__ inline int kernel_arch_uncached(const void* kernel)
{
  cudaFuncAttributes attributes{};
  throw_on_error(cudaFuncGetAttributes(&attributes, kernel), "sweep: kernel attributes");
  return tuning_arch(attributes.ptxVersion * 10);
}

//! Blocks of `kernel` (block_threads threads, its static shared memory and dynamic_shared bytes more)
//! that the current device holds at once, at least one per SM. Uncached (callers cache).
__host__ inline unsigned resident_blocks_uncached(const void* kernel, int block_threads, std::size_t dynamic_shared = 0)
{
  int per_sm = 0;
  throw_on_error(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, dynamic_shared),
                 "sweep: kernel occupancy");
  return static_cast<unsigned>(per_sm > 0 ? per_sm : 1) * static_cast<unsigned>(current_device_info().sm_count);
}

template <auto Kernel, class T>
struct per_kernel_tag
{};

//! make(arch, device) for `Kernel` on the current device, where arch is kernel_arch_uncached(Kernel):
//! what the host derives from the tuning struct the kernel's code was compiled with (its tile, its
//! grid). Computed once per device, kernel and T (thread-safe) and then cached: after the first call a
//! lookup is one cudaGetDevice and one atomic load. The kernel is the template argument because kernels
//! of one signature share a pointer type, not their tuning. Throws like once_per_device, and what
//! `make` throws (the next call tries again).
template <auto Kernel, class T, class Make>
__host__ const T& per_kernel_value(Make&& make)
{
  return once_per_device<per_kernel_tag<Kernel, T>, T>([&](int device) {
    return make(kernel_arch_uncached(reinterpret_cast<const void*>(Kernel)), device);
  });
}

//! kernel_arch_uncached(Kernel) for the current device, found once per device and kernel.
template <auto Kernel>
__host__ int kernel_arch()
{
  return per_kernel_value<Kernel, int>([](int arch, int) {
    return arch;
  });
}

//! What the host launches one of sweep's kernels with on the current device: the architecture its code
//! was compiled for, the tile of that architecture's tuning (the struct the kernel's code chose at
//! compile time) and the blocks of that tile the device holds at once (0 where the caller does not
//! need them). The GPU tests compare it with what device code uses.
template <class Tile>
struct kernel_launch
{
  int arch = 0;
  Tile tile{};
  unsigned resident_blocks = 0;
};

//! Lets `kernel` be launched with up to `bytes` of dynamic shared memory (its static shared memory and
//! `bytes` may then pass 48 KiB). A driver call; callers that launch with more than 48 KiB in all call
//! it before every launch: each translation unit registers its own copy of a template kernel, and an
//! attribute set once may have been set on another unit's copy than the one launched
//! (docs/design/sort.md, upfront histogram).
//! `what` names the call in the error thrown when the driver refuses.
__host__ inline void allow_dynamic_shared(const void* kernel,
                                          std::size_t bytes,
                                          const char* what = "sweep: raising a kernel's dynamic shared memory limit")
{
  throw_on_error(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)), what);
}

//! No dynamic shared memory.
struct no_dynamic_shared
{
  template <class Tile>
  std::size_t operator()(const Tile&) const
  {
    return 0;
  }
};

//! The kernel_launch of `Kernel` on the current device, found once per device and kernel (then a lookup
//! costs one cudaGetDevice and one atomic load): tile_for(arch) gives its tile; resident_threads(tile)
//! the block size whose resident blocks the caller needs, or 0 for none; dynamic_shared(tile) the
//! dynamic shared memory each of those blocks is launched with.
template <auto Kernel, class Tile, class TileFor, class ResidentThreads, class DynamicShared = no_dynamic_shared>
__host__ const kernel_launch<Tile>&
kernel_launch_for(TileFor tile_for, ResidentThreads resident_threads, DynamicShared dynamic_shared = {})
{
  return per_kernel_value<Kernel, kernel_launch<Tile>>([&](int arch, int) {
    kernel_launch<Tile> launch;
    launch.arch       = arch;
    launch.tile       = tile_for(arch);
    const int threads = resident_threads(launch.tile);
    if (threads > 0)
    {
      const std::size_t dynamic = dynamic_shared(launch.tile);
      if (dynamic > 0)
      {
        allow_dynamic_shared(reinterpret_cast<const void*>(Kernel), dynamic);
      }
      launch.resident_blocks = resident_blocks_uncached(reinterpret_cast<const void*>(Kernel), threads, dynamic);
    }
    return launch;
  });
}

//! Blocks of `Kernel` (block_threads threads, static shared memory only) that the current device
//! holds at once, at least one per SM; computed once per device and kernel.
template <auto Kernel>
__host__ unsigned resident_blocks(int block_threads)
{
  return once_per_device<std::integral_constant<decltype(Kernel), Kernel>, unsigned>([block_threads](int) {
    return resident_blocks_uncached(reinterpret_cast<const void*>(Kernel), block_threads);
  });
}

} // namespace detail
} // namespace sweep
