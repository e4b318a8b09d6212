// Every difference between the CCCL releases sweep supports, keyed on CCCL_VERSION, and every
// Thrust internal sweep names (its CUDA policy types and the hooks its dispatch uses), each brought
// in here once: this is the one file that shows what sweep needs beyond CCCL's public API and what
// changed between releases. Everything else in sweep includes public Thrust/CUB/libcu++ headers
// and this one.
//
// Supported: CCCL 2.5.0 (CUDA 12.6) through every 3.x release (3.5.0 is the newest checked). A CCCL
// outside that range stops the build here, before any other error. What differs between them:
//   what                                    2.5 - 2.8                     3.0                           3.1 - 3.5
//   unwrap_contiguous_iterator and          type_traits/                  type_traits/unwrap_contiguous_iterator.h
//     try_unwrap_contiguous_iterator        is_contiguous_iterator.h
//   the system of several iterators         minimum_system<...>::type     minimum_system<...>::type     minimum_system_t<...>
//   the distance of two iterators           thrust::distance              thrust::distance              cuda::std::distance (thrust's deprecated)
//   Thrust's CUDA policy types (par_t ...)  system/cuda/detail/par.h (removed in 3.2); all of them through the public
//                                           system/cuda/execution_policy.h, which is what sweep includes
//   what Thrust radix-sorts (sweep's       2.5: arithmetic keys with thrust::less<Key> or thrust::greater<Key> (Thrust's
//     onesweep takes exactly these calls)   own functor types) only; 2.6: also less/greater of Key or void from thrust::
//                                           (still types of its own) and cuda::std::; 2.7 - 2.8: also __half and
//                                           __nv_bfloat16 keys; 3.0 on: the same, thrust::less being cuda::std::less
#pragma once

#include <cuda/version> // CCCL_VERSION, in every release sweep supports

//! The oldest CCCL release sweep supports (CCCL_VERSION encoding: major * 1000000 + minor * 1000 + patch).
#define SWEEP_CCCL_OLDEST_VERSION 2005000
//! The first CCCL release sweep does not support (the next major release: CCCL's internals, which the
//! override and the policy layer use, may change there).
#define SWEEP_CCCL_FIRST_UNSUPPORTED_VERSION 4000000

#if !defined(CCCL_VERSION)
#  error "sweep: no CCCL_VERSION in <cuda/version>: sweep needs CCCL 2.5.0 (CUDA 12.6) through 3.x"
#elif CCCL_VERSION < SWEEP_CCCL_OLDEST_VERSION || CCCL_VERSION >= SWEEP_CCCL_FIRST_UNSUPPORTED_VERSION
#  error "sweep supports CCCL 2.5.0 (CUDA 12.6) through every 3.x release; this build sees a CCCL outside that range (CCCL_VERSION in <cuda/std/__cccl/version.h>)"
#endif

#include <cub/version.cuh>
#include <thrust/version.h>

// Thrust, CUB and libcu++ from one release: a mix (an include path that brings one library of another
// release, or a release that lacks a header taking it from another include directory) would compile
// against two releases' internals at once.
static_assert(THRUST_VERSION == CCCL_VERSION / 1000000 * 100000 + CCCL_VERSION / 1000 % 1000 * 100 + CCCL_VERSION % 1000,
              "sweep: the Thrust headers this build sees (THRUST_VERSION) are not of the CCCL release of "
              "<cuda/version> (CCCL_VERSION): two CCCL releases are on the include path");
static_assert(CUB_VERSION == THRUST_VERSION,
              "sweep: the CUB headers this build sees (CUB_VERSION) are not of the release of the Thrust "
              "headers (THRUST_VERSION): two CCCL releases are on the include path");

