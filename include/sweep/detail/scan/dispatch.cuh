// Host side of sweep's scan: plans the tiles, allocates and clears the tile state, launches the
// single-pass kernel. One memset and one kernel (a lone tile: the kernel only, no temporary storage);
// nothing is read back, so with par_nosync the call never waits for the GPU and can be captured into
// a CUDA graph. A call that waits for its stream anyway (sweep::par; reduce_by_key, which reads its
// count back) keeps its tile state in the thread's call_scratch buffer instead of allocating it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sweep/detail/lookback/value_tile_state.cuh>
#include <sweep/detail/scan/kernels.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/util/call_scratch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>
#include <sweep/detail/util/policy.cuh>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! Bytes a contiguous input lies past a 16-byte boundary where the specialised schedule copies its
//! tiles with the chunks around them (agent.cuh, copy_tile): a whole number of 4-byte words. 0 for an
//! aligned input and where that schedule does not take it (iterators; items aligned to under 4 bytes).
template <class It>
std::uint32_t shift_of_input(It it)
{
  if constexpr (std::is_pointer<It>::value)
  {
    const auto shift = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(it) % 16);
    return shift % 4 == 0 ? shift : 0u;
  }
  else
  {
    return 0;
  }
}

template <class It>
bool aligned16(It it)
{
  if constexpr (std::is_pointer<It>::value)
  {
    return reinterpret_cast<std::uintptr_t>(it) % 16 == 0;
  }
  else
  {
    return false;
  }
}

//! The tuned choices of the scans of exact accumulators (plan.hpp, exact_accumulator: integers, plain
//! and by key), which switch to a latency tile at small n (plan.hpp, pick_latency_tile).
template <class T, class Choice, schedule_choice Schedule>
inline constexpr bool latency_choice = exact_accumulator<T> && Schedule == schedule_choice::tuned
                                    && (std::is_same<Choice, tuned>::value || std::is_same<Choice, tuned_exclusive>::value);

//! Scans the n items at `input` into `output` with accumulator type T under `op` (Mode: inclusive or
//! exclusive, with or without `init`). Contiguous iterators must already be unwrapped to raw
//! pointers. Synchronizes the policy's stream only where the policy asks for it (synchronize_optional:
//! sweep::par yes, par_nosync no), or, with `caller_synchronizes`, not at all: the caller then must
//! synchronize the stream before it returns or throws (reduce_by_key, which reads its count back),
//! and the thread's call_scratch buffer (the tile state may be there) is not free until it has.
//! `name` names the public call in errors. Throws thrust::system_error on CUDA errors and
//! std::bad_alloc when temporary storage is exhausted.
template <class T,
          class Mode,
          class Choice             = tuned,
          schedule_choice Schedule = schedule_choice::tuned,
          class Derived,
          class InputIt,
          class OutputIt,
          class Op>
