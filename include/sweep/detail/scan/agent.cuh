// The block-level steps of sweep's scan over one tile: load, scan the tile in a fixed order, look
// back for the tile's prefix (lookback.cuh, warp_lookback_fold), add it and store. Inclusive and
// exclusive, with or without an initial value, under any associative operator (commutative or not);
// for floating point the association is fixed, so results are bitwise the same on every run.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/pipeline.cuh>
#include <sweep/detail/lookback/value_tile_state.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/util/warp_shuffle.cuh>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! Which scan: exclusive (item i gets init (+) x_0 .. x_{i-1}) or inclusive (x_0 .. x_i, after init
//! where there is one).
template <bool Exclusive, bool HasInit>
struct scan_mode
{
  static_assert(!Exclusive || HasInit, "an exclusive scan has an initial value");
  static constexpr bool exclusive = Exclusive;
  static constexpr bool has_init  = HasInit;
};

//! True when It is `U*` or `const U*` with U == T.
template <class It, class T>
inline constexpr bool is_pointer_to_v =
  std::is_pointer<It>::value && std::is_same<std::remove_cv_t<std::remove_pointer_t<It>>, T>::value;

//! Iterators that load or store rows of Vec consecutive items themselves (the scans by key,
//! by_key.cuh; reduce_by_key): `It::row_access` is true; `it.load_rows<Rows, Vec>(first, stride,
//! items)` loads rows j = 0 .. Rows - 1 of a full tile, items first + j * stride .. + Vec - 1 (first a
//! multiple of Vec), and `it.store_rows<Rows, Vec>(first, stride, items)` stores them.
template <class It, class = void>
inline constexpr bool has_row_access = false;
template <class It>
inline constexpr bool has_row_access<It, std::enable_if_t<It::row_access>> = true;

//! Outputs that stage a full tile's results in shared memory and write them out together
//! (reduce_by_key's run_output; its store_tile says how): `It::stages_tiles` is true, and
//! `It::tile_stage<Cap, BlockThreads>` is the shared memory, plan_tile_stage fills its plan.
template <class It, class = void>
inline constexpr bool has_tile_stage = false;
template <class It>
inline constexpr bool has_tile_stage<It, std::enable_if_t<It::stages_tiles>> = true;

//! Everything the kernel reads, by value.
template <class InputIt, class OutputIt, class T, class Op>
struct kernel_params
{
  InputIt input;
  OutputIt output;
  Op op;
  T init; //!< used where the mode has an initial value
  std::uint64_t n;
  std::uint64_t tiles;
  value_tile_state<T> state;          //!< unused for a lone tile
  unsigned long long* tile_counter;   //!< unused for a lone tile
  bool vector_loads;                  //!< input is a T pointer, 16-byte aligned (checked on the host)
  bool vector_stores;                 //!< output is a T pointer, 16-byte aligned
  //! Bytes the input lies past a 16-byte boundary, a multiple of 4, where the specialised schedule
  //! copies the tiles of a misaligned contiguous input (copy_tile); 0 otherwise.
  std::uint32_t input_shift;
  //! Words of the thread's other call_scratch half that the kernel zeroes for the thread's next scan
  //! (clear_ahead; dispatch.cuh), clear_count of them; none where clear_count is 0.
  unsigned long long* clear_words;
  std::uint32_t clear_count;
};

//! A value that may be absent (operators need not have an identity): `has` false means "nothing yet",
//! and combining with it gives the other operand.
template <class T>
struct optional_value
{
  T value;
  bool has;
};

