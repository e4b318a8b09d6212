// The scan agent of the scans by key (by_key.cuh): the agent of agent.cuh over (value, head) items
// under the segmented operator, with the items' values in registers and their head flags as the bits
// of one word. agent.cuh's generic form holds a segment_item (a value and a bool) an item; here the
// flags of a thread's rows * vec items share one register. The association of every result is
// agent.cuh's, operation for operation (the same operands combined in the same order, the segmented
// operator written out: b's head keeps b, otherwise op(a.value, b.value) with a's head), so results
// are the same bits as the generic agent's.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <new>
#include <type_traits>

#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/pipeline.cuh>
#include <sweep/detail/scan/agent.cuh>
#include <sweep/detail/scan/by_key.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/scan/tuning.hpp>
#include <sweep/detail/util/warp_shuffle.cuh>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! Whether the scans by key under Tuning run segmented_agent (the default) or agent.cuh's generic
//! agent over segment_items: a tuning struct that defines `segment_items_generic = true` (a benchmark's
//! variant, a test's comparison) asks for the generic one.
template <class Tuning, class = void>
inline constexpr bool segment_flag_words = true;
template <class Tuning>
inline constexpr bool segment_flag_words<Tuning, std::void_t<decltype(Tuning::segment_items_generic)>> =
  !Tuning::segment_items_generic;

//! An exclusive scan by key's input (by_key.cuh, segment_input's `shifted`).
template <class InputIt, class = void>
inline constexpr bool exclusive_by_key_input = false;
template <class InputIt>
inline constexpr bool exclusive_by_key_input<InputIt, std::enable_if_t<InputIt::shifted>> = true;

//! The scans by key (inclusive mode without an initial value), in order. Bit j * vec + v of a
//! thread's flag word is item v of its row j. The exclusive scan (an input with `shifted`) of integral
//! values: the inclusive scan of the unshifted items with init folded into each head (op(init,
//! value)), each result stored one item later (init at a head): result[i] = ((init op v_s) op
//! v_{s+1}) ... op v_{i-1}, the inclusive result at i - 1 (at a warp's first item the warp's prefix).
//! Against scanning shifted items (the generic agent's way, and this agent's for other values) no
//! value is read outside the tile and a row needs no load of the value before it.
template <class U, class Tuning, class Mode, class InputIt, class OutputIt, class UserOp>
struct segmented_agent
{
  using T        = segment_item<U>;
  using Op       = segmented_op<U, UserOp>;
  using shape    = tile_shape<T, Tuning, false>;
  using params_t = kernel_params<InputIt, OutputIt, T, Op>;
  static constexpr int block_threads = shape::block_threads;
  static constexpr int warps         = shape::warps;
  static constexpr int rows          = shape::rows;
  static constexpr int vec           = shape::vec;
  static constexpr int fold_windows  = shape::fold_windows;
  static constexpr bool exact        = !folds_in_order<T>;
  static_assert(rows * vec <= 32, "scan by key: a thread's head flags are the bits of one word");
  static_assert(!Mode::exclusive && !Mode::has_init, "scan by key: the scan of (shifted) items is inclusive");
  static_assert(!shape::vectorizable, "scan by key: items are made from the keys and the values");
  //! Warp 0 keeps its values in shared memory while it looks back (Tuning::segmented_stash), so that
  //! the look-back's registers and the items' are not live together.
  static constexpr bool stash_items = Tuning::segmented_stash;
  //! The input makes a row's values and flags (segment_input's load_values_row).
  static constexpr bool values_rows = has_row_access<InputIt> && has_row_access<OutputIt>;
  //! An exclusive scan of integral values: results shifted by one item (exclusive_by_key_input). Other
  //! values (floating point, user types: their look-back folds in order) scan shifted items, as the
  //! generic agent does: f32 values at 2^28 took 1.81 ms that way and 2.83 ms with shifted results
  //! (5 rows; ptxas: 56 bytes of stack against none), u32 1.37 -> 1.10 ms (H100, docs/design/scan.md).
  static constexpr bool shift_results = exclusive_by_key_input<InputIt> && exact;

