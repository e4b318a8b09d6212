// The compaction family: unique, remove, partition and reduce_by_key. Each section in a namespace of
// its own.
#include "bench_common.cuh"

#include <sweep/sweep.cuh> // sweep's unique once it lands (issue 35); until then sweep::par runs Thrust's
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/unique.h>
#include <cub/device/device_select.cuh>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <sweep/sweep.cuh> // sweep's remove_if once it lands (issue 35); until then sweep::par runs Thrust's
#include <thrust/count.h>
#include <thrust/remove.h>
#include <sweep/sweep.cuh> // sweep's partitions once they land (issue 35); until then sweep::par runs Thrust's
#include <thrust/logical.h>
#include <thrust/partition.h>
#include <thrust/transform_reduce.h>
#include <cub/device/device_partition.cuh>
#include <cuda/std/functional>
#include <sweep/sweep.cuh> // sweep's reduce_by_key once it lands (issue 35); until then sweep::par runs Thrust's
#include <thrust/reduce.h>
#include <cub/device/device_reduce.cuh>

// --------------------------------------------------------------------------------------------------
// unique_copy and unique (in place): sweep::par vs thrust::device vs cub::DeviceSelect::Unique (temp
// storage preallocated; `int` and 64-bit counts, cub_i32 and cub_i64), u32 keys, same data, checked
// bitwise against Thrust before anything is timed. Throughput cells run the par_nosync policies (the
// count still comes back to the host: Thrust's interface returns it); CUB's count stays on the device.
// In place: before every call of every implementation (warm-ups and checks included) the input is
// restored from a pristine copy, outside the timed region (sweep_bench::time_region's prepare). CUB has
// no in-place unique: its unique/ cells time DeviceSelect::Unique from the restored buffer into a
// separate output (the report marks them "out of place").
// Bytes: the keys read once, the unique keys written once.
//   unique_copy/u32_runs{1,8}/<impl>/2^28      runs of 1 (every key distinct) and of 8 on average
//   unique_copy/u32_all_equal/<impl>/2^28      one run
//   unique/u32_runs{1,8}/<impl>/2^28           the same in place
//   unique/u32_all_equal/<impl>/2^28
//   unique_copy/latency_u32_runs8/<impl>/<n>   whole call, 2^16 and 2^20: sweep::par and thrust::device
//   unique/latency_u32_runs8/<impl>/<n>        with the count on the host; cub: its kernels, the count
//                                              copied to the host and a stream sync

namespace bench_unique
{

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

constexpr std::uint32_t all_equal = 0; // the `mean` of a workload whose keys are all the same

//! Device buffers and CUB's temp storage for one workload. Out of place, every implementation reads
//! `in` and writes its own output; in place, sweep and Thrust work on out_sweep / out_thrust and CUB
//! reads cub_in, each restored from `in` before every call.
struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> in, out_sweep, out_thrust, out_cub, cub_in;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  std::uint32_t mean;
  bool in_place;
  std::size_t unique_keys = 0; // Thrust's count, set by check()

