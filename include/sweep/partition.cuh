// sweep's partitions for Thrust: `thrust::partition_copy`, `stable_partition_copy`, `partition` and
// `stable_partition` (each with and without a stencil) with sweep's policies run sweep's single-pass
// compaction kernel with a second output: a tile's selected items go after the selected items of the
// tiles before it, its rejected ones after theirs, both in input order. The copying forms and
// stable_partition keep input order on both sides (partition_copy too: Thrust promises it no order).
// The in-place forms write one side over the input in the same pass and the other to temporary
// storage, then copy it into place: each item is read once and written once, that side once more.
// stable_partition puts the selected items over the input. partition does too, except on inputs of
// 64 MiB and more where a sample of 4096 items finds fewer than a quarter selected: there the
// rejected items go over the input and the selected ones through temporary storage, and the rejected
// side comes out rotated (copy_if_impl::partition_sides, plan.hpp, says which order).
#pragma once

#include <thrust/copy.h>
#include <thrust/pair.h>
#include <thrust/partition.h>

#include <cuda/std/iterator>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include <sweep/copy_if.cuh>
#include <sweep/execution_policy.cuh>
#include <sweep/detail/copy_if/dispatch.cuh>
#include <sweep/detail/copy_if/kernels.cuh>
#include <sweep/detail/copy_if/plan.hpp>
#include <sweep/detail/util/call_scratch.hpp>
#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/policy.cuh>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep
{
namespace detail
{

//! The shared body of partition_copy and stable_partition_copy: the items of [first, last) whose
//! predicate (on the item, or on the stencil item where HasStencil) holds to out_true, the others to
//! out_false, both in input order. Value types sweep's kernel does not take run `fallback(policy)`.
//! With `device_total` (partition in place) the count goes there and nothing waits (dispatch): the
//! returned ends are then meaningless.
template <class Derived, class InputIt, class StencilIt, class TrueIt, class FalseIt, class Pred, bool HasStencil, class Fallback>
__host__ thrust::pair<TrueIt, FalseIt> partition_copy_body(execution_policy<Derived>& policy,
                                                           InputIt first,
                                                           InputIt last,
                                                           StencilIt stencil,
                                                           TrueIt out_true,
                                                           FalseIt out_false,
                                                           Pred pred,
                                                           std::integral_constant<bool, HasStencil>,
                                                           Fallback fallback,
                                                           unsigned long long* device_total = nullptr)
{
  using value_type = cccl::value_type_t<InputIt>;
  if constexpr (!copy_if_impl::supported_type<value_type>)
  {
    return fallback(policy);
  }
  else
  {
    const auto distance = last - first;
    if (distance <= 0)
    {
      return thrust::make_pair(out_true, out_false);
    }
    const auto n        = static_cast<std::uint64_t>(distance);
    const auto input    = thrust::try_unwrap_contiguous_iterator(first);
    std::uint64_t selected = 0;
    if constexpr (HasStencil)
    {
      selected = copy_if_impl::dispatch<value_type, false>(policy, input, n, thrust::try_unwrap_contiguous_iterator(stencil),
                                                           thrust::try_unwrap_contiguous_iterator(out_true), pred,
                                                           thrust::try_unwrap_contiguous_iterator(out_false), device_total);
    }
    else
    {
      selected = copy_if_impl::dispatch<value_type, false>(policy, input, n, copy_if_impl::no_stencil{},
                                                           thrust::try_unwrap_contiguous_iterator(out_true), pred,
                                                           thrust::try_unwrap_contiguous_iterator(out_false), device_total);
    }
    using true_difference  = typename ::cuda::std::iterator_traits<TrueIt>::difference_type;
    using false_difference = typename ::cuda::std::iterator_traits<FalseIt>::difference_type;
    return thrust::make_pair(out_true + static_cast<true_difference>(selected),
                             out_false + static_cast<false_difference>(n - selected));
  }
}

//! Copies `count` items from `from` to `to` (device memory, the two ranges apart) on the policy's
//! stream: one cudaMemcpyAsync where both are raw pointers after unwrapping, else Thrust's copy.
template <class Derived, class FromIt, class ToIt>
__host__ void copy_items(execution_policy<Derived>& policy, FromIt from, std::uint64_t count, ToIt to, const char* what)
{
  if (count == 0)
  {
    return;
  }
  using value_type = cccl::value_type_t<FromIt>;
  const auto from_raw = thrust::try_unwrap_contiguous_iterator(from);
  const auto to_raw   = thrust::try_unwrap_contiguous_iterator(to);
  if constexpr (std::is_pointer<std::remove_cv_t<decltype(from_raw)>>::value
                && std::is_pointer<std::remove_cv_t<decltype(to_raw)>>::value)
  {
    throw_on_error(cudaMemcpyAsync(to_raw, from_raw, count * sizeof(value_type), cudaMemcpyDeviceToDevice, stream_of(policy)),
                   what);
  }
  else
  {
    using difference = typename ::cuda::std::iterator_traits<FromIt>::difference_type;
    thrust::cuda_cub::copy(thrust_policy(policy), from, from + static_cast<difference>(count), to);
  }
}

//! The shared body of partition and stable_partition (in place): one side over the input in one pass,
//! the other to temporary storage (from the policy), then copied into place (copy_if_impl's
//! partition_sides, plan.hpp: `forward` for stable_partition; `sampled` for partition, which may take
//! `rotated`; tests force either). Returns the partition point. Value types sweep's kernel does not
//! take run `fallback(policy)`. The host waits for the pass's count, then for the copy; a forward pass
//! over at most partition_one_wait_max_bytes of a raw pointer under sweep's stream-ordered storage
//! waits once, for both (the copy reads the count on the device).
template <copy_if_impl::partition_sides Sides,
          class Derived,
          class ForwardIt,
          class StencilIt,
          class Pred,
          bool HasStencil,
          class Fallback>
__host__ ForwardIt partition_body(execution_policy<Derived>& policy,
                                  ForwardIt first,
                                  ForwardIt last,
                                  StencilIt stencil,
                                  Pred pred,
                                  std::integral_constant<bool, HasStencil> has_stencil,
                                  Fallback fallback)
{
  using value_type = cccl::value_type_t<ForwardIt>;
  using sides      = copy_if_impl::partition_sides;
  if constexpr (!copy_if_impl::supported_type<value_type> || !std::is_trivially_copyable<value_type>::value)
  {
    return fallback(policy);
  }
  else
  {
    const auto distance = last - first;
    if (distance <= 0)
    {
      return first;
    }
    const auto n = static_cast<std::uint64_t>(distance);
    using difference = typename ::cuda::std::iterator_traits<ForwardIt>::difference_type;
    throw_on_pending_error("sweep::partition: an earlier CUDA call left this error");
    copy_if_impl::refuse_capture(stream_of(policy)); // before the temporary storage is taken
    const cudaStream_t stream = stream_of(policy);
    // The choice of sides, and a one-wait pass's count, come back through the thread's pinned scratch
    // words: without them (a driver without the entry points call_scratch needs) the pass runs
    // forward and waits twice.
    call_scratch* const scratch = thread_call_scratch();
    const std::uint64_t bytes   = n * sizeof(value_type);
    const bool choose           = Sides != sides::forward && scratch != nullptr
                       && (Sides == sides::rotated || bytes >= copy_if_impl::partition_sample_min_bytes);
    // Small forward partitions of raw pointers on sweep's stream-ordered storage wait once: the pass
    // leaves its count on the device and partition_copy_back_kernel reads it there (plan.hpp,
    // partition_one_wait_max_bytes). An allocator's storage could go back while the pass runs.
    using raw_first_t   = decltype(thrust::try_unwrap_contiguous_iterator(first));
    const bool one_wait = std::is_pointer<raw_first_t>::value && !has_allocator<Derived>::value && scratch != nullptr
                       && !choose && bytes <= copy_if_impl::partition_one_wait_max_bytes;
    // The side copied into place after the pass (n items at most) and, where partition chooses its
    // sides, the device word of the choice; where it waits once, the device word of the count.
    temp_storage<execution_policy<Derived>, 2> storage(
      policy, temp_layout<2>{bytes, choose ? sizeof(unsigned) : one_wait ? sizeof(unsigned long long) : 0});
    value_type* const side = storage.template part<value_type>(0);
    // From here a kernel may run on the temporary storage: drained before it goes back on a throw.
    const drain_stream_on_throw drain{stream};
    // One pass: the items `pass_pred` selects over the input, the others to `side`; returns the end
    // of the first. Synchronizes: the count is on the host (partition_copy_body, dispatch).
    // With a device_total, the count stays on the device and nothing waits (the returned end is then
    // meaningless).
    const auto pass = [&](auto pass_pred, unsigned long long* device_total) {
      return partition_copy_body(policy, first, last, stencil, first, side, pass_pred, has_stencil,
                                 [&](auto&) { return thrust::make_pair(first, side); }, device_total)
        .first;
    };
    if constexpr (std::is_pointer<raw_first_t>::value)
    {
      if (one_wait)
      {
        unsigned long long* const total = storage.template part<unsigned long long>(1);
        pass(pred, total);
        const std::uint64_t blocks = (n + copy_if_impl::partition_copy_back_threads - 1) / copy_if_impl::partition_copy_back_threads;
        copy_if_impl::partition_copy_back_kernel<value_type>
          <<<static_cast<unsigned>(blocks < copy_if_impl::partition_copy_back_max_blocks ? blocks : copy_if_impl::partition_copy_back_max_blocks),
             copy_if_impl::partition_copy_back_threads, 0, stream>>>(side, thrust::try_unwrap_contiguous_iterator(first), n,
                                                                    total, scratch->mapped_word);
        check_launch("sweep::partition: partition_copy_back_kernel launch");
        synchronize(policy, "sweep::partition: synchronizing");
        return first + static_cast<difference>(*static_cast<volatile unsigned long long*>(scratch->host_word));
      }
    }
    ForwardIt in_place_end = first;
    bool rotated           = false;
    if (!choose)
    {
      in_place_end = pass(pred, nullptr);
    }
    else
    {
      unsigned* const swapped = storage.template part<unsigned>(1);
      copy_if_impl::partition_sample_kernel<<<1, copy_if_impl::partition_sample_threads, 0, stream>>>(
        thrust::try_unwrap_contiguous_iterator(stencil), n, pred, Sides == sides::rotated, swapped,
        scratch->mapped_word + 1);
      check_launch("sweep::partition: partition_sample_kernel launch");
      // The predicate, or its negation, as the sample chose; the choice is on the host once the pass
      // has synchronized.
      in_place_end = pass(copy_if_impl::side_predicate<Pred>{pred, swapped}, nullptr);
      rotated      = static_cast<volatile unsigned long long*>(scratch->host_word)[1] != 0;
    }
    const auto in_place = static_cast<std::uint64_t>(in_place_end - first);
    if (!rotated)
    {
      // The rejected items behind the selected ones. Synchronized before the temporary storage goes
      // back and before returning, as Thrust's partitions return after their work.
      copy_items(policy, side, n - in_place, in_place_end, "sweep::partition: copying the rejected items");
      synchronize(policy, "sweep::partition: synchronizing");
      return in_place_end;
    }
    const copy_if_impl::rotated_moves moves = copy_if_impl::plan_rotated_moves(n, in_place);
    copy_items(policy, first, moves.moved, first + static_cast<difference>(moves.moved_to),
               "sweep::partition: moving the rejected items");
    copy_items(policy, side, moves.selected, first, "sweep::partition: copying the selected items");
    synchronize(policy, "sweep::partition: synchronizing");
    return first + static_cast<difference>(moves.selected);
  }
}

//! thrust::stable_partition_copy(sweep policy, first, last, out_true, out_false, pred): copies the
//! items x with pred(x) to out_true and the others to out_false, each in input order; returns the ends
//! of both. Nothing at or after the returned ends is written. The outputs must not overlap the input or
//! each other; pred must be callable on the device. Returns after the count is known on the host (the
//! stream is synchronized, also for par_nosync; a capturing stream is refused). Throws
//! thrust::system_error on CUDA errors, std::bad_alloc when temporary storage cannot be allocated.
template <class Derived, class InputIt, class TrueIt, class FalseIt, class Pred>
__host__ thrust::pair<TrueIt, FalseIt> stable_partition_copy(
  execution_policy<Derived>& policy, InputIt first, InputIt last, TrueIt out_true, FalseIt out_false, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<InputIt>>(), "");
  return partition_copy_body(policy, first, last, first, out_true, out_false, pred, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::stable_partition_copy(thrust_policy(p), first, last, out_true, out_false, pred);
  });
}

