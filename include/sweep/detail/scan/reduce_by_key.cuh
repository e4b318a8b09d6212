// reduce_by_key on sweep's scan kernel: one pass that scans (value, head count) items under the
// segmented operator and writes, at the last item of each segment, the segment's reduction and key at
// the segment's index (its head count less one). A segment starts at item 0 and wherever
// !eq(key[i - 1], key[i]) (the sequential definition, also for keys whose equality is not reflexive:
// each NaN key under equal_to is a segment of its own); it ends where the next one starts or at the
// last item. The key written is the segment's last, as stock Thrust's CUDA reduce_by_key writes it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <cuda/std/iterator>

#include <sweep/detail/scan/by_key.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/util/warp_shuffle.cuh>

namespace sweep
{
namespace detail
{
namespace scan_impl
{

//! An item of reduce_by_key: `value` (the accumulator type T) and `count`, u32 or u64:
//!   [tail:1][heads:31 or 63]
//! heads: the segment heads in the range the (scanned) item covers; tail: the item is the last of its
//! segment (an unscanned item's own flag, which the scan keeps: the right operand's). A scanned item
//! with its tail flag set holds its segment's reduction, and its heads are the segment's index + 1.
template <class T, class Count>
struct run_item
{
  T value;
  Count count;
};

template <class Count>
inline constexpr Count run_tail_bit = Count(1) << (8 * sizeof(Count) - 1);

//! The segmented operator over run_items of the user's associative operator Op (a new segment in b:
//! b's value alone). Associative whenever Op is; not commutative.
template <class T, class Count, class Op>
struct run_op
{
  Op op;

  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ run_item<T, Count> operator()(const run_item<T, Count>& a, const run_item<T, Count>& b)
  {
    const Count b_heads = b.count & ~run_tail_bit<Count>;
    return run_item<T, Count>{b_heads != 0 ? b.value : static_cast<T>(op(a.value, b.value)),
                              (a.count & ~run_tail_bit<Count>) + b.count};
  }
};

//! The input of reduce_by_key: item i is (T(values[i]), [tail_i][head_i]) with head_i = i == 0 ||
//! !eq(keys[i - 1], keys[i]) and tail_i = i == n - 1 || !eq(keys[i], keys[i + 1]). Random access by
//! offset and by rows (load_row: the keys and values of a full row as raw vectors, the keys before
//! and after the lane's from the lanes beside it, lanes 0 and 31 from memory).
template <class T, class Count, class KeysIt, class ValuesIt, class Eq>
struct run_input
{
  KeysIt keys;
  ValuesIt values;
  mutable Eq eq;
  std::int64_t n;
  std::int64_t index = 0;
  bool vector_rows   = false; //!< keys and values are 16-byte aligned pointers (checked on the host)

  using key_type   = typename ::cuda::std::iterator_traits<KeysIt>::value_type;
  using value_type = typename ::cuda::std::iterator_traits<ValuesIt>::value_type;
  using item       = run_item<T, Count>;
  static constexpr bool vector_capable = std::is_pointer<KeysIt>::value && std::is_pointer<ValuesIt>::value
                                      && raw_movable<key_type> && raw_movable<value_type>;
  static constexpr bool row_access = true;

  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ bool differ(const key_type& a, const key_type& b) const
  {
    return !static_cast<bool>(eq(a, b));
  }

  __host__ __device__ static item make(const T& value, bool head, bool tail)
  {
    return item{value, static_cast<Count>(head ? 1 : 0) | (tail ? run_tail_bit<Count> : Count(0))};
  }