  workload(std::size_t n_, std::uint32_t mean_, bool in_place_, std::uint64_t seed)
      : in(n_)
      , out_sweep(n_)
      , out_thrust(n_)
      , out_cub(n_)
      , cub_in(in_place_ ? n_ : 0)
      , cub_count(1)
      , n(n_)
      , mean(mean_)
      , in_place(in_place_)
  {
    if (mean == all_equal)
    {
      thrust::fill(thrust::device, in.begin(), in.end(), 0x5eedu);
    }
    else
    {
      sweep_bench::fill_runs(in, mean, seed);
    }
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_unique(form, nullptr, temp_bytes, 0), "cub::DeviceSelect::Unique temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_unique(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    const std::uint32_t* first = thrust::raw_pointer_cast(in_place ? cub_in.data() : in.data());
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      return cub::DeviceSelect::Unique(temp, temp_bytes, first, thrust::raw_pointer_cast(out_cub.data()),
                                       thrust::raw_pointer_cast(cub_count.data()), count, stream);
    });
  }

  //! In place: restores the input of `which` (enqueued on `stream`). Out of place: nothing.
  void prepare(impl which, cudaStream_t stream)
  {
    if (in_place)
    {
      sweep_bench::copy_async(which == impl::sweep    ? out_sweep
                              : which == impl::thrust ? out_thrust
                                                      : cub_in,
                              in, stream);
    }
  }

  //! One call, enqueued on `stream`; returns the number of unique keys (CUB: only for whole calls,
  //! which copy its count to the host and synchronize; otherwise 0).
  std::size_t run(impl which, cudaStream_t stream, bool whole_call)
  {
    if (!sweep_bench::is_cub(which))
    {
      auto& out = which == impl::sweep ? out_sweep : out_thrust;
      return sweep_bench::with_policy(which, stream, whole_call, [&](auto policy) {
        const auto end = in_place ? thrust::unique(policy, out.begin(), out.end())
                                  : thrust::unique_copy(policy, in.begin(), in.end(), out.begin());
        return static_cast<std::size_t>(end - out.begin());
      });
    }
    return sweep_bench::run_cub_counted(
      [&](void* temp, std::size_t& temp_bytes) { return cub_unique(which, temp, temp_bytes, stream); }, cub_temp, cub_count,
      stream, whole_call, "cub::DeviceSelect::Unique");
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! they agree with Thrust (counts and keys, bitwise).
  void check(const std::string& what)
  {
    prepare(impl::sweep, 0);
    const std::size_t s = run(impl::sweep, 0, true);
    prepare(impl::thrust, 0);
    const std::size_t t = run(impl::thrust, 0, true);
    const std::size_t designed = mean == all_equal ? 1 : mean == 1 ? n : t;
    if (t != designed)
    {
      sweep_bench::fail(what + ": thrust found " + std::to_string(t) + " unique keys, the data has "
                        + std::to_string(designed));
    }
    if (s != t)
    {
      sweep_bench::fail(what + ": counts differ (sweep " + std::to_string(s) + ", thrust " + std::to_string(t) + ")");
    }
    sweep_bench::check_equal(out_thrust, out_sweep, t, what + " sweep vs thrust");
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)), "poison");
      prepare(form, 0);
      const std::size_t c = run(form, 0, true);
      if (c != t)
      {
        sweep_bench::fail(what + ": counts differ (thrust " + std::to_string(t) + ", " + impl_name(form) + " "
                          + std::to_string(c) + ")");
      }
      sweep_bench::check_equal(out_thrust, out_cub, t, what + " " + impl_name(form) + " vs thrust");
    }
    unique_keys = t;
  }
};

void bench(benchmark::State& state, impl which, bool in_place, const std::string& what, std::uint32_t mean,
           bool whole_call)
{
  const std::size_t n  = static_cast<std::size_t>(state.range(0));
  const std::string key = std::string(in_place ? "unique/" : "unique_copy/") + what + "/" + std::to_string(n);
  auto& w = sweep_bench::shared_workload<workload>(key, [&] {
    return std::make_unique<workload>(n, mean, in_place, 0x5eed2000ull + n + mean);
  });
  cudaStream_t stream = 0;
  auto call           = [&] {
    w.run(which, stream, whole_call);
  };
  if (in_place)
  {
    sweep_bench::time_region(state, stream, call, [&] {
      w.prepare(which, stream);
    });
  }
  else
  {
    sweep_bench::time_region(state, stream, call);
  }
  state.counters["selected"] = static_cast<double>(w.unique_keys);
  sweep_bench::set_throughput(state, static_cast<double>(n),
                              static_cast<double>((n + w.unique_keys) * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::int64_t n28 = std::int64_t(1) << 28;
  const std::vector<impl> impls{impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64};
  for (bool in_place : {false, true})
  {
    const std::string algo = in_place ? "unique" : "unique_copy";
    for (std::uint32_t mean : {1u, 8u, all_equal})
    {
      const std::string what = mean == all_equal ? "u32_all_equal" : "u32_runs" + std::to_string(mean);
      sweep_bench::register_cells(algo, what, n28, impls, benchmark::kMillisecond,
                                  [in_place, what, mean](benchmark::State& s, impl which) {
                                    bench(s, which, in_place, what, mean, false);
                                  });
    }
    for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
    {
      sweep_bench::register_cells(algo, "latency_u32_runs8", n, impls, benchmark::kMicrosecond,
                                  [in_place](benchmark::State& s, impl which) {
                                    bench(s, which, in_place, "latency_u32_runs8", 8, true);
                                  });
    }
  }
  return true;
}();

} // namespace

} // namespace bench_unique

