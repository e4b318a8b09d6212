// reduce_by_key in a blocked arrangement (docs/design/compaction.md, variants, "The blocked
// arrangement", 2026-12-07): agent.cuh's loads of rows of run items, then each warp's items
// transposed through shared memory (swizzled 16-byte chunks, no bank conflicts either way) so that a
// lane holds 16 consecutive items; one sequential scan and one warp scan a tile instead of one a row;
// the lane's 16 items stored through run_output::store_rows. u32 values only. Timed against main's
// generic agent, its output checked bitwise first, as rbk-variants.cu does. Builds against main:
//   nvcc -O3 -DNDEBUG -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/rbk-blocked.cu -o rbk_blocked
// Run: rbk_blocked [reps=15] [mean: 0 = 1, 8 and 1e5] [variant mask: 1 generic, 2 blocked] [passes=2]
#include "rbk_harness.cuh"
#include <cstring>

// ---- EXPERIMENT: the blocked arrangement for run items (u32 values): rows loaded as now, transposed
// ---- through shared memory so that a lane holds 16 consecutive items; one sequential scan and one
// ---- warp scan a tile; stores from the blocked items (run_output::store_rows<1, 16>).
namespace sweep { namespace detail { namespace scan_impl {
template <class U, class Count, class Tuning, class Mode, class InputIt, class OutputIt, class UserOp>
struct blocked_run_agent
{
  using T        = run_item<U, Count>;
  using Op       = run_op<U, Count, UserOp>;
  using shape    = tile_shape<T, Tuning, false>;
  using params_t = kernel_params<InputIt, OutputIt, T, Op>;
  static constexpr int block_threads = shape::block_threads;
  static constexpr int warps         = shape::warps;
  static constexpr int rows          = shape::rows;
  static constexpr int vec           = shape::vec;
  static constexpr int ipt           = rows * vec;
  static constexpr int warp_items    = 32 * ipt;
  static constexpr int fold_windows  = shape::fold_windows;
  static constexpr bool exact        = !folds_in_order<T>;
  static_assert(sizeof(U) == 4 && vec == 4 && ipt == 16, "experiment: u32-sized values, rows of 4");

  template <int N>
  struct alignas(16) raw_values
  {
    unsigned char bytes[N * sizeof(T)];
    __device__ T* data() { return reinterpret_cast<T*>(bytes); }
  };
  struct shared_storage
  {
    raw_values<warps> warp_totals;
    raw_values<1> exclusive;
    raw_values<exact ? 1 : fold_windows * 32> window;
    unsigned long long tile_slot;
    alignas(16) U values[warps][warp_items];
    alignas(16) unsigned char flags[warps][warp_items];
  };

  const params_t& p;
  shared_storage& smem;
  Op op;
  __device__ blocked_run_agent(const params_t& params, shared_storage& storage) : p(params), smem(storage), op(params.op) {}
  __device__ T combine(const T& a, const T& b) { return static_cast<T>(op(a, b)); }
  __device__ void fold_into(optional_value<T>& acc, const T& x)
  {
    acc.value = acc.has ? combine(acc.value, x) : x;
    acc.has   = true;
  }
  //! 16-byte chunk c of a warp's values, swizzled so that the rows' writes (chunk j * 32 + lane) and
  //! the blocked reads (chunk lane * 4 + q) are both free of bank conflicts.
  __device__ static int chunk(int c) { return c ^ ((c >> 3) & 7); }

