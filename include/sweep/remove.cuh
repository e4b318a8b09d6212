// sweep's remove family for Thrust: `thrust::remove`, `remove_if` (with and without a stencil),
// `remove_copy` and `remove_copy_if` with sweep's policies run sweep's single-pass compaction kernel
// (copy_if.cuh) with the predicate negated; the in-place forms in one pass over their input.
#pragma once

#include <thrust/remove.h>

#include <type_traits>
#include <utility>

#include <sweep/copy_if.cuh>
#include <sweep/execution_policy.cuh>
#include <sweep/detail/util/cccl_compat.cuh>

namespace sweep
{
namespace detail
{

//! remove's and remove_copy's predicate: the item equals `value` (`item == value`, as Thrust's
//! `_1 == value`).
template <class T>
struct equals_value
{
  T value;

  template <class Arg>
  __host__ __device__ bool operator()(const Arg& item) const
  {
    return static_cast<bool>(item == value);
  }
};

//! thrust::remove_copy_if(sweep policy, first, last, result, pred): copies the items x with pred(x)
//! false to result, keeping their order; returns result + the number copied. Same contract as
//! copy_if (copy_if.cuh).
template <class Derived, class InputIt, class OutputIt, class Pred>
__host__ OutputIt
remove_copy_if(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<InputIt>>(), "");
  return copy_if_body(policy, first, last, first, result, select_negated<Pred>{pred}, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::remove_copy_if(thrust_policy(p), first, last, result, pred);
  });
}

//! The stencil form of remove_copy_if: copies first[i] where pred(stencil[i]) is false.
template <class Derived, class InputIt, class StencilIt, class OutputIt, class Pred>
__host__ OutputIt remove_copy_if(
  execution_policy<Derived>& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return copy_if_body(policy, first, last, stencil, result, select_negated<Pred>{pred}, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::remove_copy_if(thrust_policy(p), first, last, stencil, result, pred);
  });
}

//! thrust::remove_copy(sweep policy, first, last, result, value): remove_copy_if with `x == value`.
template <class Derived, class InputIt, class OutputIt, class T>
__host__ OutputIt remove_copy(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, const T& value)
{
  return sweep::detail::remove_copy_if(policy, first, last, result, equals_value<T>{value});
}

//! thrust::remove_if(sweep policy, first, last, pred): removes the items x with pred(x) true in place,
//! keeping the order of the others, in one pass; returns the new end. Nothing past it is written
//! (Thrust leaves the items there unspecified). pred must be callable on the device. Returns after the
//! count is known on the host (the stream is synchronized, also for par_nosync; a capturing stream is
//! refused). Throws like copy_if.
template <class Derived, class ForwardIt, class Pred>
__host__ ForwardIt remove_if(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<ForwardIt>>(), "");
  return copy_if_body(policy, first, last, first, first, select_negated<Pred>{pred}, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::remove_if(thrust_policy(p), first, last, pred);
  });
}

//! The stencil form: removes first[i] where pred(stencil[i]) holds. The stencil must not overlap
//! [first, last).
template <class Derived, class ForwardIt, class StencilIt, class Pred>
__host__ ForwardIt
remove_if(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, StencilIt stencil, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return copy_if_body(policy, first, last, stencil, first, select_negated<Pred>{pred}, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::remove_if(thrust_policy(p), first, last, stencil, pred);
  });
}

//! thrust::remove(sweep policy, first, last, value): remove_if with `x == value`.
template <class Derived, class ForwardIt, class T>
__host__ ForwardIt remove(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, const T& value)
{
  return sweep::detail::remove_if(policy, first, last, equals_value<T>{value});
}

} // namespace detail
} // namespace sweep
