// Opt-in: include this first in a translation unit (or pass it with `-include`) to route the calls that
// existing code makes with Thrust's CUDA policies (thrust::device, thrust::cuda::par, par_nosync,
// .on(stream), the allocator forms, device_vector iterators) to sweep, without editing any call site,
// for: copy_if, remove_copy_if, remove_copy, remove, remove_if, unique, unique_copy, unique_by_key,
// unique_by_key_copy, unique_count, partition, partition_copy, stable_partition, stable_partition_copy,
// reduce_by_key, sort, stable_sort, sort_by_key, stable_sort_by_key, inclusive_scan, exclusive_scan,
// transform_inclusive_scan, transform_exclusive_scan, inclusive_scan_by_key and exclusive_scan_by_key
// (routed_algorithm lists them).
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
#include <sweep/partition.cuh>
#include <sweep/reduce_by_key.cuh>
#include <sweep/remove.cuh>
#include <sweep/scan.cuh>
#include <sweep/scan_by_key.cuh>
#include <sweep/sort.cuh>
#include <sweep/unique.cuh>

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
  inclusive_scan,
  exclusive_scan,
  transform_inclusive_scan,
  transform_exclusive_scan,
  inclusive_scan_by_key,
  exclusive_scan_by_key,
  unique,
  unique_copy,
  unique_by_key,
  unique_by_key_copy,
  unique_count,
  remove,
  remove_if,
  remove_copy,
  partition,
  partition_copy,
  stable_partition,
  stable_partition_copy,
  reduce_by_key,
  count
};

