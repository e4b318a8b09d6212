// sweep's copy_if for Thrust: `thrust::copy_if(sweep::par, ...)` (and the stencil form) runs sweep's
// single-pass compaction kernel; the shared body of every compaction that selects by a predicate
// (remove.cuh, partition.cuh) is here.
#pragma once

#include <thrust/copy.h>
#include <thrust/iterator/discard_iterator.h>

#include <cuda/std/iterator>

#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include <sweep/execution_policy.cuh>
#include <sweep/detail/copy_if/dispatch.cuh>
#include <sweep/detail/util/cccl_compat.cuh>

namespace sweep
{
namespace detail
{

template <class It>
struct is_discard_iterator : std::false_type
{};
template <class System>
struct is_discard_iterator<thrust::discard_iterator<System>> : std::true_type
{};

//! remove_copy_if's predicate: the user's, negated. Not const: like Thrust, sweep accepts
//! predicates whose operator() is not const (the kernel calls a mutable copy).
template <class Pred>
struct select_negated
{
  Pred pred;

  template <class Arg>
  __host__ __device__ bool operator()(Arg&& arg)
  {
    return !static_cast<bool>(pred(std::forward<Arg>(arg)));
  }
};

//! Compile-time checks of a copy_if predicate, with messages that say what is wrong.
template <class Pred, class Arg>
__host__ constexpr bool check_select_predicate()
{
  static_assert(!std::is_pointer<Pred>::value && !std::is_function<Pred>::value,
                "sweep::copy_if: the predicate is a function pointer, which points to host code and cannot "
                "run on the device; pass a function object or a __device__ / __host__ __device__ lambda");
#if defined(__CUDACC_EXTENDED_LAMBDA__)
  // The parameter types of an extended __device__ lambda cannot be queried in host code: the kernel's
  // instantiation checks those calls instead.
  constexpr bool queryable = !__nv_is_extended_device_lambda_closure_type(Pred)
                          || __nv_is_extended_host_device_lambda_closure_type(Pred);
#else
  constexpr bool queryable = true;
#endif
  if constexpr (queryable)
  {
    static_assert(std::is_invocable<Pred&, Arg&>::value,
                  "sweep::copy_if: the predicate cannot be called with the input's (or the stencil's) "
                  "value type");
    if constexpr (std::is_invocable<Pred&, Arg&>::value)
    {
      static_assert(std::is_convertible<std::invoke_result_t<Pred&, Arg&>, bool>::value,
                    "sweep::copy_if: the predicate's result is not convertible to bool");
    }
  }
  return true;
}

//! The shared body of every overload that selects by a predicate (copy_if, remove_copy_if, remove_if):
//! HasStencil selects the stencil form (`stencil` is then the stencil iterator, otherwise ignored).
//! `result` may be `first` (remove_if in place; copy_if_impl::dispatch says why that is safe),
//! otherwise the ranges must not overlap. Value types sweep's kernel does not take run `fallback(p)`
//! (Thrust's own algorithm under the same stream and allocator; a generic lambda, so that Thrust's
//! kernels are only instantiated for those types).
template <class Derived, class InputIt, class StencilIt, class OutputIt, class Pred, bool HasStencil, class Fallback>
__host__ OutputIt copy_if_body(execution_policy<Derived>& policy,
                               InputIt first,
                               InputIt last,
                               StencilIt stencil,
                               OutputIt result,
                               Pred pred,
                               std::integral_constant<bool, HasStencil>,
                               Fallback fallback)
{
  using value_type = cccl::value_type_t<InputIt>;
  if constexpr (!copy_if_impl::supported_type<value_type>)
  {
    // Too large to stage a tile in shared memory: Thrust's own kernel (same stream and allocator).
    return fallback(policy);
  }
  else
  {
    const auto distance = last - first;
    if (distance <= 0)
    {
      return result;
    }
    const auto n        = static_cast<std::uint64_t>(distance);
    constexpr bool discard = is_discard_iterator<OutputIt>::value;
    const auto input    = thrust::try_unwrap_contiguous_iterator(first);
    const auto output   = thrust::try_unwrap_contiguous_iterator(result);
    std::uint64_t selected = 0;
    if constexpr (HasStencil)
    {
      selected = copy_if_impl::dispatch<value_type, discard>(
        policy, input, n, thrust::try_unwrap_contiguous_iterator(stencil), output, pred);
    }
    else
    {
      selected = copy_if_impl::dispatch<value_type, discard>(policy, input, n, copy_if_impl::no_stencil{}, output, pred);
    }
    using difference = typename ::cuda::std::iterator_traits<OutputIt>::difference_type;
    return result + static_cast<difference>(selected);
  }
}

//! thrust::copy_if(sweep policy, first, last, result, pred): copies the items x of [first, last) with
//! pred(x) true to result, keeping their order; returns result + the number copied. Nothing at or
//! after the returned end is written. [first, last) and the output must not overlap; pred must be
//! callable on the device. Returns after the count is known on the host (the stream is synchronized,
//! also for par_nosync). Throws thrust::system_error on CUDA errors, std::bad_alloc when temporary
//! storage cannot be allocated.
template <class Derived, class InputIt, class OutputIt, class Pred>
__host__ OutputIt copy_if(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<InputIt>>(), "");
  return copy_if_body(policy, first, last, first, result, pred, std::false_type{}, [&](auto& p) {
    return thrust::cuda_cub::copy_if(thrust_policy(p), first, last, result, pred);
  });
}

//! The stencil form: copies first[i] where pred(stencil[i]) holds. Same contract as above; the stencil
//! may have another value type than the input.
template <class Derived, class InputIt, class StencilIt, class OutputIt, class Pred>
__host__ OutputIt copy_if(
  execution_policy<Derived>& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  static_assert(check_select_predicate<Pred, cccl::value_type_t<StencilIt>>(), "");
  return copy_if_body(policy, first, last, stencil, result, pred, std::true_type{}, [&](auto& p) {
    return thrust::cuda_cub::copy_if(thrust_policy(p), first, last, stencil, result, pred);
  });
}

} // namespace detail
} // namespace sweep