//! The block-level steps of a scan over tiles of T under Tuning. Pipelined: the kernel has the
//! specialised schedule (plan.hpp, has_pipeline), which it runs where the host launched it with the
//! slots (run_specialized); otherwise, and always without it, it runs in order (run).
template <class T, class Tuning, class Mode, class InputIt, class OutputIt, class Op, bool Pipelined = false>
struct agent
{
  using shape                          = tile_shape<T, Tuning, Pipelined>;
  using params_t                       = kernel_params<InputIt, OutputIt, T, Op>;
  static constexpr int block_threads   = shape::block_threads;
  static constexpr int warps           = shape::warps;
  static constexpr int rows            = shape::rows;
  static constexpr int vec             = shape::vec;
  static constexpr int fold_windows    = shape::fold_windows;
  //! Integer values: every association gives the same result, so the look-back may combine windows
  //! as it finds them (lookback.cuh). Anything else folds strictly in tile order.
  static constexpr bool exact = !folds_in_order<T>;
  static constexpr bool vector_input  = shape::vectorizable && is_pointer_to_v<InputIt, T>;
  static constexpr bool vector_output = shape::vectorizable && std::is_same<OutputIt, T*>::value;
  static_assert(!shape::vectorizable || vec * sizeof(T) == row_bytes, "scan: a row is one 16-byte vector of items");

  //! Raw storage (T need not be trivially default-constructible to live in registers, but __shared__
  //! variables cannot have constructors).
  template <int N>
  struct alignas(alignof(T) < 16 ? 16 : alignof(T)) raw_values
  {
    unsigned char bytes[N * sizeof(T)];
    __device__ T* data() { return reinterpret_cast<T*>(bytes); }
  };

  //! The in-order schedule stages full tiles where the output can (has_tile_stage) and the tuning gives
  //! the stage room (Tuning::runs_stage_items: reduce_by_key's run items), for scans without an
  //! initial value (the plan counts from the tile's prefix, none for tile 0). The plan is made by lane 0
  //! of warp 0, thread 0, from its first item x[0][0]: the tile's first item, which scan_rows leaves
  //! as loaded in an inclusive scan (no initial value: inclusive).
  static constexpr bool stages = has_tile_stage<OutputIt> && !Pipelined && !Mode::has_init && Tuning::runs_stage_items > 0;

  struct core_storage
  {
    raw_values<warps> warp_totals;
    raw_values<1> exclusive;
    raw_values<exact ? 1 : fold_windows * 32> window;
    unsigned long long tile_slot;
  };
  //! The core and the output's tile stage (instantiated only where the agent stages).
  template <class Out>
  struct staged_storage : core_storage
  {
    typename Out::template tile_stage<Tuning::runs_stage_items, shape::block_threads> stage;
  };
  using shared_storage = std::conditional_t<stages, staged_storage<OutputIt>, core_storage>;

  const params_t& p;
  shared_storage& smem;
  Op op; // a mutable copy: like Thrust, operators whose operator() is not const are accepted

  __device__ agent(const params_t& params, shared_storage& storage)
      : p(params)
      , smem(storage)
      , op(params.op)
  {}

  __device__ T combine(const T& a, const T& b)
  {
    return static_cast<T>(op(a, b));
  }
  __device__ void fold_into(optional_value<T>& acc, const T& x)
  {
    acc.value = acc.has ? combine(acc.value, x) : x;
    acc.has   = true;
  }

  //! Index of this thread's item v of row j in a tile starting at tile_base.
  __device__ static std::uint64_t item_index(std::uint64_t tile_base, int j, int v)
  {
    const std::uint64_t warp = threadIdx.x / 32;
    const std::uint64_t lane = threadIdx.x % 32;
    return tile_base + warp * shape::warp_items + static_cast<std::uint64_t>(j) * (32 * vec) + lane * vec
         + static_cast<std::uint64_t>(v);
  }

  //! Offset of this thread's row j from its tile's first item.
  __device__ static unsigned row_offset(int j)
  {
    return (threadIdx.x / 32) * static_cast<unsigned>(shape::warp_items) + static_cast<unsigned>(j) * (32 * vec)
         + (threadIdx.x % 32) * vec;
  }