  template <int N>
  struct alignas(alignof(T) < 16 ? 16 : alignof(T)) raw_values
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
    //! Warp 0's values while it looks back (item b of lane l at b * 32 + l), where the tuning asks.
    alignas(16) unsigned char stash[stash_items ? rows * vec * 32 * sizeof(U) : 1];
    //! An exclusive scan's loaded head flags, a word a thread, while warp 0 looks back (shift_results).
    unsigned heads[shift_results ? block_threads : 1];
  };

  static_assert(!stash_items || rows * vec * sizeof(U) * 32 <= stash_bytes_at_most<Tuning>(),
                "scan by key: tuning.hpp's block_shared_bytes counts the stash");

  const params_t& p;
  shared_storage& smem;
  Op op; // a mutable copy: like Thrust, operators whose operator() is not const are accepted

  __device__ segmented_agent(const params_t& params, shared_storage& storage)
      : p(params)
      , smem(storage)
      , op(params.op)
  {}

  //! The user's operator on two values.
  __device__ U value_op(const U& a, const U& b)
  {
    return static_cast<U>(op.op(a, b));
  }
  //! The segmented operator.
  __device__ T combine(const T& a, const T& b)
  {
    return b.head ? b : T{value_op(a.value, b.value), a.head};
  }
  __device__ void fold_into(optional_value<T>& acc, const T& x)
  {
    acc.value = acc.has ? combine(acc.value, x) : x;
    acc.has   = true;
  }

  __device__ static std::uint64_t item_index(std::uint64_t tile_base, int j, int v)
  {
    const std::uint64_t warp = threadIdx.x / 32;
    const std::uint64_t lane = threadIdx.x % 32;
    return tile_base + warp * shape::warp_items + static_cast<std::uint64_t>(j) * (32 * vec) + lane * vec
         + static_cast<std::uint64_t>(v);
  }
  __device__ static constexpr int bit(int j, int v)
  {
    return j * vec + v;
  }

  //! This thread's values and head flags (agent.cuh's load: a partial tile fills the items past the
  //! end with copies of the tile's first item).
  template <bool Full>
  __device__ unsigned load(std::uint64_t tile_base, U (&x)[rows][vec]) const
  {
    unsigned heads = 0;
    if constexpr (Full && values_rows)
    {
      heads = p.input.template load_values_rows<rows, vec, shift_results>(
        static_cast<std::int64_t>(item_index(tile_base, 0, 0)), 32 * vec, x);
    }
    else if constexpr (Full)
    {
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const T item = item_at(item_index(tile_base, j, v));
          x[j][v]      = item.value;
          heads |= static_cast<unsigned>(item.head) << bit(j, v);
        }
      }
    }
    else
    {
      // A partial tile: each of this thread's rows that lies wholly before n as a full row
      // (load_values_rows: vectors where the keys and values are aligned pointers), only the row
      // that n cuts item by item. Item by item throughout, a partial 6-row tile took about a
      // microsecond more (docs/design/scan.md, variants, "The partial tile's rows").
      const T first = item_at(tile_base);
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
        const std::uint64_t i0 = item_index(tile_base, j, 0);
        if constexpr (values_rows)
        {
          if (i0 + vec <= p.n)
          {
            const unsigned row_heads = p.input.template load_values_rows<1, vec, shift_results>(
              static_cast<std::int64_t>(i0), 0, reinterpret_cast<U(&)[1][vec]>(x[j]));
            heads |= row_heads << bit(j, 0);
            continue;
          }
        }
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = i0 + static_cast<std::uint64_t>(v);
          const T item          = i < p.n ? item_at(i) : first;
          x[j][v]               = item.value;
          heads |= static_cast<unsigned>(item.head) << bit(j, v);
        }
      }
    }
    return heads;
  }

  //! An exclusive scan's init folded into each head (shift_results): the inclusive result at a
  //! segment's item k is then the exclusive result at item k + 1.
  __device__ void fold_init(U (&x)[rows][vec], unsigned heads)
  {
    const U init = p.input.init;
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
#pragma unroll
      for (int v = 0; v < vec; ++v)
      {
        if (((heads >> bit(j, v)) & 1u) != 0)
        {
          x[j][v] = value_op(init, x[j][v]);
        }
      }
    }
  }

  //! Item i of the input (an exclusive scan's: its own value, not the one before).
  __device__ T item_at(std::uint64_t i) const
  {
    if constexpr (shift_results)
    {
      return p.input.unshifted_item_at(p.input.index + static_cast<std::int64_t>(i));
    }
    else
    {
      return *(p.input + static_cast<std::ptrdiff_t>(i));
    }
  }

  //! An exclusive scan's results from the inclusive ones (shift_results): item i takes the inclusive
  //! result of item i - 1, or init where a segment starts at i (heads: the loaded flags). Row j's
  //! first item takes lane - 1's last of row j, lane 0's lane 31's last of row j - 1, or for row 0 the
  //! warp's prefix (absent only before item 0, a head). Rows from the last, so that row j - 1 is still
  //! the inclusive one when row j shifts.
  __device__ void shift_to_exclusive(U (&x)[rows][vec], unsigned heads, const optional_value<T>& warp_prefix) const
  {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const U init   = p.input.init;
#pragma unroll
    for (int j = rows - 1; j >= 0; --j)
    {
      const U given = lane == 31 && j > 0 ? x[j > 0 ? j - 1 : 0][vec - 1] : x[j][vec - 1];
      U before      = shuffle_index(given, (lane + 31) & 31);
      if (j == 0 && lane == 0)
      {
        before = warp_prefix.value.value;
      }
#pragma unroll
      for (int v = vec - 1; v >= 0; --v)
      {
        const U inclusive_before = v > 0 ? x[j][v > 0 ? v - 1 : 0] : before;
        x[j][v]                  = ((heads >> bit(j, v)) & 1u) != 0 ? init : inclusive_before;
      }
    }
  }

  template <bool Full>
  __device__ void store(std::uint64_t tile_base, const U (&x)[rows][vec]) const
  {
    if constexpr (Full && values_rows)
    {
      p.output.template store_values_rows<rows, vec>(static_cast<std::int64_t>(item_index(tile_base, 0, 0)), 32 * vec, x);
    }
    else
    {
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
        const std::uint64_t i0 = item_index(tile_base, j, 0);
        if constexpr (values_rows)
        {
          // A partial tile as load's: each row wholly before n as a full row.
          if (i0 + vec <= p.n)
          {
            p.output.template store_values_rows<1, vec>(static_cast<std::int64_t>(i0), 0,
                                                        reinterpret_cast<const U(&)[1][vec]>(x[j]));
            continue;
          }
        }
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = i0 + static_cast<std::uint64_t>(v);
          if (Full || i < p.n)
          {
            *(p.output + static_cast<std::ptrdiff_t>(i)) = T{x[j][v], false};
          }
        }
      }
    }
  }

  //! agent.cuh's scan_rows over the values, the flags as bits: on return bit b of the word says that a
  //! segment starts between the warp's first item and item b of this thread (the scanned item's head),
  //! so the bits are monotone in the thread's item order. Returns the warp's total (every lane).
  __device__ T scan_rows(U (&x)[rows][vec], unsigned& flags)
  {
    constexpr unsigned full = 0xffffffffu;
    constexpr unsigned row_mask = vec >= 32 ? full : (1u << vec) - 1u;
    const int lane              = static_cast<int>(threadIdx.x % 32);
    const unsigned lanes_below  = (1u << lane) - 1u; // lanes 0 .. lane - 1
    optional_value<T> rows_before{T{x[0][0], false}, false}; // R_0 (+) ... (+) R_{j-1}
    unsigned scanned = 0;
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const unsigned heads = (flags >> bit(j, 0)) & row_mask;
      // s_v: the lane's vector, left to right; a head keeps its own value.
#pragma unroll
      for (int v = 1; v < vec; ++v)
      {
        if (((heads >> v) & 1u) == 0)
        {
          x[j][v] = value_op(x[j][v - 1], x[j][v]);
        }
      }
      // The vector's flags after s_v: a head at or before item v.
      unsigned upto = heads;
#pragma unroll
      for (int shift = 1; shift < vec; shift *= 2)
      {
        upto |= upto << shift;
      }
      upto &= row_mask;
      // The lanes' totals scanned (agent.cuh's shuffle scan); a lane's total has a head where its
      // vector has one, and before the step of `offset` it covers lanes lane - offset + 1 .. lane.
      const unsigned lane_heads = __ballot_sync(full, heads != 0);
      // This lane's and the lanes' below it: a total covering lanes lane - offset + 1 .. lane has a
      // head where `upto_lane >> (lane - offset + 1)` is not 0.
      const unsigned upto_lane = lane_heads & (lanes_below | (1u << lane));
      U t                      = x[j][vec - 1];
#pragma unroll
      for (int offset = 1; offset < 32; offset *= 2)
      {
        const U below = shuffle_up(t, offset);
        if (lane >= offset && (upto_lane >> (lane - offset + 1)) == 0)
        {
          t = value_op(below, t);
        }
      }
      const T row_total{shuffle_index(t, 31), lane_heads != 0};
      const T lane_below{shuffle_up(t, 1), (lane_heads & lanes_below) != 0};
      optional_value<T> z = rows_before;
      if (lane > 0)
      {
        fold_into(z, lane_below);
      }
      if (z.has)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          if (((upto >> v) & 1u) == 0)
          {
            x[j][v] = value_op(z.value.value, x[j][v]);
          }
        }
        if (z.value.head)
        {
          upto = row_mask;
        }
      }
      scanned |= upto << bit(j, 0);
      fold_into(rows_before, row_total);
    }
    flags = scanned;
    return rows_before.value;
  }

  __device__ T tile_aggregate(const T* totals)
  {
    T aggregate = totals[0];
    for (int k = 1; k < warps; ++k)
    {
      aggregate = combine(aggregate, totals[k]);
    }
    return aggregate;
  }

  //! Tile 0's inclusive prefix (no initial value), others' aggregate.
  __device__ void publish_aggregate(std::uint64_t tile, const T& aggregate)
  {
    if (tile == 0)
    {
      if (p.tiles > 1)
      {
        p.state.publish(0, tile_status::inclusive, aggregate);
      }
    }
    else
    {
      p.state.publish(static_cast<std::size_t>(tile), tile_status::aggregate, aggregate);
    }
  }

  //! P_w from the tile's prefix (absent for tile 0) and the earlier warps' totals, combined into the
  //! items whose flag is clear (a flagged item's segment starts inside the warp). Returns P_w.
  __device__ optional_value<T> add_prefix(U (&x)[rows][vec], unsigned flags, optional_value<T> prefix, const T* totals)
  {
    const int warp = static_cast<int>(threadIdx.x / 32);
    for (int k = 0; k < warp; ++k)
    {
      fold_into(prefix, totals[k]);
    }
    if (prefix.has)
    {
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          if (((flags >> bit(j, v)) & 1u) == 0)
          {
            x[j][v] = value_op(prefix.value.value, x[j][v]);
          }
        }
      }
    }
    return prefix;
  }

  __device__ unsigned lookback_delay(unsigned delay_ns) const
  {
    return p.tiles > gridDim.x ? delay_ns : 0u;
  }

  //! One tile in order (agent.cuh's process, the same barriers).
  template <bool Full>
  __device__ void process(std::uint64_t tile)
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    const int warp                = static_cast<int>(threadIdx.x / 32);
    const int lane                = static_cast<int>(threadIdx.x % 32);
    U x[rows][vec];
    unsigned flags = load<Full>(tile_base, x);
    if constexpr (shift_results)
    {
      // The loaded heads wait in shared memory until the shift (kept in a register across warp 0's
      // look-back they cost stack: docs/design/scan.md, variants).
      fold_init(x, flags);
      smem.heads[threadIdx.x] = flags;
    }
    const T warp_total = scan_rows(x, flags);
    if (lane == 0)
    {
      ::new (static_cast<void*>(smem.warp_totals.data() + warp)) T(warp_total);
    }
    __syncthreads();

    if (warp == 0)
    {
      if constexpr (stash_items)
      {
        U* const stash = reinterpret_cast<U*>(smem.stash);
#pragma unroll
        for (int j = 0; j < rows; ++j)
        {
#pragma unroll
          for (int v = 0; v < vec; ++v)
          {
            ::new (static_cast<void*>(stash + bit(j, v) * 32 + lane)) U(x[j][v]);
          }
        }
        __syncwarp();
      }
      const T aggregate = tile_aggregate(smem.warp_totals.data());
      if (lane == 0)
      {
        publish_aggregate(tile, aggregate);
      }
      if (tile != 0)
      {
        const T exclusive = warp_lookback_fold<exact, fold_windows>(
          p.state, static_cast<std::size_t>(tile), op, aggregate, smem.window.data(),
          lookback_delay(lookback_delay_for<T, Tuning>));
        if (lane == 0)
        {
          ::new (static_cast<void*>(smem.exclusive.data())) T(exclusive);
        }
      }
      if constexpr (stash_items)
      {
        __syncwarp();
        const U* const stash = reinterpret_cast<const U*>(smem.stash);
#pragma unroll
        for (int j = 0; j < rows; ++j)
        {
#pragma unroll
          for (int v = 0; v < vec; ++v)
          {
            x[j][v] = stash[bit(j, v) * 32 + lane];
          }
        }
      }
    }
    __syncthreads();

    optional_value<T> prefix{T{x[0][0], false}, false};
    if (tile > 0)
    {
      prefix = {smem.exclusive.data()[0], true};
    }
    const optional_value<T> warp_prefix = add_prefix(x, flags, prefix, smem.warp_totals.data());
    if constexpr (shift_results)
    {
      shift_to_exclusive(x, smem.heads[threadIdx.x], warp_prefix);
    }
    store<Full>(tile_base, x);
  }

  __device__ std::uint64_t tiles() const
  {
    return p.tiles;
  }
  __device__ unsigned long long* tile_counter() const
  {
    return p.tile_counter;
  }
  __device__ bool full_tile(std::uint64_t tile) const
  {
    return (tile + 1) * shape::tile_items <= p.n;
  }

  __device__ void run()
  {
    run_tiles_in_order(*this, smem.tile_slot);
  }
};