  //! Rows of a full tile (all 32 lanes of the warp call it together): row j is items i_j .. i_j + Vec
  //! - 1, i_j = index + first + j * stride. With vectors, every load of every row is issued before any
  //! loaded value is used: the keys and the values as raw vectors, and each lane's key before its
  //! first and after its last (in the lines the lanes beside it load). by_key.cuh, load_values_rows,
  //! says why not shuffles.
  template <int Rows, int Vec>
  __device__ void load_rows(std::int64_t first, std::int64_t stride, item (&out)[Rows][Vec]) const
  {
    if constexpr (vector_capable)
    {
      if (vector_rows)
      {
        key_type k[Rows][Vec];
        value_type v[Rows][Vec];
        key_type before[Rows];
        key_type after[Rows];
#pragma unroll
        for (int j = 0; j < Rows; ++j)
        {
          const std::int64_t i = index + first + j * stride;
          load_contiguous(keys + i, k[j]);
          load_contiguous(values + i, v[j]);
        }
#pragma unroll
        for (int j = 0; j < Rows; ++j)
        {
          const std::int64_t i = index + first + j * stride;
          before[j]            = i > 0 ? load_read_only(keys + i - 1) : k[j][0];
          after[j]             = i + Vec < n ? load_read_only(keys + i + Vec) : k[j][Vec - 1];
        }
#pragma unroll
        for (int j = 0; j < Rows; ++j)
        {
          const std::int64_t i = index + first + j * stride;
#pragma unroll
          for (int u = 0; u < Vec; ++u)
          {
            const bool head = u == 0 ? i == 0 || differ(before[j], k[j][0]) : differ(k[j][u > 0 ? u - 1 : 0], k[j][u]);
            const bool tail = u == Vec - 1 ? i + Vec == n || differ(k[j][Vec - 1], after[j])
                                           : differ(k[j][u], k[j][u + 1 < Vec ? u + 1 : u]);
            out[j][u]       = make(static_cast<T>(v[j][u]), head, tail);
          }
        }
        return;
      }
    }
#pragma unroll
    for (int j = 0; j < Rows; ++j)
    {
#pragma unroll
      for (int u = 0; u < Vec; ++u)
      {
        out[j][u] = item_at(index + first + j * stride + u);
      }
    }
  }

  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ item item_at(std::int64_t i) const
  {
    const bool head = i == 0 || differ(keys[i - 1], keys[i]);
    const bool tail = i + 1 == n || differ(keys[i], keys[i + 1]);
    return make(static_cast<T>(values[i]), head, tail);
  }

  __host__ __device__ run_input operator+(std::ptrdiff_t offset) const
  {
    run_input moved = *this;
    moved.index += static_cast<std::int64_t>(offset);
    return moved;
  }
  __host__ __device__ item operator*() const
  {
    return item_at(index);
  }
};

//! The output of reduce_by_key: a scanned item with its tail flag set writes its value to
//! values_out[heads - 1] and the input's key at its index to keys_out[heads - 1]; the last item
//! writes the segment count to *segments. The outputs must not overlap the inputs.
template <class T, class Count, class KeysIt, class KeysOut, class ValuesOut>
struct run_output
{
  KeysIt keys;
  KeysOut keys_out;
  ValuesOut values_out;
  unsigned long long* segments;
  std::int64_t n;
  std::int64_t index = 0;

  using item                           = run_item<T, Count>;
  static constexpr bool vector_capable = false;
  static constexpr bool row_access     = true;

  _CCCL_EXEC_CHECK_DISABLE
  __host__ __device__ void write(std::int64_t i, const item& x) const
  {
    if (x.count & run_tail_bit<Count>)
    {
      const std::int64_t segment = static_cast<std::int64_t>(x.count & ~run_tail_bit<Count>) - 1;
      values_out[segment]        = x.value;
      keys_out[segment]          = keys[i];
      if (i + 1 == n)
      {
        *segments = static_cast<unsigned long long>(segment + 1);
      }
    }
  }

  using key_type = typename ::cuda::std::iterator_traits<KeysIt>::value_type;

  //! Key i (a tail's, to be written): through the read-only path where the keys are a pointer to a
  //! type that moves as raw bytes (the outputs do not overlap the inputs, so nothing the kernel writes
  //! is read this way).
  _CCCL_EXEC_CHECK_DISABLE
  __device__ key_type key_at(std::int64_t i) const
  {
    if constexpr (std::is_pointer<KeysIt>::value && raw_movable<key_type>)
    {
      return load_read_only(keys + i);
    }
    else
    {
      return keys[i];
    }
  }

