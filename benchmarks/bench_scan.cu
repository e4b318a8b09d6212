// The scans and the scans by key. Each section in a namespace of its own.
#include "bench_common.cuh"

#include <sweep/scan.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/logical.h>
#include <thrust/scan.h>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <sweep/scan_by_key.cuh>

// --------------------------------------------------------------------------------------------------
// scan: thrust::inclusive_scan / exclusive_scan on sweep::par vs thrust::device vs cub::DeviceScan (temp
// storage preallocated; `int` and 64-bit counts, cub_i32 and cub_i64), same data, checked before
// anything is timed (integers and the affine maps bitwise against Thrust; float against a double
// reference within sweep's documented bound). Throughput cells run sweep::par_nosync and
// thrust::cuda::par_nosync, so that no implementation's timing holds a host synchronization.
//   scan/inclusive_u32/<impl>/2^28            u32 inclusive sum (cub: InclusiveSum)
//   scan/exclusive_f32/<impl>/2^28            float exclusive sum (cub: ExclusiveSum)
//   scan/inclusive_{u8,u16,u64}/<impl>/2^28   inclusive sums of 1, 2 and 8-byte items
//   scan/inclusive_affine16/<impl>/2^28       {u64 a, b} affine maps composed in order (cub: InclusiveScan)
//   scan/latency_inclusive_u32/<impl>/<n>     whole call, 2^16, 2^20, 2^24: sweep::par and thrust::device
//                                             with their synchronization, cub: its kernels + stream sync

namespace bench_scan
{

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

enum class scan_kind
{
  inclusive,
  exclusive,
};

//! x -> a * x + b over uint64; composing in order is associative and not commutative.
struct affine16
{
  std::uint64_t a, b;
};
struct compose
{
  __host__ __device__ affine16 operator()(const affine16& f, const affine16& g) const
  {
    return {f.a * g.a, g.a * f.b + g.b};
  }
};

template <class T>
struct from_random_bits
{
  __host__ __device__ T operator()(std::uint64_t bits) const
  {
    if constexpr (std::is_same<T, float>::value)
    {
      return static_cast<float>(static_cast<std::int32_t>(bits >> 32)) * 0x1p-31f; // [-1, 1)
    }
    else if constexpr (std::is_same<T, affine16>::value)
    {
      return affine16{bits | 1u, sweep_bench::mix64(bits)}; // odd multipliers: prefixes never collapse
    }
    else
    {
      return static_cast<T>(bits);
    }
  }
};

struct to_double
{
  __host__ __device__ double operator()(float x) const
  {
    return static_cast<double>(x);
  }
};
struct abs_to_double
{
  __host__ __device__ double operator()(float x) const
  {
    return fabs(static_cast<double>(x));
  }
};

//! Output i is within factor * (running sum of |x_j|) of the double reference.
struct within_bound
{
  const float* got;
  const double* reference;
  const double* magnitude;
  double factor;
  __host__ __device__ bool operator()(std::size_t i) const
  {
    return fabs(static_cast<double>(got[i]) - reference[i]) <= factor * magnitude[i];
  }
};

template <int>
__global__ void arch_probe_kernel()
{}

//! sweep's documented accuracy over n floats: (tiles + tile_items + 64) * FLT_EPSILON.
double sweep_float_factor(std::size_t n)
{
  const int arch         = sweep::detail::kernel_arch<&arch_probe_kernel<0>>();
  const std::size_t tile = sweep::detail::scan_impl::tile_items_for<float>(arch);
  return static_cast<double>((n + tile - 1) / tile + tile + 64) * FLT_EPSILON;
}

//! Device buffers and CUB's temp storage for one workload; every implementation scans the same input
//! into its own output.
template <class T, class Op, scan_kind Kind>
struct workload : sweep_bench::workload_base
{
  static constexpr bool is_sum = std::is_same<Op, ::cuda::std::plus<>>::value;

  thrust::device_vector<T> in, out_sweep, out_thrust, out_cub;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;
  std::size_t offset; //!< the input starts this many items into `in` (1: not 16-byte aligned)