//! The stencil form: first[i] goes to out_true where pred(stencil[i]) holds.
template <class Derived, class InputIt, class StencilIt, class TrueIt, class FalseIt, class Pred>
__host__ thrust::pair<TrueIt, FalseIt> stable_partition_copy(execution_policy<Derived>& policy,
                                                            InputIt first,
                                                            InputIt last,
                                                            StencilIt stencil,
                                                            TrueIt out_true,
                                                            FalseIt out_false,
                                                            Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return partition_copy_body(policy, first, last, stencil, out_true, out_false, pred, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::stable_partition_copy(thrust_policy(p), first, last, stencil, out_true, out_false, pred);
  });
}

//! thrust::partition_copy(sweep policy, ...): as stable_partition_copy (sweep keeps input order on both
//! sides, which Thrust does not promise).
template <class Derived, class InputIt, class TrueIt, class FalseIt, class Pred>
__host__ thrust::pair<TrueIt, FalseIt> partition_copy(
  execution_policy<Derived>& policy, InputIt first, InputIt last, TrueIt out_true, FalseIt out_false, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<InputIt>>(), "");
  return partition_copy_body(policy, first, last, first, out_true, out_false, pred, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::partition_copy(thrust_policy(p), first, last, out_true, out_false, pred);
  });
}

