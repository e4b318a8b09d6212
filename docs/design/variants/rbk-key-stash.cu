// reduce_by_key with the tile's keys kept in shared memory (docs/design/compaction.md, variants, "The
// keys from shared memory", 2026-12-07): main's generic agent over run items (agent.cuh's scan_rows,
// look-back and add_prefix, called on an agent member), its full tiles' loads run_input::load_rows's
// vector path with each row's keys also written to a 32 KiB stash in item order, and its stores
// run_output::store_rows's with every tail's key read from the stash instead of global memory (no
// round trip to L2 after the look-back; shared-memory loads, which the compiler may move above the
// global stores). u32 values and keys only. Timed against main's generic agent, its output checked
// bitwise first, as rbk-variants.cu does. Builds against main:
//   nvcc -O3 -DNDEBUG -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/rbk-key-stash.cu -o rbk_key_stash
// Run: rbk_key_stash [reps=15] [mean: 0 = 1, 8 and 1e5] [variant mask: 1 generic, 2 stash] [passes=2]
#include <sweep/reduce_by_key.cuh>
#include <cstring>
#include <sweep/execution_policy.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>



// ---- EXPERIMENT: main's generic agent over run items, with the tile's keys kept in shared memory
// ---- from the loads (item order) so that the tails' keys come from there, not from global memory.
namespace sweep { namespace detail { namespace scan_impl {
template <class U, class Count, class Tuning, class Mode, class InputIt, class OutputIt, class UserOp>
struct stash_run_agent
{
  using T        = run_item<U, Count>;
  using Op       = run_op<U, Count, UserOp>;
  using base_t   = agent<T, Tuning, Mode, InputIt, OutputIt, Op, false>;
  using shape    = typename base_t::shape;
  using params_t = kernel_params<InputIt, OutputIt, T, Op>;
  using key_type   = typename InputIt::key_type;
  using value_type = typename InputIt::value_type;
  static constexpr int block_threads = shape::block_threads;
  static constexpr int warps         = shape::warps;
  static constexpr int rows          = shape::rows;
  static constexpr int vec           = shape::vec;
  static constexpr bool exact        = !folds_in_order<T>;
  struct shared_storage
  {
    typename base_t::shared_storage base;
    alignas(16) key_type keys[shape::tile_items];
  };
  base_t a;
  shared_storage& smem;
  __device__ stash_run_agent(const params_t& params, shared_storage& storage) : a(params, storage.base), smem(storage) {}

  //! run_input::load_rows's vector path, each row's keys also written to the stash (item order).
  __device__ void load_stashed(std::uint64_t tile_base, T (&x)[rows][vec]) const
  {
    const auto& in = a.p.input;
    const std::int64_t first = static_cast<std::int64_t>(base_t::item_index(tile_base, 0, 0));
    const std::int64_t stride = 32 * vec;
    key_type k[rows][vec];
    value_type v[rows][vec];
    key_type before[rows];
    key_type after[rows];
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const std::int64_t i = in.index + first + j * stride;
      load_contiguous(in.keys + i, k[j]);
      load_contiguous(in.values + i, v[j]);
    }
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const std::int64_t i = in.index + first + j * stride;
      before[j] = i > 0 ? load_read_only(in.keys + i - 1) : k[j][0];
      after[j]  = i + vec < in.n ? load_read_only(in.keys + i + vec) : k[j][vec - 1];
    }
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      store_contiguous(smem.keys + base_t::row_offset(j), k[j]);
      const std::int64_t i = in.index + first + j * stride;
#pragma unroll
      for (int u = 0; u < vec; ++u)
      {
        const bool head = u == 0 ? i == 0 || in.differ(before[j], k[j][0]) : in.differ(k[j][u > 0 ? u - 1 : 0], k[j][u]);
        const bool tail = u == vec - 1 ? i + vec == in.n || in.differ(k[j][vec - 1], after[j])
                                       : in.differ(k[j][u], k[j][u + 1 < vec ? u + 1 : u]);
        x[j][u] = InputIt::make(static_cast<U>(v[j][u]), head, tail);
      }
    }
  }