// --------------------------------------------------------------------------------------------------
// remove_if in place: sweep::par vs thrust::device vs cub::DeviceSelect::If in place (its d_data
// overload, every supported CCCL has it, with the negated predicate; temp storage preallocated; `int`
// and 64-bit counts, cub_i32 and cub_i64), uniform u32, x >= threshold removed so that 50% or 99.9%
// are kept, same data, checked bitwise against Thrust (remove_if keeps the order) before anything is
// timed. Throughput cells run the par_nosync policies (the count still comes back to the host: Thrust's
// interface returns it); CUB's count stays on the device. Before every call of every implementation
// (warm-ups and checks included) its buffer is restored from a pristine copy of the input, outside the
// timed region (sweep_bench::time_region's prepare).
// Bytes: the input read once, the kept items written once.
//   remove_if/u32_keep{50,99.9}/<impl>/2^28
//   remove_if/latency_u32_keep50/<impl>/<n>   whole call, 2^16 and 2^20: sweep::par and thrust::device
//                                             with the count on the host; cub: its kernels, the count
//                                             copied to the host and a stream sync

namespace bench_remove
{

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

//! remove_if's predicate: removes x >= threshold, so uniform u32 keeps threshold / 2^32 of the items.
struct at_least
{
  std::uint64_t threshold;
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x >= threshold;
  }
};

//! CUB's selection: the negation of at_least.
struct below
{
  std::uint64_t threshold;
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x < threshold;
  }
};

//! Device buffers and CUB's temp storage for one workload: each implementation works in its own buffer,
//! restored from `in` before every call.
struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> in, data_sweep, data_thrust, data_cub;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  std::uint64_t threshold;
  std::size_t kept = 0; // set by check()

  workload(std::size_t n_, std::uint64_t threshold_, std::uint64_t seed)
      : in(n_)
      , data_sweep(n_)
      , data_thrust(n_)
      , data_cub(n_)
      , cub_count(1)
      , n(n_)
      , threshold(threshold_)
  {
    sweep_bench::fill_random(in, seed, sweep_bench::low_bits{});
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_select(form, nullptr, temp_bytes, 0), "cub::DeviceSelect::If temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_select(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      return cub::DeviceSelect::If(temp, temp_bytes, thrust::raw_pointer_cast(data_cub.data()),
                                   thrust::raw_pointer_cast(cub_count.data()), count, below{threshold}, stream);
    });
  }

  thrust::device_vector<std::uint32_t>& data(impl which)
  {
    return which == impl::sweep ? data_sweep : which == impl::thrust ? data_thrust : data_cub;
  }

  //! Restores the input of `which` (enqueued on `stream`).
  void prepare(impl which, cudaStream_t stream)
  {
    sweep_bench::copy_async(data(which), in, stream);
  }

  //! One call, enqueued on `stream`; returns the number of items kept (CUB: only for whole calls,
  //! which copy its count to the host and synchronize; otherwise 0).
  std::size_t run(impl which, cudaStream_t stream, bool whole_call)
  {
    if (!sweep_bench::is_cub(which))
    {
      auto& d = data(which);
      return sweep_bench::with_policy(which, stream, whole_call, [&](auto policy) {
        return static_cast<std::size_t>(thrust::remove_if(policy, d.begin(), d.end(), at_least{threshold}) - d.begin());
      });
    }
    return sweep_bench::run_cub_counted(
      [&](void* temp, std::size_t& temp_bytes) { return cub_select(which, temp, temp_bytes, stream); }, cub_temp, cub_count,
      stream, whole_call, "cub::DeviceSelect::If in place");
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! they agree with Thrust (counts and the kept items, bitwise).
  void check(const std::string& what)
  {
    const std::size_t expected =
      static_cast<std::size_t>(thrust::count_if(thrust::device, in.begin(), in.end(), below{threshold}));
    prepare(impl::thrust, 0);
    const std::size_t t = run(impl::thrust, 0, true);
    if (t != expected)
    {
      sweep_bench::fail(what + ": thrust kept " + std::to_string(t) + " items, the input has " + std::to_string(expected)
                        + " to keep");
    }
    for (impl which : {impl::sweep, impl::cub_i32, impl::cub_i64})
    {
      sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)), "poison");
      prepare(which, 0);
      const std::size_t got = run(which, 0, true);
      if (got != t)
      {
        sweep_bench::fail(what + ": counts differ (thrust " + std::to_string(t) + ", " + impl_name(which) + " "
                          + std::to_string(got) + ")");
      }
      sweep_bench::check_equal(data_thrust, data(which), t, what + " " + impl_name(which) + " vs thrust");
    }
    kept = t;
  }
};