//! The algorithm's name as Thrust spells it ("copy_if", ...); nullptr for an unknown value.
inline const char* routed_algorithm_name(routed_algorithm algorithm)
{
  constexpr const char* names[] = {"copy_if",
                                   "remove_copy_if",
                                   "sort",
                                   "stable_sort",
                                   "sort_by_key",
                                   "stable_sort_by_key",
                                   "inclusive_scan",
                                   "exclusive_scan",
                                   "transform_inclusive_scan",
                                   "transform_exclusive_scan",
                                   "inclusive_scan_by_key",
                                   "exclusive_scan_by_key",
                                   "unique",
                                   "unique_copy",
                                   "unique_by_key",
                                   "unique_by_key_copy",
                                   "unique_count",
                                   "remove",
                                   "remove_if",
                                   "remove_copy",
                                   "partition",
                                   "partition_copy",
                                   "stable_partition",
                                   "stable_partition_copy",
                                   "reduce_by_key"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<std::size_t>(routed_algorithm::count),
                "routed_algorithm_name: one name per algorithm");
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

// The host side of each overload: count, convert, call sweep qualified. One definition for every
// algorithm (SWEEP_OVERRIDE_HOST_SIDE, expanded once per algorithm below).
#define SWEEP_OVERRIDE_HOST_SIDE(algorithm)                          \
  template <class Policy, class... Args>                             \
  __host__ decltype(auto) algorithm(Policy& policy, Args... args)    \
  {                                                                  \
    count_call(routed_algorithm::algorithm);                         \
    auto sweep_policy = to_sweep(policy);                            \
    return sweep::detail::algorithm(sweep_policy, args...);          \
  }
SWEEP_OVERRIDE_HOST_SIDE(copy_if)
SWEEP_OVERRIDE_HOST_SIDE(remove_copy_if)
SWEEP_OVERRIDE_HOST_SIDE(sort)
SWEEP_OVERRIDE_HOST_SIDE(stable_sort)
SWEEP_OVERRIDE_HOST_SIDE(sort_by_key)
SWEEP_OVERRIDE_HOST_SIDE(stable_sort_by_key)
SWEEP_OVERRIDE_HOST_SIDE(inclusive_scan)
SWEEP_OVERRIDE_HOST_SIDE(exclusive_scan)
SWEEP_OVERRIDE_HOST_SIDE(transform_inclusive_scan)
SWEEP_OVERRIDE_HOST_SIDE(transform_exclusive_scan)
SWEEP_OVERRIDE_HOST_SIDE(inclusive_scan_by_key)
SWEEP_OVERRIDE_HOST_SIDE(exclusive_scan_by_key)
SWEEP_OVERRIDE_HOST_SIDE(unique)
SWEEP_OVERRIDE_HOST_SIDE(unique_copy)
SWEEP_OVERRIDE_HOST_SIDE(unique_by_key)
SWEEP_OVERRIDE_HOST_SIDE(unique_by_key_copy)
SWEEP_OVERRIDE_HOST_SIDE(unique_count)
SWEEP_OVERRIDE_HOST_SIDE(remove)
SWEEP_OVERRIDE_HOST_SIDE(remove_if)
SWEEP_OVERRIDE_HOST_SIDE(remove_copy)
SWEEP_OVERRIDE_HOST_SIDE(partition)
SWEEP_OVERRIDE_HOST_SIDE(partition_copy)
SWEEP_OVERRIDE_HOST_SIDE(stable_partition)
SWEEP_OVERRIDE_HOST_SIDE(stable_partition_copy)
SWEEP_OVERRIDE_HOST_SIDE(reduce_by_key)
#undef SWEEP_OVERRIDE_HOST_SIDE

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

// SWEEP_UNPAREN (, a, b) -> , a, b and SWEEP_UNPAREN () -> nothing: the parenthesised lists of
// SWEEP_OVERRIDE_CALL_FORM, each with its leading comma.
#define SWEEP_UNPAREN(...) __VA_ARGS__

// SWEEP_OVERRIDE_CALL_FORM(Ret, algorithm, It, TParams, Params, Args, Its): every overload of one
// Thrust call form `Ret algorithm(policy, It first, It last, Params...)`, the one definition that
// every routed algorithm and call form uses (four overloads):
//  1. thrust::cuda_cub::algorithm(Policy&, ...) for wrapped policies only: runs sweep (found by ADL
//     from 2. and 3.; host code only reaches it: the entry overloads' device path never wraps);
//  2. the entry overload for rvalues and const lvalues `P&&` (thrust::device, par.on(s), par(alloc),
//     a const policy variable): identity binding, better than Thrust's `const
//     execution_policy_base<P>&`;
//  3. the entry overload for non-const lvalues `thrust::execution_policy<P>&` (a policy variable):
//     better than Thrust's entry (a nearer base) when a user calls thrust::sort(policy, ...), but
//     worse than Thrust's own `cuda_cub::sort(cuda_cub::execution_policy<P>&, ...)` (a nearer base
//     still) when Thrust's entry point calls `sort(derived_cast(exec), ...)` unqualified with the same
//     non-const lvalue. So an instantiation of Thrust's entry point never reaches these overloads,
//     and its body is the same in translation units with and without this header;
//  4. the entry overload without a policy for device_vector iterators and device_ptr: more
//     specialised than Thrust's (its first parameter is a class template specialisation, not any
//     type), constrained to the iterators and systems for which Thrust itself picks its CUDA backend
//     (the first range's iterator and Its..., which name the other iterator parameters).
// Ret: the return type in parentheses (it may hold commas: thrust::pair<A, B>). TParams: the template
// parameters after It, Params the function parameters after `last`, Args their names; each list in
// parentheses with a leading comma, or () (SWEEP_UNPAREN). Ret may name It (4. defaults It to the
// device iterator type).
#define SWEEP_OVERRIDE_CALL_FORM(Ret, algorithm, It, TParams, Params, Args, Its)                                   \
  SWEEP_OVERRIDE_CALL_FORM_NO_LVALUE(Ret, algorithm, It, TParams, Params, Args, Its)                               \
  _CCCL_EXEC_CHECK_DISABLE                                                                                       \
  template <class Policy,                                                                                        \
            class It SWEEP_UNPAREN TParams,                                                                      \
            ::sweep::detail::thrust_override::enable_if_routed_entry<Policy> = 0>                                \
  _CCCL_HOST_DEVICE SWEEP_UNPAREN Ret algorithm(thrust::execution_policy<Policy>& policy, It first, It last SWEEP_UNPAREN Params) \
  {                                                                                                              \
    SWEEP_OVERRIDE_ROUTED(algorithm, Policy, static_cast<Policy&>(policy), first, last SWEEP_UNPAREN Args);      \
  }

// SWEEP_OVERRIDE_CALL_FORM_NO_LVALUE: overloads 1, 2 and 4, for the call forms whose Thrust entry point
// reaches no cuda_cub overload of its own (only Thrust's generic one, `thrust::execution_policy<P>&`,
// which 3. would tie with: thrust::unique_count without a predicate). A non-const policy variable
// passed to such a form runs stock Thrust.
#define SWEEP_OVERRIDE_CALL_FORM_NO_LVALUE(Ret, algorithm, It, TParams, Params, Args, Its)                         \
  namespace cuda_cub                                                                                             \
  {                                                                                                              \
  template <class Policy, class It SWEEP_UNPAREN TParams, ::sweep::detail::thrust_override::enable_if_wrapped<Policy> = 0> \
  __host__ SWEEP_UNPAREN Ret algorithm(Policy& policy, It first, It last SWEEP_UNPAREN Params)                   \
  {                                                                                                              \
    return ::sweep::detail::thrust_override::algorithm(policy, first, last SWEEP_UNPAREN Args);                  \
  }                                                                                                              \
  }                                                                                                              \
  _CCCL_EXEC_CHECK_DISABLE                                                                                       \
  template <class P,                                                                                             \
            class It SWEEP_UNPAREN TParams,                                                                      \
            ::sweep::detail::thrust_override::enable_if_routed_rvalue_or_const<P> = 0>                           \
  _CCCL_HOST_DEVICE SWEEP_UNPAREN Ret algorithm(P&& policy, It first, It last SWEEP_UNPAREN Params)              \
  {                                                                                                              \
    SWEEP_OVERRIDE_ROUTED(algorithm, ::cuda::std::remove_cvref_t<P>, policy, first, last SWEEP_UNPAREN Args);    \
  }                                                                                                              \
  _CCCL_EXEC_CHECK_DISABLE                                                                                       \
  template <template <class...> class Iter,                                                                      \
            class... A,                                                                                          \
            class It = Iter<A...> SWEEP_UNPAREN TParams,                                                         \
            ::sweep::detail::thrust_override::enable_if_routed_iterators<Iter<A...> SWEEP_UNPAREN Its> = 0>      \
  _CCCL_HOST_DEVICE SWEEP_UNPAREN Ret algorithm(Iter<A...> first, Iter<A...> last SWEEP_UNPAREN Params)          \
  {                                                                                                              \
    SWEEP_OVERRIDE_NO_POLICY(algorithm, first, last SWEEP_UNPAREN Args);                                         \
  }

THRUST_NAMESPACE_BEGIN

// Every routed call form, as Thrust declares it (thrust/copy.h, remove.h, sort.h, scan.h,
// transform_scan.h; the scans by key in scan.h), where the release has them (util/cccl_compat.cuh).
SWEEP_OVERRIDE_CALL_FORM((OutputIt), copy_if, InputIt, (, class OutputIt, class Pred), (, OutputIt result, Pred pred), (, result, pred), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), copy_if, InputIt, (, class StencilIt, class OutputIt, class Pred),
                         (, StencilIt stencil, OutputIt result, Pred pred), (, stencil, result, pred), (, StencilIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), remove_copy_if, InputIt, (, class OutputIt, class Pred), (, OutputIt result, Pred pred), (, result, pred), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), remove_copy_if, InputIt, (, class StencilIt, class OutputIt, class Pred),
                         (, StencilIt stencil, OutputIt result, Pred pred), (, stencil, result, pred), (, StencilIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((void), sort, RandomIt, (), (), (), ())
SWEEP_OVERRIDE_CALL_FORM((void), sort, RandomIt, (, class Compare), (, Compare comp), (, comp), ())
SWEEP_OVERRIDE_CALL_FORM((void), stable_sort, RandomIt, (), (), (), ())
SWEEP_OVERRIDE_CALL_FORM((void), stable_sort, RandomIt, (, class Compare), (, Compare comp), (, comp), ())
SWEEP_OVERRIDE_CALL_FORM((void), sort_by_key, KeysIt, (, class ValuesIt), (, ValuesIt values), (, values), (, ValuesIt))
SWEEP_OVERRIDE_CALL_FORM((void), sort_by_key, KeysIt, (, class ValuesIt, class Compare), (, ValuesIt values, Compare comp),
                         (, values, comp), (, ValuesIt))
SWEEP_OVERRIDE_CALL_FORM((void), stable_sort_by_key, KeysIt, (, class ValuesIt), (, ValuesIt values), (, values), (, ValuesIt))
SWEEP_OVERRIDE_CALL_FORM((void), stable_sort_by_key, KeysIt, (, class ValuesIt, class Compare), (, ValuesIt values, Compare comp),
                         (, values, comp), (, ValuesIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), inclusive_scan, InputIt, (, class OutputIt), (, OutputIt result), (, result), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), inclusive_scan, InputIt, (, class OutputIt, class Op), (, OutputIt result, Op op), (, result, op), (, OutputIt))
