// Host-side dispatch of sweep's histograms: argument checks, temporary storage, the plan (plan.hpp)
// completed from the device's properties, launches, synchronization like the policy; and the
// host-policy loop.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>
#include <vector>

#include <sweep/detail/histogram/bin_transforms.hpp>
#include <sweep/detail/histogram/kernels.cuh>
#include <sweep/detail/histogram/plan.hpp>
#include <sweep/detail/histogram/tuning.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>
#include <sweep/detail/util/math.hpp>
#include <sweep/detail/util/policy.cuh>
#include <sweep/detail/util/stream.hpp>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

//! The plan (plan.hpp) completed with what only the device can tell: the tuning of the kernel it
//! launches (the struct that kernel's code was compiled with: util/kernel_tuning.cuh), the opt-in
//! shared memory per block, and the blocks of that kernel an SM holds (occupancy), which size the
//! persistent grid (sm_count x resident blocks per SM, at most the tuning's max_blocks_per_sm).
template <class Mapping, class SampleIt, class Accum>
__host__ launch_plan make_plan(int priv_bins, std::size_t level_bytes)
{
  using sample_t               = typename Mapping::sample_type;
  constexpr auto shared_kernel = &shared_histogram_kernel<Mapping, SampleIt, Accum>;
  constexpr auto global_kernel = &global_histogram_kernel<Mapping, SampleIt, Accum>;
  const device_info& info      = current_device_info();
  const std::size_t limit      = static_cast<std::size_t>(info.max_shared_per_block_optin);

  // Whether one copy of the bins fits in a block, and so which kernel runs, is the same under every
  // tuning; the rest of the plan is the tuning of that kernel's architecture.
  const bool fits_shared = static_cast<std::size_t>(priv_bins) * 4 <= limit;
  const int arch         = fits_shared ? kernel_arch<shared_kernel>() : kernel_arch<global_kernel>();
  launch_plan plan       = with_tuning_arch(arch, [&](auto a) {
    return plan_shared_memory<tuning_for<decltype(a)::value>, sample_t>(priv_bins, level_bytes, limit);
  });
  int per_sm = 0;
  if (!plan.use_shared)
  {
    throw_on_error(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, global_kernel, plan.block_threads, 0),
                   "sweep::histogram: occupancy");
  }
  else
  {
    if (plan.smem > 48 * 1024)
    {
      // The attribute is process-wide (per kernel and device): set to the device's limit, never to
      // this call's size, so that a call on another host thread cannot lower it between this call's
      // set and launch. It only permits; the launch asks for plan.smem.
      cudaFuncAttributes attributes{};
      throw_on_error(cudaFuncGetAttributes(&attributes, shared_kernel), "sweep::histogram: kernel attributes");
      throw_on_error(cudaFuncSetAttribute(shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(limit - attributes.sharedSizeBytes)),
                     "sweep::histogram: opt-in shared memory");
    }
    throw_on_error(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, shared_kernel, plan.block_threads, plan.smem),
                   "sweep::histogram: occupancy");
  }
  if (per_sm < 1)
  {
    throw_on_error(cudaErrorInvalidConfiguration, "sweep::histogram: kernel cannot be resident");
  }
  plan.grid = with_tuning_arch(arch, [&](auto a) {
    return persistent_grid<tuning_for<decltype(a)::value>>(info.sm_count, per_sm);
  });
  return plan;
}

//! Counts samples [first, first + n) into out[] (zeroed by the caller) on `stream`.
template <class Mapping, class SampleIt, class Accum>
__host__ void launch(const launch_plan& plan, SampleIt first, std::uint64_t n, Mapping map, Accum* out, cudaStream_t stream)
{
  using sample_t           = typename Mapping::sample_type;
  const std::uint64_t tile = plan.tile();
  if (n == 0)
  {
    return;
  }
  if (!plan.use_shared)
  {
    const std::uint64_t grid = global_launch_grid(plan, n, tile);
    global_histogram_kernel<Mapping, SampleIt, Accum><<<static_cast<unsigned>(grid), plan.block_threads, 0, stream>>>(
      first, n, map, out);
    check_launch("sweep::histogram: global_histogram_kernel");
    return;
  }

  // Leading samples before the first 16-byte boundary go through the guarded path.
  std::uint64_t head = 0;
  if constexpr (std::is_pointer_v<SampleIt>)
  {
    head = aligned_head(reinterpret_cast<std::uintptr_t>(first), sizeof(sample_t), n);
  }
  for (std::uint64_t offset = 0; offset < n;)
  {
    const shared_launch work = shared_launch_at(plan, n, offset, head, tile);
    const std::uint64_t grid = shared_launch_grid(plan, work);
    shared_histogram_kernel<Mapping, SampleIt, Accum>
      <<<static_cast<unsigned>(grid), plan.block_threads, plan.smem, stream>>>(first + offset, work, map, out);
    check_launch("sweep::histogram: shared_histogram_kernel");
    offset += work.n;
  }
}