__host__ void dispatch(execution_policy<Derived>& policy,
                       InputIt input,
                       std::uint64_t n,
                       OutputIt output,
                       Op op,
                       const T& init,
                       const char* name,
                       bool caller_synchronizes = false)
{
  using params_t        = kernel_params<InputIt, OutputIt, T, Op>;
  using state_t         = value_tile_state<T>;
  constexpr auto kernel = &scan_kernel<T, Mode, Choice, Schedule, InputIt, OutputIt, Op>;
  if (n == 0)
  {
    return;
  }
  throw_on_pending_error("sweep: scan: an earlier CUDA call left this error");

  // The tile of the tuning the kernel's code was compiled with, and the blocks of it the device holds
  // (with the specialised schedule's slots and threads where the kernel has it: the blocks that
  // schedule runs are the fewer).
  constexpr bool vector_input            = is_pointer_to_v<InputIt, T>;
  const kernel_launch<tile_dims>& launch = kernel_launch_for<kernel, tile_dims>(
    [](int arch) { return tile_dims_for<T, Choice, vector_input, Schedule>(arch); },
    [](const tile_dims& tile) { return tile.block_threads + tile.extra_threads; },
    [](const tile_dims& tile) { return tile.pipeline_shared; });
  if constexpr (latency_choice<T, Choice, Schedule>)
  {
    const latency_pick pick =
      pick_latency_tile(n, tile_dims_for<T, tuned_latency, vector_input, Schedule>(launch.arch).tile_items,
                        tile_dims_for<T, tuned_latency_wide, vector_input, Schedule>(launch.arch).tile_items,
                        launch.tile.tile_items, static_cast<std::uint64_t>(current_device_info().sm_count));
    if (pick == latency_pick::small)
    {
      dispatch<T, Mode, tuned_latency, Schedule>(policy, input, n, output, op, init, name, caller_synchronizes);
      return;
    }
    if (pick == latency_pick::wide)
    {
      dispatch<T, Mode, tuned_latency_wide, Schedule>(policy, input, n, output, op, init, name, caller_synchronizes);
      return;
    }
  }
  const scan_plan plan = make_scan_plan(n, launch.tile.tile_items, launch.resident_blocks, launch.tile.spread_bytes,
                                        state_t::status_word_bytes);
  if (plan.tiles > max_tiles)
  {
    throw_invalid_argument(name, "last - first", "needs more tiles than one launch can hold");
  }

  const cudaStream_t stream = stream_of(policy);
  const bool lone           = plan.tiles == 1;
  // Part 0: the tile counter; part 1: the tile state. Cleared together by one memset (the state's
  // status words; its value words are written before they are read).
  const temp_layout<2> layout =
    lone ? temp_layout<2>{} : temp_layout<2>{sizeof(unsigned long long), state_t::bytes(plan.tiles, plan.stride)};
  // A call that waits for its stream before the thread's next call keeps the counter and state in
  // one half of the thread's call_scratch buffer where they fit and the policy brings no allocator:
  // no allocation and free a call (as copy_if). Not on a capturing stream: a graph must not hold the
  // buffer. The thread's scans alternate the halves: where this call's half is clean (the previous
  // scan's kernel cleared it) there is no memset, and this call's kernel clears the other half for
  // the next one (clear_ahead).
  const bool waits = caller_synchronizes || synchronizes_optionally(policy);
  call_scratch* const scratch =
    !lone && waits && !has_allocator<Derived>::value && layout.total <= call_scratch::device_bytes
        && !stream_may_be_capturing(stream)
      ? thread_call_scratch()
      : nullptr;
  const int half = scratch != nullptr ? scratch->next_half : 0;
  temp_storage<execution_policy<Derived>, 2> storage(policy, scratch != nullptr ? temp_layout<2>{} : layout);
  unsigned char* const temp = scratch != nullptr ? static_cast<unsigned char*>(scratch->half(half))
                                                 : static_cast<unsigned char*>(storage.data());

  params_t params{input,   output, op, init, n, plan.tiles, state_t{}, nullptr, aligned16(input), aligned16(output),
                  0u,      nullptr, 0u};
  // The counter and the status words: what must be zero when the kernel starts; and everything the
  // kernel may write there (the value words of a state that keeps them apart from the status words
  // too), which a later call's status words may overlap.
  const std::size_t cleared = lone ? 0 : layout.offsets[1] + state_t::status_bytes(plan.tiles, plan.stride);
  const std::size_t used    = lone ? 0 : layout.total;
  if (!lone)
  {
    params.tile_counter = reinterpret_cast<unsigned long long*>(temp);
    params.state        = state_t::at(temp + layout.offsets[1], plan.tiles, plan.stride);
    if (scratch == nullptr || scratch->dirty[half] != 0)
    {
      throw_on_error(cudaMemsetAsync(temp, 0, cleared, stream), "sweep: scan: clearing the tile state");
    }
    if (scratch != nullptr)
    {
      params.clear_words = static_cast<unsigned long long*>(scratch->half(half ^ 1));
      params.clear_count = static_cast<std::uint32_t>((scratch->dirty[half ^ 1] + 7) / 8);
    }
  }
  // The specialised schedule, with its slots in dynamic shared memory and two warps more, where the
  // kernel has it, the input is 16-byte aligned or lies a whole number of 4-byte words past a 16-byte
  // boundary (the copy engine's bulk copies: a misaligned input's tiles come with the chunks around
  // them) and there are more tiles than blocks (or a test forces it); launched without them it runs in
  // order (kernels.cuh). The kernel's grid is that schedule's (one block an SM of 576 threads): in
  // order, a misaligned input's tiles took one 64 KiB tile an SM at a time.
  const std::uint32_t shift = params.vector_loads ? 0u : shift_of_input(input);
  const bool pipelined      = launch.tile.pipeline_shared > 0 && (params.vector_loads || shift != 0)
                      && (Schedule == schedule_choice::specialized || plan.tiles > plan.grid);
  params.input_shift = pipelined ? shift : 0u;
  if (pipelined)
  {
    allow_dynamic_shared(reinterpret_cast<const void*>(kernel), launch.tile.pipeline_shared,
                         "sweep: scan: raising the kernel's dynamic shared memory limit");
  }
  kernel<<<plan.grid, launch.tile.block_threads + (pipelined ? launch.tile.extra_threads : 0),
           pipelined ? launch.tile.pipeline_shared : 0, stream>>>(params);
  // From here the kernel may run: should anything below throw, the stream is drained before the
  // temporary storage goes back.
  const drain_stream_on_throw drain{stream};
  check_launch("sweep: scan_kernel launch");
  if (scratch != nullptr)
  {
    // Launched: this half holds the call's state (and whatever lay past it before), the other is
    // zero once the kernel is done, before the thread's next call (this one waits for it).
    scratch->dirty[half]     = scratch->dirty[half] > used ? scratch->dirty[half] : used;
    scratch->dirty[half ^ 1] = 0;
    scratch->next_half       = half ^ 1;
  }
  if (!caller_synchronizes)
  {
    synchronize_optional(policy, "sweep: scan: synchronizing");
  }
}

} // namespace scan_impl
} // namespace detail
} // namespace sweep
