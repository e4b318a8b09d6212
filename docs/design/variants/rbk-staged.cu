// reduce_by_key with a full tile's segments staged in shared memory (docs/design/compaction.md,
// variants, "A tile's segments staged", 2026-12-07): main's generic agent over run items (agent.cuh's
// load, scan_rows, look-back and add_prefix, called on an agent member); where a full tile ends more
// segments than the block has threads and at most Cap, each tail writes its value and its item's
// position in the tile at its segment's place in the tile (segment - the tile's first tail's), and
// after a barrier the block writes the values and the keys (read again from global memory at those
// positions) out coalesced, as CUB's two-phase scatter does; other tiles store as main does.
// Predicated (mask 16): every item writes its place, the items that are not tails to a spare one, so
// that no slot branches (built after the GPU time ran out: not timed). Mask 8 runs CUB's
// DeviceReduce::ReduceByKey (int counts) through the same check and timing. u32 values and keys only.
// Outputs checked bitwise against main's generic agent first, as rbk-variants.cu does. Builds
// against main:
//   nvcc -O3 -DNDEBUG -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/rbk-staged.cu -o rbk_staged
// Run: rbk_staged [reps=15] [mean: 0 = 1, 3, 8 and 1e5] [mask: 1 generic, 2 cap 4096, 4 cap 6144,
//      8 CUB, 16 cap 4096 predicated] [passes=2]
#include <sweep/reduce_by_key.cuh>
#include <cub/device/device_reduce.cuh>
#include <cstring>
#include <sweep/execution_policy.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>




// ---- EXPERIMENT: main's generic agent over run items whose full tiles stage their segments in shared
// ---- memory (value and item position at the segment's place in the tile) and write them out
// ---- coalesced, where a tile ends more segments than the block has threads and at most `cap`.
namespace sweep { namespace detail { namespace scan_impl {
template <class U, class Count, class Tuning, class Mode, class InputIt, class OutputIt, class UserOp, int Cap, bool Predicated>
struct staged_run_agent
{
  using T        = run_item<U, Count>;
  using Op       = run_op<U, Count, UserOp>;
  using base_t   = agent<T, Tuning, Mode, InputIt, OutputIt, Op, false>;
  using shape    = typename base_t::shape;
  using params_t = kernel_params<InputIt, OutputIt, T, Op>;
  static constexpr int block_threads = shape::block_threads;
  static constexpr int rows          = shape::rows;
  static constexpr int vec           = shape::vec;
  static constexpr bool exact        = !folds_in_order<T>;
  static_assert(shape::tile_items <= 65536, "positions as u16");
  struct shared_storage
  {
    typename base_t::shared_storage base;
    alignas(16) U stage_values[Cap + 1]; // [Cap]: where the items that are not tails write
    std::uint16_t stage_pos[Cap + 1];
    unsigned head0;
    unsigned last_tail;
    Count tile_heads;
  };
  base_t a;
  shared_storage& smem;
  __device__ staged_run_agent(const params_t& params, shared_storage& storage) : a(params, storage.base), smem(storage) {}

