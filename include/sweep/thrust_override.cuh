// Opt-in: include this first in a translation unit (or pass it with `-include`) to route the copy_if,
// remove_copy_if, sort, stable_sort, sort_by_key and stable_sort_by_key calls that existing code makes
// with Thrust's CUDA policies (thrust::device, thrust::cuda::par, par_nosync, .on(stream), the
// allocator forms, device_vector iterators) to sweep, without editing any call site.
//
// How it works. For each routed call form, this header adds an overload of Thrust's own entry
// point (thrust::sort(policy, ...), and for device_vector iterators and device_ptr without a policy
// thrust::sort(first, last), ...) that is a better match than Thrust's for exactly Thrust's CUDA
// policy types (identity binding beats Thrust's derived-to-base `execution_policy_base<Derived>&`;
// a device_ptr or device_vector iterator parameter is more specialised than Thrust's `Iterator`).
// It wraps the policy as `thrust::cuda_cub::sweep_routed<Policy>` (derived from the policy) and
// dispatches unqualified, as Thrust's entry points do, so argument-dependent lookup still sees
// every overload: the override's `thrust::cuda_cub` overloads for sweep_routed policies (they run
// sweep), Thrust's (worse: derived-to-base), and any user overload, which still wins where it is
// more specialised.
// Why wrap: Thrust's own templates (its entry points, and everything that calls them) never see a
// sweep_routed policy, so they have the same body in every translation unit, with the header or
// without. A program may therefore mix translation units compiled with and without it: the calls
// in the ones with it run sweep, the others stock Thrust, whatever the link order or inlining (an
// earlier version routed from inside Thrust's templates, so one instantiation had two bodies and
// the linker kept either; tests/gpu/override_mixed checks this at -O0 in both link orders).
// Each routed overload turns the Thrust policy into the sweep policy with the same stream,
// allocator and synchronisation (nosync stays nosync) and calls sweep's implementation qualified.
// sweep's own fallbacks call Thrust through `thrust::cuda_cub::execution_policy<SweepPolicy>&`,
// which is never wrapped, so they never come back here.
// Calls made inside device code keep Thrust's behaviour (its sequential or CDP path).
// Not routed (stock Thrust): calls without a policy whose iterators are neither device_vector
// iterators nor device_ptr (counting, zip, transform iterators...), `thrust::cuda::tag()` passed
// explicitly, and Thrust's algorithms that sort or select internally.
//
// Keep this header out of every translation unit that compares sweep with stock Thrust: there
// "stock Thrust" would be sweep too. sweep/sweep.cuh never includes it.
#pragma once

#define SWEEP_THRUST_OVERRIDE 1

#include <thrust/device_ptr.h>
#include <thrust/iterator/iterator_traits.h>

#include <nv/target>

#include <atomic>
#include <type_traits>

#include <sweep/copy_if.cuh>
#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/execution_policy.cuh>
#include <sweep/sort.cuh>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub
{
//! A Thrust CUDA policy that thrust_override.cuh's entry points route to sweep (see the top of the
//! file). Derived from the policy, so user overloads written for the policy type still accept it.
template <class Policy>
struct sweep_routed : Policy
{
  _CCCL_HOST_DEVICE explicit sweep_routed(const Policy& policy)
      : Policy(policy)
  {}
};
} // namespace cuda_cub
THRUST_NAMESPACE_END

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
struct is_routed_policy<cccl::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_base>>
    : std::true_type
{};
template <class Allocator> // par_nosync(alloc), par_nosync(alloc).on(s)
struct is_routed_policy<
  cccl::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_nosync_base>> : std::true_type
{};
template <class Allocator> // thrust::cuda::tag()(alloc)
struct is_routed_policy<cccl::execute_with_allocator<Allocator, thrust::cuda_cub::execution_policy>>
    : std::true_type
{};