#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/detail/config.h>
#include <thrust/detail/execute_with_allocator.h>
#include <thrust/detail/execution_policy.h>
#include <thrust/detail/temporary_buffer.h>
#include <thrust/detail/type_traits.h>
#include <thrust/iterator/detail/minimum_system.h>
#include <thrust/iterator/detail/normal_iterator.h>
#include <thrust/system/cuda/detail/copy_if.h>
#include <thrust/system/cuda/detail/sort.h>
#include <thrust/system/cuda/detail/util.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/detail/sequential/execution_policy.h>
#include <thrust/type_traits/is_contiguous_iterator.h>
#if CCCL_VERSION >= 3000000
#  include <thrust/type_traits/unwrap_contiguous_iterator.h>
#endif
#if CCCL_VERSION < 3001000
#  include <thrust/distance.h>
#endif

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>
#include <thrust/functional.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace sweep
{
namespace detail
{
//! Thrust's internals that sweep names, and the names whose spelling changed between releases.
namespace cccl
{

// The policy layer: sweep's policies are Thrust's CUDA policies (detail/util/policy.cuh).
using thrust::detail::allocator_aware_execution_policy;
using thrust::detail::execute_with_allocator;
using thrust::detail::execution_policy_base;
// Allocator-aware temporary storage (the allocator of a par(alloc) policy).
using thrust::detail::get_temporary_buffer;
using thrust::detail::return_temporary_buffer;
// The public entry points' first step: the derived policy of `const execution_policy_base<P>&`.
using thrust::detail::derived_cast;
using thrust::detail::strip_const;
// thrust::host, thrust::seq and thrust::cpp::par (the histograms count on the host for them).
using thrust::system::detail::sequential::execution_policy;
// device_vector's iterator (thrust_override.cuh routes calls on it without a policy).
using thrust::detail::normal_iterator;

//! An iterator's value type (public: cuda::std::iterator_traits; Thrust's own alias for it moved
//! between releases).
template <class It>
using value_type_t = typename ::cuda::std::iterator_traits<It>::value_type;

//! The system Thrust dispatches a call on these iterators to (Thrust's own rule).
#if CCCL_VERSION >= 3001000
template <class... Systems>
using minimum_system_t = thrust::detail::minimum_system_t<Systems...>;
#else
template <class... Systems>
using minimum_system_t = typename thrust::detail::minimum_system<Systems...>::type;
#endif

//! The number of increments from first to last.
template <class It>
__host__ __device__ auto distance(It first, It last)
{
#if CCCL_VERSION >= 3001000
  return ::cuda::std::distance(first, last);
#else
  return thrust::distance(first, last);
#endif
}

//! The comparators for which stock Thrust radix-sorts (thrust/system/cuda/detail/sort.h,
//! can_use_primitive_sort; since 3.5 CUB's __can_use_radix_sort). sweep's onesweep takes exactly the
//! calls stock Thrust radix-sorts, so that every other call (where a comparison sort's order of NaNs
//! would differ from a radix sort's) runs Thrust's own algorithm and gives its result.
#if CCCL_VERSION < 2006000
template <class Key, class Compare>
inline constexpr bool radix_sorts_less_v = ::cuda::std::is_same<Compare, thrust::less<Key>>::value;
template <class Key, class Compare>
inline constexpr bool radix_sorts_greater_v = ::cuda::std::is_same<Compare, thrust::greater<Key>>::value;
#else
template <class Key, class Compare>
inline constexpr bool radix_sorts_less_v =
  ::cuda::std::is_same<Compare, ::cuda::std::less<Key>>::value
  || ::cuda::std::is_same<Compare, ::cuda::std::less<void>>::value
#  if CCCL_VERSION < 3000000 // thrust::less is a type of its own before 3.0 (an alias of cuda::std::less after)
  || ::cuda::std::is_same<Compare, thrust::less<Key>>::value || ::cuda::std::is_same<Compare, thrust::less<void>>::value
#  endif
  ;
template <class Key, class Compare>
inline constexpr bool radix_sorts_greater_v =
  ::cuda::std::is_same<Compare, ::cuda::std::greater<Key>>::value
  || ::cuda::std::is_same<Compare, ::cuda::std::greater<void>>::value
#  if CCCL_VERSION < 3000000
  || ::cuda::std::is_same<Compare, thrust::greater<Key>>::value
  || ::cuda::std::is_same<Compare, thrust::greater<void>>::value
#  endif
  ;
#endif
//! The comparator of Thrust's sorts called without one (thrust::less<T>, a type of its own before 3.0).
#if CCCL_VERSION < 3000000
template <class T>
using default_less = thrust::less<T>;
#else
template <class T>
using default_less = ::cuda::std::less<T>;
#endif

//! Whether Thrust radix-sorts keys of this type at all in this release: __half and __nv_bfloat16
//! only from 2.7 on (detail/sort/key_traits.cuh's is_radix_key says which types sweep sorts itself).
template <class Key>
inline constexpr bool radix_sorts_key_v =
  CCCL_VERSION >= 2007000
  || !(::cuda::std::is_same<::cuda::std::remove_cv_t<Key>, __half>::value
       || ::cuda::std::is_same<::cuda::std::remove_cv_t<Key>, __nv_bfloat16>::value);

//! The result type of calling F with Args (Thrust's own trait: what its transform scans use, and it
//! handles what std::invoke_result cannot query on the host).
template <class F, class... Args>
using invoke_result_t = thrust::detail::invoke_result_t<F, Args...>;

//! thrust::inclusive_scan with an initial value (and its CUDA backend's overload) exists from 2.7 on,
//! thrust::transform_inclusive_scan with one from 2.8 on (thrust_override.cuh routes them there).
#define SWEEP_CCCL_HAS_INCLUSIVE_SCAN_INIT (CCCL_VERSION >= 2007000)
#define SWEEP_CCCL_HAS_TRANSFORM_INCLUSIVE_SCAN_INIT (CCCL_VERSION >= 2008000)
inline constexpr bool has_inclusive_scan_init = SWEEP_CCCL_HAS_INCLUSIVE_SCAN_INIT;

} // namespace cccl
} // namespace detail
} // namespace sweep
