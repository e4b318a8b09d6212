// sweep's copy_if kernel: a thin __global__ function that runs the agent (agent.cuh) over tiles. The
// grid is as many blocks as the GPU holds at once; each block loops over tiles taken from a device
// counter (docs/design/copy_if.md, variants).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
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

//! The predicate of a partition pass whose sides the device chose (plan.hpp, partition_sides):
//! pred(x), or !pred(x) where the word at `swapped` is not 0. The word is in device memory, written
//! by partition_sample_kernel earlier on the stream and never written during the pass, so it is read
//! through the non-coherent path by an asm statement that is neither volatile nor clobbers memory:
//! the compiler may merge the reads of a thread into one (with __ldg it reloaded the word at every
//! item: 34 loads more in the u32 kernel's SASS).
template <class Pred>
struct side_predicate
{
  Pred pred;
  const unsigned* swapped;

  template <class X>
  __device__ bool operator()(X&& x)
  {
    unsigned word;
    asm("ld.global.nc.u32 %0, [%1];" : "=r"(word) : "l"(swapped));
    return static_cast<bool>(pred(static_cast<X&&>(x))) != (word != 0u);
  }
};

//! One block: decides an in-place partition's sides before its pass (plan.hpp, partition_sides).
//! Samples pred on partition_samples items of `items` (the input, or the stencil) evenly spaced, and
//! chooses rotated where fewer than a quarter hold; `force_rotated` (tests) chooses rotated unsampled.
//! Writes the choice (1: rotated) to `swapped` (device memory, which the pass's side_predicate
//! reads) and to `mapped` (a pinned host word, which the host reads after the pass's synchronize).
template <class ItemIt, class Pred>
__global__ void __launch_bounds__(partition_sample_threads)
  partition_sample_kernel(ItemIt items, std::uint64_t n, Pred pred, bool force_rotated, unsigned* swapped,
                          unsigned long long* mapped)
{
  unsigned rotated = 1u;
  if (!force_rotated)
  {
    unsigned selected = 0;
    for (int k = static_cast<int>(threadIdx.x); k < partition_samples; k += partition_sample_threads)
    {
      const std::uint64_t i = partition_sample_index(static_cast<unsigned>(k), n);
      selected += static_cast<bool>(pred(*(items + static_cast<std::ptrdiff_t>(i)))) ? 1u : 0u;
    }
    __shared__ unsigned total;
    if (threadIdx.x == 0)
    {
      total = 0;
    }
    __syncthreads();
    atomicAdd(&total, selected);
    __syncthreads();
    rotated = partition_rotates(total) ? 1u : 0u;
  }
  if (threadIdx.x == 0)
  {
    *swapped = rotated;
    *mapped  = rotated;
  }
}

//! After an in-place partition's pass that left its count S at `total` (device memory): the n - S
//! rejected items at `side` to first[S, n), in order, so that the host waits once for the pass and
//! the copy together (plan.hpp, partition_one_wait_max_bytes); block 0's thread 0 hands S to the host
//! through `mapped` (a pinned host word).
template <class T>
__global__ void __launch_bounds__(partition_copy_back_threads)
  partition_copy_back_kernel(const T* side, T* first, std::uint64_t n, const unsigned long long* total,
                             unsigned long long* mapped)
{
  const std::uint64_t selected = *total;
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    *mapped = selected;
  }
  const std::uint64_t rejected = n - selected;
  const std::uint64_t stride   = static_cast<std::uint64_t>(gridDim.x) * partition_copy_back_threads;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * partition_copy_back_threads + threadIdx.x; i < rejected;
       i += stride)
  {
    first[selected + i] = side[i];
  }
}

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