#if SWEEP_CCCL_HAS_INCLUSIVE_SCAN_INIT
SWEEP_OVERRIDE_CALL_FORM((OutputIt), inclusive_scan, InputIt, (, class OutputIt, class Init, class Op), (, OutputIt result, Init init, Op op),
                         (, result, init, op), (, OutputIt))
#endif
SWEEP_OVERRIDE_CALL_FORM((OutputIt), exclusive_scan, InputIt, (, class OutputIt), (, OutputIt result), (, result), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), exclusive_scan, InputIt, (, class OutputIt, class Init), (, OutputIt result, Init init), (, result, init), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), exclusive_scan, InputIt, (, class OutputIt, class Init, class Op), (, OutputIt result, Init init, Op op),
                         (, result, init, op), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), transform_inclusive_scan, InputIt, (, class OutputIt, class UnaryOp, class Op),
                         (, OutputIt result, UnaryOp unary_op, Op op), (, result, unary_op, op), (, OutputIt))
#if SWEEP_CCCL_HAS_TRANSFORM_INCLUSIVE_SCAN_INIT
SWEEP_OVERRIDE_CALL_FORM((OutputIt), transform_inclusive_scan, InputIt, (, class OutputIt, class UnaryOp, class Init, class Op),
                         (, OutputIt result, UnaryOp unary_op, Init init, Op op), (, result, unary_op, init, op), (, OutputIt))