  workload(std::size_t n_, std::uint64_t seed, std::size_t offset_ = 0)
      : in(n_ + offset_)
      , out_sweep(n_)
      , out_thrust(n_)
      , out_cub(n_)
      , n(n_)
      , offset(offset_)
  {
    sweep_bench::fill_random(in, seed, from_random_bits<T>{});
    std::size_t most = 0; // one buffer serves both count forms
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_scan(form, nullptr, temp_bytes, 0), "cub::DeviceScan temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_scan(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    const T* first = thrust::raw_pointer_cast(in.data()) + offset;
    T* result      = thrust::raw_pointer_cast(out_cub.data());
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      if constexpr (Kind == scan_kind::inclusive && is_sum)
      {
        return cub::DeviceScan::InclusiveSum(temp, temp_bytes, first, result, count, stream);
      }
      else if constexpr (Kind == scan_kind::exclusive && is_sum)
      {
        return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, first, result, count, stream);
      }
      else
      {
        static_assert(Kind == scan_kind::inclusive, "only inclusive scans take an operator here");
        return cub::DeviceScan::InclusiveScan(temp, temp_bytes, first, result, Op{}, count, stream);
      }
    });
  }

  template <class Policy>
  void scan(Policy policy, thrust::device_vector<T>& out)
  {
    // Raw pointers (contiguous inputs take the fast path either way): an offset input is then not
    // 16-byte aligned.
    const T* first = thrust::raw_pointer_cast(in.data()) + offset;
    T* result      = thrust::raw_pointer_cast(out.data());
    if constexpr (Kind == scan_kind::inclusive)
    {
      thrust::inclusive_scan(policy, first, first + n, result, Op{});
    }
    else
    {
      thrust::exclusive_scan(policy, first, first + n, result, T{}, Op{});
    }
  }

  //! One call, enqueued on `stream`; `whole_call` runs the synchronizing forms (latency cells).
  void run(impl which, cudaStream_t stream, bool whole_call)
  {
    sweep_bench::run_uncounted(
      which, stream, whole_call, [&](auto policy) { scan(policy, which == impl::sweep ? out_sweep : out_thrust); },
      [&](void* temp, std::size_t& temp_bytes) { return cub_scan(which, temp, temp_bytes, stream); }, cub_temp, "cub::DeviceScan");
  }

  //! Runs every implementation once (CUB in both count forms) and aborts the benchmark run unless
  //! their results are right.
  void check(const std::string& what)
  {
    run(impl::sweep, 0, true);
    run(impl::thrust, 0, true);
    if constexpr (std::is_floating_point<T>::value)
    {
      check_float(what);
    }
    else
    {
      sweep_bench::check_equal(out_thrust, out_sweep, n, what + " sweep vs thrust");
      for (impl form : {impl::cub_i32, impl::cub_i64})
      {
        run(form, 0, true);
        sweep_bench::check_equal(out_thrust, out_cub, n, what + " " + impl_name(form) + " vs thrust");
      }
    }
  }

  //! Floating-point sums differ in their last bits between implementations: each is checked against a
  //! double reference, sweep within its documented bound, Thrust and CUB (other tile sizes) within 4x.
  void check_float(const std::string& what)
  {
    static_assert(Kind == scan_kind::exclusive && is_sum, "the float workload is an exclusive sum");
    thrust::device_vector<double> reference(n), magnitude(n);
    const auto first = in.begin() + static_cast<std::ptrdiff_t>(offset);
    thrust::exclusive_scan(thrust::device, thrust::make_transform_iterator(first, to_double{}),
                           thrust::make_transform_iterator(in.end(), to_double{}), reference.begin());
    thrust::exclusive_scan(thrust::device, thrust::make_transform_iterator(first, abs_to_double{}),
                           thrust::make_transform_iterator(in.end(), abs_to_double{}), magnitude.begin());
    const double factor = sweep_float_factor(n);
    auto within         = [&](const thrust::device_vector<T>& got, double f) {
      return thrust::all_of(thrust::device, thrust::counting_iterator<std::size_t>(0),
                            thrust::counting_iterator<std::size_t>(n),
                            within_bound{thrust::raw_pointer_cast(got.data()), thrust::raw_pointer_cast(reference.data()),
                                         thrust::raw_pointer_cast(magnitude.data()), f});
    };
    if (!within(out_sweep, factor))
    {
      sweep_bench::fail(what + ": sweep is outside its documented error bound");
    }
    if (!within(out_thrust, 4 * factor))
    {
      sweep_bench::fail(what + ": thrust is far from the double reference");
    }
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      run(form, 0, true);
      if (!within(out_cub, 4 * factor))
      {
        sweep_bench::fail(what + ": " + impl_name(form) + " is far from the double reference");
      }
    }
  }
};