//! Policies a user passes to Thrust's entry points that the entry overloads below route: the routed
//! types except thrust::cuda_cub::tag, which Thrust's own no-policy entry points pass (those stay
//! stock, so that their bodies are the same in every translation unit; the no-policy overloads
//! below route device_vector iterators and device_ptr instead).
template <class Policy>
constexpr bool is_routed_entry_policy =
  is_routed_policy<Policy>::value && !std::is_same<Policy, thrust::cuda_cub::tag>::value;
template <class Policy>
using enable_if_routed_entry = std::enable_if_t<is_routed_entry_policy<Policy>, int>;
//! The forwarding entry overloads take rvalues and const lvalues only (see "Entry overloads").
template <class P>
using enable_if_routed_rvalue_or_const = std::enable_if_t<
  is_routed_entry_policy<std::remove_cv_t<std::remove_reference_t<P>>>
    && (!std::is_lvalue_reference<P>::value || std::is_const<std::remove_reference_t<P>>::value),
  int>;

template <class Policy>
struct is_sweep_routed : std::false_type
{};
template <class Policy>
struct is_sweep_routed<thrust::cuda_cub::sweep_routed<Policy>> : std::true_type
{};
//! The override's thrust::cuda_cub overloads take only wrapped policies.
template <class Policy>
using enable_if_wrapped = std::enable_if_t<is_sweep_routed<Policy>::value, int>;

//! Iterators a no-policy call is routed for: device_vector iterators and device_ptr.
template <class It>
struct is_device_array_iterator : std::false_type
{};
template <class T>
struct is_device_array_iterator<thrust::device_ptr<T>> : std::true_type
{};
template <class T>
struct is_device_array_iterator<cccl::normal_iterator<thrust::device_ptr<T>>> : std::true_type
{};

//! A no-policy call over these iterators is routed when the first is a device array iterator and
//! the system Thrust itself would choose for all of them is its CUDA backend.
template <class First, class... Its>
using enable_if_routed_iterators = std::enable_if_t<
  is_device_array_iterator<First>::value
    && std::is_same<cccl::minimum_system_t<typename thrust::iterator_system<First>::type,
                                           typename thrust::iterator_system<Its>::type...>,
                    thrust::cuda_cub::tag>::value,
  int>;

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
to_sweep(cccl::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_base>& policy)
{
  return sweep::par(policy.get_allocator()).on(thrust::cuda_cub::stream(policy));
}
template <class Allocator>
__host__ auto
to_sweep(cccl::execute_with_allocator<Allocator, thrust::cuda_cub::execute_on_stream_nosync_base>& policy)
{
  return sweep::par_nosync(policy.get_allocator()).on(thrust::cuda_cub::stream(policy));
}
template <class Allocator>
__host__ auto to_sweep(cccl::execute_with_allocator<Allocator, thrust::cuda_cub::execution_policy>& policy)
{
  return sweep::par(policy.get_allocator()).on(thrust::cuda_cub::stream(policy));
}

