// sweep's copy_if kernel: a thin __global__ function that runs the agent (agent.cuh) over tiles. The
// grid is as many blocks as the GPU holds at once; each block loops over tiles taken from a device
// counter (docs/design/copy_if.md, variants).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include <sweep/detail/copy_if/agent.cuh>
#include <sweep/detail/copy_if/plan.hpp>
#include <sweep/detail/copy_if/tuning.hpp>
#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace copy_if_impl
{

//! Minimum resident blocks per SM the kernel is compiled for (__launch_bounds__) under Tuning: the
//! bulk schedule's Tuning::bulk_blocks_per_sm; on the 16-byte vector path Tuning::vector_blocks_per_sm
//! for items of 4 bytes and more, vector_blocks_per_sm_2byte and _1byte for 2- and 1-byte items; 1
//! otherwise (tuning.hpp says why).
template <class T, class Paths, class Tuning>
__host__ __device__ constexpr int min_blocks()
{
  return schedule_dynamic_bytes<T, Tuning, Paths::load_vectors, Paths::schedule>() != 0
         ? Tuning::bulk_blocks_per_sm
       : !Paths::load_vectors ? 1
       : sizeof(T) >= 4       ? Tuning::vector_blocks_per_sm
       : sizeof(T) == 2       ? Tuning::vector_blocks_per_sm_2byte
                              : Tuning::vector_blocks_per_sm_1byte;
}

//! Blocks loop over tiles taken from a device counter (block_next_tile), so a tile only waits in its
//! look-back on tiles that running blocks are working on (forward progress whatever the number of
//! resident blocks). The schedule (tuning.hpp, tile_schedule; agent.cuh, run_in_order, run_pipelined,
//! run_bulk and run_specialized) is the tuning's for the path unless Paths forces one (tests run
//! each). The bulk and specialised schedules run where the host launched the kernel with their slots'
//! dynamic shared memory (plan.hpp, schedule_dynamic_bytes; the specialised one also with two warps
//! more: launch_threads), which it does where there are more tiles than blocks or the schedule is
//! forced (dispatch.cuh); otherwise the kernel runs in order: one decision, the host's.
//! In order, a block takes an index only when it starts that tile: taking indices ahead of time
//! stalls every successor's look-back on a tile held but not yet started (v4's prefetch two tiles
//! ahead was 1.6x slower; the pipelined schedule's one tile ahead is 7-13% slower for 4- and 8-byte
//! items and 1-13% faster for 2-byte items; docs/design/copy_if.md, variants).
//! The tuning is the one of the architecture this code is compiled for (tuning_for<compiled_arch>),
//! never a template parameter: one instantiation per type serves every architecture, and the host
//! finds the same struct from the kernel's PTX version (dispatch.cuh, launch_for).
template <class T, class Paths, class InputIt, class StencilIt, class OutputIt, class Pred, class RejectedIt = no_rejected>
__global__ void __launch_bounds__((launch_threads<T, tuning_for<compiled_arch>, Paths::load_vectors, Paths::schedule>()),
                                  (min_blocks<T, Paths, tuning_for<compiled_arch>>()))
  select_kernel(kernel_params<InputIt, StencilIt, OutputIt, Pred, RejectedIt> params)
{
  using tuning   = tuning_for<compiled_arch>;
  using params_t = kernel_params<InputIt, StencilIt, OutputIt, Pred, RejectedIt>;
  using agent_t  = agent<T, tuning, Paths, params_t, InputIt, StencilIt, OutputIt, Pred>;
  constexpr std::size_t slot_bytes = schedule_dynamic_bytes<T, tuning, Paths::load_vectors, Paths::schedule>();
  static_assert(compiled_arch == 0
                  || blocks_fit(limits_of(compiled_arch), launch_threads<T, tuning, Paths::load_vectors, Paths::schedule>(),
                                min_blocks<T, Paths, tuning>(), sizeof(typename agent_t::shared_storage) + slot_bytes),
                "copy_if tuning: the blocks per SM the kernel is compiled for do not fit this architecture");
  __shared__ typename agent_t::shared_storage smem;
  const agent_t a{params, smem};
  if constexpr (slot_bytes != 0)
  {
    extern __shared__ __align__(16) unsigned char slots[];
    if (launched_dynamic_shared() != 0)
    {
      if constexpr (agent_t::schedule == tile_schedule::bulk)
      {
        a.run_bulk(slots);
      }
      else
      {
        a.run_specialized(slots);
      }
    }
    else
    {
      a.run_in_order();
    }
  }
  else if constexpr (agent_t::schedule == tile_schedule::pipelined)
  {
    a.run_pipelined();
  }
  else
  {
    a.run_in_order();
  }
}

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