//! The agent a scan kernel over items of T under Op runs (kernels.cuh): segmented_agent for the scans
//! by key (where a thread's items fit one flag word), agent.cuh's agent otherwise.
template <class T, class Tuning, class Mode, class InputIt, class OutputIt, class Op, bool Pipelined>
struct agent_choice
{
  using type = agent<T, Tuning, Mode, InputIt, OutputIt, Op, Pipelined>;
};
template <class U, class Tuning, class Mode, class InputIt, class OutputIt, class UserOp>
struct agent_choice<segment_item<U>, Tuning, Mode, InputIt, OutputIt, segmented_op<U, UserOp>, false>
{
  using shape = tile_shape<segment_item<U>, Tuning, false>;
  using type  = std::conditional_t<segment_flag_words<Tuning> && !Mode::exclusive && !Mode::has_init && !shape::vectorizable
                                     && shape::rows * shape::vec <= 32,
                                  segmented_agent<U, Tuning, Mode, InputIt, OutputIt, UserOp>,
                                  agent<segment_item<U>, Tuning, Mode, InputIt, OutputIt, segmented_op<U, UserOp>, false>>;
};
template <class T, class Tuning, class Mode, class InputIt, class OutputIt, class Op, bool Pipelined>
using agent_for = typename agent_choice<T, Tuning, Mode, InputIt, OutputIt, Op, Pipelined>::type;

} // namespace scan_impl
} // namespace detail
} // namespace sweep