template <class Policy>
__host__ auto to_sweep(thrust::cuda_cub::sweep_routed<Policy>& policy)
{
  return to_sweep(static_cast<Policy&>(policy));
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

// SWEEP_OVERRIDE_ROUTED(algorithm, Policy, policy, args): the routed path of one entry overload:
// wrap, dispatch unqualified (ADL: the thrust::cuda_cub overloads below, Thrust's, users'). In
// device code, Thrust's own entry point with the unwrapped policy.
#define SWEEP_OVERRIDE_ROUTED(algorithm, Policy, policy, ...)                                               \
  SWEEP_OVERRIDE_DISPATCH(                                                                                  \
    (thrust::cuda_cub::sweep_routed<Policy> routed_policy(policy); return algorithm(routed_policy, __VA_ARGS__);), \
    (return thrust::algorithm(static_cast<const ::sweep::detail::cccl::execution_policy_base<Policy>&>(policy), __VA_ARGS__);))
// (In device code Thrust's entry point calls Thrust's cuda_cub overload: see "Entry overloads".)

// SWEEP_OVERRIDE_NO_POLICY(algorithm, args): the body of a no-policy overload: Thrust's CUDA tag,
// then as above.
#define SWEEP_OVERRIDE_NO_POLICY(algorithm, ...)                                      \
  const thrust::cuda_cub::tag system{};                                                \
  SWEEP_OVERRIDE_ROUTED(algorithm, thrust::cuda_cub::tag, system, __VA_ARGS__)

THRUST_NAMESPACE_BEGIN
namespace cuda_cub
{

// The overloads that run sweep, found by ADL from the entry overloads below for wrapped policies
// only (host code only reaches them: the entry overloads' device path never wraps).

template <class Policy, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ OutputIt copy_if(Policy& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  return ::sweep::detail::thrust_override::copy_if(policy, first, last, result, pred);
}

template <class Policy,
          class InputIt,
          class StencilIt,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ OutputIt copy_if(Policy& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  return ::sweep::detail::thrust_override::copy_if(policy, first, last, stencil, result, pred);
}

template <class Policy, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ OutputIt remove_copy_if(Policy& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  return ::sweep::detail::thrust_override::remove_copy_if(policy, first, last, result, pred);
}

template <class Policy,
          class InputIt,
          class StencilIt,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ OutputIt
remove_copy_if(Policy& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  return ::sweep::detail::thrust_override::remove_copy_if(policy, first, last, stencil, result, pred);
}

template <class Policy, class RandomIt, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void sort(Policy& policy, RandomIt first, RandomIt last)
{
  ::sweep::detail::thrust_override::sort(policy, first, last);
}

template <class Policy, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void sort(Policy& policy, RandomIt first, RandomIt last, Compare comp)
{
  ::sweep::detail::thrust_override::sort(policy, first, last, comp);
}

template <class Policy, class RandomIt, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void stable_sort(Policy& policy, RandomIt first, RandomIt last)
{
  ::sweep::detail::thrust_override::stable_sort(policy, first, last);
}

template <class Policy, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void stable_sort(Policy& policy, RandomIt first, RandomIt last, Compare comp)
{
  ::sweep::detail::thrust_override::stable_sort(policy, first, last, comp);
}

template <class Policy, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  ::sweep::detail::thrust_override::sort_by_key(policy, keys_first, keys_last, values);
}

template <class Policy,
          class KeysIt,
          class ValuesIt,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  ::sweep::detail::thrust_override::sort_by_key(policy, keys_first, keys_last, values, comp);
}

template <class Policy, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void stable_sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  ::sweep::detail::thrust_override::stable_sort_by_key(policy, keys_first, keys_last, values);
}

template <class Policy,
          class KeysIt,
          class ValuesIt,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0>
__host__ void stable_sort_by_key(Policy& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  ::sweep::detail::thrust_override::stable_sort_by_key(policy, keys_first, keys_last, values, comp);
}

} // namespace cuda_cub

// ---- Entry overloads with a policy: better matches than Thrust's for its CUDA policy types ----------
// Two per call form. (1) `P&&` for rvalues and const lvalues (thrust::device, par.on(s), par(alloc),
// a const policy variable): identity binding, better than Thrust's `const execution_policy_base<P>&`.
// (2) `thrust::execution_policy<P>&` for non-const lvalues (a policy variable): better than Thrust's
// entry (a nearer base) when a user calls thrust::sort(policy, ...), but worse than Thrust's own
// `cuda_cub::sort(cuda_cub::execution_policy<P>&, ...)` (a nearer base still) when Thrust's entry
// point calls `sort(derived_cast(exec), ...)` unqualified with the same non-const lvalue. So an
// instantiation of Thrust's entry point never reaches these overloads, and its body is the same in
// translation units with and without this header.
// The overloads are written out on purpose, one pair per Thrust call form with exactly Thrust's
// parameter list (the same shape repeated), so that the overload set reads like Thrust's own.