  using key_out_type   = typename ::cuda::std::iterator_traits<KeysOut>::value_type;
  using value_out_type = typename ::cuda::std::iterator_traits<ValuesOut>::value_type;
  //! Outputs that take a lane's run of Vec consecutive segments as vectors: pointers to the keys' and
  //! the accumulator's own types, which move as raw bytes, where the keys are a pointer too.
  static constexpr bool vector_tails_capable =
    std::is_pointer<KeysIt>::value && std::is_pointer<KeysOut>::value && std::is_pointer<ValuesOut>::value
    && std::is_same<key_out_type, key_type>::value
    && std::is_same<value_out_type, T>::value && raw_movable<key_type> && raw_movable<T>;

  //! Whether N elements at p can move as one load_contiguous / store_contiguous: p aligned to their
  //! bytes, or to 16 where they are more.
  template <int N, class E>
  __device__ static bool contiguous_aligned(const E* p)
  {
    constexpr std::size_t bytes = static_cast<std::size_t>(N) * sizeof(E);
    constexpr std::size_t align = bytes < 16 ? bytes : 16;
    return reinterpret_cast<std::uintptr_t>(p) % align == 0;
  }

  //! Rows of a full tile: row j is items i_j .. i_j + Vec - 1, i_j = index + first + j * stride. A
  //! row's tail keys are all loaded before the row's stores. (Item by item, each key load followed the
  //! stores before it, which the compiler cannot move it above, as the outputs might alias the keys
  //! for all it knows: a memory round trip a tail, 16 a thread's tile at runs of 1; SASS, sm_90. All
  //! of a thread's keys before any store spilled 164 bytes at 64 registers.)
  //!
  //! Where every item of a lane's row ends a segment (runs of 1), its Vec segments are consecutive
  //! (segment, segment + 1, ...), so the lane stores their values and keys as vectors where the
  //! outputs allow it: a warp's store is then 32 lanes' adjacent vectors instead of Vec stores whose
  //! lanes lie Vec items apart (each touching Vec times the sectors it fills): u32/u32 at 2^28, runs
  //! of 1, 2.98-3.01 -> 1.61-1.65 ms on an H100. A warp none of whose lanes has such a row runs the
  //! item-by-item stores alone: the rows' two paths in one loop for every warp cost 3-4% at runs of
  //! 10^5 (0.828-0.842 -> 0.862-0.867 ms), behind this warp-wide test 1.7-1.9% (0.842-0.858).
  template <int Rows, int Vec>
  __device__ void store_rows(std::int64_t first, std::int64_t stride, const item (&in)[Rows][Vec]) const
  {
    if constexpr (vector_tails_capable && Vec > 1)
    {
      bool any = false;
#pragma unroll
      for (int j = 0; j < Rows; ++j)
      {
        any = any || all_tails(in[j]);
      }
      if (__any_sync(0xffffffffu, any))
      {
        store_rows_mixed<Rows, Vec>(first, stride, in);
        return;
      }
    }
#pragma unroll
    for (int j = 0; j < Rows; ++j)
    {
      store_row_items<Vec>(first + j * stride, in[j]);
    }
  }

  //! Rows of a warp where some lane's row ends Vec segments: each such row (where the outputs and the
  //! keys are aligned for it) as vectors, the others item by item.
  template <int Rows, int Vec>
  __device__ void store_rows_mixed(std::int64_t first, std::int64_t stride, const item (&in)[Rows][Vec]) const
  {
#pragma unroll
    for (int j = 0; j < Rows; ++j)
    {
      const std::int64_t i0 = index + first + j * stride;
      bool vec              = false;
      if constexpr (vector_tails_capable && Vec > 1)
      {
        const std::int64_t s0 = static_cast<std::int64_t>(in[j][0].count & ~run_tail_bit<Count>) - 1;
        vec = all_tails(in[j]) && contiguous_aligned<Vec>(values_out + s0) && contiguous_aligned<Vec>(keys_out + s0)
           && contiguous_aligned<Vec>(keys + i0);
      }
      key_type tail_keys[Vec];
      load_tail_keys<Vec>(i0, in[j], !vec, tail_keys);
      if constexpr (vector_tails_capable && Vec > 1)
      {
        if (vec)
        {
          load_contiguous(keys + i0, tail_keys);
        }
      }
      store_tails<Vec>(i0, in[j], !vec, tail_keys);
      if constexpr (vector_tails_capable && Vec > 1)
      {
        if (vec)
        {
          const std::int64_t s0 = static_cast<std::int64_t>(in[j][0].count & ~run_tail_bit<Count>) - 1;
          T v[Vec];
#pragma unroll
          for (int u = 0; u < Vec; ++u)
          {
            v[u] = in[j][u].value;
          }
          store_contiguous(values_out + s0, v);
          store_contiguous(keys_out + s0, tail_keys);
          if (i0 + Vec == n)
          {
            *segments = static_cast<unsigned long long>(s0 + Vec);
          }
        }
      }
    }
  }

