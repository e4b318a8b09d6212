// sort: sweep::par vs thrust::device vs cub::DeviceRadixSort (temp storage preallocated; `int` and
// 64-bit counts, cub_i32 and cub_i64) on the same data. Every iteration restores the unsorted input first (untimed); only the sort is timed.
#include "bench_common.cuh"

#include <sweep/sort.cuh>

#include <thrust/device_allocator.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cub/device/device_radix_sort.cuh>

#include <cuda/std/functional>

#include <new>
#include <string>

namespace
{

using sweep_bench::impl;
using sweep_bench::impl_name;

//! A Thrust-style allocator that keeps one block between calls (what Thrust's
//! custom_temporary_allocation example does for repeated calls): sweep's temporary storage without
//! mapping fresh device memory on every call, comparable with CUB's preallocated temp storage.
struct cached_block
{
  char* data       = nullptr;
  std::size_t size = 0;
  bool in_use      = false;
  ~cached_block() { cudaFree(data); }
};

struct caching_allocator : thrust::device_allocator<char>
{
  using value_type = char;
  using pointer    = thrust::device_ptr<char>;
  cached_block* block;
  explicit caching_allocator(cached_block* b)
      : block(b)
  {}
  pointer allocate(std::size_t n)
  {
    if (block->in_use)
    {
      throw std::bad_alloc(); // one temporary block per call is all sweep's sort asks for
    }
    if (n > block->size)
    {
      cudaFree(block->data);
      block->data = nullptr;
      block->size = 0;
      sweep_bench::check_cuda(cudaMalloc(&block->data, n), "caching_allocator");
      block->size = n;
    }
    block->in_use = true;
    return pointer(block->data);
  }
  void deallocate(pointer, std::size_t)
  {
    block->in_use = false;
  }
};

template <class F, class Reset>
void time_sorts(benchmark::State& state, Reset reset, F sort)
{
  cudaEvent_t start, stop;
  sweep_bench::check_cuda(cudaEventCreate(&start), "cudaEventCreate");
  sweep_bench::check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < 2; ++i)
  {
    reset();
    sort();
  }
  sweep_bench::check_cuda(cudaDeviceSynchronize(), "warm-up");
  for (auto _ : state)
  {
    reset();
    sweep_bench::check_cuda(cudaEventRecord(start, 0), "cudaEventRecord");
    sort();
    sweep_bench::check_cuda(cudaEventRecord(stop, 0), "cudaEventRecord");
    sweep_bench::check_cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    sweep_bench::check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    state.SetIterationTime(ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

// Key generators from 64 random bits.
struct uniform_u32
{
  __host__ __device__ std::uint32_t operator()(std::uint64_t b) const { return static_cast<std::uint32_t>(b); }
};
struct uniform_u64
{
  __host__ __device__ std::uint64_t operator()(std::uint64_t b) const { return b; }
};
struct below_2_16
{
  __host__ __device__ std::uint32_t operator()(std::uint64_t b) const { return static_cast<std::uint32_t>(b & 0xffff); }
};
struct half_one_value // half the keys are one value, the rest uniform
{
  __host__ __device__ std::uint32_t operator()(std::uint64_t b) const
  {
    return (b & 1) ? 0x12345678u : static_cast<std::uint32_t>(b >> 32);
  }
};
struct four_values
{
  __host__ __device__ std::uint32_t operator()(std::uint64_t b) const
  {
    return static_cast<std::uint32_t>(sweep_bench::mix64(b % 4));
  }
};
struct normal_float // roughly normal: sum of uniforms, centred
{
  __host__ __device__ float operator()(std::uint64_t b) const
  {
    float s = 0;
    for (int k = 0; k < 4; ++k)
    {
      s += static_cast<float>((b >> (16 * k)) & 0xffff) / 65536.0f;
    }
    return s - 2.0f;
  }
};

template <class Key, class Gen, class Compare, bool Pairs, class Value = std::uint32_t>
void bench_sort(benchmark::State& state, impl which, Gen gen, Compare comp)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  thrust::device_vector<Key> input(n);
  sweep_bench::fill_random(input, 42, gen);
  thrust::device_vector<Value> input_values(Pairs ? n : 0);
  if (Pairs)
  {
    sweep_bench::fill_random(input_values, 43, uniform_u64{});
  }
  thrust::device_vector<Key> keys = input;
  thrust::device_vector<Value> values = input_values;
  cached_block block;
  caching_allocator cache(&block);
  constexpr bool descending = std::is_same<Compare, cuda::std::greater<Key>>::value;

  // CUB: double buffers and temp storage allocated once, outside the timing; the count as an `int`
  // or a 64-bit integer (cub_i32, cub_i64).
  const bool cub = sweep_bench::is_cub(which);
  thrust::device_vector<Key> cub_alt(cub ? n : 0);
  thrust::device_vector<Value> cub_alt_values(cub && Pairs ? n : 0);
  cub::DoubleBuffer<Key> kb(thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(cub_alt.data()));
  cub::DoubleBuffer<Value> vb(thrust::raw_pointer_cast(values.data()),
                                      thrust::raw_pointer_cast(cub_alt_values.data()));
  std::size_t temp_bytes = 0;
  auto cub_sort          = [&](void* temp) {
    const cudaError_t status = sweep_bench::with_cub_count(which, n, [&](auto count) {
      if constexpr (Pairs)
      {
        return descending ? cub::DeviceRadixSort::SortPairsDescending(temp, temp_bytes, kb, vb, count)
                          : cub::DeviceRadixSort::SortPairs(temp, temp_bytes, kb, vb, count);
      }
      else
      {
        return descending ? cub::DeviceRadixSort::SortKeysDescending(temp, temp_bytes, kb, count)
                          : cub::DeviceRadixSort::SortKeys(temp, temp_bytes, kb, count);
      }
    });
    sweep_bench::check_cuda(status, "cub::DeviceRadixSort");
  };
  thrust::device_vector<unsigned char> cub_temp;
  if (cub)
  {
    cub_sort(nullptr);
    cub_temp.resize(temp_bytes);
  }

  auto reset = [&] {
    sweep_bench::check_cuda(cudaMemcpyAsync(thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(input.data()),
                                            n * sizeof(Key), cudaMemcpyDeviceToDevice, 0), "reset");
    if (Pairs)
    {
      sweep_bench::check_cuda(cudaMemcpyAsync(thrust::raw_pointer_cast(values.data()),
                                              thrust::raw_pointer_cast(input_values.data()), n * sizeof(Value),
                                              cudaMemcpyDeviceToDevice, 0), "reset");
    }
    kb.selector = 0;
    vb.selector = 0;
  };
  auto run = [&](impl i) {
    if (sweep_bench::is_cub(i))
    {
      cub_sort(thrust::raw_pointer_cast(cub_temp.data()));
    }
    else if (i == impl::sweep)
    {
      if constexpr (Pairs)
        thrust::sort_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), comp);
      else
        thrust::sort(sweep::par, keys.begin(), keys.end(), comp);
    }
    else if (i == impl::sweep_cached)
    {
      if constexpr (Pairs)
        thrust::sort_by_key(sweep::par(cache), keys.begin(), keys.end(), values.begin(), comp);
      else
        thrust::sort(sweep::par(cache), keys.begin(), keys.end(), comp);
    }
    else
    {
      if constexpr (Pairs)
        thrust::sort_by_key(thrust::device, keys.begin(), keys.end(), values.begin(), comp);
      else
        thrust::sort(thrust::device, keys.begin(), keys.end(), comp);
    }
  };

