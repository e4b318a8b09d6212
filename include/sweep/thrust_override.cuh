// Opt-in: include this first in a translation unit (or pass it with `-include`) to route the copy_if,
// remove_copy_if, sort, stable_sort, sort_by_key and stable_sort_by_key calls that existing code makes
// with Thrust's CUDA policies (thrust::device, thrust::cuda::par, par_nosync, .on(stream), the
// allocator forms, device_vector iterators) to sweep, without editing any call site.
//
// How it works. Thrust's entry points (thrust::copy_if(exec, ...)) call `copy_if(derived_cast(exec), ...)`
// unqualified, so argument-dependent lookup sees every overload in thrust::cuda_cub. The overloads
// below take the policy as `Policy&`, constrained to exactly Thrust's CUDA policy types: the argument
// binds by identity, which beats the derived-to-base binding of Thrust's own
// `cuda_cub::copy_if(execution_policy<Derived>&, ...)`. A user overload written for one of these
// types explicitly is more specialised than `Policy&` and still wins; a user policy type that merely
// derives from Thrust's CUDA policy is not routed (its own customisations keep working).
// Each overload turns the Thrust policy into the sweep policy with the same stream, allocator and
// synchronisation (nosync stays nosync) and calls sweep's implementation qualified. sweep's own
// fallbacks call Thrust through `thrust::cuda_cub::execution_policy<SweepPolicy>&`, which is not one
// of the routed types, so they never come back here.
// Calls made inside device code keep Thrust's behaviour (its sequential or CDP path).
//
// Keep this header out of every translation unit that compares sweep with stock Thrust: there
// "stock Thrust" would be sweep too. sweep/sweep.cuh never includes it.
#pragma once

#define SWEEP_THRUST_OVERRIDE 1

#include <thrust/detail/config.h>
#include <thrust/detail/execute_with_allocator.h>
#include <thrust/system/cuda/detail/execution_policy.h>
#include <thrust/system/cuda/detail/par.h>
#include <thrust/system/cuda/detail/util.h>

#include <nv/target>

#include <atomic>
#include <type_traits>

#include <sweep/copy_if.cuh>
#include <sweep/execution_policy.cuh>
#include <sweep/sort.cuh>