  template <int Vec>
  __device__ static bool all_tails(const item (&row)[Vec])
  {
    bool all = true;
#pragma unroll
    for (int u = 0; u < Vec; ++u)
    {
      all = all && (row[u].count & run_tail_bit<Count>) != 0;
    }
    return all;
  }

  //! A row item by item: its tail keys all loaded before its stores.
  template <int Vec>
  __device__ void store_row_items(std::int64_t row_first, const item (&row)[Vec]) const
  {
    key_type tail_keys[Vec];
    load_tail_keys<Vec>(index + row_first, row, true, tail_keys);
    store_tails<Vec>(index + row_first, row, true, tail_keys);
  }

  //! The keys of a row's tails (items i0 .. i0 + Vec - 1), item by item; none where !active.
  template <int Vec>
  __device__ void load_tail_keys(std::int64_t i0, const item (&row)[Vec], bool active, key_type (&tail_keys)[Vec]) const
  {
#pragma unroll
    for (int u = 0; u < Vec; ++u)
    {
      if ((row[u].count & run_tail_bit<Count>) && active)
      {
        tail_keys[u] = key_at(i0 + u);
      }
    }
  }

  //! A row's tails item by item, each value and key at its segment's index (the input's last item
  //! writes the segment count); none where !active.
  template <int Vec>
  __device__ void store_tails(std::int64_t i0, const item (&row)[Vec], bool active, const key_type (&tail_keys)[Vec]) const
  {
#pragma unroll
    for (int u = 0; u < Vec; ++u)
    {
      const item& x = row[u];
      if ((x.count & run_tail_bit<Count>) && active)
      {
        const std::int64_t segment = static_cast<std::int64_t>(x.count & ~run_tail_bit<Count>) - 1;
        values_out[segment]        = x.value;
        keys_out[segment]          = tail_keys[u];
        if (i0 + u + 1 == n)
        {
          *segments = static_cast<unsigned long long>(segment + 1);
        }
      }
    }
  }

  //! A full tile's segments staged in shared memory and written out together (CUB's two-phase
  //! scatter), where the tile ends more segments than the block has threads and at most Cap: each of
  //! a thread's items writes its value and its place in the tile at its segment's place in the stage
  //! (the items that are not tails to the thread's own spare place, Cap + thread, so that no item
  //! branches and no two threads write one place), and after a barrier the block writes the values
  //! and the keys (read again at those places) to consecutive segments. At runs of 8 the item-by-item
  //! stores run a branch an item in nearly every warp (docs/design/compaction.md, "What limits it").
  //! Values that move as raw bytes, up to 8 of them.
  static constexpr bool stages_tiles = raw_movable<T> && sizeof(T) <= 8;

  template <int Cap, int BlockThreads>
  struct tile_stage
  {
    static_assert(Cap > 0 && Cap < 65536, "reduce_by_key: a tile's stage holds up to 65535 segments");
    alignas(16) unsigned char values[(Cap + BlockThreads) * sizeof(T)];
    std::uint16_t places[Cap + BlockThreads]; //!< the tail's item's place in the tile
    Count first;                   //!< heads before the tile's first item and at it: its segment + 1
    unsigned entries;              //!< segments the tile ends where it stages them; 0 where it does not
  };