//! "50" for 500 per mille, "99.9" for 999.
std::string percent(unsigned per_mille)
{
  return std::to_string(per_mille / 10) + (per_mille % 10 ? "." + std::to_string(per_mille % 10) : "");
}

void bench(benchmark::State& state, impl which, unsigned keep_per_mille, const std::string& what, bool whole_call)
{
  const std::size_t n   = static_cast<std::size_t>(state.range(0));
  const std::string key = "remove_if/" + what + "/" + std::to_string(n);
  auto& w = sweep_bench::shared_workload<workload>(key, [&] {
    return std::make_unique<workload>(n, (std::uint64_t(1) << 32) * keep_per_mille / 1000,
                                      0x5eed4000ull + n + keep_per_mille);
  });
  cudaStream_t stream = 0;
  sweep_bench::time_region(
    state, stream,
    [&] {
      w.run(which, stream, whole_call);
    },
    [&] {
      w.prepare(which, stream);
    });
  state.counters["selected"] = static_cast<double>(w.kept);
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>((n + w.kept) * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::vector<impl> impls{impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64};
  for (unsigned keep : {500u, 999u})
  {
    const std::string what = "u32_keep" + percent(keep);
    sweep_bench::register_cells("remove_if", what, std::int64_t(1) << 28, impls, benchmark::kMillisecond,
                                [keep, what](benchmark::State& s, impl which) {
                                  bench(s, which, keep, what, false);
                                });
  }
  for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
  {
    sweep_bench::register_cells("remove_if", "latency_u32_keep50", n, impls, benchmark::kMicrosecond,
                                [](benchmark::State& s, impl which) {
                                  bench(s, which, 500, "latency_u32_keep50", true);
                                });
  }
  return true;
}();

} // namespace

} // namespace bench_remove

// --------------------------------------------------------------------------------------------------
// partition_copy, partition and stable_partition (in place): sweep::par vs thrust::device vs
// cub::DevicePartition::If (temp storage preallocated; `int` and 64-bit counts, cub_i32 and cub_i64),
// uniform u32, x < threshold selecting 5, 50 or 95%, same data, checked before anything is timed.
// partition and partition_copy promise no order within a side, so every implementation's result is
// checked by its count, the predicate on each side and an order-free fingerprint of each side (the
// sum of mix64 of its items) against the input's; stable_partition is checked bitwise against Thrust.
// CUB writes the selected items in order and the rejected ones reversed behind them, into one output.
// Throughput cells run the par_nosync policies (the count still comes back to the host: Thrust's
// interface returns it); CUB's count stays on the device.
// In place: before every call of every implementation (warm-ups and checks included) the input is
// restored from a pristine copy, outside the timed region (sweep_bench::time_region's prepare). CUB has
// no in-place partition: its partition/ cells time DevicePartition::If from the restored buffer into a
// separate output (the report marks them "out of place"); stable_partition has no CUB cell (CUB's
// partition is not stable).
// Bytes: the input read once, every item written once (8 bytes an item).
//   partition_copy/u32_sel{5,50,95}/<impl>/2^28
//   partition/u32_sel{5,50,95}/<impl>/2^28           in place
//   stable_partition/u32_sel50/<impl>/2^28           in place, sweep and thrust
//   {partition_copy,partition,stable_partition}/latency_u32_sel50/<impl>/<n>
//                                                    whole call, 2^16 and 2^20: sweep::par and
//                                                    thrust::device with the count on the host; cub: its
//                                                    kernels, the count copied to the host, a stream sync