  // Correctness before timing: this implementation against thrust::device, bitwise.
  {
    reset();
    run(which);
    sweep_bench::check_cuda(cudaDeviceSynchronize(), "sort");
    const Key* got_keys     = cub ? kb.Current() : thrust::raw_pointer_cast(keys.data());
    const Value* got_values = cub ? vb.Current() : thrust::raw_pointer_cast(values.data());
    thrust::device_vector<Key> expected           = input;
    thrust::device_vector<Value> expected_values = input_values;
    if constexpr (Pairs)
      thrust::sort_by_key(thrust::device, expected.begin(), expected.end(), expected_values.begin(), comp);
    else
      thrust::sort(thrust::device, expected.begin(), expected.end(), comp);
    sweep_bench::check_equal(thrust::raw_pointer_cast(expected.data()), got_keys, n,
                             std::string("sort keys ") + impl_name(which));
    if (Pairs)
    {
      sweep_bench::check_equal(thrust::raw_pointer_cast(expected_values.data()), got_values, n,
                               std::string("sort values ") + impl_name(which));
    }
  }

  time_sorts(state, reset, [&] { run(which); });
  sweep_bench::set_throughput(state, static_cast<double>(n),
                              2.0 * n * (sizeof(Key) + (Pairs ? sizeof(Value) : 0.0)));
}

template <class Key, class Gen, class Compare, bool Pairs, class Value = std::uint32_t>
void register_sort(const std::string& workload, Gen gen, Compare comp, std::initializer_list<int> log_sizes,
                   std::initializer_list<impl> impls)
{
  for (impl i : impls)
  {
    for (int lg : log_sizes)
    {
      const std::string name = "sort/" + workload + "/" + impl_name(i) + "/" + std::to_string(1ull << lg);
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) {
        bench_sort<Key, Gen, Compare, Pairs, Value>(s, i, gen, comp);
      })->Arg(std::int64_t(1) << lg)->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  }
}

const int registered = [] {
  const auto all = {impl::sweep, impl::sweep_cached, impl::thrust, impl::cub_i32, impl::cub_i64};
  register_sort<std::uint32_t, uniform_u32, cuda::std::less<std::uint32_t>, false>(
    "u32_uniform", {}, {}, {16, 20, 24, 26, 28}, all);
  register_sort<std::uint64_t, uniform_u64, cuda::std::less<std::uint64_t>, false>("u64_uniform", {}, {}, {27}, all);
  register_sort<std::uint32_t, uniform_u32, cuda::std::less<std::uint32_t>, true>("u32_u32_pairs", {}, {}, {28}, all);
  register_sort<std::uint32_t, uniform_u32, cuda::std::less<std::uint32_t>, true, std::uint64_t>(
    "u32_u64_pairs", {}, {}, {27}, all);
  register_sort<float, normal_float, cuda::std::less<float>, false>("float_normal", {}, {}, {27}, all);
  register_sort<float, normal_float, cuda::std::greater<float>, false>("float_normal_desc", {}, {}, {27}, all);
  register_sort<std::uint32_t, below_2_16, cuda::std::less<std::uint32_t>, false>("u32_below_2^16", {}, {}, {28}, all);
  register_sort<std::uint32_t, half_one_value, cuda::std::less<std::uint32_t>, false>(
    "u32_half_one_value", {}, {}, {28}, all);
  register_sort<std::uint32_t, four_values, cuda::std::less<std::uint32_t>, false>("u32_four_values", {}, {}, {28}, all);
  return 0;
}();

} // namespace
