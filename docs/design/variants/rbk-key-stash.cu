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
#include "rbk_harness.cuh"

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
  static constexpr int rows          = shape::rows;
  static constexpr int vec           = shape::vec;
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

  //! run_output::store_rows with the tails' keys from the stash.
  __device__ void store_stashed(std::uint64_t tile_base, const T (&x)[rows][vec]) const
  {
    const auto& out = a.p.output;
    bool any = false;
#pragma unroll
    for (int j = 0; j < rows; ++j) any = any || OutputIt::template all_tails<vec>(x[j]);
    const bool mixed = __any_sync(0xffffffffu, any);
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const unsigned o = base_t::row_offset(j);
      const std::int64_t i0 = out.index + static_cast<std::int64_t>(tile_base + o);
      const std::int64_t s0 = static_cast<std::int64_t>(x[j][0].count & ~run_tail_bit<Count>) - 1;
      if (mixed && OutputIt::template all_tails<vec>(x[j]) && OutputIt::template contiguous_aligned<vec>(out.values_out + s0)
          && OutputIt::template contiguous_aligned<vec>(out.keys_out + s0))
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

  template <bool Full>
  __device__ void process(std::uint64_t tile)
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    T x[rows][vec];
    const bool stashed = Full && a.p.input.vector_rows;
    if (stashed) load_stashed(tile_base, x);
    else a.template load<Full>(tile_base, x);
    rbk_harness::scan_tile(a, tile, x, lookback_delay_for<T, Tuning>, [](const T&) {});
    if (stashed) store_stashed(tile_base, x);
    else a.template store<Full>(tile_base, x);
  }
  __device__ std::uint64_t tiles() const { return a.p.tiles; }
  __device__ unsigned long long* tile_counter() const { return a.p.tile_counter; }
  __device__ bool full_tile(std::uint64_t tile) const { return (tile + 1) * shape::tile_items <= a.p.n; }
  __device__ void run() { run_tiles_in_order(*this, a.smem.tile_slot); }
};
}}}

struct stash_tuning : sweep::detail::scan_impl::tuning_sm90
{
  //! the library's tile stage (merged 2026-12-08) off: this variant replaces the store it changes
  static constexpr int runs_stage_items = 0;
};
namespace sweep { namespace detail { namespace scan_impl {
template <class Mode, class InputIt, class OutputIt, class UserOp>
struct agent_choice<run_item<std::uint32_t, std::uint32_t>, stash_tuning, Mode, InputIt, OutputIt, run_op<std::uint32_t, std::uint32_t, UserOp>, false>
{
  using type = stash_run_agent<std::uint32_t, std::uint32_t, stash_tuning, Mode, InputIt, OutputIt, UserOp>;
};
}}}

using rbk_harness::generic4;
using rbk_harness::rbk;

int main(int argc, char** argv)
{
  return rbk_harness::main(argc, argv, {1u, 8u, 100000u}, 0x3, [](auto& run, unsigned mask) {
    if (mask & 1) run("generic rows 4 (main)", rbk<generic4>);
    if (mask & 2) run("keys stashed in shared memory", rbk<stash_tuning>);
  });
}
