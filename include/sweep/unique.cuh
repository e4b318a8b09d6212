// sweep's unique family for Thrust: `thrust::unique`, `unique_copy`, `unique_by_key`,
// `unique_by_key_copy` and `unique_count` with sweep's policies run sweep's single-pass compaction
// kernel (copy_if_impl) selecting the first item of each run of equal items: the first item and every
// item i with !eq(item i - 1, item i), the order Thrust and CUB compare them in. The in-place forms
// run in one pass over their input.
#pragma once

#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/pair.h>
#include <thrust/tuple.h>
#include <thrust/unique.h>

#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <cstdint>
#include <type_traits>

#include <sweep/copy_if.cuh>
#include <sweep/execution_policy.cuh>
#include <sweep/detail/copy_if/dispatch.cuh>
#include <sweep/detail/util/cccl_compat.cuh>

namespace sweep
{
namespace detail
{

//! The selection of unique: the item differs from the one before it under the caller's equality
//! (a mutable copy: like Thrust, predicates whose operator() is not const are accepted).
template <class Eq>
struct differs_from_before
{
  Eq eq;

  template <class A, class B>
  __host__ __device__ bool operator()(const A& before, const B& item)
  {
    return !static_cast<bool>(eq(before, item));
  }
};

//! The same on the keys of (key, value) tuples (unique_by_key).
template <class Eq>
struct key_differs_from_before
{
  Eq eq;

  template <class A, class B>
  __host__ __device__ bool operator()(const A& before, const B& item)
  {
    return !static_cast<bool>(eq(thrust::get<0>(before), thrust::get<0>(item)));
  }
};

//! The shared body: the n items of [first, last) compacted to their runs' first items in `result`
//! under the selection `differs` (first may equal result: in place); returns the number of runs.
//! Value types sweep's kernel does not take run `fallback(policy)` (Thrust's own algorithm under the
//! same stream and allocator), whose result is returned instead.
template <class Derived, class InputIt, class OutputIt, class Differs, class Fallback>
__host__ OutputIt unique_body(
  execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Differs differs, Fallback fallback)
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
      return result;
    }
    constexpr bool discard     = is_discard_iterator<OutputIt>::value;
    const std::uint64_t runs = copy_if_impl::dispatch<value_type, discard, copy_if_impl::schedule_choice::tuned,
                                                      copy_if_impl::select_kind::adjacent>(
      policy, thrust::try_unwrap_contiguous_iterator(first), static_cast<std::uint64_t>(distance),
      copy_if_impl::no_stencil{}, thrust::try_unwrap_contiguous_iterator(result), differs);
    using difference = typename ::cuda::std::iterator_traits<OutputIt>::difference_type;
    return result + static_cast<difference>(runs);
  }
}

//! thrust::unique_copy(sweep policy, first, last, result, eq): copies the first item of every run of
//! consecutive items equal under eq (eq(item before, item)) to result, in order; returns result + the
//! number of runs. Nothing at or after the returned end is written. eq must be callable on the device;
//! the ranges must not overlap. Returns after the count is known on the host (the stream is
//! synchronized, also for par_nosync; a capturing stream is refused). Throws thrust::system_error on
//! CUDA errors, std::bad_alloc when temporary storage cannot be allocated.
template <class Derived, class InputIt, class OutputIt, class Eq>
__host__ OutputIt unique_copy(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result, Eq eq)
{
  return unique_body(policy, first, last, result, differs_from_before<Eq>{eq}, [&](auto& p) {
    return thrust::cuda_cub::unique_copy(thrust_policy(p), first, last, result, eq);
  });
}

//! unique_copy under equal_to of the input's value type (as Thrust).
template <class Derived, class InputIt, class OutputIt>
__host__ OutputIt unique_copy(execution_policy<Derived>& policy, InputIt first, InputIt last, OutputIt result)
{
  return sweep::detail::unique_copy(policy, first, last, result, ::cuda::std::equal_to<cccl::value_type_t<InputIt>>{});
}

//! thrust::unique(sweep policy, first, last, eq): unique_copy in place, in one pass; returns the new
//! end (Thrust leaves the items after it unspecified; sweep writes none).
template <class Derived, class ForwardIt, class Eq>
__host__ ForwardIt unique(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, Eq eq)
{
  return unique_body(policy, first, last, first, differs_from_before<Eq>{eq}, [&](auto& p) {
    return thrust::cuda_cub::unique(thrust_policy(p), first, last, eq);
  });
}