  //! One thread, once the tile's prefix is known (`prefix`: the scan of the items before the tile, none
  //! for tile 0) and before the barrier after which every thread stores: the tile's first count and the
  //! segments it stages (the segments it ends: its heads, less the first item's segment where that
  //! starts in the tile, plus the last item's where that ends in it), 0 where it stores item by item.
  //! `first_item` is the tile's first item as loaded; the aggregate's tail bit is the tile's last
  //! item's (run_op keeps its right operand's), so no thread notes the tile's edges.
  template <int BlockThreads, int Cap>
  __device__ static void
  plan_tile_stage(tile_stage<Cap, BlockThreads>& stage, const item& first_item, const item& aggregate, const item* prefix)
  {
    const Count before    = prefix != nullptr ? (prefix->count & ~run_tail_bit<Count>) : Count(0);
    const Count heads     = aggregate.count & ~run_tail_bit<Count>;
    const Count head0     = (first_item.count & ~run_tail_bit<Count>) != 0 ? Count(1) : Count(0);
    const Count last_tail = (aggregate.count & run_tail_bit<Count>) != 0 ? Count(1) : Count(0);
    const Count entries   = heads - head0 + last_tail;
    stage.first           = before + head0;
    stage.entries         = entries > static_cast<Count>(BlockThreads) && entries <= static_cast<Count>(Cap)
                            ? static_cast<unsigned>(entries)
                            : 0u;
  }

  //! A full tile's rows (as store_rows takes them; tile_first: the tile's first item, first - tile_first
  //! this thread's first item's place in it), through the stage where plan_tile_stage chose it. The
  //! caller's barrier before the next tile's plan separates this tile's reads of the stage from the
  //! next one's writes.
  template <int BlockThreads, int TileItems, int Cap, int Rows, int Vec>
  __device__ void store_tile(std::int64_t tile_first, std::int64_t first, std::int64_t stride,
                             const item (&in)[Rows][Vec], tile_stage<Cap, BlockThreads>& stage) const
  {
    static_assert(TileItems <= 65536, "reduce_by_key: places in the tile as 16 bits");
    const unsigned entries = stage.entries;
    if (entries == 0)
    {
      store_rows<Rows, Vec>(first, stride, in);
      return;
    }
    const Count first_count = stage.first;
    T* const values         = reinterpret_cast<T*>(stage.values);
    const unsigned place0   = static_cast<unsigned>(first - tile_first);
    const unsigned spare    = static_cast<unsigned>(Cap) + threadIdx.x;
#pragma unroll
    for (int j = 0; j < Rows; ++j)
    {
#pragma unroll
      for (int u = 0; u < Vec; ++u)
      {
        const bool tail   = (in[j][u].count & run_tail_bit<Count>) != 0;
        const unsigned at = tail ? static_cast<unsigned>((in[j][u].count & ~run_tail_bit<Count>) - first_count) : spare;
        values[at]        = in[j][u].value;
        stage.places[at]  = static_cast<std::uint16_t>(place0 + static_cast<unsigned>(j * stride + u));
      }
    }
    const std::int64_t segment0 = static_cast<std::int64_t>(first_count) - 1;
    if (threadIdx.x == BlockThreads - 1 && index + tile_first + TileItems == n)
    {
      *segments = static_cast<unsigned long long>(segment0 + entries);
    }
    __syncthreads();
    for (unsigned k = threadIdx.x; k < entries; k += BlockThreads)
    {
      const std::int64_t segment = segment0 + k;
      values_out[segment]        = values[k];
      keys_out[segment]          = key_at(index + tile_first + stage.places[k]);
    }
  }

  //! Random access (the kernel's per-item stores): `*(output + i) = x`.
  struct cursor
  {
    run_output out;
    __host__ __device__ void operator=(const item& x) const
    {
      out.write(out.index, x);
    }
  };

  __host__ __device__ run_output operator+(std::ptrdiff_t offset) const
  {
    run_output moved = *this;
    moved.index += static_cast<std::int64_t>(offset);
    return moved;
  }
  __host__ __device__ cursor operator*() const
  {
    return cursor{*this};
  }
};

} // namespace scan_impl
} // namespace detail
} // namespace sweep