  __device__ static bool all_tails(const T (&row)[vec])
  {
    bool all = true;
#pragma unroll
    for (int u = 0; u < vec; ++u) all = all && (row[u].count & run_tail_bit<Count>) != 0;
    return all;
  }

  //! run_output::store_rows with the tails' keys from the stash.
  __device__ void store_stashed(std::uint64_t tile_base, const T (&x)[rows][vec]) const
  {
    const auto& out = a.p.output;
    bool any = false;
#pragma unroll
    for (int j = 0; j < rows; ++j) any = any || all_tails(x[j]);
    const bool mixed = __any_sync(0xffffffffu, any);
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const unsigned o = base_t::row_offset(j);
      const std::int64_t i0 = out.index + static_cast<std::int64_t>(tile_base + o);
      const std::int64_t s0 = static_cast<std::int64_t>(x[j][0].count & ~run_tail_bit<Count>) - 1;
      if (mixed && all_tails(x[j]) && run_output_t::template contiguous_aligned<vec>(out.values_out + s0)
          && run_output_t::template contiguous_aligned<vec>(out.keys_out + s0))
      {
        key_type kk[vec];
        U vv[vec];
#pragma unroll
        for (int u = 0; u < vec; ++u) { kk[u] = smem.keys[o + u]; vv[u] = x[j][u].value; }
        store_contiguous(out.values_out + s0, vv);
        store_contiguous(out.keys_out + s0, kk);
        if (i0 + vec == out.n) *out.segments = static_cast<unsigned long long>(s0 + vec);
        continue;
      }
#pragma unroll
      for (int u = 0; u < vec; ++u)
      {
        if (x[j][u].count & run_tail_bit<Count>)
        {
          const std::int64_t segment = static_cast<std::int64_t>(x[j][u].count & ~run_tail_bit<Count>) - 1;
          out.values_out[segment] = x[j][u].value;
          out.keys_out[segment]   = smem.keys[o + u];
          if (i0 + u + 1 == out.n) *out.segments = static_cast<unsigned long long>(segment + 1);
        }
      }
    }
  }
  using run_output_t = OutputIt;

  template <bool Full>
  __device__ void process(std::uint64_t tile)
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    const int warp = static_cast<int>(threadIdx.x / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    T x[rows][vec];
    const bool stashed = Full && a.p.input.vector_rows;
    if (stashed) load_stashed(tile_base, x);
    else a.template load<Full>(tile_base, x);
    const T warp_total = a.scan_rows(x);
    if (lane == 0) ::new (static_cast<void*>(a.smem.warp_totals.data() + warp)) T(warp_total);
    __syncthreads();
    if (warp == 0)
    {
      const T aggregate = a.tile_aggregate(a.smem.warp_totals.data());
      if (lane == 0) a.publish_aggregate(tile, aggregate);
      if (tile != 0)
      {
        const T exclusive = warp_lookback_fold<exact, shape::fold_windows>(
          a.p.state, static_cast<std::size_t>(tile), a.op, aggregate, a.smem.window.data(),
          a.lookback_delay(lookback_delay_for<T, Tuning>));
        if (lane == 0) ::new (static_cast<void*>(a.smem.exclusive.data())) T(exclusive);
      }
    }
    __syncthreads();
    optional_value<T> prefix{x[0][0], false};
    if (tile > 0) prefix = {a.smem.exclusive.data()[0], true};
    a.add_prefix(x, prefix, a.smem.warp_totals.data());
    if (stashed) store_stashed(tile_base, x);
    else a.template store<Full>(tile_base, x);
  }
  __device__ std::uint64_t tiles() const { return a.p.tiles; }
  __device__ unsigned long long* tile_counter() const { return a.p.tile_counter; }
  __device__ bool full_tile(std::uint64_t tile) const { return (tile + 1) * shape::tile_items <= a.p.n; }
  __device__ void run() { run_tiles_in_order(*this, a.smem.tile_slot); }
};
}}}