namespace bench_partition
{

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

enum class mode
{
  copy,     // partition_copy
  in_place, // partition
  stable,   // stable_partition
};

const char* algo_name(mode m)
{
  return m == mode::copy ? "partition_copy" : m == mode::in_place ? "partition" : "stable_partition";
}

//! Selects x < threshold: uniform u32 makes the selected fraction threshold / 2^32.
struct below
{
  std::uint64_t threshold;
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x < threshold;
  }
};

struct mix_item
{
  __host__ __device__ std::uint64_t operator()(std::uint32_t x) const
  {
    return sweep_bench::mix64(x);
  }
};

//! mix64(x) for the items on one side of the predicate, 0 for the others.
struct mix_side
{
  below pred;
  bool selected;
  __host__ __device__ std::uint64_t operator()(std::uint32_t x) const
  {
    return pred(x) == selected ? sweep_bench::mix64(x) : 0;
  }
};

//! Order-free fingerprint of a multiset of items: the sum of mix64 of each.
template <class F>
std::uint64_t fingerprint(const std::uint32_t* first, std::size_t count, F f)
{
  return thrust::transform_reduce(thrust::device, first, first + count, f, std::uint64_t(0),
                                  ::cuda::std::plus<std::uint64_t>{});
}

//! Device buffers and CUB's temp storage for one workload. partition_copy: every implementation reads
//! `in`; sweep and Thrust write out_* (selected side) and rejected_*, CUB writes out_cub. In place:
//! sweep and Thrust work on out_sweep / out_thrust and CUB reads cub_in, each restored from `in`
//! before every call.
struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> in, out_sweep, out_thrust, out_cub, rejected_sweep, rejected_thrust, cub_in;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  mode kind;
  below pred;
  std::size_t selected = 0; // set by check()

  workload(std::size_t n_, mode kind_, below pred_, std::uint64_t seed)
      : in(n_)
      , out_sweep(n_)
      , out_thrust(n_)
      , out_cub(kind_ == mode::stable ? 0 : n_)
      , rejected_sweep(kind_ == mode::copy ? n_ : 0)
      , rejected_thrust(kind_ == mode::copy ? n_ : 0)
      , cub_in(kind_ == mode::in_place ? n_ : 0)
      , cub_count(1)
      , n(n_)
      , kind(kind_)
      , pred(pred_)
  {
    sweep_bench::fill_random(in, seed, sweep_bench::low_bits{});
    if (kind != mode::stable)
    {
      std::size_t most = 0; // one buffer serves both count forms
      for (impl form : {impl::cub_i32, impl::cub_i64})
      {
        std::size_t temp_bytes = 0;
        sweep_bench::check_cuda(cub_partition(form, nullptr, temp_bytes, 0), "cub::DevicePartition::If temp size");
        most = std::max(most, temp_bytes);
      }
      cub_temp.resize(most);
    }
  }

  cudaError_t cub_partition(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    const std::uint32_t* first = thrust::raw_pointer_cast(kind == mode::in_place ? cub_in.data() : in.data());
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      return cub::DevicePartition::If(temp, temp_bytes, first, thrust::raw_pointer_cast(out_cub.data()),
                                      thrust::raw_pointer_cast(cub_count.data()), count, pred, stream);
    });
  }

  //! In place: restores the input of `which` (enqueued on `stream`). partition_copy: nothing.
  void prepare(impl which, cudaStream_t stream)
  {
    if (kind != mode::copy)
    {
      sweep_bench::copy_async(which == impl::sweep    ? out_sweep
                              : which == impl::thrust ? out_thrust
                                                      : cub_in,
                              in, stream);
    }
  }

  //! One call, enqueued on `stream`; returns the number of selected items (CUB: only for whole calls,
  //! which copy its count to the host and synchronize; otherwise 0).
  std::size_t run(impl which, cudaStream_t stream, bool whole_call)
  {
    if (!sweep_bench::is_cub(which))
    {
      auto& out      = which == impl::sweep ? out_sweep : out_thrust;
      auto& rejected = which == impl::sweep ? rejected_sweep : rejected_thrust;
      return sweep_bench::with_policy(which, stream, whole_call, [&](auto policy) {
        switch (kind)
        {
          case mode::copy:
            return static_cast<std::size_t>(
              thrust::partition_copy(policy, in.begin(), in.end(), out.begin(), rejected.begin(), pred).first
              - out.begin());
          case mode::in_place:
            return static_cast<std::size_t>(thrust::partition(policy, out.begin(), out.end(), pred) - out.begin());
          default:
            return static_cast<std::size_t>(thrust::stable_partition(policy, out.begin(), out.end(), pred)
                                            - out.begin());
        }
      });
    }
    return sweep_bench::run_cub_counted(
      [&](void* temp, std::size_t& temp_bytes) { return cub_partition(which, temp, temp_bytes, stream); }, cub_temp, cub_count,
      stream, whole_call, "cub::DevicePartition::If");
  }

  //! Requires `count` (the input's count of selected items) items that all pass the predicate, with the
  //! input's fingerprint of the selected side, and behind them (or in `rejected`) the other n - count
  //! items, none passing, with the fingerprint of the rejected side.
  void check_sides(const std::string& what, std::size_t got, const std::uint32_t* result,
                   const std::uint32_t* rejected, std::size_t count, std::uint64_t fp_selected,
                   std::uint64_t fp_rejected)
  {
    if (got != count)
    {
      sweep_bench::fail(what + ": selected " + std::to_string(got) + " items, the input has " + std::to_string(count));
    }
    const std::size_t rest = n - count;
    if (!thrust::all_of(thrust::device, result, result + count, pred)
        || thrust::any_of(thrust::device, rejected, rejected + rest, pred))
    {
      sweep_bench::fail(what + ": an item is on the wrong side");
    }
    if (fingerprint(result, count, mix_item{}) != fp_selected || fingerprint(rejected, rest, mix_item{}) != fp_rejected)
    {
      sweep_bench::fail(what + ": the sides do not hold the input's items");
    }
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! each result is a partition of the input (stable_partition: bitwise Thrust's).
  void check(const std::string& what)
  {
    const std::size_t count = static_cast<std::size_t>(thrust::count_if(thrust::device, in.begin(), in.end(), pred));
    const std::uint32_t* input     = thrust::raw_pointer_cast(in.data());
    const std::uint64_t fp_selected = fingerprint(input, n, mix_side{pred, true});
    const std::uint64_t fp_rejected = fingerprint(input, n, mix_side{pred, false});
    for (impl which : {impl::sweep, impl::thrust})
    {
      prepare(which, 0);
      const std::size_t got = run(which, 0, true);
      const auto& out       = which == impl::sweep ? out_sweep : out_thrust;
      const auto& rejected  = which == impl::sweep ? rejected_sweep : rejected_thrust;
      const std::uint32_t* result = thrust::raw_pointer_cast(out.data());
      check_sides(what + " " + impl_name(which), got, result,
                  kind == mode::copy ? thrust::raw_pointer_cast(rejected.data()) : result + got, count, fp_selected,
                  fp_rejected);
    }
    if (kind == mode::stable)
    {
      sweep_bench::check_equal(out_thrust, out_sweep, n, what + " sweep vs thrust");
    }
    else
    {
      for (impl form : {impl::cub_i32, impl::cub_i64})
      {
        sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)),
                                "poison");
        prepare(form, 0);
        const std::size_t got       = run(form, 0, true);
        const std::uint32_t* result = thrust::raw_pointer_cast(out_cub.data());
        check_sides(what + " " + impl_name(form), got, result, result + got, count, fp_selected, fp_rejected);
      }
    }
    selected = count;
  }
};