#endif
SWEEP_OVERRIDE_CALL_FORM((OutputIt), transform_exclusive_scan, InputIt, (, class OutputIt, class UnaryOp, class Init, class Op),
                         (, OutputIt result, UnaryOp unary_op, Init init, Op op), (, result, unary_op, init, op), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), inclusive_scan_by_key, KeysIt, (, class ValuesIt, class OutputIt),
                         (, ValuesIt values, OutputIt result), (, values, result), (, ValuesIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), inclusive_scan_by_key, KeysIt, (, class ValuesIt, class OutputIt, class Eq),
                         (, ValuesIt values, OutputIt result, Eq eq), (, values, result, eq), (, ValuesIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), inclusive_scan_by_key, KeysIt, (, class ValuesIt, class OutputIt, class Eq, class Op),
                         (, ValuesIt values, OutputIt result, Eq eq, Op op), (, values, result, eq, op), (, ValuesIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), exclusive_scan_by_key, KeysIt, (, class ValuesIt, class OutputIt),
                         (, ValuesIt values, OutputIt result), (, values, result), (, ValuesIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), exclusive_scan_by_key, KeysIt, (, class ValuesIt, class OutputIt, class Init),
                         (, ValuesIt values, OutputIt result, Init init), (, values, result, init), (, ValuesIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), exclusive_scan_by_key, KeysIt, (, class ValuesIt, class OutputIt, class Init, class Eq),
                         (, ValuesIt values, OutputIt result, Init init, Eq eq), (, values, result, init, eq), (, ValuesIt, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), exclusive_scan_by_key, KeysIt, (, class ValuesIt, class OutputIt, class Init, class Eq, class Op),
                         (, ValuesIt values, OutputIt result, Init init, Eq eq, Op op), (, values, result, init, eq, op),
                         (, ValuesIt, OutputIt))

// The compaction family (thrust/unique.h, remove.h, partition.h; reduce_by_key in thrust/reduce.h).
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), unique, ForwardIt, (), (), (), ())
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), unique, ForwardIt, (, class Eq), (, Eq eq), (, eq), ())
SWEEP_OVERRIDE_CALL_FORM((OutputIt), unique_copy, InputIt, (, class OutputIt), (, OutputIt result), (, result), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), unique_copy, InputIt, (, class OutputIt, class Eq), (, OutputIt result, Eq eq), (, result, eq), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM_NO_LVALUE((typename ::cuda::std::iterator_traits<ForwardIt>::difference_type), unique_count, ForwardIt, (), (), (),
                                   ())
