// sweep's reduce_by_key for Thrust: `thrust::reduce_by_key(sweep::par, ...)` in every form Thrust has
// runs one pass of sweep's scan kernel over (value, head count) items (detail/scan/reduce_by_key.cuh):
// the reduction of each segment of consecutive equal keys and its last key, in order.
#pragma once

#include <thrust/iterator/discard_iterator.h>
#include <thrust/pair.h>
#include <thrust/reduce.h>

#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include <sweep/copy_if.cuh>
#include <sweep/execution_policy.cuh>
#include <sweep/detail/copy_if/dispatch.cuh>
#include <sweep/detail/scan/dispatch.cuh>
#include <sweep/detail/scan/reduce_by_key.cuh>
#include <sweep/detail/util/call_scratch.hpp>
#include <sweep/detail/util/cccl_compat.cuh>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/policy.cuh>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep
{
namespace detail
{

//! Runs the pass with head counts of Count (u32 below 2^31 items, u64 above: the count's top bit is
//! the tail flag) and returns the number of segments, which the last item writes to `segments`: the
//! thread's call_scratch host word as the device maps it where `scratch` is given (read here after
//! one synchronization, no copy), else a device word (copied back). Either way the stream is
//! synchronized once, also for the scan's part (its tile state may be in the scratch's buffer).
template <class T, class Count, class Derived, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Eq, class Op>
__host__ std::uint64_t reduce_by_key_pass(execution_policy<Derived>& policy,
                                          KeysIt keys,
                                          std::uint64_t n,
                                          ValuesIt values,
                                          KeysOut keys_out,
                                          ValuesOut values_out,
                                          Eq eq,
                                          Op op,
                                          call_scratch* scratch,
                                          unsigned long long* segments)
{
  using item = scan_impl::run_item<T, Count>;
  const scan_impl::run_input<T, Count, KeysIt, ValuesIt, Eq> input{
    keys, values, eq, static_cast<std::int64_t>(n), 0, scan_impl::aligned16(keys) && scan_impl::aligned16(values)};
  const scan_impl::run_output<T, Count, KeysIt, KeysOut, ValuesOut> output{
    keys, keys_out, values_out, segments, static_cast<std::int64_t>(n), 0};
  scan_impl::dispatch<item, scan_impl::scan_mode<false, false>>(
    policy, input, n, output, scan_impl::run_op<T, Count, Op>{op}, item{}, "sweep::reduce_by_key", true);
  // The kernel may run from here: should anything below throw, the stream is drained before the
  // scratch or the temporary storage can be reused.
  const cudaStream_t stream = stream_of(policy);
  const drain_stream_on_throw drain{stream};
  unsigned long long count  = 0;
  if (scratch == nullptr)
  {
    throw_on_error(cudaMemcpyAsync(&count, segments, sizeof(count), cudaMemcpyDeviceToHost, stream),
                   "sweep::reduce_by_key: reading the segment count");
  }
  synchronize(policy, "sweep::reduce_by_key: synchronizing for the segment count");
  if (scratch != nullptr)
  {
    // Written by the last item's thread; complete and visible once the stream is synchronized.
    count = *static_cast<volatile unsigned long long*>(scratch->host_word);
  }
  return count;
}

//! thrust::reduce_by_key(sweep policy, keys_first, keys_last, values_first, keys_output, values_output,
//! eq, op): for every segment of consecutive keys (a new one wherever !eq(key before, key)), its last
//! key to keys_output and the reduction of its values under op, left to right in a fixed association
//! (op must be associative, need not be commutative), to values_output; returns the ends of both.
//! Accumulates in the values' value type, as Thrust. Integer results equal stock Thrust's; floating-point
//! ones are bitwise the same on every call. The outputs must not overlap the inputs. Returns after the
//! segment count is known on the host (the stream is synchronized once, also for par_nosync; a
//! capturing stream is refused before anything is enqueued). Throws thrust::system_error on CUDA errors,
//! std::bad_alloc when temporary storage cannot be allocated.
template <class Derived, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Eq, class Op>
__host__ thrust::pair<KeysOut, ValuesOut> reduce_by_key(execution_policy<Derived>& policy,
                                                       KeysIt keys_first,
                                                       KeysIt keys_last,
                                                       ValuesIt values_first,
                                                       KeysOut keys_output,
                                                       ValuesOut values_output,
                                                       Eq eq,
                                                       Op op)
{
  using T = cccl::value_type_t<ValuesIt>;
  if constexpr (!scan_impl::supported_type<scan_impl::run_item<T, std::uint64_t>>)
  {
    return thrust::cuda_cub::reduce_by_key(thrust_policy(policy), keys_first, keys_last, values_first, keys_output,
                                           values_output, eq, op);
  }
  else
  {
    const auto distance = keys_last - keys_first;
    if (distance <= 0)
    {
      return thrust::make_pair(keys_output, values_output);
    }
    const auto n = static_cast<std::uint64_t>(distance);
    throw_on_pending_error("sweep::reduce_by_key: an earlier CUDA call left this error");
    copy_if_impl::refuse_capture(stream_of(policy));
    // The count goes to the thread's call_scratch host word where there is one (no copy launched and
    // no allocation: this call synchronizes before it returns, which keeps the scratch free for the
    // thread's next call), else to a device word of temporary storage.
    call_scratch* const scratch = thread_call_scratch();
    temp_storage<execution_policy<Derived>, 1> storage(
      policy, scratch != nullptr ? temp_layout<1>{} : temp_layout<1>{sizeof(unsigned long long)});
    unsigned long long* const segments =
      scratch != nullptr ? scratch->mapped_word : storage.template part<unsigned long long>(0);
    const auto keys   = thrust::try_unwrap_contiguous_iterator(keys_first);
    const auto values = thrust::try_unwrap_contiguous_iterator(values_first);
    const auto kout   = thrust::try_unwrap_contiguous_iterator(keys_output);
    const auto vout   = thrust::try_unwrap_contiguous_iterator(values_output);
    const std::uint64_t count =
      n < (std::uint64_t(1) << 31)
        ? reduce_by_key_pass<T, std::uint32_t>(policy, keys, n, values, kout, vout, eq, op, scratch, segments)
        : reduce_by_key_pass<T, std::uint64_t>(policy, keys, n, values, kout, vout, eq, op, scratch, segments);
    using key_difference   = typename ::cuda::std::iterator_traits<KeysOut>::difference_type;
    using value_difference = typename ::cuda::std::iterator_traits<ValuesOut>::difference_type;
    return thrust::make_pair(keys_output + static_cast<key_difference>(count),
                             values_output + static_cast<value_difference>(count));
  }
}

//! With op = plus of the values output's value type (the values input's where the output has none),
//! as Thrust.
template <class Derived, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Eq>
__host__ thrust::pair<KeysOut, ValuesOut> reduce_by_key(execution_policy<Derived>& policy,
                                                       KeysIt keys_first,
                                                       KeysIt keys_last,
                                                       ValuesIt values_first,
                                                       KeysOut keys_output,
                                                       ValuesOut values_output,
                                                       Eq eq)
{
  using out_value = cccl::value_type_t<ValuesOut>;
  using V = std::conditional_t<std::is_void<out_value>::value || is_discard_iterator<ValuesOut>::value,
                               cccl::value_type_t<ValuesIt>, out_value>;
  return sweep::detail::reduce_by_key(policy, keys_first, keys_last, values_first, keys_output, values_output, eq,
                                      ::cuda::std::plus<V>{});
}

//! With eq = equal_to of the keys' value type, as Thrust.
template <class Derived, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut>
__host__ thrust::pair<KeysOut, ValuesOut> reduce_by_key(execution_policy<Derived>& policy,
                                                       KeysIt keys_first,
                                                       KeysIt keys_last,
                                                       ValuesIt values_first,
                                                       KeysOut keys_output,
                                                       ValuesOut values_output)
{
  return sweep::detail::reduce_by_key(policy, keys_first, keys_last, values_first, keys_output, values_output,
                                      ::cuda::std::equal_to<cccl::value_type_t<KeysIt>>{});
}

} // namespace detail
} // namespace sweep