namespace sweep
{

//! The algorithms thrust_override.cuh routes, as arguments of routed_calls().
enum class routed_algorithm : int
{
  copy_if = 0,
  remove_copy_if,
  sort,
  stable_sort,
  sort_by_key,
  stable_sort_by_key,
  count
};

//! The algorithm's name as Thrust spells it ("copy_if", ...); nullptr for an unknown value.
inline const char* routed_algorithm_name(routed_algorithm algorithm)
{
  constexpr const char* names[] = {
    "copy_if", "remove_copy_if", "sort", "stable_sort", "sort_by_key", "stable_sort_by_key"};
  const int index = static_cast<int>(algorithm);
  return index >= 0 && index < static_cast<int>(routed_algorithm::count) ? names[index] : nullptr;
}

namespace detail
{
namespace thrust_override
{

// One counter per algorithm for the whole program (an inline variable: one object across all
// translation units). Bumped on the host each time an overload below routes a call to sweep;
// relaxed order: the counts are statistics read after the calls, never used to synchronise.
inline std::atomic<unsigned long long> routed_call_counts[static_cast<int>(routed_algorithm::count)] = {};

__host__ inline void count_call(routed_algorithm algorithm)
{
  routed_call_counts[static_cast<int>(algorithm)].fetch_add(1, std::memory_order_relaxed);
}

//! True for exactly the policy types of Thrust's CUDA backend that the override routes.
template <class Policy>
struct is_routed_policy : std::false_type
{};
template <>
struct is_routed_policy<thrust::cuda_cub::tag> : std::true_type // device_vector iterators, no policy
{};
template <>
struct is_routed_policy<thrust::cuda_cub::par_t> : std::true_type // thrust::device, thrust::cuda::par
{};
template <>
struct is_routed_policy<thrust::cuda_cub::par_nosync_t> : std::true_type
{};
template <>
struct is_routed_policy<thrust::cuda_cub::execute_on_stream> : std::true_type // par.on(s)
{};
template <>
struct is_routed_policy<thrust::cuda_cub::execute_on_stream_nosync> : std::true_type // par_nosync.on(s)
{};
template <class Allocator> // par(alloc), par(alloc).on(s), par(&memory_resource)
struct is_routed_policy<thrust::detail::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_base>>
    : std::true_type
{};
template <class Allocator> // par_nosync(alloc), par_nosync(alloc).on(s)
struct is_routed_policy<
  thrust::detail::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_nosync_base>> : std::true_type
{};
template <class Allocator> // thrust::cuda::tag()(alloc)
struct is_routed_policy<thrust::detail::execute_with_allocator<Allocator, thrust::cuda_cub::execution_policy>>
    : std::true_type
{};

template <class Policy>
using enable_if_routed = std::enable_if_t<is_routed_policy<Policy>::value, int>;

// The sweep policy equivalent to a Thrust policy: same stream (thrust::cuda_cub::stream gives the
// default stream where none was attached), same allocator object (held by reference, so a stateful
// allocator sees sweep's allocations), nosync where Thrust's policy is nosync.
__host__ inline auto to_sweep(thrust::cuda_cub::tag& policy)
{
  return sweep::par.on(thrust::cuda_cub::stream(policy));
}
__host__ inline auto to_sweep(thrust::cuda_cub::par_t& policy)
{
  return sweep::par.on(thrust::cuda_cub::stream(policy));
}
__host__ inline auto to_sweep(thrust::cuda_cub::execute_on_stream& policy)
{
  return sweep::par.on(thrust::cuda_cub::stream(policy));
}
__host__ inline auto to_sweep(thrust::cuda_cub::par_nosync_t& policy)
{
  return sweep::par_nosync.on(thrust::cuda_cub::stream(policy));
}
__host__ inline auto to_sweep(thrust::cuda_cub::execute_on_stream_nosync& policy)
{
  return sweep::par_nosync.on(thrust::cuda_cub::stream(policy));
}
template <class Allocator>
__host__ auto
to_sweep(thrust::detail::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_base>& policy)
{
  return sweep::par(policy.get_allocator()).on(thrust::cuda_cub::stream(policy));
}
template <class Allocator>
__host__ auto
to_sweep(thrust::detail::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_nosync_base>& policy)
{
  return sweep::par_nosync(policy.get_allocator()).on(thrust::cuda_cub::stream(policy));
}
template <class Allocator>
__host__ auto to_sweep(thrust::detail::execute_with_allocator<Allocator, thrust::cuda_cub::execution_policy>& policy)
{
  return sweep::par(policy.get_allocator()).on(thrust::cuda_cub::stream(policy));
}

//! The Thrust policy as Thrust's CUDA backend sees it: device-side calls go to Thrust through it.
template <class Policy>
__host__ __device__ thrust::cuda_cub::execution_policy<Policy>& thrust_base(Policy& policy)
{
  return policy;
}

// The host side of each overload: count, convert, call sweep qualified.
template <class Policy, class... Args>
__host__ auto copy_if(Policy& policy, Args... args)
{
  count_call(routed_algorithm::copy_if);
  auto sweep_policy = to_sweep(policy);
  return sweep::detail::copy_if(sweep_policy, args...);
}
template <class Policy, class... Args>
__host__ auto remove_copy_if(Policy& policy, Args... args)
{
  count_call(routed_algorithm::remove_copy_if);
  auto sweep_policy = to_sweep(policy);
  return sweep::detail::remove_copy_if(sweep_policy, args...);
}
template <class Policy, class... Args>
__host__ void sort(Policy& policy, Args... args)
{
  count_call(routed_algorithm::sort);
  auto sweep_policy = to_sweep(policy);
  sweep::detail::sort(sweep_policy, args...);
}
template <class Policy, class... Args>
__host__ void stable_sort(Policy& policy, Args... args)
{
  count_call(routed_algorithm::stable_sort);
  auto sweep_policy = to_sweep(policy);
  sweep::detail::stable_sort(sweep_policy, args...);
}
template <class Policy, class... Args>
__host__ void sort_by_key(Policy& policy, Args... args)
{
  count_call(routed_algorithm::sort_by_key);
  auto sweep_policy = to_sweep(policy);
  sweep::detail::sort_by_key(sweep_policy, args...);
}
template <class Policy, class... Args>
__host__ void stable_sort_by_key(Policy& policy, Args... args)
{
  count_call(routed_algorithm::stable_sort_by_key);
  auto sweep_policy = to_sweep(policy);
  sweep::detail::stable_sort_by_key(sweep_policy, args...);
}

} // namespace thrust_override
} // namespace detail

//! How many calls thrust_override.cuh has routed to sweep for `algorithm` since the program started
//! (host-side calls only: calls made in device code run Thrust's device path and are not counted).
//! Thread-safe. Lets a test prove that its Thrust calls really ran sweep.
inline unsigned long long routed_calls(routed_algorithm algorithm)
{
  const int index = static_cast<int>(algorithm);
  if (index < 0 || index >= static_cast<int>(routed_algorithm::count))
  {
    return 0;
  }
  return detail::thrust_override::routed_call_counts[index].load(std::memory_order_relaxed);
}

} // namespace sweep

