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

//! Iterators that load or store a row of Vec consecutive items themselves (the scans by key:
//! by_key.cuh): `It::row_access` is true and `it.load_row<Vec>(i, items)` / `it.store_row<Vec>(i,
//! items)` move items i .. i + Vec - 1 of a full tile (i a multiple of Vec).
template <class It, class = void>
inline constexpr bool has_row_access = false;
template <class It>
inline constexpr bool has_row_access<It, std::enable_if_t<It::row_access>> = true;

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
};

//! A value that may be absent (operators need not have an identity): `has` false means "nothing yet",
//! and combining with it gives the other operand.
template <class T>
struct optional_value
{
  T value;
  bool has;
};

template <class T, class Tuning, class Mode, class InputIt, class OutputIt, class Op>
struct agent
{
  using shape                          = tile_shape<T, Tuning>;
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

  struct shared_storage
  {
    raw_values<warps> warp_totals;
    raw_values<1> exclusive;
    raw_values<exact ? 1 : fold_windows * 32> window;
    unsigned long long tile_slot;
  };

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

  //! Loads this thread's items. Full: every item of the tile exists. A partial tile (the last) fills
  //! the items past the end with copies of the tile's first item, which only ever combine into
  //! results nobody stores (the scan runs left to right and they are on the right).
  template <bool Full>
  __device__ void load(std::uint64_t tile_base, T (&x)[rows][vec]) const
  {
    if constexpr (vector_input)
    {
      if (Full && p.vector_loads)
      {
        const uint4* const chunks = reinterpret_cast<const uint4*>(p.input);
#pragma unroll
        for (int j = 0; j < rows; ++j)
        {
          // Read-only until this thread stores the same items (in place) at the end of the tile:
          // the non-coherent path.
          const uint4 raw = __ldg(chunks + item_index(tile_base, j, 0) / vec);
          std::memcpy(&x[j][0], &raw, sizeof(raw));
        }
        return;
      }
    }
    if constexpr (Full && has_row_access<InputIt>)
    {
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
        p.input.template load_row<vec>(static_cast<std::int64_t>(item_index(tile_base, j, 0)), x[j]);
      }
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
      if (Full && p.vector_stores)
      {
        uint4* const chunks = reinterpret_cast<uint4*>(p.output);
#pragma unroll
        for (int j = 0; j < rows; ++j)
        {
          uint4 raw;
          std::memcpy(&raw, &x[j][0], sizeof(raw));
          chunks[item_index(tile_base, j, 0) / vec] = raw;
        }
        return;
      }
    }
    if constexpr (Full && has_row_access<OutputIt>)
    {
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
        p.output.template store_row<vec>(static_cast<std::int64_t>(item_index(tile_base, j, 0)), x[j]);
      }
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

  //! One tile. The association of every result is fixed by the tile shape alone:
  //!   item = P_w (+) (Z_j (+) s_v),   Z_j = (R_0 (+) ... (+) R_{j-1}) (+) L_j,
  //!   P_w  = (...(P_tile (+) W_0) ... ) (+) W_{w-1}
  //! with s_v this lane's sequential scan of its vector of row j up to item v (exclusive: up to v - 1),
  //! L_j the inclusive shuffle scan of row j's lane totals before this lane, R the totals of the
  //! warp's earlier rows, W the totals of the earlier warps (W = R_0 (+) ... (+) R_{rows-1}), and
  //! P_tile the tile's prefix (the strict fold of the earlier tiles' aggregates, lookback.cuh). The
  //! tile's aggregate, which successors fold, is W_0 (+) ... (+) W_{warps-1}. Absent operands (no
  //! earlier lane, row, warp or tile, no initial value) are left out: operators need no identity.
  //! Each thread folds Z_j into its items before the tile's prefix is known, so that only its items
  //! stay live across the look-back (registers), and one operation an item remains after it.
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
        // Where z is absent (lane 0 of row 0) item 0 stays unset here: it becomes P_w below.
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
    if (lane == 0)
    {
      ::new (static_cast<void*>(smem.warp_totals.data() + warp)) T(rows_before.value);
    }
    __syncthreads();

    // Warp 0: the tile's aggregate, published at once; then its prefix.
    if (warp == 0)
    {
      const T* const totals = smem.warp_totals.data();
      T aggregate           = totals[0];
      for (int k = 1; k < warps; ++k)
      {
        aggregate = combine(aggregate, totals[k]);
      }
      if (tile == 0)
      {
        if (lane == 0)
        {
          if constexpr (Mode::has_init)
          {
            ::new (static_cast<void*>(smem.exclusive.data())) T(p.init);
            if (p.tiles > 1)
            {
              p.state.publish(0, tile_status::inclusive, combine(p.init, aggregate));
            }
          }
          else if (p.tiles > 1)
          {
            p.state.publish(0, tile_status::inclusive, aggregate);
          }
        }
      }
      else
      {
        if (lane == 0)
        {
          p.state.publish(static_cast<std::size_t>(tile), tile_status::aggregate, aggregate);
        }
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

    optional_value<T> prefix{x[0][0], false}; // P_w
    if (tile > 0 || Mode::has_init)
    {
      prefix = {smem.exclusive.data()[0], true};
    }
    const T* const totals = smem.warp_totals.data();
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
    store<Full>(tile_base, x);
  }

  //! Tiles from the call's counter one after another (a lone tile: tile 0 only, no counter).
  __device__ void run()
  {
    const bool lone    = p.tiles == 1;
    std::uint64_t tile = lone ? 0 : block_next_tile(p.tile_counter, smem.tile_slot);
    while (tile < p.tiles)
    {
      if ((tile + 1) * shape::tile_items <= p.n)
      {
        process<true>(tile);
      }
      else
      {
        process<false>(tile);
      }
      if (lone)
      {
        return;
      }
      // block_next_tile's barrier: every thread has read this tile's shared values before the next
      // tile's warp totals and prefix are written, and the tile index before it is replaced.
      tile = block_next_tile(p.tile_counter, smem.tile_slot);
    }
  }
};

} // namespace scan_impl
} // namespace detail
} // namespace sweep