  template <bool Full>
  __device__ void process(std::uint64_t tile)
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    const int warp = static_cast<int>(threadIdx.x / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    const std::uint64_t warp_base = tile_base + static_cast<std::uint64_t>(warp) * warp_items;
    T items[rows][vec];
    if constexpr (Full)
    {
      p.input.template load_rows<rows, vec>(static_cast<std::int64_t>(warp_base + lane * vec), 32 * vec, items);
    }
    else
    {
      const T first = *(p.input + static_cast<std::ptrdiff_t>(tile_base));
#pragma unroll
      for (int j = 0; j < rows; ++j)
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = warp_base + j * 32 * vec + lane * vec + v;
          items[j][v] = i < p.n ? *(p.input + static_cast<std::ptrdiff_t>(i)) : first;
        }
    }
    U* const wv = smem.values[warp];
    unsigned char* const wf = smem.flags[warp];
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      uint4 raw;
      U vals[4] = {items[j][0].value, items[j][1].value, items[j][2].value, items[j][3].value};
      memcpy(&raw, vals, 16);
      reinterpret_cast<uint4*>(wv)[chunk(j * 32 + lane)] = raw;
      unsigned f = 0;
#pragma unroll
      for (int v = 0; v < vec; ++v)
      {
        f |= ((items[j][v].count & 1u) | ((items[j][v].count & run_tail_bit<Count>) != 0 ? 2u : 0u)) << (8 * v);
      }
      reinterpret_cast<unsigned*>(wf)[j * 32 + lane] = f;
    }
    __syncwarp();
    T x[ipt];
    {
      const uint4 fr = reinterpret_cast<const uint4*>(wf)[lane];
      const unsigned fw[4] = {fr.x, fr.y, fr.z, fr.w};
#pragma unroll
      for (int q = 0; q < 4; ++q)
      {
        const uint4 raw = reinterpret_cast<const uint4*>(wv)[chunk(lane * 4 + q)];
        U vals[4];
        memcpy(vals, &raw, 16);
#pragma unroll
        for (int v = 0; v < 4; ++v)
        {
          const unsigned f = (fw[q] >> (8 * v)) & 3u;
          x[q * 4 + v] = T{vals[v], static_cast<Count>(f & 1u) | ((f & 2u) != 0 ? run_tail_bit<Count> : Count(0))};
        }
      }
    }
#pragma unroll
    for (int k = 1; k < ipt; ++k)
    {
      x[k] = combine(x[k - 1], x[k]);
    }
    T t = x[ipt - 1];
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2)
    {
      const T below = shuffle_up(t, offset);
      if (lane >= offset)
      {
        t = combine(below, t);
      }
    }
    const T lane_below = shuffle_up(t, 1);
    if (lane == 31)
    {
      ::new (static_cast<void*>(smem.warp_totals.data() + warp)) T(t);
    }
    __syncthreads();
    if (warp == 0)
    {
      T aggregate = smem.warp_totals.data()[0];
      for (int k = 1; k < warps; ++k)
      {
        aggregate = combine(aggregate, smem.warp_totals.data()[k]);
      }
      if (lane == 0)
      {
        if (tile == 0)
        {
          if (p.tiles > 1) p.state.publish(0, tile_status::inclusive, aggregate);
        }
        else
        {
          p.state.publish(static_cast<std::size_t>(tile), tile_status::aggregate, aggregate);
        }
      }
      if (tile != 0)
      {
        const T exclusive = warp_lookback_fold<exact, fold_windows>(
          p.state, static_cast<std::size_t>(tile), op, aggregate, smem.window.data(),
          p.tiles > gridDim.x ? lookback_delay_for<T, Tuning> : 0u);
        if (lane == 0)
        {
          ::new (static_cast<void*>(smem.exclusive.data())) T(exclusive);
        }
      }
    }
    __syncthreads();
    optional_value<T> prefix{x[0], false};
    if (tile > 0)
    {
      prefix = {smem.exclusive.data()[0], true};
    }
    for (int k = 0; k < warp; ++k)
    {
      fold_into(prefix, smem.warp_totals.data()[k]);
    }
    if (lane > 0)
    {
      fold_into(prefix, lane_below);
    }
    if (prefix.has)
    {
#pragma unroll
      for (int k = 0; k < ipt; ++k)
      {
        x[k] = combine(prefix.value, x[k]);
      }
    }
    const std::uint64_t i0 = warp_base + static_cast<std::uint64_t>(lane) * ipt;
    if constexpr (Full && has_row_access<OutputIt>)
    {
      p.output.template store_rows<4, 4>(static_cast<std::int64_t>(i0), 4, reinterpret_cast<const T(&)[4][4]>(x));
    }
    else
    {
#pragma unroll
      for (int k = 0; k < ipt; ++k)
      {
        if (Full || i0 + k < p.n)
        {
          *(p.output + static_cast<std::ptrdiff_t>(i0 + k)) = x[k];
        }
      }
    }
  }

  __device__ std::uint64_t tiles() const { return p.tiles; }
  __device__ unsigned long long* tile_counter() const { return p.tile_counter; }
  __device__ bool full_tile(std::uint64_t tile) const { return (tile + 1) * shape::tile_items <= p.n; }
  __device__ void run() { run_tiles_in_order(*this, smem.tile_slot); }
};
}}}

struct blocked_tuning : sweep::detail::scan_impl::tuning_sm90
{
  //! the library's tile stage (merged 2026-12-08) off: this variant replaces the store it changes
  static constexpr int runs_stage_items = 0;
};
namespace sweep { namespace detail { namespace scan_impl {
template <class Mode, class InputIt, class OutputIt, class UserOp>
struct agent_choice<run_item<std::uint32_t, std::uint32_t>, blocked_tuning, Mode, InputIt, OutputIt, run_op<std::uint32_t, std::uint32_t, UserOp>, false>
{
  using type = blocked_run_agent<std::uint32_t, std::uint32_t, blocked_tuning, Mode, InputIt, OutputIt, UserOp>;
};
}}}

using rbk_harness::generic4;
using rbk_harness::rbk;

int main(int argc, char** argv)
{
  return rbk_harness::main(argc, argv, {1u, 8u, 100000u}, 0x3, [](auto& run, unsigned mask) {
    if (mask & 1) run("generic rows 4 (main)", rbk<generic4>);
    if (mask & 2) run("blocked 16 a lane", rbk<blocked_tuning>);
  });
}
