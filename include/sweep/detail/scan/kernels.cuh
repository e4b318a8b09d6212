// sweep's scan kernel: a thin __global__ function that runs the agent (agent.cuh) over tiles. The
// grid is at most as many blocks as the GPU holds at once; each block loops over tiles taken from a
// device counter (lookback.cuh, block_next_tile), so a tile's look-back only ever waits on tiles that
// running blocks hold.
#pragma once

#include <cuda_runtime_api.h>

#include <sweep/detail/scan/agent.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/scan/tuning.hpp>
#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! The tuning is the one of the architecture this code is compiled for (tuning_for<compiled_arch>),
//! unless Choice names another struct (benchmarks of variants): one instantiation per type serves
//! every architecture, and the host finds the same struct from the kernel's PTX version
//! (dispatch.cuh, tile_dims_for).
template <class T, class Mode, class Choice, class InputIt, class OutputIt, class Op>
__global__ void __launch_bounds__((tile_shape<T, tuning_of<Choice, compiled_arch>>::block_threads),
                                  (blocks_per_sm_for<T, tuning_of<Choice, compiled_arch>>))
  scan_kernel(kernel_params<InputIt, OutputIt, T, Op> params)
{
  using tuning  = tuning_of<Choice, compiled_arch>;
  using agent_t = agent<T, tuning, Mode, InputIt, OutputIt, Op>;
  static_assert(compiled_arch == 0
                  || blocks_fit(limits_of(compiled_arch), tile_shape<T, tuning>::block_threads, blocks_per_sm_for<T, tuning>,
                                sizeof(typename agent_t::shared_storage)),
                "scan tuning: the blocks per SM the kernel is compiled for do not fit this architecture");
  __shared__ typename agent_t::shared_storage smem;
  agent_t a{params, smem};
  a.run();
}

} // namespace scan_impl
} // namespace detail
} // namespace sweep
