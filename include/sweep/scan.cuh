// sweep's scans for Thrust: `thrust::inclusive_scan(sweep::par, ...)`, exclusive_scan and the
// transform scans, in every form Thrust has, run sweep's single-pass scan kernel.
#pragma once

#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cstdint>
#include <type_traits>

#include <sweep/execution_policy.cuh>
#include <sweep/detail/scan/dispatch.cuh>
#include <sweep/detail/util/cccl_compat.cuh>

namespace sweep
{
namespace detail
{

//! The accumulator of an inclusive scan with an initial value, as Thrust's (CUB's
//! ::cuda::std::__accumulator_t): the decayed result of op(init, item).
template <class Op, class Value, class Init>
using scan_accumulator_t = ::cuda::std::decay_t<cccl::invoke_result_t<Op&, Init, Value>>;

//! The shared body of the scans: n items of [first, last) scanned into result with accumulator T.
//! Types sweep's kernel does not take (scan_impl::supported_type) run `fallback(policy)` (Thrust's own
//! scan under the same stream and allocator; a generic lambda, so that Thrust's kernels are only
//! instantiated for those types).
template <class T, class Mode, class Derived, class InputIt, class OutputIt, class Op, class Fallback>
__host__ OutputIt scan_body(execution_policy<Derived>& policy,
                            InputIt first,
                            InputIt last,
                            OutputIt result,
                            Op op,
                            const T& init,
                            const char* name,
                            Fallback fallback)
{
  if constexpr (!scan_impl::supported_type<T>)
  {
    return fallback(policy);
  }
  else
  {
    const auto distance = last - first;
    if (distance <= 0)
    {
      return result;
    }
    scan_impl::dispatch<T, Mode>(policy, thrust::try_unwrap_contiguous_iterator(first), static_cast<std::uint64_t>(distance),
                                 thrust::try_unwrap_contiguous_iterator(result), op, init, name);
    using difference = typename ::cuda::std::iterator_traits<OutputIt>::difference_type;
    return result + static_cast<difference>(distance);
  }
}

//! thrust::inclusive_scan(sweep policy, first, last, result, op): result[i] = x_0 op ... op x_i,
//! accumulated in the input's value type (as Thrust). op must be associative (it need not be
//! commutative: the order of the operands is kept) and callable on the device. Results of
//! floating-point (and user-type) scans are reproducible: the same input gives bitwise the same output
//! on every call (docs/design/scan.md gives the association); integer results equal stock Thrust's.
//! result may equal first (in place); otherwise the ranges must not overlap. Returns result + (last -
//! first). Synchronizes the stream only where the policy does (not under par_nosync, which can be
//! captured into a CUDA graph). Throws thrust::system_error on CUDA errors, std::bad_alloc when
//! temporary storage cannot be allocated.
template <class Derived, class InputIt, class OutputIt, class Op>
__host__ OutputIt inclusive_scan(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Op op)
{
  using T = cccl::value_type_t<InputIt>;
  return scan_body<T, scan_impl::scan_mode<false, false>>(
    policy, first, last, result, op, T{}, "sweep::inclusive_scan",
    [&](auto& p) { return thrust::cuda_cub::inclusive_scan(thrust_policy(p), first, last, result, op); });
}

//! inclusive_scan with plus (Thrust's thrust::plus<>, an alias of ::cuda::std::plus<> from 3.0 on).
template <class Derived, class InputIt, class OutputIt>
__host__ OutputIt inclusive_scan(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result)
{
  return sweep::detail::inclusive_scan(policy, first, last, result, ::cuda::std::plus<>{});
}

//! inclusive_scan with an initial value: result[i] = init op x_0 op ... op x_i, accumulated in
//! the decayed type of op(init, x) (as Thrust). Same contract as above.
template <class Derived, class InputIt, class OutputIt, class Init, class Op>
__host__ OutputIt
inclusive_scan(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Init init, Op op)
{
  using T = scan_accumulator_t<Op, cccl::value_type_t<InputIt>, Init>;
  return scan_body<T, scan_impl::scan_mode<false, true>>(
    policy, first, last, result, op, static_cast<T>(init), "sweep::inclusive_scan", [&](auto& p) {
      if constexpr (cccl::has_inclusive_scan_init)
      {
        return thrust::cuda_cub::inclusive_scan(thrust_policy(p), first, last, result, init, op);
      }
      else
      {
        static_assert(sizeof(p) == 0, "sweep::inclusive_scan: before CCCL 2.7 Thrust has no inclusive_scan with an "
                                      "initial value to run for an accumulator type sweep's kernel does not take");
        return result;
      }
    });
}

//! thrust::exclusive_scan(sweep policy, first, last, result, init, op): result[0] = init, result[i] =
//! init op x_0 op ... op x_{i-1}, accumulated in the type of init (as Thrust). Same contract as
//! inclusive_scan.
template <class Derived, class InputIt, class OutputIt, class Init, class Op>
__host__ OutputIt
exclusive_scan(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Init init, Op op)
{
  using T = Init;
  return scan_body<T, scan_impl::scan_mode<true, true>>(
    policy, first, last, result, op, init, "sweep::exclusive_scan",
    [&](auto& p) { return thrust::cuda_cub::exclusive_scan(thrust_policy(p), first, last, result, init, op); });
}

//! exclusive_scan with plus.
template <class Derived, class InputIt, class OutputIt, class Init>
__host__ OutputIt exclusive_scan(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Init init)
{
  return sweep::detail::exclusive_scan(policy, first, last, result, init, ::cuda::std::plus<>{});
}

//! exclusive_scan with the input's value-initialized value type as init and plus.
template <class Derived, class InputIt, class OutputIt>
__host__ OutputIt exclusive_scan(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result)
{
  using T = cccl::value_type_t<InputIt>;
  return sweep::detail::exclusive_scan(policy, first, last, result, T{}, ::cuda::std::plus<>{});
}

//! The value type Thrust's transform scans give their transformed input: the decayed result of
//! the unary operator on the input's value type.
template <class UnaryOp, class InputIt>
using transformed_value_t = ::cuda::std::remove_cv_t<
  ::cuda::std::remove_reference_t<cccl::invoke_result_t<UnaryOp, cccl::value_type_t<InputIt>>>>;

//! thrust::transform_inclusive_scan(sweep policy, first, last, result, unary_op, op): the inclusive
//! scan of unary_op(x_i) (as Thrust: of a transform_iterator whose value type is unary_op's result).
template <class Derived, class InputIt, class OutputIt, class UnaryOp, class Op>
__host__ OutputIt transform_inclusive_scan(
  execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, UnaryOp unary_op, Op op)
{
  using V  = transformed_value_t<UnaryOp, InputIt>;
  using It = thrust::transform_iterator<UnaryOp, InputIt, V, V>;
  return sweep::detail::inclusive_scan(policy, It(first, unary_op), It(last, unary_op), result, op);
}

//! The form with an initial value.
template <class Derived, class InputIt, class OutputIt, class UnaryOp, class Init, class Op>
__host__ OutputIt transform_inclusive_scan(
  execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, UnaryOp unary_op, Init init, Op op)
{
  using V  = transformed_value_t<UnaryOp, InputIt>;
  using It = thrust::transform_iterator<UnaryOp, InputIt, V, V>;
  return sweep::detail::inclusive_scan(policy, It(first, unary_op), It(last, unary_op), result, init, op);
}

//! thrust::transform_exclusive_scan(sweep policy, first, last, result, unary_op, init, op): the
//! exclusive scan of unary_op(x_i), whose transformed value type is init's (as Thrust).
template <class Derived, class InputIt, class OutputIt, class UnaryOp, class Init, class Op>
__host__ OutputIt transform_exclusive_scan(
  execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, UnaryOp unary_op, Init init, Op op)
{
  using V  = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<Init>>;
  using It = thrust::transform_iterator<UnaryOp, InputIt, V, V>;
  return sweep::detail::exclusive_scan(policy, It(first, unary_op), It(last, unary_op), result, init, op);
}

} // namespace detail
} // namespace sweep