  template <bool Full>
  __device__ void process(std::uint64_t tile)
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    const int warp = static_cast<int>(threadIdx.x / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    T x[rows][vec];
    a.template load<Full>(tile_base, x);
    if (threadIdx.x == 0)
    {
      smem.head0 = (x[0][0].count & ~run_tail_bit<Count>) != 0 ? 1u : 0u;
    }
    if (threadIdx.x == block_threads - 1)
    {
      smem.last_tail = (x[rows - 1][vec - 1].count & run_tail_bit<Count>) != 0 ? 1u : 0u;
    }
    const T warp_total = a.scan_rows(x);
    if (lane == 0) ::new (static_cast<void*>(a.smem.warp_totals.data() + warp)) T(warp_total);
    __syncthreads();
    if (warp == 0)
    {
      const T aggregate = a.tile_aggregate(a.smem.warp_totals.data());
      if (lane == 0)
      {
        a.publish_aggregate(tile, aggregate);
        smem.tile_heads = aggregate.count & ~run_tail_bit<Count>;
      }
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
    if constexpr (!Full)
    {
      a.template store<false>(tile_base, x);
    }
    else
    {
      const std::int64_t before  = tile > 0 ? static_cast<std::int64_t>(a.smem.exclusive.data()[0].count & ~run_tail_bit<Count>) : 0;
      const std::int64_t head0   = smem.head0;
      const std::int64_t first   = before + head0 - 1; // the segment of the tile's first tail
      const std::int64_t entries = static_cast<std::int64_t>(smem.tile_heads) - head0 + smem.last_tail;
      if (entries > block_threads && entries <= Cap)
      {
        const auto& out = a.p.output;
        // Branch-free: every item computes its place; only tails store (predicated).
        const Count first_count = static_cast<Count>(first + 1);
#pragma unroll
        for (int j = 0; j < rows; ++j)
        {
#pragma unroll
          for (int v = 0; v < vec; ++v)
          {
            const bool is_tail = (x[j][v].count & run_tail_bit<Count>) != 0;
            const unsigned k   = static_cast<unsigned>((x[j][v].count & ~run_tail_bit<Count>) - first_count);
            if constexpr (Predicated)
            {
              // Every item stores; those that are not tails to the spare place [Cap] (no branch a slot).
              const unsigned at     = is_tail ? k : static_cast<unsigned>(Cap);
              smem.stage_values[at] = x[j][v].value;
              smem.stage_pos[at]    = static_cast<std::uint16_t>(base_t::row_offset(j) + v);
            }
            else if (is_tail)
            {
              smem.stage_values[k] = x[j][v].value;
              smem.stage_pos[k]    = static_cast<std::uint16_t>(base_t::row_offset(j) + v);
            }
          }
        }
        if (threadIdx.x == block_threads - 1 && out.index + static_cast<std::int64_t>(tile_base + shape::tile_items) == out.n)
        {
          *out.segments = static_cast<unsigned long long>(first + entries);
        }
        __syncthreads();
        for (int k = static_cast<int>(threadIdx.x); k < entries; k += block_threads)
        {
          const U value = smem.stage_values[k];
          const auto key = load_read_only(out.keys + out.index + static_cast<std::int64_t>(tile_base) + smem.stage_pos[k]);
          out.values_out[first + k] = value;
          out.keys_out[first + k]   = key;
        }
      }
      else
      {
        a.template store<true>(tile_base, x);
      }
    }
  }
  __device__ std::uint64_t tiles() const { return a.p.tiles; }
  __device__ unsigned long long* tile_counter() const { return a.p.tile_counter; }
  __device__ bool full_tile(std::uint64_t tile) const { return (tile + 1) * shape::tile_items <= a.p.n; }
  __device__ void run() { run_tiles_in_order(*this, a.smem.tile_slot); }
};
}}}

template <int C, bool P = false> struct staged_tuning : sweep::detail::scan_impl::tuning_sm90 {};
namespace sweep { namespace detail { namespace scan_impl {
template <int C, bool P, class Mode, class InputIt, class OutputIt, class UserOp>
struct agent_choice<run_item<std::uint32_t, std::uint32_t>, staged_tuning<C, P>, Mode, InputIt, OutputIt, run_op<std::uint32_t, std::uint32_t, UserOp>, false>
{
  using type = staged_run_agent<std::uint32_t, std::uint32_t, staged_tuning<C, P>, Mode, InputIt, OutputIt, UserOp, C, P>;
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

static void* cub_temp = nullptr;
static std::size_t cub_temp_bytes = 0;
void cub_rbk(const u32* keys, const u32* vals, u32* kout, u32* vout, unsigned long long* seg, std::uint64_t n)
{
  if (cub_temp == nullptr)
  {
    cub::DeviceReduce::ReduceByKey(nullptr, cub_temp_bytes, keys, kout, vals, vout, seg, ::cuda::std::plus<>{}, static_cast<int>(n));
    cudaMalloc(&cub_temp, cub_temp_bytes);
  }
  cub::DeviceReduce::ReduceByKey(cub_temp, cub_temp_bytes, keys, kout, vals, vout, seg, ::cuda::std::plus<>{}, static_cast<int>(n));
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
  for (u32 mean : {1u, 3u, 8u, 100000u})
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
      if (mask & 2) run_variant("segments staged, cap 4096", rbk<staged_tuning<4096>>);
      if (mask & 4) run_variant("segments staged, cap 6144", rbk<staged_tuning<6144>>);
      if (mask & 8) run_variant("cub int counts", cub_rbk);
      if (mask & 16) run_variant("segments staged, cap 4096, predicated (not timed)", rbk<staged_tuning<4096, true>>);
    }
  }
  return 0;
}