_CCCL_EXEC_CHECK_DISABLE
template <class P, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE OutputIt copy_if(P&& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(copy_if, ::cuda::std::remove_cvref_t<P>, policy, first, last, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt copy_if(thrust::execution_policy<Policy>& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(copy_if, Policy, static_cast<Policy&>(policy), first, last, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class InputIt, class StencilIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE OutputIt copy_if(P&& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(copy_if, ::cuda::std::remove_cvref_t<P>, policy, first, last, stencil, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class InputIt, class StencilIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt copy_if(thrust::execution_policy<Policy>& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(copy_if, Policy, static_cast<Policy&>(policy), first, last, stencil, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE OutputIt remove_copy_if(P&& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(remove_copy_if, ::cuda::std::remove_cvref_t<P>, policy, first, last, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class InputIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt remove_copy_if(thrust::execution_policy<Policy>& policy, InputIt first, InputIt last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(remove_copy_if, Policy, static_cast<Policy&>(policy), first, last, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class InputIt, class StencilIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE OutputIt remove_copy_if(P&& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(remove_copy_if, ::cuda::std::remove_cvref_t<P>, policy, first, last, stencil, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class InputIt, class StencilIt, class OutputIt, class Pred, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE OutputIt remove_copy_if(thrust::execution_policy<Policy>& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_ROUTED(remove_copy_if, Policy, static_cast<Policy&>(policy), first, last, stencil, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class RandomIt, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void sort(P&& policy, RandomIt first, RandomIt last)
{
  SWEEP_OVERRIDE_ROUTED(sort, ::cuda::std::remove_cvref_t<P>, policy, first, last);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void sort(thrust::execution_policy<Policy>& policy, RandomIt first, RandomIt last)
{
  SWEEP_OVERRIDE_ROUTED(sort, Policy, static_cast<Policy&>(policy), first, last);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void sort(P&& policy, RandomIt first, RandomIt last, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(sort, ::cuda::std::remove_cvref_t<P>, policy, first, last, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void sort(thrust::execution_policy<Policy>& policy, RandomIt first, RandomIt last, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(sort, Policy, static_cast<Policy&>(policy), first, last, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class RandomIt, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void stable_sort(P&& policy, RandomIt first, RandomIt last)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort, ::cuda::std::remove_cvref_t<P>, policy, first, last);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void stable_sort(thrust::execution_policy<Policy>& policy, RandomIt first, RandomIt last)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort, Policy, static_cast<Policy&>(policy), first, last);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void stable_sort(P&& policy, RandomIt first, RandomIt last, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort, ::cuda::std::remove_cvref_t<P>, policy, first, last, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class RandomIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void stable_sort(thrust::execution_policy<Policy>& policy, RandomIt first, RandomIt last, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort, Policy, static_cast<Policy&>(policy), first, last, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void sort_by_key(P&& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_ROUTED(sort_by_key, ::cuda::std::remove_cvref_t<P>, policy, keys_first, keys_last, values);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void sort_by_key(thrust::execution_policy<Policy>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_ROUTED(sort_by_key, Policy, static_cast<Policy&>(policy), keys_first, keys_last, values);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class KeysIt, class ValuesIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void sort_by_key(P&& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(sort_by_key, ::cuda::std::remove_cvref_t<P>, policy, keys_first, keys_last, values, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class KeysIt, class ValuesIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void sort_by_key(thrust::execution_policy<Policy>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(sort_by_key, Policy, static_cast<Policy&>(policy), keys_first, keys_last, values, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void stable_sort_by_key(P&& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort_by_key, ::cuda::std::remove_cvref_t<P>, policy, keys_first, keys_last, values);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class KeysIt, class ValuesIt, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void stable_sort_by_key(thrust::execution_policy<Policy>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort_by_key, Policy, static_cast<Policy&>(policy), keys_first, keys_last, values);
}

_CCCL_EXEC_CHECK_DISABLE
template <class P, class KeysIt, class ValuesIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>
_CCCL_HOST_DEVICE void stable_sort_by_key(P&& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort_by_key, ::cuda::std::remove_cvref_t<P>, policy, keys_first, keys_last, values, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <class Policy, class KeysIt, class ValuesIt, class Compare, ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>
_CCCL_HOST_DEVICE void stable_sort_by_key(thrust::execution_policy<Policy>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_ROUTED(stable_sort_by_key, Policy, static_cast<Policy&>(policy), keys_first, keys_last, values, comp);
}

// ---- Entry overloads without a policy: device_vector iterators and device_ptr -----------------------
// More specialised than Thrust's (their first parameter is a class template specialisation, not any
// type); constrained to the iterators and systems for which Thrust itself would pick its CUDA backend.

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, OutputIt> = 0>
_CCCL_HOST_DEVICE OutputIt copy_if(Iter<A...> first, Iter<A...> last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_NO_POLICY(copy_if, first, last, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class StencilIt,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, StencilIt, OutputIt> = 0>
_CCCL_HOST_DEVICE OutputIt copy_if(Iter<A...> first, Iter<A...> last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_NO_POLICY(copy_if, first, last, stencil, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, OutputIt> = 0>
_CCCL_HOST_DEVICE OutputIt remove_copy_if(Iter<A...> first, Iter<A...> last, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_NO_POLICY(remove_copy_if, first, last, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class StencilIt,
          class OutputIt,
          class Pred,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, StencilIt, OutputIt> = 0>
_CCCL_HOST_DEVICE OutputIt
remove_copy_if(Iter<A...> first, Iter<A...> last, StencilIt stencil, OutputIt result, Pred pred)
{
  SWEEP_OVERRIDE_NO_POLICY(remove_copy_if, first, last, stencil, result, pred);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter, class... A, ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>> = 0>
_CCCL_HOST_DEVICE void sort(Iter<A...> first, Iter<A...> last)
{
  SWEEP_OVERRIDE_NO_POLICY(sort, first, last);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>> = 0>
_CCCL_HOST_DEVICE void sort(Iter<A...> first, Iter<A...> last, Compare comp)
{
  SWEEP_OVERRIDE_NO_POLICY(sort, first, last, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter, class... A, ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>> = 0>
_CCCL_HOST_DEVICE void stable_sort(Iter<A...> first, Iter<A...> last)
{
  SWEEP_OVERRIDE_NO_POLICY(stable_sort, first, last);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>> = 0>
_CCCL_HOST_DEVICE void stable_sort(Iter<A...> first, Iter<A...> last, Compare comp)
{
  SWEEP_OVERRIDE_NO_POLICY(stable_sort, first, last, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class ValuesIt,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, ValuesIt> = 0>
_CCCL_HOST_DEVICE void sort_by_key(Iter<A...> keys_first, Iter<A...> keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_NO_POLICY(sort_by_key, keys_first, keys_last, values);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class ValuesIt,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, ValuesIt> = 0>
_CCCL_HOST_DEVICE void sort_by_key(Iter<A...> keys_first, Iter<A...> keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_NO_POLICY(sort_by_key, keys_first, keys_last, values, comp);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class ValuesIt,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, ValuesIt> = 0>
_CCCL_HOST_DEVICE void stable_sort_by_key(Iter<A...> keys_first, Iter<A...> keys_last, ValuesIt values)
{
  SWEEP_OVERRIDE_NO_POLICY(stable_sort_by_key, keys_first, keys_last, values);
}

_CCCL_EXEC_CHECK_DISABLE
template <template <class...> class Iter,
          class... A,
          class ValuesIt,
          class Compare,
          ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...>, ValuesIt> = 0>
_CCCL_HOST_DEVICE void stable_sort_by_key(Iter<A...> keys_first, Iter<A...> keys_last, ValuesIt values, Compare comp)
{
  SWEEP_OVERRIDE_NO_POLICY(stable_sort_by_key, keys_first, keys_last, values, comp);
}

THRUST_NAMESPACE_END

#undef SWEEP_OVERRIDE_NO_POLICY
#undef SWEEP_OVERRIDE_ROUTED
#undef SWEEP_OVERRIDE_DISPATCH