template <class Derived, class ForwardIt>
__host__ ForwardIt unique(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last)
{
  return sweep::detail::unique(policy, first, last, ::cuda::std::equal_to<cccl::value_type_t<ForwardIt>>{});
}

//! thrust::unique_count(sweep policy, first, last, eq): the number of runs of consecutive items equal
//! under eq (0 for an empty range); nothing is written.
template <class Derived, class ForwardIt, class Eq>
__host__ typename ::cuda::std::iterator_traits<ForwardIt>::difference_type
unique_count(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last, Eq eq)
{
  const thrust::discard_iterator<> none{};
  const auto end = unique_body(policy, first, last, none, differs_from_before<Eq>{eq}, [&](auto& p) {
    return none + thrust::cuda_cub::unique_count(thrust_policy(p), first, last, eq);
  });
  return static_cast<typename ::cuda::std::iterator_traits<ForwardIt>::difference_type>(end - none);
}

template <class Derived, class ForwardIt>
__host__ typename ::cuda::std::iterator_traits<ForwardIt>::difference_type
unique_count(execution_policy<Derived>& policy, ForwardIt first, ForwardIt last)
{
  return sweep::detail::unique_count(policy, first, last, ::cuda::std::equal_to<cccl::value_type_t<ForwardIt>>{});
}

//! thrust::unique_by_key_copy(sweep policy, keys_first, keys_last, values_first, keys_result,
//! values_result, eq): for every run of consecutive keys equal under eq, its first key and that key's
//! value, in order; returns the ends of both outputs. The inputs and outputs must not overlap. Same
//! contract as unique_copy.
template <class Derived, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Eq>
__host__ thrust::pair<KeysOut, ValuesOut> unique_by_key_copy(execution_policy<Derived>& policy,
                                                            KeysIt keys_first,
                                                            KeysIt keys_last,
                                                            ValuesIt values_first,
                                                            KeysOut keys_result,
                                                            ValuesOut values_result,
                                                            Eq eq)
{
  const auto first  = thrust::make_zip_iterator(thrust::make_tuple(keys_first, values_first));
  const auto last   = first + (keys_last - keys_first);
  const auto result = thrust::make_zip_iterator(thrust::make_tuple(keys_result, values_result));
  const auto end    = unique_body(policy, first, last, result, key_differs_from_before<Eq>{eq}, [&](auto& p) {
    const auto ends = thrust::cuda_cub::unique_by_key_copy(
      thrust_policy(p), keys_first, keys_last, values_first, keys_result, values_result, eq);
    return result + (ends.first - keys_result);
  });
  const auto runs = end - result;
  return thrust::make_pair(keys_result + runs, values_result + runs);
}

template <class Derived, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut>
__host__ thrust::pair<KeysOut, ValuesOut> unique_by_key_copy(execution_policy<Derived>& policy,
                                                            KeysIt keys_first,
                                                            KeysIt keys_last,
                                                            ValuesIt values_first,
                                                            KeysOut keys_result,
                                                            ValuesOut values_result)
{
  return sweep::detail::unique_by_key_copy(policy, keys_first, keys_last, values_first, keys_result, values_result,
                                           ::cuda::std::equal_to<cccl::value_type_t<KeysIt>>{});
}

//! thrust::unique_by_key(sweep policy, keys_first, keys_last, values_first, eq): unique_by_key_copy in
//! place, in one pass; returns the new ends of the keys and the values.
template <class Derived, class KeysIt, class ValuesIt, class Eq>
__host__ thrust::pair<KeysIt, ValuesIt>
unique_by_key(execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, Eq eq)
{
  const auto first = thrust::make_zip_iterator(thrust::make_tuple(keys_first, values_first));
  const auto last  = first + (keys_last - keys_first);
  const auto end   = unique_body(policy, first, last, first, key_differs_from_before<Eq>{eq}, [&](auto& p) {
    const auto ends = thrust::cuda_cub::unique_by_key(thrust_policy(p), keys_first, keys_last, values_first, eq);
    return first + (ends.first - keys_first);
  });
  const auto runs = end - first;
  return thrust::make_pair(keys_first + runs, values_first + runs);
}

template <class Derived, class KeysIt, class ValuesIt>
__host__ thrust::pair<KeysIt, ValuesIt>
unique_by_key(execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first)
{
  return sweep::detail::unique_by_key(policy, keys_first, keys_last, values_first,
                                      ::cuda::std::equal_to<cccl::value_type_t<KeysIt>>{});
}

} // namespace detail
} // namespace sweep