struct stash_tuning : sweep::detail::scan_impl::tuning_sm90 {};
namespace sweep { namespace detail { namespace scan_impl {
template <class Mode, class InputIt, class OutputIt, class UserOp>
struct agent_choice<run_item<std::uint32_t, std::uint32_t>, stash_tuning, Mode, InputIt, OutputIt, run_op<std::uint32_t, std::uint32_t, UserOp>, false>
{
  using type = stash_run_agent<std::uint32_t, std::uint32_t, stash_tuning, Mode, InputIt, OutputIt, UserOp>;
};
}}}

namespace sc = sweep::detail::scan_impl;

struct generic4 : sc::tuning_sm90 { static constexpr bool segment_items_generic = true; };

using u32 = std::uint32_t;

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

struct bufs { thrust::device_vector<u32> k, v; };

int main(int argc, char** argv)
{
  const std::uint64_t n = std::uint64_t(1) << 28;
  const int reps = argc > 1 ? std::atoi(argv[1]) : 15;
  const unsigned only_mean = argc > 2 ? std::atoi(argv[2]) : 0;   // 0: every mean
  const unsigned mask = argc > 3 ? std::strtoul(argv[3], nullptr, 0) : 0x3; // variants
  const int passes = argc > 4 ? std::atoi(argv[4]) : 2;
  thrust::device_vector<u32> keys(n), vals(n), kout(n), vout(n), kref(n), vref(n);
  thrust::device_vector<unsigned long long> seg(2);
  std::vector<u32> hk(n), hv(n);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (u32 mean : {1u, 8u, 100000u})
  {
    if (only_mean != 0 && mean != only_mean) continue;
    std::mt19937_64 g(0x5eed + mean);
    u32 key = 0; std::uint64_t i = 0;
    while (i < n)
    {
      std::uint64_t len = mean == 1 ? 1 : 1 + g() % (2 * mean - 1);
      for (std::uint64_t e = std::min<std::uint64_t>(n, i + len); i < e; ++i) hk[i] = key;
      ++key;
    }
    for (std::uint64_t j = 0; j < n; ++j) hv[j] = static_cast<u32>(g()) & 0xffff;
    thrust::copy(hk.begin(), hk.end(), keys.begin());
    thrust::copy(hv.begin(), hv.end(), vals.begin());
    const u32* K = thrust::raw_pointer_cast(keys.data());
    const u32* V = thrust::raw_pointer_cast(vals.data());
    unsigned long long* S = thrust::raw_pointer_cast(seg.data());
    rbk<generic4>(K, V, thrust::raw_pointer_cast(kref.data()), thrust::raw_pointer_cast(vref.data()), S, n);
    cudaDeviceSynchronize();
    unsigned long long ref_count = seg[0];
    auto run_variant = [&](const char* name, auto fn) {
      seg[0] = 0;
      thrust::fill(kout.begin(), kout.end(), 0xdeadbeefu);
      thrust::fill(vout.begin(), vout.end(), 0xdeadbeefu);
      fn(K, V, thrust::raw_pointer_cast(kout.data()), thrust::raw_pointer_cast(vout.data()), S, n);
      cudaError_t e = cudaDeviceSynchronize();
      unsigned long long c = seg[0];
      bool ok = e == cudaSuccess && c == ref_count && thrust::equal(kout.begin(), kout.begin() + c, kref.begin())
             && thrust::equal(vout.begin(), vout.begin() + c, vref.begin())
             && (c == n || (kout[c] == 0xdeadbeefu && vout[c] == 0xdeadbeefu));
      std::vector<float> t;
      for (int r = 0; r < reps; ++r)
      {
        cudaEventRecord(a);
        fn(K, V, thrust::raw_pointer_cast(kout.data()), thrust::raw_pointer_cast(vout.data()), S, n);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      std::printf("runs %6u %-22s %s count %llu  median %.4f ms  min %.4f  max %.4f\n", mean, name, ok ? "OK  " : "FAIL", c,
                  t[t.size() / 2], t.front(), t.back());
      std::fflush(stdout);
    };
    for (int pass = 0; pass < passes; ++pass)
    {
      if (mask & 1) run_variant("generic rows 4 (main)", rbk<generic4>);
      if (mask & 2) run_variant("keys stashed in shared memory", rbk<stash_tuning>);
    }
  }
  return 0;
}