// SWEEP_OVERRIDE_DISPATCH(host_block, device_block): host_block on the host, device_block in device
// code. In nvcc's device pass the host block is also placed under `if (false)`, so that the kernels
// sweep launches from it are instantiated (and emitted) in the device pass too; without it they would
// exist only in the host pass and every launch would fail with "invalid device function". Stock
// Thrust does the same for its own kernels (THRUST_CDP_DISPATCH).
#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#  define SWEEP_OVERRIDE_DISPATCH(host_block, device_block) \
    if (false)                                              \
    {                                                       \
      NV_IF_TARGET(NV_ANY_TARGET, host_block);              \
    }                                                       \
    NV_IF_TARGET(NV_IS_HOST, host_block, device_block)
#else
#  define SWEEP_OVERRIDE_DISPATCH(host_block, device_block) NV_IF_TARGET(NV_IS_HOST, host_block, device_block)
#endif

THRUST_NAMESPACE_BEGIN
namespace cuda_cub
{

// The overloads ADL finds for Thrust's CUDA policies. __host__ __device__ only so that Thrust's
// device-side entry points can still resolve to them; in device code they forward to Thrust's own
// implementation, whose overloads take execution_policy<Policy>& and so are never these.

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt copy_if(Policy& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_DISPATCH(
    (return ::sweep::detail::thrust_override::copy_if(policy, first, last, result, pred);),
    (return thrust::cuda_cub::copy_if(
              ::sweep::detail::thrust_override::thrust_base(policy), first, last, result, pred);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy,
          class InputIt,
          class StencilIt,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt
copy_if(Policy& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_DISPATCH(
    (return ::sweep::detail::thrust_override::copy_if(policy, first, last, stencil, result, pred);),
    (return thrust::cuda_cub::copy_if(
              ::sweep::detail::thrust_override::thrust_base(policy), first, last, stencil, result, pred);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt remove_copy_if(Policy& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_DISPATCH(
    (return ::sweep::detail::thrust_override::remove_copy_if(policy, first, last, result, pred);),
    (return thrust::cuda_cub::remove_copy_if(
              ::sweep::detail::thrust_override::thrust_base(policy), first, last, result, pred);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy,
          class InputIt,
          class StencilIt,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt
remove_copy_if(Policy& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_DISPATCH(
    (return ::sweep::detail::thrust_override::remove_copy_if(policy, first, last, stencil, result, pred);),
    (return thrust::cuda_cub::remove_copy_if(
              ::sweep::detail::thrust_override::thrust_base(policy), first, last, stencil, result, pred);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void sort(Policy& policy, RandomIt first, RandomIt last)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::sort(policy, first, last);),
    (thrust::cuda_cub::sort(::sweep::detail::thrust_override::thrust_base(policy), first, last);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void sort(Policy& policy, RandomIt first, RandomIt last, Compare comp)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::sort(policy, first, last, comp);),
    (thrust::cuda_cub::sort(::sweep::detail::thrust_override::thrust_base(policy), first, last, comp);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void stable_sort(Policy& policy, RandomIt first, RandomIt last)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::stable_sort(policy, first, last);),
    (thrust::cuda_cub::stable_sort(::sweep::detail::thrust_override::thrust_base(policy), first, last);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void stable_sort(Policy& policy, RandomIt first, RandomIt last, Compare comp)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::stable_sort(policy, first, last, comp);),
    (thrust::cuda_cub::stable_sort(::sweep::detail::thrust_override::thrust_base(policy), first, last, comp);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::sort_by_key(policy, keys_first, keys_last, values);),
    (thrust::cuda_cub::sort_by_key(
       ::sweep::detail::thrust_override::thrust_base(policy), keys_first, keys_last, values);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy,
          class KeysIt,
          class ValuesIt,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::sort_by_key(policy, keys_first, keys_last, values, comp);),
    (thrust::cuda_cub::sort_by_key(
       ::sweep::detail::thrust_override::thrust_base(policy), keys_first, keys_last, values, comp);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void stable_sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::stable_sort_by_key(policy, keys_first, keys_last, values);),
    (thrust::cuda_cub::stable_sort_by_key(
       ::sweep::detail::thrust_override::thrust_base(policy), keys_first, keys_last, values);));
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy,
          class KeysIt,
          class ValuesIt,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_routed<Policy> = 0>
_CCCL_HOST_DEVICE void
stable_sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_DISPATCH(
    (::sweep::detail::thrust_override::stable_sort_by_key(policy, keys_first, keys_last, values, comp);),
    (thrust::cuda_cub::stable_sort_by_key(
       ::sweep::detail::thrust_override::thrust_base(policy), keys_first, keys_last, values, comp);));
}

} // namespace cuda_cub
THRUST_NAMESPACE_END

#undef SWEEP_OVERRIDE_DISPATCH
