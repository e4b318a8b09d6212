// How many blocks of a kernel the current device holds at once: the grid of kernels whose blocks
// loop over tiles taken from a device counter (copy_if's kernel, the sort's persistent passes).
#pragma once

#include <cuda_runtime_api.h>

#include <type_traits>

#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>

namespace sweep
{
namespace detail
{

//! Blocks of `Kernel` (block_threads threads, static shared memory only) that the current device
//! holds at once, at least one per SM. Computed once per device and kernel: the kernel is the
//! template argument, because kernels of one signature share a pointer type, not their occupancy.
template <auto Kernel>
__host__ unsigned resident_blocks(int block_threads)
{
  return once_per_device<std::integral_constant<decltype(Kernel), Kernel>, unsigned>([block_threads](int) {
    int per_sm = 0;
    throw_on_error(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, block_threads, 0),
                   "sweep: kernel occupancy");
    return static_cast<unsigned>(per_sm > 0 ? per_sm : 1) * static_cast<unsigned>(current_device_info().sm_count);
  });
}

} // namespace detail
} // namespace sweep
