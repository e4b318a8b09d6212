// sweep's scan kernel: a thin __global__ function that runs the agent (agent.cuh) over tiles. The
// grid is at most as many blocks as the GPU holds at once; each block loops over tiles taken from a
// device counter (lookback.cuh, block_next_tile), so a tile's look-back only ever waits on tiles that
// running blocks hold.
#pragma once

#include <cuda_runtime_api.h>

#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/scan/agent.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/scan/segmented_agent.cuh>
#include <sweep/detail/scan/tuning.hpp>
#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! The kernel over InputIt has the specialised schedule (plan.hpp, has_pipeline; InputIt a pointer to T).
template <class T, class Tuning, class InputIt, schedule_choice Schedule>
inline constexpr bool pipelined_kernel = has_pipeline<T, Tuning, is_pointer_to_v<InputIt, T>, Schedule>;

//! The tuning is the one of the architecture this code is compiled for (tuning_for<compiled_arch>),
//! unless Choice names another struct (benchmarks of variants): one instantiation per type serves
//! every architecture, and the host finds the same struct from the kernel's PTX version
//! (dispatch.cuh, tile_dims_for). A kernel with the specialised schedule runs it where the host
//! launched it with the slots' dynamic shared memory (and two warps more), in order otherwise
//! (lookback/pipeline.cuh, launched_dynamic_shared): the host's one decision.
template <class T, class Mode, class Choice, schedule_choice Schedule, class InputIt, class OutputIt, class Op>
__global__ void __launch_bounds__(
  (launch_threads_for<T, tuning_of<Choice, compiled_arch>, is_pointer_to_v<InputIt, T>, Schedule>),
  (kernel_blocks_per_sm_for<T, tuning_of<Choice, compiled_arch>, is_pointer_to_v<InputIt, T>, Schedule>))
  scan_kernel(kernel_params<InputIt, OutputIt, T, Op> params)
{
  using tuning               = tuning_of<Choice, compiled_arch>;
  constexpr bool pipelined   = pipelined_kernel<T, tuning, InputIt, Schedule>;
  using agent_t              = agent_for<T, tuning, Mode, InputIt, OutputIt, Op, pipelined>;
  constexpr std::size_t slot_bytes = pipelined ? pipeline_dynamic_bytes_for<T, tuning, true, Schedule> : 0;
  static_assert(!pipelined || compiled_arch == 0 || compiled_arch >= 900,
                "scan: the specialised schedule needs bulk copies (sm_90 and newer)");
  static_assert(compiled_arch == 0
                  || blocks_fit(limits_of(compiled_arch), launch_threads_for<T, tuning, is_pointer_to_v<InputIt, T>, Schedule>,
                                kernel_blocks_per_sm_for<T, tuning, is_pointer_to_v<InputIt, T>, Schedule>,
                                sizeof(typename agent_t::shared_storage) + slot_bytes),
                "scan tuning: the blocks per SM the kernel is compiled for do not fit this architecture");
  clear_ahead(params.clear_words, params.clear_count);
  __shared__ typename agent_t::shared_storage smem;
  agent_t a{params, smem};
  if constexpr (pipelined)
  {
    extern __shared__ __align__(16) unsigned char slots[];
    if (launched_dynamic_shared() != 0)
    {
      a.run_specialized(slots);
      return;
    }
  }
  a.run();
}

} // namespace scan_impl
} // namespace detail
} // namespace sweep
