// Host side of sweep's copy_if: plans the tiles, allocates and clears the tile state, launches the
// single-pass kernel and reads the selected count back: one memset and one kernel (a lone tile: the
// kernel only), the count written by the kernel into mapped host memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/copy_if/plan.hpp>
#include <sweep/detail/copy_if/kernels.cuh>
#include <sweep/detail/util/call_scratch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>
#include <sweep/detail/util/policy.cuh>
#include <sweep/detail/util/stream.hpp>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep
{
namespace detail
{
namespace copy_if_impl
{

//! True when It is `U*` or `const U*` with U == T.
template <class It, class T>
struct is_pointer_to : std::integral_constant<bool,
                                              std::is_pointer<It>::value
                                                && std::is_same<std::remove_cv_t<std::remove_pointer_t<It>>, T>::value>
{};

//! The compactions return their count to the host, so a call on a capturing stream is refused (before
//! anything is enqueued, so that the capture itself stays valid), as stock Thrust's fail there.
__host__ inline void refuse_capture(cudaStream_t stream)
{
  if (stream_may_be_capturing(stream))
  {
    throw_on_error(cudaErrorStreamCaptureUnsupported,
                   "sweep: copy_if, remove, unique and partition return their count to the host, so they cannot be "
                   "captured into a CUDA graph (nor can stock Thrust's)");
  }
}

//! What the host launches a select_kernel over items of T on Paths with on the current device
//! (kernel_launch: the tile of the tuning the kernel's code chose, tile_dims_for, and the blocks of it
//! the device holds at once, the most a launch takes; with the bulk or specialised schedule's dynamic
//! shared memory and threads where it has one).
template <class T, auto Kernel, class Paths = kernel_paths<false, false, false>>
__host__ const kernel_launch<tile_dims>& launch_for()
{
  return kernel_launch_for<Kernel, tile_dims>(
    [](int arch) { return tile_dims_for<T, Paths::load_vectors, Paths::schedule>(arch); },
    [](const tile_dims& tile) { return tile.block_threads + tile.extra_threads; },
    [](const tile_dims& tile) { return tile.bulk_shared; });
}

//! Compacts the n items at `input` (value type T) that are selected into `output`, stably: where the
//! predicate holds on the item, or on the stencil item when StencilIt is not no_stencil (Select
//! predicate), or where the item is the first or pred(item before, item) holds (Select adjacent:
//! unique). Where `rejected` is an output (partition), the items not selected go there, stably.
//! Contiguous iterators must already be unwrapped to raw pointers. The output may be the input (in
//! place: a tile writes only after every tile before it has loaded its items, and only over items of
//! those tiles and its own). Returns the number selected. Synchronizes the policy's stream (the count
//! is needed on the host), whatever the policy; refuses a capturing stream before enqueuing anything.
//! Throws thrust::system_error on CUDA errors and std::bad_alloc when temporary storage is exhausted.
//! Schedule: the tuning's (the public algorithms), or one forced (tests run each).
//! With `device_total` (device memory; not with an allocator policy, whose storage would go back while
//! the kernel runs) the kernel writes the count there instead and nothing waits: the call returns 0
//! once the kernel is enqueued, and the caller synchronizes the stream before the thread's next
//! compaction (which reuses its call_scratch) and before it reads the count (partition in place).
template <class T,
          bool Discard,
          schedule_choice Schedule = schedule_choice::tuned,
          select_kind Select       = select_kind::predicate,
          class Derived,
          class InputIt,
          class StencilIt,
          class OutputIt,
          class Pred,
          class RejectedIt = no_rejected>
__host__ std::uint64_t dispatch(execution_policy<Derived>& policy,
                                InputIt input,
                                std::uint64_t n,
                                StencilIt stencil,
                                OutputIt output,
                                Pred pred,
                                RejectedIt rejected                = {},
                                unsigned long long* device_total = nullptr)
{
  constexpr bool two_outputs        = !std::is_same<RejectedIt, no_rejected>::value;
  constexpr schedule_choice choice  = two_outputs && Schedule == schedule_choice::tuned ? schedule_choice::tuned_two_outputs : Schedule;
  constexpr bool load_vector_path   = vectorizable_type<T> && is_pointer_to<InputIt, T>::value;
  constexpr bool store_vector_path  = !Discard && vectorizable_type<T> && is_pointer_to<OutputIt, T>::value;
  using paths                       = kernel_paths<load_vector_path, store_vector_path, Discard, choice, Select>;
  using params_t                    = kernel_params<InputIt, StencilIt, OutputIt, Pred, RejectedIt>;
  constexpr auto kernel             = &select_kernel<T, paths, InputIt, StencilIt, OutputIt, Pred, RejectedIt>;

  if (n == 0)
  {
    return 0;
  }
  throw_on_pending_error("sweep::copy_if: an earlier CUDA call left this error");
  refuse_capture(stream_of(policy));

  // The tile of the tuning the kernel's code was compiled with.
  const kernel_launch<tile_dims>& launch = launch_for<T, kernel, paths>();
  std::uint64_t head          = 0;
  if constexpr (load_vector_path)
  {
    head = vector_head(reinterpret_cast<std::uintptr_t>(input), sizeof(T), row_bytes);
  }
  const tile_plan plan =
    make_tile_plan(n, launch.tile.tile_items, head, launch.tile.word_stride, launch.resident_blocks);
  if (plan.tiles > max_tiles)
  {
    throw_invalid_argument("sweep::copy_if", "last - first", "needs more tiles than one launch can hold");
  }

  const cudaStream_t stream = stream_of(policy);
  // Small calls use the thread's call_scratch: the kernel writes the count straight into a pinned host
  // word (no copy launched), and the tile counter and state live in a reused device buffer unless the
  // policy brings its own allocator (no allocation per call). This call synchronizes before it returns,
  // which keeps both free for the thread's next call. A lone tile needs no counter and no state.
  call_scratch* const scratch = thread_call_scratch();
  const bool lone_tile        = plan.tiles == 1 && scratch != nullptr;
  const temp_layout<8> layout = lone_tile ? temp_layout<8>{} : temp_layout<8>{plan.header_bytes, plan.state_bytes};
  const bool reuse_buffer =
    scratch != nullptr && !has_allocator<Derived>::value && layout.total <= call_scratch::device_bytes;
  temp_storage<execution_policy<Derived>> storage(policy, reuse_buffer ? temp_layout<8>{} : layout);
  unsigned char* const temp = reuse_buffer ? static_cast<unsigned char*>(scratch->device_buffer)
                                           : static_cast<unsigned char*>(storage.data());
  unsigned long long* const header = lone_tile ? nullptr : reinterpret_cast<unsigned long long*>(temp);

  const uint4* chunks = nullptr;
  if constexpr (load_vector_path)
  {
    // The 16-byte-aligned address of virtual item 0 (= first - head).
    chunks = reinterpret_cast<const uint4*>(reinterpret_cast<std::uintptr_t>(input) - plan.head * sizeof(T));
  }
  tile_state<unsigned long long, tile_ordering::relaxed> state;
  state.words = lone_tile ? nullptr : reinterpret_cast<unsigned long long*>(temp + layout.offsets[1]);
  state.slots = static_cast<std::uint32_t>(plan.word_stride); // slot 0 of each tile's words is its word
  unsigned long long* const total = device_total != nullptr ? device_total
                                   : scratch != nullptr      ? scratch->mapped_word
                                                             : header + 1;
  const params_t params{
    input, chunks, stencil, output, pred, plan.head, plan.virtual_items, plan.tiles, state, header, total, rejected};

  if (!lone_tile)
  {
    // One memset clears the tile counter and every tile's look-back word (status invalid).
    throw_on_error(cudaMemsetAsync(temp, 0, layout.offsets[1] + plan.state_bytes, stream),
                   "sweep::copy_if: clearing the tile state");
    if (reuse_buffer)
    {
      scratch->dirty[0] = call_scratch::device_bytes; // the scans' clear-ahead finds it used
    }
  }
  const std::uint64_t most = launch.resident_blocks;
  const unsigned grid      = static_cast<unsigned>(plan.tiles < most ? plan.tiles : most);
  // The kernel runs the bulk or specialised schedule, with its slots in dynamic shared memory (and
  // the specialised one's two warps more), where its tuning has one and there are more tiles than
  // blocks, or where a test forces it; launched without them it runs in order (kernels.cuh).
  const bool slots = launch.tile.bulk_shared > 0
                  && (choice == schedule_choice::bulk || choice == schedule_choice::specialized || plan.tiles > grid);
  if (slots)
  {
    allow_dynamic_shared(reinterpret_cast<const void*>(kernel), launch.tile.bulk_shared);
  }
  const int threads = launch.tile.block_threads + (slots ? launch.tile.extra_threads : 0);
  kernel<<<grid, threads, slots ? launch.tile.bulk_shared : 0, stream>>>(params);
  // From here the kernel may run: should anything below throw, the stream is drained before the
  // temporary storage goes back and before the thread's scratch can be reused.
  const drain_stream_on_throw drain{stream};
  check_launch("sweep::copy_if: select_kernel launch");
  if (device_total != nullptr)
  {
    return 0;
  }

  unsigned long long count = 0;
  if (scratch == nullptr)
  {
    throw_on_error(cudaMemcpyAsync(&count, total, sizeof(count), cudaMemcpyDeviceToHost, stream),
                   "sweep::copy_if: reading the selected count");
  }
  synchronize(policy, "sweep::copy_if: synchronizing for the selected count");
  if (scratch != nullptr)
  {
    // Written by the kernel's last tile; complete and visible once the stream is synchronized.
    count = *static_cast<volatile unsigned long long*>(scratch->host_word);
  }
  return count;
}

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
