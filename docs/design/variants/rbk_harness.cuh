// The harness of the reduce_by_key variant programs (rbk-*.cu; docs/design/compaction.md, variants):
// u32 keys in runs of random length (mean 1, 3, 8 or 1e5; seeded) and u32 values at 2^28; each
// variant is a function of (keys, values, keys out, values out, segment count, n) on the default
// stream, its output checked bitwise against main's generic agent (count, keys, values, and the item
// after the count still poisoned), then timed with CUDA events (medians of `reps`).
// Arguments: [reps=15] [mean: 0 = every mean] [variant mask] [passes=2].
#pragma once

#include <sweep/execution_policy.cuh>
#include <sweep/reduce_by_key.cuh>

#include <cub/device/device_reduce.cuh>

#include <thrust/device_vector.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace rbk_harness
{
namespace sc = sweep::detail::scan_impl;
using u32    = std::uint32_t;

//! sm_90's scan tuning; where a variant program's headers give run items the flag-word agent,
//! `segment_items_generic` keeps agent.cuh's generic one (main's kernel).
struct generic4 : sc::tuning_sm90
{
  static constexpr bool segment_items_generic = true;
};

//! One reduce_by_key pass (u32 counts, plus) through sweep's dispatcher under tuning Choice.
template <class Choice>
void rbk(const u32* keys, const u32* vals, u32* kout, u32* vout, unsigned long long* seg, std::uint64_t n)
{
  using item = sc::run_item<u32, u32>;
  const sc::run_input<u32, u32, const u32*, const u32*, ::cuda::std::equal_to<>> input{
    keys, vals, {}, static_cast<std::int64_t>(n), 0, sc::aligned16(keys) && sc::aligned16(vals)};
  const sc::run_output<u32, u32, const u32*, u32*, u32*> output{keys, kout, vout, seg, static_cast<std::int64_t>(n), 0};
  auto policy = sweep::par_nosync;
  sc::dispatch<item, sc::scan_mode<false, false>, Choice>(policy, input, n, output,
                                                          sc::run_op<u32, u32, ::cuda::std::plus<>>{{}}, item{}, "v", true);
}

//! CUB's DeviceReduce::ReduceByKey with `int` counts, its temporary storage allocated once (the
//! variants' reference in speed).
inline void cub_rbk(const u32* keys, const u32* vals, u32* kout, u32* vout, unsigned long long* seg, std::uint64_t n)
{
  static void* temp       = nullptr;
  static std::size_t size = 0;
  if (temp == nullptr)
  {
    cub::DeviceReduce::ReduceByKey(nullptr, size, keys, kout, vals, vout, seg, ::cuda::std::plus<>{}, static_cast<int>(n));
    cudaMalloc(&temp, size);
  }
  cub::DeviceReduce::ReduceByKey(temp, size, keys, kout, vals, vout, seg, ::cuda::std::plus<>{}, static_cast<int>(n));
}

//! The generic agent's steps of a tile between its loads and its stores (agent.cuh's process, no
//! initial value): scan_rows, the warps' totals, warp 0's look-back (`on_aggregate(aggregate)` on its
//! lane 0 after the publish), add_prefix. For the variants that change only the loads or the stores.
template <class Agent, class T, int Rows, int Vec, class OnAggregate>
__device__ void scan_tile(Agent& a, std::uint64_t tile, T (&x)[Rows][Vec], unsigned delay_ns, OnAggregate&& on_aggregate)
{
  const int warp     = static_cast<int>(threadIdx.x / 32);
  const int lane     = static_cast<int>(threadIdx.x % 32);
  const T warp_total = a.scan_rows(x);
  if (lane == 0)
  {
    ::new (static_cast<void*>(a.smem.warp_totals.data() + warp)) T(warp_total);
  }
  __syncthreads();
  if (warp == 0)
  {
    const T aggregate = a.tile_aggregate(a.smem.warp_totals.data());
    if (lane == 0)
    {
      a.publish_aggregate(tile, aggregate);
      on_aggregate(aggregate);
    }
    if (tile != 0)
    {
      const T exclusive = sweep::detail::warp_lookback_fold<!sc::folds_in_order<T>, Agent::fold_windows>(
        a.p.state, static_cast<std::size_t>(tile), a.op, aggregate, a.smem.window.data(), a.lookback_delay(delay_ns));
      if (lane == 0)
      {
        ::new (static_cast<void*>(a.smem.exclusive.data())) T(exclusive);
      }
    }
  }
  __syncthreads();
  sc::optional_value<T> prefix{x[0][0], false};
  if (tile > 0)
  {
    prefix = {a.smem.exclusive.data()[0], true};
  }
  a.add_prefix(x, prefix, a.smem.warp_totals.data());
}

//! Runs `variants(run, mask)` for each mean of `means` (`run(name, function)` checks and times one).
template <class Variants>
int main(int argc, char** argv, std::vector<u32> means, unsigned default_mask, Variants&& variants)
{
  const std::uint64_t n      = std::uint64_t(1) << 28;
  const int reps             = argc > 1 ? std::atoi(argv[1]) : 15;
  const unsigned only_mean   = argc > 2 ? std::atoi(argv[2]) : 0;
  const unsigned mask        = argc > 3 ? std::strtoul(argv[3], nullptr, 0) : default_mask;
  const int passes           = argc > 4 ? std::atoi(argv[4]) : 2;
  thrust::device_vector<u32> keys(n), vals(n), kout(n), vout(n), kref(n), vref(n);
  thrust::device_vector<unsigned long long> seg(2);
  std::vector<u32> hk(n), hv(n);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (u32 mean : means)
  {
    if (only_mean != 0 && mean != only_mean)
    {
      continue;
    }
    std::mt19937_64 g(0x5eed + mean);
    u32 key         = 0;
    std::uint64_t i = 0;
    while (i < n)
    {
      const std::uint64_t len = mean == 1 ? 1 : 1 + g() % (2 * mean - 1);
      for (std::uint64_t e = std::min<std::uint64_t>(n, i + len); i < e; ++i)
      {
        hk[i] = key;
      }
      ++key;
    }
    for (std::uint64_t j = 0; j < n; ++j)
    {
      hv[j] = static_cast<u32>(g()) & 0xffff;
    }
    thrust::copy(hk.begin(), hk.end(), keys.begin());
    thrust::copy(hv.begin(), hv.end(), vals.begin());
    const u32* K          = thrust::raw_pointer_cast(keys.data());
    const u32* V          = thrust::raw_pointer_cast(vals.data());
    unsigned long long* S = thrust::raw_pointer_cast(seg.data());
    rbk<generic4>(K, V, thrust::raw_pointer_cast(kref.data()), thrust::raw_pointer_cast(vref.data()), S, n);
    cudaDeviceSynchronize();
    const unsigned long long ref_count = seg[0];
    auto run = [&](const char* name, auto fn) {
      seg[0] = 0;
      thrust::fill(kout.begin(), kout.end(), 0xdeadbeefu);
      thrust::fill(vout.begin(), vout.end(), 0xdeadbeefu);
      fn(K, V, thrust::raw_pointer_cast(kout.data()), thrust::raw_pointer_cast(vout.data()), S, n);
      const cudaError_t e        = cudaDeviceSynchronize();
      const unsigned long long c = seg[0];
      const bool ok = e == cudaSuccess && c == ref_count && thrust::equal(kout.begin(), kout.begin() + c, kref.begin())
                   && thrust::equal(vout.begin(), vout.begin() + c, vref.begin())
                   && (c == n || (kout[c] == 0xdeadbeefu && vout[c] == 0xdeadbeefu));
      std::vector<float> t;
      for (int r = 0; r < reps; ++r)
      {
        cudaEventRecord(a);
        fn(K, V, thrust::raw_pointer_cast(kout.data()), thrust::raw_pointer_cast(vout.data()), S, n);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      std::printf("runs %6u %-22s %s count %llu  median %.4f ms  min %.4f  max %.4f\n", mean, name, ok ? "OK  " : "FAIL", c,
                  t[t.size() / 2], t.front(), t.back());
      std::fflush(stdout);
    };
    for (int pass = 0; pass < passes; ++pass)
    {
      variants(run, mask);
    }
  }
  return 0;
}
} // namespace rbk_harness