void bench(benchmark::State& state, impl which, mode kind, unsigned pct, const std::string& what, bool whole_call)
{
  const std::size_t n   = static_cast<std::size_t>(state.range(0));
  const std::string key = std::string(algo_name(kind)) + "/" + what + "/" + std::to_string(n);
  auto& w = sweep_bench::shared_workload<workload>(key, [&] {
    return std::make_unique<workload>(n, kind, below{(std::uint64_t(1) << 32) * pct / 100}, 0x5eed3000ull + n + pct);
  });
  cudaStream_t stream = 0;
  auto call           = [&] {
    w.run(which, stream, whole_call);
  };
  if (kind == mode::copy)
  {
    sweep_bench::time_region(state, stream, call);
  }
  else
  {
    sweep_bench::time_region(state, stream, call, [&] {
      w.prepare(which, stream);
    });
  }
  state.counters["selected"] = static_cast<double>(w.selected);
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(2 * n * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::int64_t n28 = std::int64_t(1) << 28;
  for (mode kind : {mode::copy, mode::in_place, mode::stable})
  {
    const std::vector<impl> impls = kind == mode::stable
                                    ? std::vector<impl>{impl::sweep, impl::thrust}
                                    : std::vector<impl>{impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64};
    for (unsigned pct : {5u, 50u, 95u})
    {
      if (kind == mode::stable && pct != 50)
      {
        continue;
      }
      const std::string what = "u32_sel" + std::to_string(pct);
      sweep_bench::register_cells(algo_name(kind), what, n28, impls, benchmark::kMillisecond,
                                  [kind, pct, what](benchmark::State& s, impl which) {
                                    bench(s, which, kind, pct, what, false);
                                  });
    }
    for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
    {
      sweep_bench::register_cells(algo_name(kind), "latency_u32_sel50", n, impls, benchmark::kMicrosecond,
                                  [kind](benchmark::State& s, impl which) {
                                    bench(s, which, kind, 50, "latency_u32_sel50", true);
                                  });
    }
  }
  return true;
}();

} // namespace

} // namespace bench_partition

