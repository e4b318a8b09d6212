// sort, stable_sort, sort_by_key and stable_sort_by_key on sweep's policies: onesweep radix sort
// wherever stock Thrust radix-sorts, Thrust's own sort everywhere else.
#pragma once

#include <thrust/sort.h>

#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <cstddef>
#include <iterator>
#include <type_traits>

#include <sweep/detail/sort/dispatch.cuh>
#include <sweep/detail/sort/key_traits.cuh>
#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/execution_policy.cuh>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! True where sweep radix-sorts: where stock Thrust of the CCCL release in use radix-sorts (the key
//! types and less/greater comparators of can_use_primitive_sort in thrust/system/cuda/detail/sort.h,
//! which differ between releases: util/cccl_compat.cuh), restricted to keys of 1 to 8 bytes (128-bit
//! integers go to Thrust, which radix-sorts them too) held in contiguous memory.
template <class KeysIt, class Compare, class Key = cccl::value_type_t<KeysIt>>
constexpr bool use_onesweep = is_radix_key<Key> && cccl::radix_sorts_key_v<Key>
                           && (cccl::radix_sorts_less_v<Key, Compare> || cccl::radix_sorts_greater_v<Key, Compare>)
                           && thrust::is_contiguous_iterator<KeysIt>::value;

template <class Derived, class KeysIt, class ValuesIt, class Compare, bool HasValues>
__host__ void sort_entry(execution_policy<Derived>& policy, KeysIt first, KeysIt last, ValuesIt values, Compare)
{
  using key_type             = cccl::value_type_t<KeysIt>;
  constexpr bool descending  = cccl::radix_sorts_greater_v<key_type, Compare>;
  const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(last - first);
  if (count < 0)
  {
    throw_invalid_argument("sweep::sort", "last", "precedes first");
  }
  const std::size_t n = static_cast<std::size_t>(count);
  key_type* keys      = n == 0 ? nullptr : thrust::unwrap_contiguous_iterator(first);
  if constexpr (!HasValues)
  {
    onesweep_sort<descending, value_mode::none>(policy, keys, static_cast<no_value*>(nullptr), n);
  }
  else
  {
    using value_type = cccl::value_type_t<ValuesIt>;
    if constexpr (thrust::is_contiguous_iterator<ValuesIt>::value && sizeof(value_type) <= 8)
    {
      value_type* raw = n == 0 ? nullptr : thrust::unwrap_contiguous_iterator(values);
      onesweep_sort<descending, value_mode::direct>(policy, keys, raw, n);
    }
    else
    {
      onesweep_sort<descending, value_mode::index>(policy, keys, values, n);
    }
  }
}

} // namespace sort_impl

//! thrust::sort(sweep policy, first, last, comp). Keys in contiguous device memory of arithmetic
//! type (1-8 bytes, __half, __nv_bfloat16) with less/greater are radix-sorted by onesweep; the
//! result is bitwise the one stock Thrust gives (-0.0 and +0.0 compare equal and keep their input
//! order; NaNs sort by their bits). Anything else runs Thrust's own sort on the same stream and
//! allocator. Throws std::bad_alloc (temporary storage, before any key moves) or
//! thrust::system_error.
template <class Derived, class RandomIt, class Compare>
__host__ void sort(execution_policy<Derived>& policy, RandomIt first, RandomIt last, Compare comp)
{
  if constexpr (sort_impl::use_onesweep<RandomIt, Compare>)
  {
    sort_impl::sort_entry<Derived, RandomIt, sort_impl::no_value*, Compare, false>(policy, first, last, nullptr, comp);
  }
  else
  {
    thrust::cuda_cub::sort(thrust_policy(policy), first, last, comp);
  }
}

//! thrust::sort(sweep policy, first, last): ascending, as sort(..., thrust::less<T>()) (Thrust's default).
template <class Derived, class RandomIt>
__host__ void sort(execution_policy<Derived>& policy, RandomIt first, RandomIt last)
{
  using key_type = cccl::value_type_t<RandomIt>;
  sweep::detail::sort(policy, first, last, cccl::default_less<key_type>());
}

//! thrust::stable_sort: the radix path is stable, so this is sort(); others go to Thrust's stable_sort.
template <class Derived, class RandomIt, class Compare>
__host__ void stable_sort(execution_policy<Derived>& policy, RandomIt first, RandomIt last, Compare comp)
{
  if constexpr (sort_impl::use_onesweep<RandomIt, Compare>)
  {
    sort_impl::sort_entry<Derived, RandomIt, sort_impl::no_value*, Compare, false>(policy, first, last, nullptr, comp);
  }
  else
  {
    thrust::cuda_cub::stable_sort(thrust_policy(policy), first, last, comp);
  }
}

template <class Derived, class RandomIt>
__host__ void stable_sort(execution_policy<Derived>& policy, RandomIt first, RandomIt last)
{
  using key_type = cccl::value_type_t<RandomIt>;
  sweep::detail::stable_sort(policy, first, last, cccl::default_less<key_type>());
}

//! thrust::sort_by_key(sweep policy, keys_first, keys_last, values, comp): as sort() for the keys;
//! values (any trivially copyable type, any random-access iterator) follow their keys stably.
//! Values of at most 8 bytes in contiguous memory move with the keys in every pass; others are
//! gathered once through the sorted positions (one extra copy of the values in temporary storage).
template <class Derived, class KeysIt, class ValuesIt, class Compare>
__host__ void
sort_by_key(execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  if constexpr (sort_impl::use_onesweep<KeysIt, Compare>)
  {
    sort_impl::sort_entry<Derived, KeysIt, ValuesIt, Compare, true>(policy, keys_first, keys_last, values, comp);
  }
  else
  {
    thrust::cuda_cub::sort_by_key(thrust_policy(policy), keys_first, keys_last, values, comp);
  }
}

template <class Derived, class KeysIt, class ValuesIt>
__host__ void sort_by_key(execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  using key_type = cccl::value_type_t<KeysIt>;
  sweep::detail::sort_by_key(policy, keys_first, keys_last, values, cccl::default_less<key_type>());
}

template <class Derived, class KeysIt, class ValuesIt, class Compare>
__host__ void stable_sort_by_key(
  execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  if constexpr (sort_impl::use_onesweep<KeysIt, Compare>)
  {
    sort_impl::sort_entry<Derived, KeysIt, ValuesIt, Compare, true>(policy, keys_first, keys_last, values, comp);
  }
  else
  {
    thrust::cuda_cub::stable_sort_by_key(thrust_policy(policy), keys_first, keys_last, values, comp);
  }
}

template <class Derived, class KeysIt, class ValuesIt>
__host__ void
stable_sort_by_key(execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  using key_type = cccl::value_type_t<KeysIt>;
  sweep::detail::stable_sort_by_key(policy, keys_first, keys_last, values, cccl::default_less<key_type>());
}

} // namespace detail
} // namespace sweep
