// reduce_by_key with a full tile's segments staged in shared memory (docs/design/compaction.md,
// variants, "A tile's segments staged", 2026-12-07): main's generic agent over run items (agent.cuh's
// load, scan_rows, look-back and add_prefix, called on an agent member); where a full tile ends more
// segments than the block has threads and at most Cap, each tail writes its value and its item's
// position in the tile at its segment's place in the tile (segment - the tile's first tail's), and
// after a barrier the block writes the values and the keys (read again from global memory at those
// positions) out coalesced, as CUB's two-phase scatter does; other tiles store as main does.
// Predicated (mask 16): every item writes its place, the items that are not tails to one spare place,
// so that no slot branches; mask 128 the same at a cap of 2048. Mask 32: the predicated agent that
// never stages (its shared memory and bookkeeping only); mask 64: main's agent with the same shared
// memory unused. Mask 8 runs CUB's DeviceReduce::ReduceByKey (int counts) through the same check and
// timing. u32 values and keys only.
// Outputs checked bitwise against main's generic agent first, as rbk-variants.cu does. Builds
// against main:
//   nvcc -O3 -DNDEBUG -std=c++17 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -Iinclude \
//     docs/design/variants/rbk-staged.cu -o rbk_staged
// Run: rbk_staged [reps=15] [mean: 0 = 1, 3, 8 and 1e5] [mask: 1 generic, 2 cap 4096, 4 cap 6144,
//      8 CUB, 16 cap 4096 predicated, 32 predicated never staging, 64 generic + 24.6 KB unused,
//      128 cap 2048 predicated] [passes=2]
#include "rbk_harness.cuh"

// ---- EXPERIMENT: main's generic agent over run items whose full tiles stage their segments in shared
// ---- memory (value and item position at the segment's place in the tile) and write them out
// ---- coalesced, where a tile ends more segments than the block has threads and at most `cap`.
namespace sweep { namespace detail { namespace scan_impl {
template <class U, class Count, class Tuning, class Mode, class InputIt, class OutputIt, class UserOp, int Cap, bool Predicated, bool Never = false>
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
    rbk_harness::scan_tile(a, tile, x, lookback_delay_for<T, Tuning>,
                           [&](const T& aggregate) { smem.tile_heads = aggregate.count & ~run_tail_bit<Count>; });
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
      if (!Never && entries > block_threads && entries <= Cap)
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

template <class U, class Count, class Tuning, class Mode, class InputIt, class OutputIt, class UserOp, int PadBytes>
struct padded_run_agent
{
  using T        = run_item<U, Count>;
  using Op       = run_op<U, Count, UserOp>;
  using base_t   = agent<T, Tuning, Mode, InputIt, OutputIt, Op, false>;
  using params_t = kernel_params<InputIt, OutputIt, T, Op>;
  struct shared_storage
  {
    typename base_t::shared_storage base;
    unsigned pad[PadBytes / 4];
  };
  base_t a;
  shared_storage& smem;
  __device__ padded_run_agent(const params_t& params, shared_storage& storage) : a(params, storage.base), smem(storage) {}
  template <bool Full>
  __device__ void process(std::uint64_t tile)
  {
    if (threadIdx.x == 0)
    {
      reinterpret_cast<volatile unsigned*>(smem.pad)[tile % (PadBytes / 4)] = static_cast<unsigned>(tile);
    }
    a.template process<Full>(tile);
  }
  __device__ std::uint64_t tiles() const { return a.p.tiles; }
  __device__ unsigned long long* tile_counter() const { return a.p.tile_counter; }
  __device__ bool full_tile(std::uint64_t tile) const { return a.full_tile(tile); }
  __device__ void run() { run_tiles_in_order(*this, a.smem.tile_slot); }
};
}}}

template <int C, bool P = false, bool N = false> struct staged_tuning : sweep::detail::scan_impl::tuning_sm90
{
  //! the library's tile stage (merged 2026-12-08) off: this variant replaces the store it changes
  static constexpr int runs_stage_items = 0;
};
template <int B> struct padded_tuning : sweep::detail::scan_impl::tuning_sm90
{
  //! the library's tile stage (merged 2026-12-08) off: this variant replaces the store it changes
  static constexpr int runs_stage_items = 0;
};
namespace sweep { namespace detail { namespace scan_impl {
template <int C, bool P, bool N, class Mode, class InputIt, class OutputIt, class UserOp>
struct agent_choice<run_item<std::uint32_t, std::uint32_t>, staged_tuning<C, P, N>, Mode, InputIt, OutputIt, run_op<std::uint32_t, std::uint32_t, UserOp>, false>
{
  using type = staged_run_agent<std::uint32_t, std::uint32_t, staged_tuning<C, P, N>, Mode, InputIt, OutputIt, UserOp, C, P, N>;
};
template <int B, class Mode, class InputIt, class OutputIt, class UserOp>
struct agent_choice<run_item<std::uint32_t, std::uint32_t>, padded_tuning<B>, Mode, InputIt, OutputIt, run_op<std::uint32_t, std::uint32_t, UserOp>, false>
{
  using type = padded_run_agent<std::uint32_t, std::uint32_t, padded_tuning<B>, Mode, InputIt, OutputIt, UserOp, B>;
};
}}}

using rbk_harness::generic4;
using rbk_harness::rbk;
using rbk_harness::u32;
using rbk_harness::cub_rbk;

int main(int argc, char** argv)
{
  return rbk_harness::main(argc, argv, {1u, 3u, 8u, 100000u}, 0x7, [](auto& run, unsigned mask) {
    if (mask & 1) run("generic rows 4 (main)", rbk<generic4>);
    if (mask & 2) run("segments staged, cap 4096", rbk<staged_tuning<4096>>);
    if (mask & 4) run("segments staged, cap 6144", rbk<staged_tuning<6144>>);
    if (mask & 8) run("cub int counts", cub_rbk);
    if (mask & 16) run("staged 4096 predicated", rbk<staged_tuning<4096, true>>);
    if (mask & 32) run("staged 4096 pred, never", rbk<staged_tuning<4096, true, true>>);
    if (mask & 64) run("generic + 24.6 KB pad", rbk<padded_tuning<24608>>);
    if (mask & 128) run("staged 2048 predicated", rbk<staged_tuning<2048, true>>);
  });
}