// --------------------------------------------------------------------------------------------------
// reduce_by_key: thrust::reduce_by_key on sweep::par vs thrust::device vs cub::DeviceReduce::ReduceByKey
// (temp storage preallocated; `int` and 64-bit counts, cub_i32 and cub_i64), u32 keys and u32 values
// summed with plus, runs of 1 (every key distinct), of 8 on average and of 100000, same data, checked
// bitwise against Thrust (unique keys and sums) before anything is timed. Throughput cells run the
// par_nosync policies (the number of runs still comes back to the host: Thrust's interface returns
// it); CUB's stays on the device.
// Bytes: keys and values read once, one key and one sum written per run.
//   reduce_by_key/u32_runs{1,8,100000}/<impl>/2^28
//   reduce_by_key/latency_u32_runs8/<impl>/<n>   whole call, 2^16 and 2^20: sweep::par and
//                                                thrust::device with the count on the host; cub: its
//                                                kernels, the count copied to the host, a stream sync

namespace bench_reduce_by_key
{

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

//! Device buffers and CUB's temp storage for one workload; every implementation reads the same keys
//! and values and writes its own outputs.
struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> keys, values;
  thrust::device_vector<std::uint32_t> keys_sweep, sums_sweep, keys_thrust, sums_thrust, keys_cub, sums_cub;
  thrust::device_vector<long long> cub_count;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  std::uint32_t mean;
  std::size_t runs = 0; // set by check()