//! The whole device histogram for a transform `op` with num_bins output bins: zero the counters,
//! count, and (when the counters cannot be added to in place) convert the 64-bit totals.
template <class SampleT, class Counter, class SampleIt, class CountOut, class Op>
__host__ void count_on_device(cudaStream_t stream,
                              SampleIt first,
                              std::uint64_t n,
                              CountOut counts,
                              int num_bins,
                              Op op,
                              std::size_t level_bytes,
                              unsigned long long* accum)
{
  // Should a step throw once work is enqueued, the stream is drained before the caller's temporary
  // storage goes back (a user allocator may hand it out again at once).
  const drain_stream_on_throw drain{stream};
  auto run = [&](auto* out) {
    using accum_t = std::remove_pointer_t<decltype(out)>;
    throw_on_error(cudaMemsetAsync(out, 0, static_cast<std::size_t>(num_bins) * sizeof(accum_t), stream),
                   "sweep::histogram: zeroing the counters");

    if (n == 0)
    {
      return;
    }
    if constexpr (sizeof(SampleT) == 1)
    {
      using mapping = raw_byte_mapping<SampleT, Op>;
      launch(make_plan<mapping, SampleIt, accum_t>(256, level_bytes), first, n, mapping{op}, out, stream);
    }
    else
    {
      using mapping = direct_mapping<SampleT, Op>;
      launch(make_plan<mapping, SampleIt, accum_t>(num_bins, level_bytes), first, n, mapping{op}, out, stream);
    }
  };
  if constexpr (direct_output_v<Counter, CountOut>)
  {
    run(reinterpret_cast<direct_accum_t<Counter>*>(counts));
  }
  else
  {
    run(accum);
    write_counts_kernel<Counter><<<ceil_div(num_bins, 256), 256, 0, stream>>>(accum, num_bins, counts);
    check_launch("sweep::histogram: write_counts_kernel");
  }
}

//! Runs `body(stream)` for a device histogram under `policy` (sweep's or Thrust's CUDA policies):
//! an earlier CUDA error is reported first; the body's temporary storage goes back when it returns;
//! then the stream is synchronized as the policy asks (not for nosync).
template <class Derived, class Body>
__host__ void on_device(thrust::cuda_cub::execution_policy<Derived>& policy, const char* what, Body&& body)
{
  throw_on_pending_error(what);
  body(stream_of(policy));
  synchronize_optional(policy, what);
}

//! Device histogram_even.
template <class SampleT, class Counter, class Derived, class SampleIt, class CountOut, class LevelT>
__host__ void even_on_device(thrust::cuda_cub::execution_policy<Derived>& policy,
                             SampleIt first,
                             std::uint64_t n,
                             CountOut counts,
                             int num_bins,
                             LevelT lower,
                             LevelT upper)
{
  on_device(policy, "sweep::histogram_even", [&](cudaStream_t stream) {
    using op_t = even_transform<SampleT, LevelT>;
    if (const arg_check c = op_t::check(num_bins, lower, upper); !c)
    {
      throw_invalid_argument("sweep::histogram_even", c.argument, c.why);
    }
    temp_storage temp(policy, temp_layout<8>{accum_bytes<Counter, CountOut>(num_bins)});
    count_on_device<SampleT, Counter>(
      stream, first, n, counts, num_bins, op_t::make(num_bins, lower, upper), 0, temp.template part<unsigned long long>(0));
  });
}