//! The workload `what` of n items (from `offset` items into its input), kept between cells
//! (sweep_bench::shared_workload).
template <class W>
W& shared_workload(const std::string& what, std::size_t n, std::size_t offset = 0)
{
  return sweep_bench::shared_workload<W>("scan/" + what + "/" + std::to_string(n), [n, offset] {
    return std::make_unique<W>(n, 0x5eed0000ull + n, offset);
  });
}

template <class T, class Op, scan_kind Kind>
void bench_throughput(benchmark::State& state, impl which, const std::string& what, std::size_t offset)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& w             = shared_workload<workload<T, Op, Kind>>(what, n, offset);
  cudaStream_t stream = 0;
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream, false);
  });
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(2 * n * sizeof(T)));
}

void bench_latency(benchmark::State& state, impl which)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& w = shared_workload<workload<std::uint32_t, ::cuda::std::plus<>, scan_kind::inclusive>>("latency_inclusive_u32", n);
  cudaStream_t stream = 0;
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream, true);
  });
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(2 * n * sizeof(std::uint32_t)));
}

template <class T, class Op, scan_kind Kind>
void register_throughput(const char* workload_name, std::int64_t n, std::size_t offset = 0)
{
  for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
  {
    const std::string what = workload_name;
    benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", what, impl_name(which)).c_str(),
                                 [which, what, offset](benchmark::State& s) {
                                   bench_throughput<T, Op, Kind>(s, which, what, offset);
                                 })
      ->Arg(n)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  }
}

const bool registered = [] {
  const std::int64_t n28 = std::int64_t(1) << 28;
  register_throughput<std::uint32_t, ::cuda::std::plus<>, scan_kind::inclusive>("inclusive_u32", n28);
  // The same from the input's second item: a raw pointer 4 bytes past a 16-byte boundary.
  register_throughput<std::uint32_t, ::cuda::std::plus<>, scan_kind::inclusive>("inclusive_u32_misaligned", n28, 1);
  register_throughput<float, ::cuda::std::plus<>, scan_kind::exclusive>("exclusive_f32", n28);
  register_throughput<std::uint8_t, ::cuda::std::plus<>, scan_kind::inclusive>("inclusive_u8", n28);
  register_throughput<std::uint16_t, ::cuda::std::plus<>, scan_kind::inclusive>("inclusive_u16", n28);
  register_throughput<std::uint64_t, ::cuda::std::plus<>, scan_kind::inclusive>("inclusive_u64", n28);
  register_throughput<affine16, compose, scan_kind::inclusive>("inclusive_affine16", n28);
  for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20, std::int64_t(1) << 24})
  {
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", "latency_inclusive_u32", impl_name(which)).c_str(),
                                   [which](benchmark::State& s) {
                                     bench_latency(s, which);
                                   })
        ->Arg(n)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

} // namespace

} // namespace bench_scan

// --------------------------------------------------------------------------------------------------
// scan by key: thrust::inclusive_scan_by_key / exclusive_scan_by_key on sweep::par vs thrust::device vs
// cub::DeviceScan::InclusiveSumByKey / ExclusiveSumByKey (temp storage preallocated; `int` and 64-bit
// counts), u32 keys and u32 values, runs of 1 (every key distinct), 8 on average and 100000, checked
// bitwise against Thrust before anything is timed. Throughput cells run the par_nosync policies.
// Bytes: keys and values read, results written (12 bytes an item).
//   scan/by_key_u32_runs{1,8,100000}/<impl>/2^28      inclusive sums
//   scan/by_key_excl_u32_runs8/<impl>/2^28            exclusive sums from 0
//   scan/latency_by_key_u32/<impl>/<n>                whole call, inclusive, runs of 8, 2^16 and 2^20

namespace bench_scan_by_key
{

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

struct workload : sweep_bench::workload_base
{
  thrust::device_vector<std::uint32_t> keys, values, out_sweep, out_thrust, out_cub;
  thrust::device_vector<unsigned char> cub_temp;
  std::size_t n;

  bool exclusive;