  workload(std::size_t n_, std::uint32_t mean_, std::uint64_t seed)
      : keys(n_)
      , values(n_)
      , keys_sweep(n_)
      , sums_sweep(n_)
      , keys_thrust(n_)
      , sums_thrust(n_)
      , keys_cub(n_)
      , sums_cub(n_)
      , cub_count(1)
      , n(n_)
      , mean(mean_)
  {
    sweep_bench::fill_runs(keys, mean, seed);
    sweep_bench::fill_random(values, seed + 1, sweep_bench::low_bits{});
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_reduce(form, nullptr, temp_bytes, 0), "cub::DeviceReduce::ReduceByKey temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_reduce(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      return cub::DeviceReduce::ReduceByKey(
        temp, temp_bytes, thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(keys_cub.data()),
        thrust::raw_pointer_cast(values.data()), thrust::raw_pointer_cast(sums_cub.data()),
        thrust::raw_pointer_cast(cub_count.data()), ::cuda::std::plus<>{}, count, stream);
    });
  }

  //! One call, enqueued on `stream`; returns the number of runs (CUB: only for whole calls, which copy
  //! its count to the host and synchronize; otherwise 0).
  std::size_t run(impl which, cudaStream_t stream, bool whole_call)
  {
    if (!sweep_bench::is_cub(which))
    {
      auto& keys_out = which == impl::sweep ? keys_sweep : keys_thrust;
      auto& sums_out = which == impl::sweep ? sums_sweep : sums_thrust;
      return sweep_bench::with_policy(which, stream, whole_call, [&](auto policy) {
        return static_cast<std::size_t>(
          thrust::reduce_by_key(policy, keys.begin(), keys.end(), values.begin(), keys_out.begin(), sums_out.begin())
            .first
          - keys_out.begin());
      });
    }
    return sweep_bench::run_cub_counted(
      [&](void* temp, std::size_t& temp_bytes) { return cub_reduce(which, temp, temp_bytes, stream); }, cub_temp, cub_count,
      stream, whole_call, "cub::DeviceReduce::ReduceByKey");
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! they agree with Thrust (number of runs, keys and sums, bitwise).
  void check(const std::string& what)
  {
    const std::size_t t = run(impl::thrust, 0, true);
    if (mean == 1 && t != n)
    {
      sweep_bench::fail(what + ": thrust found " + std::to_string(t) + " runs in " + std::to_string(n)
                        + " distinct keys");
    }
    const std::size_t s = run(impl::sweep, 0, true);
    if (s != t)
    {
      sweep_bench::fail(what + ": counts differ (sweep " + std::to_string(s) + ", thrust " + std::to_string(t) + ")");
    }
    sweep_bench::check_equal(keys_thrust, keys_sweep, t, what + " keys, sweep vs thrust");
    sweep_bench::check_equal(sums_thrust, sums_sweep, t, what + " sums, sweep vs thrust");
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      sweep_bench::check_cuda(cudaMemset(thrust::raw_pointer_cast(cub_count.data()), 0xff, sizeof(long long)), "poison");
      const std::size_t c = run(form, 0, true);
      if (c != t)
      {
        sweep_bench::fail(what + ": counts differ (thrust " + std::to_string(t) + ", " + impl_name(form) + " "
                          + std::to_string(c) + ")");
      }
      sweep_bench::check_equal(keys_thrust, keys_cub, t, what + " keys, " + impl_name(form) + " vs thrust");
      sweep_bench::check_equal(sums_thrust, sums_cub, t, what + " sums, " + impl_name(form) + " vs thrust");
    }
    runs = t;
  }
};

void bench(benchmark::State& state, impl which, std::uint32_t mean, const std::string& what, bool whole_call)
{
  const std::size_t n   = static_cast<std::size_t>(state.range(0));
  const std::string key = "reduce_by_key/" + what + "/" + std::to_string(n);
  auto& w = sweep_bench::shared_workload<workload>(key, [&] {
    return std::make_unique<workload>(n, mean, 0x5eed5000ull + n + mean);
  });
  cudaStream_t stream = 0;
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream, whole_call);
  });
  state.counters["runs"] = static_cast<double>(w.runs);
  sweep_bench::set_throughput(state, static_cast<double>(n),
                              static_cast<double>((2 * n + 2 * w.runs) * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::vector<impl> impls{impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64};
  for (std::uint32_t mean : {1u, 8u, 100000u})
  {
    const std::string what = "u32_runs" + std::to_string(mean);
    sweep_bench::register_cells("reduce_by_key", what, std::int64_t(1) << 28, impls, benchmark::kMillisecond,
                                [mean, what](benchmark::State& s, impl which) {
                                  bench(s, which, mean, what, false);
                                });
  }
  for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
  {
    sweep_bench::register_cells("reduce_by_key", "latency_u32_runs8", n, impls, benchmark::kMicrosecond,
                                [](benchmark::State& s, impl which) {
                                  bench(s, which, 8, "latency_u32_runs8", true);
                                });
  }
  return true;
}();

} // namespace

} // namespace bench_reduce_by_key