  //! f(j, v, i) for each item v before n of this thread's row j that n cuts (a row that starts before
  //! n and ends past it; at most one a thread), i its index; `valid` = n - tile_base.
  template <class F>
  __device__ static void for_cut_row(std::uint64_t tile_base, unsigned valid, F&& f)
  {
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const unsigned o = row_offset(j);
      if (o < valid && o + vec > valid)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          if (o + v < valid)
          {
            f(j, v, tile_base + o + v);
          }
        }
      }
    }
  }

  //! Loads this thread's items. Full: every item of the tile exists. A partial tile (the last) fills
  //! the items past the end with copies of the tile's first item, which only ever combine into
  //! results nobody stores (the scan runs left to right and they are on the right).
  template <bool Full>
  __device__ void load(std::uint64_t tile_base, T (&x)[rows][vec]) const
  {
    if constexpr (vector_input)
    {
      if (p.vector_loads)
      {
        const uint4* const chunks = reinterpret_cast<const uint4*>(p.input);
        if constexpr (Full)
        {
#pragma unroll
          for (int j = 0; j < rows; ++j)
          {
            // Read-only until this thread stores the same items (in place) at the end of the tile:
            // the non-coherent path.
            const uint4 raw = __ldg(chunks + item_index(tile_base, j, 0) / vec);
            std::memcpy(&x[j][0], &raw, sizeof(raw));
          }
        }
        else
        {
          // Every row as one vector or the tile's first item, then the row that n cuts patched.
          // Offsets within the tile in 32 bits.
          const unsigned valid = static_cast<unsigned>(p.n - tile_base);
          T fill[vec];
          const T first = p.input[tile_base];
#pragma unroll
          for (int v = 0; v < vec; ++v)
          {
            fill[v] = first;
          }
          uint4 fill_raw;
          std::memcpy(&fill_raw, fill, sizeof(fill_raw));
#pragma unroll
          for (int j = 0; j < rows; ++j)
          {
            const unsigned o = row_offset(j);
            const uint4 raw  = o + vec <= valid ? __ldg(chunks + (tile_base + o) / vec) : fill_raw;
            std::memcpy(&x[j][0], &raw, sizeof(raw));
          }
          for_cut_row(tile_base, valid, [&](int j, int v, std::uint64_t i) { x[j][v] = p.input[i]; });
        }
        return;
      }
    }
    if constexpr (Full && has_row_access<InputIt>)
    {
      // Every row at once (the rows' loads all issued before any is used).
      p.input.template load_rows<rows, vec>(static_cast<std::int64_t>(item_index(tile_base, 0, 0)), 32 * vec, x);
    }
    else if constexpr (Full)
    {
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          x[j][v] = *(p.input + static_cast<std::ptrdiff_t>(item_index(tile_base, j, v)));
        }
      }
    }
    else
    {
      const T first = *(p.input + static_cast<std::ptrdiff_t>(tile_base));
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = item_index(tile_base, j, v);
          if (i < p.n)
          {
            x[j][v] = *(p.input + static_cast<std::ptrdiff_t>(i));
          }
          else
          {
            x[j][v] = first;
          }
        }
      }
    }
  }

  template <bool Full>
  __device__ void store(std::uint64_t tile_base, const T (&x)[rows][vec]) const
  {
    if constexpr (vector_output)
    {
      if (p.vector_stores)
      {
        uint4* const chunks = reinterpret_cast<uint4*>(p.output);
        if constexpr (Full)
        {
#pragma unroll
          for (int j = 0; j < rows; ++j)
          {
            uint4 raw;
            std::memcpy(&raw, &x[j][0], sizeof(raw));
            chunks[item_index(tile_base, j, 0) / vec] = raw;
          }
        }
        else
        {
          // Each row wholly before n as one vector, then the row that n cuts item by item.
          const unsigned valid = static_cast<unsigned>(p.n - tile_base);
#pragma unroll
          for (int j = 0; j < rows; ++j)
          {
            const unsigned o = row_offset(j);
            if (o + vec <= valid)
            {
              uint4 raw;
              std::memcpy(&raw, &x[j][0], sizeof(raw));
              chunks[(tile_base + o) / vec] = raw;
            }
          }
          for_cut_row(tile_base, valid, [&](int j, int v, std::uint64_t i) { p.output[i] = x[j][v]; });
        }
        return;
      }
    }
    if constexpr (Full && has_row_access<OutputIt>)
    {
      p.output.template store_rows<rows, vec>(static_cast<std::int64_t>(item_index(tile_base, 0, 0)), 32 * vec, x);
    }
    else
    {
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = item_index(tile_base, j, v);
          if (Full || i < p.n)
          {
            *(p.output + static_cast<std::ptrdiff_t>(i)) = x[j][v];
          }
        }
      }
    }
  }

  //! The association of every result is fixed by the tile shape alone:
  //!   item = P_w (+) (Z_j (+) s_v),   Z_j = (R_0 (+) ... (+) R_{j-1}) (+) L_j,
  //!   P_w  = (...(P_tile (+) W_0) ... ) (+) W_{w-1}
  //! with s_v this lane's sequential scan of its vector of row j up to item v (exclusive: up to v - 1),
  //! L_j the inclusive shuffle scan of row j's lane totals before this lane, R the totals of the
  //! warp's earlier rows, W the totals of the earlier warps (W = R_0 (+) ... (+) R_{rows-1}), and
  //! P_tile the tile's prefix (the strict fold of the earlier tiles' aggregates, lookback.cuh). The
  //! tile's aggregate, which successors fold, is W_0 (+) ... (+) W_{warps-1}. Absent operands (no
  //! earlier lane, row, warp or tile, no initial value) are left out: operators need no identity.
  //! Each thread folds Z_j into its items before the tile's prefix is known (scan_rows), so that only
  //! its items stay live across the look-back (registers), and one operation an item remains after it
  //! (add_prefix). Both schedules run these two halves, so their results are the same bits.

  //! The first half: this thread's items scanned within the warp (s_v and Z_j folded in); returns the
  //! warp's total W (every lane).
  __device__ T scan_rows(T (&x)[rows][vec])
  {
    const int lane = static_cast<int>(threadIdx.x % 32);
    optional_value<T> rows_before{x[0][0], false}; // R_0 (+) ... (+) R_{j-1}
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
#pragma unroll
      for (int v = 1; v < vec; ++v)
      {
        x[j][v] = combine(x[j][v - 1], x[j][v]);
      }
      T t = x[j][vec - 1];
#pragma unroll
      for (int offset = 1; offset < 32; offset *= 2)
      {
        const T below = shuffle_up(t, offset);
        if (lane >= offset)
        {
          t = combine(below, t);
        }
      }
      const T row_total  = shuffle_index(t, 31);
      const T lane_below = shuffle_up(t, 1);
      optional_value<T> z = rows_before;
      if (lane > 0)
      {
        fold_into(z, lane_below);
      }
      if constexpr (Mode::exclusive)
      {
        // Where z is absent (lane 0 of row 0) item 0 stays unset here: it becomes P_w in add_prefix.
#pragma unroll
        for (int v = vec - 1; v > 0; --v)
        {
          x[j][v] = z.has ? combine(z.value, x[j][v - 1]) : x[j][v - 1];
        }
        if (z.has)
        {
          x[j][0] = z.value;
        }
      }
      else if (z.has)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          x[j][v] = combine(z.value, x[j][v]);
        }
      }
      fold_into(rows_before, row_total);
    }
    return rows_before.value;
  }

  //! The tile's aggregate W_0 (+) ... (+) W_{warps-1} from the warps' totals.
  __device__ T tile_aggregate(const T* totals)
  {
    T aggregate = totals[0];
    for (int k = 1; k < warps; ++k)
    {
      aggregate = combine(aggregate, totals[k]);
    }
    return aggregate;
  }

  //! Publishes tile `tile`'s aggregate for its successors (one thread; a lone tile has no tile state):
  //! tile 0's inclusive prefix (the initial value folded in), others' aggregate.
  __device__ void publish_aggregate(std::uint64_t tile, const T& aggregate)
  {
    if (tile == 0)
    {
      if (p.tiles > 1)
      {
        if constexpr (Mode::has_init)
        {
          p.state.publish(0, tile_status::inclusive, combine(p.init, aggregate));
        }
        else
        {
          p.state.publish(0, tile_status::inclusive, aggregate);
        }
      }
    }
    else
    {
      p.state.publish(static_cast<std::size_t>(tile), tile_status::aggregate, aggregate);
    }
  }

  //! The second half: P_w from the tile's prefix (absent for tile 0 without an initial value) and the
  //! totals of the earlier warps, combined into this thread's items.
  __device__ void add_prefix(T (&x)[rows][vec], optional_value<T> prefix, const T* totals)
  {
    const int warp = static_cast<int>(threadIdx.x / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
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
          x[j][v] = combine(prefix.value, x[j][v]);
        }
      }
      if constexpr (Mode::exclusive)
      {
        if (lane == 0)
        {
          x[0][0] = prefix.value; // an exclusive scan always has a prefix: its initial value at least
        }
      }
    }
  }

  //! Where blocks loop over tiles (more tiles than blocks), the look-back sleeps this long before its
  //! first poll.
  __device__ unsigned lookback_delay(unsigned delay_ns) const
  {
    return p.tiles > gridDim.x ? delay_ns : 0u;
  }

  //! In order, one tile: load, scan_rows, the warps' totals in shared memory, warp 0 publishes the
  //! aggregate and looks back, add_prefix, store.
  //! Sync points: the warps' totals are in shared memory before the first barrier, the tile's prefix
  //! before the second; both are read after it. The caller's barrier (block_next_tile) separates
  //! those reads from the next tile's writes.
  template <bool Full>
  __device__ void process(std::uint64_t tile)
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    const int warp                = static_cast<int>(threadIdx.x / 32);
    const int lane                = static_cast<int>(threadIdx.x % 32);
    T x[rows][vec];
    load<Full>(tile_base, x);
    const T warp_total = scan_rows(x);
    if (lane == 0)
    {
      ::new (static_cast<void*>(smem.warp_totals.data() + warp)) T(warp_total);
    }
    __syncthreads();

    // Warp 0: the tile's aggregate, published at once; then its prefix (and a staged tile's plan).
    if (warp == 0)
    {
      const T aggregate = tile_aggregate(smem.warp_totals.data());
      if (lane == 0)
      {
        publish_aggregate(tile, aggregate);
      }
      if (tile == 0)
      {
        if constexpr (Mode::has_init)
        {
          if (lane == 0)
          {
            ::new (static_cast<void*>(smem.exclusive.data())) T(p.init);
          }
        }
        if constexpr (stages && Full)
        {
          if (lane == 0)
          {
            OutputIt::template plan_tile_stage<block_threads>(smem.stage, x[0][0], aggregate, nullptr);
          }
        }
      }
      else
      {
        const T exclusive = warp_lookback_fold<exact, fold_windows>(
          p.state, static_cast<std::size_t>(tile), op, aggregate, smem.window.data(),
          lookback_delay(lookback_delay_for<T, Tuning>));
        if (lane == 0)
        {
          ::new (static_cast<void*>(smem.exclusive.data())) T(exclusive);
          if constexpr (stages && Full)
          {
            OutputIt::template plan_tile_stage<block_threads>(smem.stage, x[0][0], aggregate, &exclusive);
          }
        }
      }
    }
    __syncthreads();

    optional_value<T> prefix{x[0][0], false};
    if (tile > 0 || Mode::has_init)
    {
      prefix = {smem.exclusive.data()[0], true};
    }
    add_prefix(x, prefix, smem.warp_totals.data());
    if constexpr (stages && Full)
    {
      p.output.template store_tile<block_threads, shape::tile_items>(
        static_cast<std::int64_t>(tile_base), static_cast<std::int64_t>(item_index(tile_base, 0, 0)), 32 * vec, x, smem.stage);
    }
    else
    {
      store<Full>(tile_base, x);
    }
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

  //! The in-order schedule (lookback/pipeline.cuh): tiles from the call's counter one after another.
  //! process's barriers separate each tile's reads of the ticket word from the next one's write.
  __device__ void run()
  {
    run_tiles_in_order(*this, smem.tile_slot);
  }

  // --- The specialised schedule's tile step (lookback/pipeline.cuh, specialized_pipeline): the tile
  // --- threads scan a tile in its slot (scan_rows), keep the scanned items and the warps' totals
  // --- there and hand the aggregate to the look-back warp; a step later they add the prefix it found
  // --- (add_prefix) and store.
  static constexpr int slots              = Tuning::pipeline_slots;
  static constexpr int tile_threads       = block_threads;
  static constexpr std::uint32_t tile_bytes = static_cast<std::uint32_t>(shape::tile_items * sizeof(T));
  using aggregate_t                       = T;
  using prefix_t                          = T;
  using extra_t                           = pipeline_no_extra;
  struct reduced_t
  {
    T x[rows][vec];
    T aggregate; //!< thread 0's
  };

  //! Slot s: the tile's items (the copy engine's bytes, then the scanned items in the same places; a
  //! misaligned input's tile input_shift bytes further, with the chunks around it: copy_tile), one
  //! chunk more, then the warps' totals.
  __device__ static unsigned char* slot(unsigned char* dynamic, int s)
  {
    return dynamic + static_cast<std::size_t>(s) * pipeline_slot_bytes<T, Tuning>;
  }
  __device__ static T* slot_totals(unsigned char* slot_bytes)
  {
    return reinterpret_cast<T*>(slot_bytes + tile_bytes + row_bytes);
  }
  //! This thread's row j in a slot: the 16-byte chunk of its items (item_index's order).
  __device__ static uint4* slot_chunk(unsigned char* slot_bytes, int j)
  {
    return reinterpret_cast<uint4*>(slot_bytes) + item_index(0, j, 0) / vec;
  }
  __device__ static void read_slot(unsigned char* slot_bytes, T (&x)[rows][vec])
  {
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const uint4 raw = *slot_chunk(slot_bytes, j);
      std::memcpy(&x[j][0], &raw, sizeof(raw));
    }
  }
  __device__ static void write_slot(unsigned char* slot_bytes, const T (&x)[rows][vec])
  {
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      uint4 raw;
      std::memcpy(&raw, &x[j][0], sizeof(raw));
      *slot_chunk(slot_bytes, j) = raw;
    }
  }

  //! A misaligned input (input_shift > 0): the 16-byte chunks that hold full tile t's items, tile_bytes
  //! + 16 bytes from the chunk of its first item, lie within the input (so not tile 0, whose first
  //! chunk starts before it, nor a tile whose last chunk passes its end). Such a tile is copied with
  //! the bytes around it (its item 0 at slot byte input_shift); the others the tile threads load
  //! themselves. The tiles stay where they are (item t * tile_items on), so the association of every
  //! result, and a float scan's bits, do not depend on the input's alignment.
  __device__ bool shifted_copy(std::uint64_t t) const
  {
    const std::uint64_t chunks_end = (t + 1) * shape::tile_items * sizeof(T) + static_cast<std::uint64_t>(row_bytes)
                                   - p.input_shift; // bytes from the input's first item
    return t > 0 && chunks_end <= p.n * sizeof(T);
  }

  //! Producer: full tile t's bytes into the slot (a misaligned input: with the chunks around them, where
  //! shifted_copy; none elsewhere, and the tile threads load the tile).
  __device__ bool copy_tile(std::uint64_t t, unsigned char* slot_bytes, bulk_barrier& full) const
  {
    if constexpr (Pipelined)
    {
      if (p.input_shift == 0)
      {
        bulk_expect_bytes(full, tile_bytes);
        bulk_copy_to_shared(slot_bytes, p.input + t * shape::tile_items, tile_bytes, full);
        return true;
      }
      if (!shifted_copy(t))
      {
        return false;
      }
      const unsigned char* const first = reinterpret_cast<const unsigned char*>(p.input + t * shape::tile_items);
      bulk_expect_bytes(full, tile_bytes + static_cast<std::uint32_t>(row_bytes));
      bulk_copy_to_shared(slot_bytes, first - p.input_shift, tile_bytes + static_cast<std::uint32_t>(row_bytes), full);
      return true;
    }
    else
    {
      return false;
    }
  }

  //! This thread's rows of a tile copied with input_shift bytes before its item 0 (shifted_copy): row j
  //! is the 4-byte words input_shift / 4 .. + 3 of the two aligned chunks from its place (slot_chunk).
  __device__ void read_slot_shifted(unsigned char* slot_bytes, T (&x)[rows][vec]) const
  {
    const std::uint32_t k = p.input_shift / 4; // 1, 2 or 3
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const uint4* const c = slot_chunk(slot_bytes, j);
      const uint4 lo       = c[0];
      const uint4 hi       = c[1];
      uint4 raw;
      raw.x = k == 1 ? lo.y : k == 2 ? lo.z : lo.w;
      raw.y = k == 1 ? lo.z : k == 2 ? lo.w : hi.x;
      raw.z = k == 1 ? lo.w : k == 2 ? hi.x : hi.y;
      raw.w = k == 1 ? hi.x : k == 2 ? hi.y : hi.z;
      std::memcpy(&x[j][0], &raw, sizeof(raw));
    }
  }

  //! Tile threads: tile t's items (a full tile from its slot, a partial one from the input) scanned
  //! within their warps, the warps' totals in the slot; after the tile barrier thread 0 folds the
  //! aggregate and publishes it.
  template <bool Full>
  __device__ reduced_t reduce(std::uint64_t t, unsigned char* slot_bytes, extra_t&, bool)
  {
    reduced_t r;
    if constexpr (Full)
    {
      if (p.input_shift == 0)
      {
        read_slot(slot_bytes, r.x);
      }
      else if (shifted_copy(t))
      {
        read_slot_shifted(slot_bytes, r.x);
      }
      else
      {
        load<true>(t * shape::tile_items, r.x); // item by item (vector_loads is false)
      }
    }
    else
    {
      load<false>(t * shape::tile_items, r.x);
    }
    const T warp_total = scan_rows(r.x);
    if (threadIdx.x % 32 == 0)
    {
      ::new (static_cast<void*>(slot_totals(slot_bytes) + threadIdx.x / 32)) T(warp_total);
    }
    block_sync<tile_barrier, block_threads>();
    if (threadIdx.x == 0)
    {
      r.aggregate = tile_aggregate(slot_totals(slot_bytes));
      publish_aggregate(t, r.aggregate);
    }
    return r;
  }
  __device__ static aggregate_t aggregate_of(const reduced_t& r)
  {
    return r.aggregate;
  }
  //! Tile threads: the scanned items back in this thread's places of the slot (only it reads them).
  __device__ void keep(reduced_t& r, std::uint64_t, unsigned char* slot_bytes, extra_t&) const
  {
    write_slot(slot_bytes, r.x);
  }
  //! Tile threads, a step later: the prefix added, the items stored.
  __device__ void finish(std::uint64_t t, unsigned char* slot_bytes, extra_t&, const aggregate_t&, const prefix_t& prefix)
  {
    T x[rows][vec];
    read_slot(slot_bytes, x);
    optional_value<T> tile_prefix{prefix, t > 0 || Mode::has_init};
    add_prefix(x, tile_prefix, slot_totals(slot_bytes));
    if (full_tile(t))
    {
      store<true>(t * shape::tile_items, x);
    }
    else
    {
      store<false>(t * shape::tile_items, x);
    }
  }
  //! Look-back warp: tile t's prefix in lane 0 (tile 0: the initial value, used only where there is
  //! one), its inclusive prefix published.
  __device__ prefix_t look_back(std::uint64_t t, const aggregate_t& aggregate)
  {
    if (t == 0)
    {
      return p.init;
    }
    return warp_lookback_fold<exact, fold_windows, Tuning::pipeline_backoff_ns>(
      p.state, static_cast<std::size_t>(t), op, aggregate, smem.window.data(),
      lookback_delay(Tuning::pipeline_lookback_delay_ns));
  }

  //! The specialised schedule (the block is launched with the slots and two warps more).
  __device__ void run_specialized(unsigned char* dynamic)
  {
    static_assert(Pipelined && vector_input, "scan: the specialised schedule copies tiles of a contiguous input");
    using pipeline = specialized_pipeline<agent>;
    static_assert(sizeof(typename pipeline::sync_t) + slots * pipeline_slot_bytes<T, Tuning>
                    == pipeline_dynamic_bytes_for<T, Tuning, true, schedule_choice::specialized>,
                  "scan: plan.hpp's pipeline_dynamic_bytes_for is this layout");
    pipeline::run(*this, dynamic, slots * pipeline_slot_bytes<T, Tuning>);
  }
};

} // namespace scan_impl
} // namespace detail
} // namespace sweep