template <class Derived, class InputIt, class StencilIt, class TrueIt, class FalseIt, class Pred>
__host__ thrust::pair<TrueIt, FalseIt> partition_copy(execution_policy<Derived>& policy,
                                                     InputIt first,
                                                     InputIt last,
                                                     StencilIt stencil,
                                                     TrueIt out_true,
                                                     FalseIt out_false,
                                                     Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return partition_copy_body(policy, first, last, stencil, out_true, out_false, pred, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::partition_copy(thrust_policy(p), first, last, stencil, out_true, out_false, pred);
  });
}

//! thrust::stable_partition(sweep policy, first, last, pred): reorders [first, last) so that the items
//! x with pred(x) come first, each side in input order; returns the partition point. Temporary storage
//! for the rejected items; otherwise as stable_partition_copy.
template <class Derived, class ForwardIt, class Pred>
__host__ ForwardIt stable_partition(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<ForwardIt>>(), "");
  return partition_body<copy_if_impl::partition_sides::forward>(policy, first, last, first, pred, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::stable_partition(thrust_policy(p), first, last, pred);
  });
}

//! The stencil form (the stencil must not overlap [first, last)).
template <class Derived, class ForwardIt, class StencilIt, class Pred>
__host__ ForwardIt
stable_partition(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, StencilIt stencil, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return partition_body<copy_if_impl::partition_sides::forward>(policy, first, last, stencil, pred, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::stable_partition(thrust_policy(p), first, last, stencil, pred);
  });
}

//! thrust::partition(sweep policy, ...): as stable_partition (Thrust does not promise the order), except
//! that on inputs of 64 MiB and more where a sample finds fewer than a quarter of the items selected,
//! the rejected side is rotated: with S selected and R rejected items, the rejected items in input
//! order r_0 .. r_{R-1} end as r_m .. r_{R-1}, r_0 .. r_{m-1}, m = min(S, R) (copy_if_impl::
//! partition_sides, plan.hpp). The selected side is in input order in every case.
template <class Derived, class ForwardIt, class Pred>
__host__ ForwardIt partition(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<ForwardIt>>(), "");
  return partition_body<copy_if_impl::partition_sides::sampled>(policy, first, last, first, pred, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::partition(thrust_policy(p), first, last, pred);
  });
}

template <class Derived, class ForwardIt, class StencilIt, class Pred>
__host__ ForwardIt
partition(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, StencilIt stencil, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return partition_body<copy_if_impl::partition_sides::sampled>(policy, first, last, stencil, pred, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::partition(thrust_policy(p), first, last, stencil, pred);
  });
}

} // namespace detail
} // namespace sweep