SWEEP_OVERRIDE_CALL_FORM((typename ::cuda::std::iterator_traits<ForwardIt>::difference_type), unique_count, ForwardIt, (, class Eq),
                         (, Eq eq), (, eq), ())
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<KeysIt, ValuesIt>), unique_by_key, KeysIt, (, class ValuesIt), (, ValuesIt values), (, values), (, ValuesIt))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<KeysIt, ValuesIt>), unique_by_key, KeysIt, (, class ValuesIt, class Eq), (, ValuesIt values, Eq eq),
                         (, values, eq), (, ValuesIt))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<KeysOut, ValuesOut>), unique_by_key_copy, KeysIt, (, class ValuesIt, class KeysOut, class ValuesOut),
                         (, ValuesIt values, KeysOut keys_result, ValuesOut values_result), (, values, keys_result, values_result),
                         (, ValuesIt, KeysOut, ValuesOut))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<KeysOut, ValuesOut>), unique_by_key_copy, KeysIt, (, class ValuesIt, class KeysOut, class ValuesOut, class Eq),
                         (, ValuesIt values, KeysOut keys_result, ValuesOut values_result, Eq eq),
                         (, values, keys_result, values_result, eq), (, ValuesIt, KeysOut, ValuesOut))
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), remove, ForwardIt, (, class T), (, const T& value), (, value), ())
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), remove_if, ForwardIt, (, class Pred), (, Pred pred), (, pred), ())
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), remove_if, ForwardIt, (, class StencilIt, class Pred), (, StencilIt stencil, Pred pred),
                         (, stencil, pred), (, StencilIt))
SWEEP_OVERRIDE_CALL_FORM((OutputIt), remove_copy, InputIt, (, class OutputIt, class T), (, OutputIt result, const T& value),
                         (, result, value), (, OutputIt))
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), partition, ForwardIt, (, class Pred), (, Pred pred), (, pred), ())
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), partition, ForwardIt, (, class StencilIt, class Pred), (, StencilIt stencil, Pred pred),
                         (, stencil, pred), (, StencilIt))
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), stable_partition, ForwardIt, (, class Pred), (, Pred pred), (, pred), ())
SWEEP_OVERRIDE_CALL_FORM((ForwardIt), stable_partition, ForwardIt, (, class StencilIt, class Pred), (, StencilIt stencil, Pred pred),
                         (, stencil, pred), (, StencilIt))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<TrueIt, FalseIt>), partition_copy, InputIt, (, class TrueIt, class FalseIt, class Pred),
                         (, TrueIt out_true, FalseIt out_false, Pred pred), (, out_true, out_false, pred), (, TrueIt, FalseIt))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<TrueIt, FalseIt>), partition_copy, InputIt, (, class StencilIt, class TrueIt, class FalseIt, class Pred),
                         (, StencilIt stencil, TrueIt out_true, FalseIt out_false, Pred pred), (, stencil, out_true, out_false, pred),
                         (, StencilIt, TrueIt, FalseIt))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<TrueIt, FalseIt>), stable_partition_copy, InputIt, (, class TrueIt, class FalseIt, class Pred),
                         (, TrueIt out_true, FalseIt out_false, Pred pred), (, out_true, out_false, pred), (, TrueIt, FalseIt))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<TrueIt, FalseIt>), stable_partition_copy, InputIt, (, class StencilIt, class TrueIt, class FalseIt, class Pred),
                         (, StencilIt stencil, TrueIt out_true, FalseIt out_false, Pred pred), (, stencil, out_true, out_false, pred),
                         (, StencilIt, TrueIt, FalseIt))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<KeysOut, ValuesOut>), reduce_by_key, KeysIt, (, class ValuesIt, class KeysOut, class ValuesOut),
                         (, ValuesIt values, KeysOut keys_output, ValuesOut values_output), (, values, keys_output, values_output),
                         (, ValuesIt, KeysOut, ValuesOut))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<KeysOut, ValuesOut>), reduce_by_key, KeysIt, (, class ValuesIt, class KeysOut, class ValuesOut, class Eq),
                         (, ValuesIt values, KeysOut keys_output, ValuesOut values_output, Eq eq),
                         (, values, keys_output, values_output, eq), (, ValuesIt, KeysOut, ValuesOut))
SWEEP_OVERRIDE_CALL_FORM((thrust::pair<KeysOut, ValuesOut>), reduce_by_key, KeysIt,
                         (, class ValuesIt, class KeysOut, class ValuesOut, class Eq, class Op),
                         (, ValuesIt values, KeysOut keys_output, ValuesOut values_output, Eq eq, Op op),
                         (, values, keys_output, values_output, eq, op), (, ValuesIt, KeysOut, ValuesOut))

THRUST_NAMESPACE_END

#undef SWEEP_OVERRIDE_CALL_FORM
#undef SWEEP_OVERRIDE_CALL_FORM_NO_LVALUE
#undef SWEEP_UNPAREN
#undef SWEEP_OVERRIDE_NO_POLICY
#undef SWEEP_OVERRIDE_ROUTED
#undef SWEEP_OVERRIDE_DISPATCH