  workload(std::size_t n_, std::uint32_t mean, std::uint64_t seed, bool exclusive_)
      : keys(n_)
      , values(n_)
      , out_sweep(n_)
      , out_thrust(n_)
      , out_cub(n_)
      , n(n_)
      , exclusive(exclusive_)
  {
    sweep_bench::fill_runs(keys, mean, seed);
    sweep_bench::fill_random(values, seed + 1, sweep_bench::low_bits{});
    std::size_t most = 0;
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      std::size_t temp_bytes = 0;
      sweep_bench::check_cuda(cub_scan(form, nullptr, temp_bytes, 0), "cub::DeviceScan::InclusiveSumByKey temp size");
      most = std::max(most, temp_bytes);
    }
    cub_temp.resize(most);
  }

  cudaError_t cub_scan(impl form, void* temp, std::size_t& temp_bytes, cudaStream_t stream)
  {
    return sweep_bench::with_cub_count(form, n, [&](auto count) {
      if (exclusive)
      {
        return cub::DeviceScan::ExclusiveSumByKey(temp, temp_bytes, thrust::raw_pointer_cast(keys.data()),
                                                  thrust::raw_pointer_cast(values.data()),
                                                  thrust::raw_pointer_cast(out_cub.data()), count,
                                                  ::cuda::std::equal_to<>{}, stream);
      }
      return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, thrust::raw_pointer_cast(keys.data()),
                                                thrust::raw_pointer_cast(values.data()),
                                                thrust::raw_pointer_cast(out_cub.data()), count,
                                                ::cuda::std::equal_to<>{}, stream);
    });
  }

  template <class Policy>
  void scan(Policy policy, thrust::device_vector<std::uint32_t>& out)
  {
    if (exclusive)
    {
      thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin(), 0u);
    }
    else
    {
      thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin());
    }
  }

  void run(impl which, cudaStream_t stream, bool whole_call)
  {
    sweep_bench::run_uncounted(
      which, stream, whole_call, [&](auto policy) { scan(policy, which == impl::sweep ? out_sweep : out_thrust); },
      [&](void* temp, std::size_t& temp_bytes) { return cub_scan(which, temp, temp_bytes, stream); }, cub_temp, "cub::DeviceScan by key");
  }

  void check(const std::string& what)
  {
    run(impl::sweep, 0, true);
    run(impl::thrust, 0, true);
    sweep_bench::check_equal(out_thrust, out_sweep, n, what + " sweep vs thrust");
    for (impl form : {impl::cub_i32, impl::cub_i64})
    {
      run(form, 0, true);
      sweep_bench::check_equal(out_thrust, out_cub, n, what + " " + impl_name(form) + " vs thrust");
    }
  }
};

void bench(benchmark::State& state, impl which, const std::string& what, std::uint32_t mean, bool exclusive,
           bool whole_call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& w             = sweep_bench::shared_workload<workload>("scan/" + what + "/" + std::to_string(n), [&] {
    return std::make_unique<workload>(n, mean, 0x5eed1000ull + n + mean, exclusive);
  });
  cudaStream_t stream = 0;
  sweep_bench::time_region(state, stream, [&] {
    w.run(which, stream, whole_call);
  });
  sweep_bench::set_throughput(state, static_cast<double>(n), static_cast<double>(3 * n * sizeof(std::uint32_t)));
}

const bool registered = [] {
  const std::int64_t n28 = std::int64_t(1) << 28;
  for (std::uint32_t mean : {1u, 8u, 100000u})
  {
    const std::string what = "by_key_u32_runs" + std::to_string(mean);
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", what, impl_name(which)).c_str(),
                                   [which, what, mean](benchmark::State& s) { bench(s, which, what, mean, false, false); })
        ->Arg(n28)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    }
  }
  for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
  {
    benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", "by_key_excl_u32_runs8", impl_name(which)).c_str(),
                                 [which](benchmark::State& s) { bench(s, which, "by_key_excl_u32_runs8", 8, true, false); })
      ->Arg(n28)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  }
  for (std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 20})
  {
    for (impl which : {impl::sweep, impl::thrust, impl::cub_i32, impl::cub_i64})
    {
      benchmark::RegisterBenchmark(sweep_bench::bench_name("scan", "latency_by_key_u32", impl_name(which)).c_str(),
                                   [which](benchmark::State& s) { bench(s, which, "latency_by_key_u32", 8, false, true); })
        ->Arg(n)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

} // namespace

} // namespace bench_scan_by_key
