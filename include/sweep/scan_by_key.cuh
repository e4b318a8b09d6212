// sweep's scans by key for Thrust: `thrust::inclusive_scan_by_key(sweep::par, ...)` and
// exclusive_scan_by_key, in every form Thrust has, run sweep's single-pass scan kernel over (value,
// segment head) items (detail/scan/by_key.cuh).
#pragma once

#include <thrust/scan.h>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sweep/execution_policy.cuh>
#include <sweep/detail/scan/by_key.cuh>
#include <sweep/detail/scan/dispatch.cuh>
#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/policy.cuh>
#include <sweep/detail/util/stream.hpp>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep
{
namespace detail
{

//! Whether the n items at a and at b share a byte (raw pointers only; other iterators: false).
template <class A, class B>
bool ranges_overlap(A a, B b, std::uint64_t n)
{
  if constexpr (std::is_pointer<A>::value && std::is_pointer<B>::value)
  {
    const auto a0 = reinterpret_cast<std::uintptr_t>(a);
    const auto b0 = reinterpret_cast<std::uintptr_t>(b);
    const auto a1 = a0 + n * sizeof(*a);
    const auto b1 = b0 + n * sizeof(*b);
    return a0 < b1 && b0 < a1;
  }
  else
  {
    return false;
  }
}

//! Whether It is a pointer to a type that copies as bytes (an input scan_by_key_body may copy), and
//! the bytes of that type (0 for other iterators).
template <class It>
inline constexpr bool pointee_copyable = false;
template <class U>
inline constexpr bool pointee_copyable<U*> = std::is_trivially_copyable<std::remove_cv_t<U>>::value;
template <class It>
inline constexpr std::size_t pointee_bytes = 0;
template <class U>
inline constexpr std::size_t pointee_bytes<U*> = sizeof(U);

//! The shared body of the scans by key: n = last - first keys, the values at `values`, results at
//! `result`, accumulator T. Exclusive: from `init` at each segment's head. Types sweep's kernel does
//! not take, and keys that overlap the output and cannot be copied as bytes, run `fallback(policy)`
//! (Thrust's own scan by key under the same stream and allocator).
template <class T, bool Exclusive, class Derived, class KeysIt, class ValuesIt, class OutputIt, class Eq, class Op, class Fallback>
__host__ OutputIt scan_by_key_body(execution_policy<Derived>& policy,
                                   KeysIt keys_first,
                                   KeysIt keys_last,
                                   ValuesIt values_first,
                                   OutputIt result,
                                   Eq eq,
                                   Op op,
                                   const T& init,
                                   const char* name,
                                   Fallback fallback)
{
  using item = scan_impl::segment_item<T>;
  if constexpr (!scan_impl::supported_type<item>)
  {
    return fallback(policy);
  }
  else
  {
    const auto distance = keys_last - keys_first;
    if (distance <= 0)
    {
      return result;
    }
    const auto n      = static_cast<std::uint64_t>(distance);
    const auto keys   = thrust::try_unwrap_contiguous_iterator(keys_first);
    const auto values = thrust::try_unwrap_contiguous_iterator(values_first);
    const auto out    = thrust::try_unwrap_contiguous_iterator(result);
    using difference  = typename ::cuda::std::iterator_traits<OutputIt>::difference_type;

    const auto run = [&](auto scanned_keys, auto scanned_values) {
      using K = decltype(scanned_keys);
      using V = decltype(scanned_values);
      using O = std::remove_cv_t<decltype(out)>;
      const scan_impl::segment_input<T, K, V, Eq, Exclusive> input{
        scanned_keys, scanned_values, eq, init, 0,
        scan_impl::aligned16(scanned_keys) && scan_impl::aligned16(scanned_values)};
      const scan_impl::inclusive_by_key_output<T, O> output{out, 0, scan_impl::aligned16(out)};
      using choice = std::conditional_t<Exclusive, scan_impl::exclusive_by_key_choice<T>, scan_impl::tuned>;
      scan_impl::dispatch<item, scan_impl::scan_mode<false, false>, choice>(
        policy, input, n, output, scan_impl::segmented_op<T, Op>{op}, item{}, name);
    };

    // The scan reads each key twice (for its own head and the next item's), the exclusive scan each
    // value for the next item: results written over keys (Thrust allows result == keys_first) or, in
    // the exclusive scan, over values (result == values_first) would be read by a later tile as
    // input. Such a call scans a copy of what the output overlaps (a device copy and a temporary:
    // twice the traffic of that input, on these calls only).
    // Each input is checked on its own: a pointer to the keys under fancy values (or the reverse)
    // written over by the output is read across tiles all the same.
    using raw_keys   = std::remove_cv_t<decltype(keys)>;
    using raw_values = std::remove_cv_t<decltype(values)>;
    bool copy_keys   = false;
    bool copy_values = false;
    if constexpr (std::is_pointer<raw_keys>::value)
    {
      copy_keys = ranges_overlap(keys, out, n);
    }
    if constexpr (Exclusive && std::is_pointer<raw_values>::value)
    {
      copy_values = ranges_overlap(values, out, n);
    }
    if (copy_keys || copy_values)
    {
      if ((copy_keys && !pointee_copyable<raw_keys>) || (copy_values && !pointee_copyable<raw_values>))
      {
        return fallback(policy);
      }
      throw_on_pending_error("sweep: scan by key: an earlier CUDA call left this error");
      const temp_layout<2> layout{copy_keys ? n * pointee_bytes<raw_keys> : 0, copy_values ? n * pointee_bytes<raw_values> : 0};
      temp_storage<execution_policy<Derived>, 2> copy(policy, layout);
      const cudaStream_t stream = stream_of(policy);
      // Part `part` of the temporary: a device copy of the n items at `input`.
      const auto copy_of = [&](auto input, int part, const char* what) {
        using item_t         = std::remove_cv_t<std::remove_pointer_t<decltype(input)>>;
        item_t* const copied = copy.template part<item_t>(part);
        throw_on_error(cudaMemcpyAsync(copied, input, n * sizeof(item_t), cudaMemcpyDeviceToDevice, stream), what);
        return copied;
      };
      raw_keys scanned_keys     = keys;
      raw_values scanned_values = values;
      if constexpr (pointee_copyable<raw_keys>)
      {
        if (copy_keys)
        {
          scanned_keys = copy_of(keys, 0, "sweep: scan by key: copying the keys the output overlaps");
        }
      }
      if constexpr (pointee_copyable<raw_values>)
      {
        if (copy_values)
        {
          scanned_values = copy_of(values, 1, "sweep: scan by key: copying the values the output overlaps");
        }
      }
      // The copies are freed when this scope ends, after the scan's kernel is enqueued behind them
      // (stream-ordered, as every temporary of sweep's calls).
      const drain_stream_on_throw drain{stream};
      run(scanned_keys, scanned_values);
      return result + static_cast<difference>(distance);
    }
    run(keys, values);
    return result + static_cast<difference>(distance);
  }
}

//! thrust::inclusive_scan_by_key(sweep policy, keys_first, keys_last, values_first, result, eq, op):
//! within each run of consecutive keys that eq calls equal (a new run wherever !eq(key[i - 1],
//! key[i])), result[i] = v_s op ... op v_i from the run's first item s, accumulated in the values'
//! value type (as Thrust). op must be associative (not necessarily commutative: the order is kept).
//! Integer results equal stock Thrust's; floating-point ones are reproducible from call to call
//! (docs/design/scan.md). result may equal keys_first or values_first; otherwise it must not overlap
//! the inputs. Returns result + (keys_last - keys_first). Synchronizes the stream only where the
//! policy does (not under par_nosync, capturable in a CUDA graph). Throws thrust::system_error on CUDA
//! errors, std::bad_alloc when temporary storage cannot be allocated.
template <class Derived, class KeysIt, class ValuesIt, class OutputIt, class Eq, class Op>
__host__ OutputIt inclusive_scan_by_key(execution_policy<Derived>& policy,
                                        KeysIt keys_first,
                                        KeysIt keys_last,
                                        ValuesIt values_first,
                                        OutputIt result,
                                        Eq eq,
                                        Op op)
{
  using T = cccl::value_type_t<ValuesIt>;
  return scan_by_key_body<T, false>(
    policy, keys_first, keys_last, values_first, result, eq, op, T{}, "sweep::inclusive_scan_by_key", [&](auto& p) {
      return thrust::cuda_cub::inclusive_scan_by_key(thrust_policy(p), keys_first, keys_last, values_first, result, eq, op);
    });
}

//! inclusive_scan_by_key with plus.
template <class Derived, class KeysIt, class ValuesIt, class OutputIt, class Eq>
__host__ OutputIt inclusive_scan_by_key(
  execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, OutputIt result, Eq eq)
{
  return sweep::detail::inclusive_scan_by_key(policy, keys_first, keys_last, values_first, result, eq,
                                              ::cuda::std::plus<>{});
}

//! inclusive_scan_by_key with equal_to and plus.
template <class Derived, class KeysIt, class ValuesIt, class OutputIt>
__host__ OutputIt inclusive_scan_by_key(
  execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, OutputIt result)
{
  return sweep::detail::inclusive_scan_by_key(policy, keys_first, keys_last, values_first, result,
                                              ::cuda::std::equal_to<>{});
}

//! thrust::exclusive_scan_by_key(sweep policy, keys_first, keys_last, values_first, result, init, eq,
//! op): within each run of equal keys, result[s] = init at the run's first item and result[i] =
//! init op v_s op ... op v_{i-1} after it (as Thrust), accumulated in init's type (each value converted
//! to it first, as CUB does). Same contract as inclusive_scan_by_key; result == values_first, which
//! Thrust allows, scans a copy of the values.
template <class Derived, class KeysIt, class ValuesIt, class OutputIt, class Init, class Eq, class Op>
__host__ OutputIt exclusive_scan_by_key(execution_policy<Derived>& policy,
                                        KeysIt keys_first,
                                        KeysIt keys_last,
                                        ValuesIt values_first,
                                        OutputIt result,
                                        Init init,
                                        Eq eq,
                                        Op op)
{
  using T = Init;
  return scan_by_key_body<T, true>(
    policy, keys_first, keys_last, values_first, result, eq, op, init, "sweep::exclusive_scan_by_key", [&](auto& p) {
      return thrust::cuda_cub::exclusive_scan_by_key(
        thrust_policy(p), keys_first, keys_last, values_first, result, init, eq, op);
    });
}

//! exclusive_scan_by_key with plus.
template <class Derived, class KeysIt, class ValuesIt, class OutputIt, class Init, class Eq>
__host__ OutputIt exclusive_scan_by_key(execution_policy<Derived>& policy,
                                        KeysIt keys_first,
                                        KeysIt keys_last,
                                        ValuesIt values_first,
                                        OutputIt result,
                                        Init init,
                                        Eq eq)
{
  return sweep::detail::exclusive_scan_by_key(policy, keys_first, keys_last, values_first, result, init, eq,
                                              ::cuda::std::plus<>{});
}

//! exclusive_scan_by_key with equal_to and plus.
template <class Derived, class KeysIt, class ValuesIt, class OutputIt, class Init>
__host__ OutputIt exclusive_scan_by_key(
  execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, OutputIt result, Init init)
{
  return sweep::detail::exclusive_scan_by_key(policy, keys_first, keys_last, values_first, result, init,
                                              ::cuda::std::equal_to<>{});
}

//! exclusive_scan_by_key from the values' value-initialized value type, with equal_to and plus.
template <class Derived, class KeysIt, class ValuesIt, class OutputIt>
__host__ OutputIt exclusive_scan_by_key(
  execution_policy<Derived>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, OutputIt result)
{
  using T = cccl::value_type_t<ValuesIt>;
  return sweep::detail::exclusive_scan_by_key(policy, keys_first, keys_last, values_first, result, T{});
}

} // namespace detail
} // namespace sweep