//! Device histogram (integer samples are bin indices).
template <class SampleT, class Counter, class Derived, class SampleIt, class CountOut>
__host__ void index_on_device(
  thrust::cuda_cub::execution_policy<Derived>& policy, SampleIt first, std::uint64_t n, CountOut counts, int num_bins)
{
  on_device(policy, "sweep::histogram", [&](cudaStream_t stream) {
    if (const arg_check c = check_num_bins(num_bins); !c)
    {
      throw_invalid_argument("sweep::histogram", c.argument, c.why);
    }
    temp_storage temp(policy, temp_layout<8>{accum_bytes<Counter, CountOut>(num_bins)});
    count_on_device<SampleT, Counter>(
      stream, first, n, counts, num_bins, index_transform<SampleT>{num_bins}, 0, temp.template part<unsigned long long>(0));
  });
}

//! Device histogram_range: the levels are gathered into temporary storage, copied to the host and
//! checked there (one stream synchronization; the check is what lets bad levels throw; not during a
//! graph capture), then read by the kernel from shared memory when they fit beside the histogram.
template <class SampleT, class Counter, class Derived, class SampleIt, class CountOut, class LevelIt>
__host__ void range_on_device(thrust::cuda_cub::execution_policy<Derived>& policy,
                              SampleIt first,
                              std::uint64_t n,
                              LevelIt levels_first,
                              std::ptrdiff_t num_levels,
                              CountOut counts)
{
  on_device(policy, "sweep::histogram_range", [&](cudaStream_t stream) {
    using level_t = std::remove_cv_t<typename std::iterator_traits<LevelIt>::value_type>;
    if (num_levels < 2)
    {
      throw_invalid_argument("sweep::histogram_range", "levels", "must hold at least 2 levels (one bin)");
    }
    if (num_levels - 1 > static_cast<std::ptrdiff_t>(std::numeric_limits<int>::max()))
    {
      throw_invalid_argument("sweep::histogram_range", "levels", "holds more levels than an int number of bins");
    }
    const int levels     = static_cast<int>(num_levels);
    const int num_bins   = levels - 1;
    const std::size_t lb = static_cast<std::size_t>(levels) * sizeof(level_t);
    temp_storage temp(policy, temp_layout<8>{accum_bytes<Counter, CountOut>(num_bins), lb});
    level_t* d_levels    = temp.template part<level_t>(1);
    gather_levels_kernel<<<ceil_div(levels, 256), 256, 0, stream>>>(levels_first, levels, d_levels);
    check_launch("sweep::histogram_range: gather_levels_kernel");
    // Inside a graph capture nothing may wait, and the levels the graph will read are those in memory
    // when it runs: they are not checked there (levels out of order then give unspecified counts, as
    // in CUB).
    if (!stream_may_be_capturing(stream))
    {
      std::vector<level_t> host(static_cast<std::size_t>(levels));
      throw_on_error(cudaMemcpyAsync(host.data(), d_levels, lb, cudaMemcpyDeviceToHost, stream),
                     "sweep::histogram_range: reading the levels");
      throw_on_error(cudaStreamSynchronize(stream), "sweep::histogram_range: reading the levels");
      if (const arg_check c = check_levels(host.data(), num_levels); !c)
      {
        throw_invalid_argument("sweep::histogram_range", c.argument, c.why);
      }
    }
    count_on_device<SampleT, Counter>(stream,
                                      first,
                                      n,
                                      counts,
                                      num_bins,
                                      range_transform<SampleT, level_t>{d_levels, levels},
                                      lb,
                                      temp.template part<unsigned long long>(0));
  });
}

//! Host policies: the same transforms, counted in 64 bits, written as Counter.
template <class Counter, class InputIt, class CountIt, class Op>
__host__ void count_on_host(InputIt first, InputIt last, CountIt counts, int num_bins, Op op)
{
  std::vector<std::uint64_t> totals(static_cast<std::size_t>(num_bins), 0);
  for (; first != last; ++first)
  {
    const int bin = op(*first);
    if (bin >= 0)
    {
      ++totals[static_cast<std::size_t>(bin)];
    }
  }
  for (int i = 0; i < num_bins; ++i)
  {
    counts[i] = static_cast<Counter>(totals[static_cast<std::size_t>(i)]);
  }
}

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
