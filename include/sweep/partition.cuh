// sweep's partitions for Thrust: `thrust::partition_copy`, `stable_partition_copy`, `partition` and
// `stable_partition` (each with and without a stencil) with sweep's policies run sweep's single-pass
// compaction kernel with a second output: a tile's selected items go after the selected items of the
// tiles before it, its rejected ones after theirs, both in input order. Every form is stable (the
// unstable ones too: Thrust promises them no order, sweep gives input order). The in-place forms write
// the selected items over the input in the same pass and the rejected ones to temporary storage, then
// copy those behind them: each item is read once and written once, and the rejected ones once more.
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
template <class Derived, class InputIt, class StencilIt, class TrueIt, class FalseIt, class Pred, bool HasStencil, class Fallback>
__host__ thrust::pair<TrueIt, FalseIt> partition_copy_body(execution_policy<Derived>& policy,
                                                           InputIt first,
                                                           InputIt last,
                                                           StencilIt stencil,
                                                           TrueIt out_true,
                                                           FalseIt out_false,
                                                           Pred pred,
                                                           std::integral_constant<bool, HasStencil>,
                                                           Fallback fallback)
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
                                                           thrust::try_unwrap_contiguous_iterator(out_false));
    }
    else
    {
      selected = copy_if_impl::dispatch<value_type, false>(policy, input, n, copy_if_impl::no_stencil{},
                                                           thrust::try_unwrap_contiguous_iterator(out_true), pred,
                                                           thrust::try_unwrap_contiguous_iterator(out_false));
    }
    using true_difference  = typename ::cuda::std::iterator_traits<TrueIt>::difference_type;
    using false_difference = typename ::cuda::std::iterator_traits<FalseIt>::difference_type;
    return thrust::make_pair(out_true + static_cast<true_difference>(selected),
                             out_false + static_cast<false_difference>(n - selected));
  }
}

//! The shared body of partition and stable_partition (in place): the selected items over the input in
//! one pass, the rejected ones to temporary storage (from the policy), then copied behind them.
//! Returns the partition point. Value types sweep's kernel does not take run `fallback(policy)`.
template <class Derived, class ForwardIt, class StencilIt, class Pred, bool HasStencil, class Fallback>
__host__ ForwardIt partition_body(execution_policy<Derived>& policy,
                                  ForwardIt first,
                                  ForwardIt last,
                                  StencilIt stencil,
                                  Pred pred,
                                  std::integral_constant<bool, HasStencil> has_stencil,
                                  Fallback fallback)
{
  using value_type = cccl::value_type_t<ForwardIt>;
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
    throw_on_pending_error("sweep::stable_partition: an earlier CUDA call left this error");
    copy_if_impl::refuse_capture(stream_of(policy)); // before the temporary storage is taken
    temp_storage<execution_policy<Derived>, 1> storage(policy, temp_layout<1>{n * sizeof(value_type)});
    value_type* const rejected = storage.template part<value_type>(0);
    const auto ends            = partition_copy_body(policy, first, last, stencil, first, rejected, pred, has_stencil,
                                                     [&](auto&) { return thrust::make_pair(first, rejected); });
    const std::uint64_t count  = static_cast<std::uint64_t>(ends.second - rejected);
    const cudaStream_t stream  = stream_of(policy);
    // The rejected items behind the selected ones: one device copy (the kernel has completed: the
    // dispatcher synchronized for its count). Synchronized before the temporary storage goes back
    // and before returning, as Thrust's partitions return after their work.
    const auto out = thrust::try_unwrap_contiguous_iterator(ends.first);
    if constexpr (std::is_pointer<std::remove_cv_t<decltype(out)>>::value)
    {
      if (count > 0)
      {
        throw_on_error(cudaMemcpyAsync(out, rejected, count * sizeof(value_type), cudaMemcpyDeviceToDevice, stream),
                       "sweep::stable_partition: copying the rejected items");
      }
    }
    else
    {
      thrust::cuda_cub::copy(thrust_policy(policy), rejected, rejected + count, ends.first);
    }
    synchronize(policy, "sweep::stable_partition: synchronizing");
    return ends.first;
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
  return partition_body(policy, first, last, first, pred, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::stable_partition(thrust_policy(p), first, last, pred);
  });
}

//! The stencil form (the stencil must not overlap [first, last)).
template <class Derived, class ForwardIt, class StencilIt, class Pred>
__host__ ForwardIt
stable_partition(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, StencilIt stencil, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return partition_body(policy, first, last, stencil, pred, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::stable_partition(thrust_policy(p), first, last, stencil, pred);
  });
}

//! thrust::partition(sweep policy, ...): as stable_partition (Thrust does not promise the order).
template <class Derived, class ForwardIt, class Pred>
__host__ ForwardIt partition(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<ForwardIt>>(), "");
  return partition_body(policy, first, last, first, pred, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::partition(thrust_policy(p), first, last, pred);
  });
}

template <class Derived, class ForwardIt, class StencilIt, class Pred>
__host__ ForwardIt
partition(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, StencilIt stencil, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return partition_body(policy, first, last, stencil, pred, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::partition(thrust_policy(p), first, last, stencil, pred);
  });
}

} // namespace detail
} // namespace sweep
