// The block-level steps of sweep's copy_if: one pass of stream compaction with decoupled look-back
// (Merrill & Garland 2016, "Single-pass Parallel Prefix Scan with Decoupled Look-back"). Each tile is
// read once, its selected items are ranked with one block scan, its global offset comes from its
// predecessors through the foundation's tile_state, and the selected items are staged in shared
// memory and written out coalesced (kernels.cuh loops a block over tiles; docs/design/copy_if.md).
#pragma once

#include <cub/block/block_scan.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/pipeline.cuh>
#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/copy_if/plan.hpp>
#include <sweep/detail/util/bulk_copy.cuh>
#include <sweep/detail/util/warp_shuffle.cuh>

namespace sweep
{
namespace detail
{
namespace copy_if_impl
{

//! Stencil placeholder of the plain (non-stencil) form.
struct no_stencil
{};

//! Compile-time shape of one kernel instantiation.
//!   LoadVectors:  input is a `const T*` and T is vectorizable: full 16-byte chunks are read with one
//!                 load each (the tiles start `head` items before `first` so every chunk is aligned).
//!   StoreVectors: output is a `T*` of the same vectorizable T: the body of a tile's output range is
//!                 written with aligned 16-byte stores.
//!   Discard:      output is a discard_iterator: only the count is produced.
//!   Schedule:     how blocks go through tiles (tuning.hpp, tile_schedule; plan.hpp, schedule_of):
//!                 `tuned` takes the tuning's choice for the path; tests force each schedule.
//!   Select:       what selects an item (select_kind): the predicate on it (or on its stencil item),
//!                 or the binary predicate on it and the item before (unique).

template <bool LoadVectors,
          bool StoreVectors,
          bool Discard,
          schedule_choice Schedule = schedule_choice::tuned,
          select_kind Select       = select_kind::predicate>
struct kernel_paths
{
  static constexpr bool load_vectors  = LoadVectors;
  static constexpr bool store_vectors = StoreVectors;
  static constexpr bool discard       = Discard;
  static constexpr schedule_choice schedule = Schedule;
  static constexpr select_kind select       = Select;
};

//! The rejected-items output of a kernel that has none (every form but partition's).
struct no_rejected
{};

//! Kernel arguments. `chunks` is only used by the vector load path: the 16-byte-aligned address of
//! virtual item 0 (= first - head).
//! `rejected`: where partition's kernels write the items not selected (stably, after the selected
//! ones of the tiles before: item i of the input that is the k-th rejected goes to rejected[k]);
//! no_rejected elsewhere.
template <class InputIt, class StencilIt, class OutputIt, class Pred, class RejectedIt = no_rejected>
struct kernel_params
{
  InputIt input;
  const uint4* chunks;
  StencilIt stencil;
  OutputIt output;
  Pred pred;
  std::uint64_t head;          //!< virtual items [0, head) lie before `first`: never read
  std::uint64_t virtual_items; //!< head + n
  std::uint64_t tiles;
  tile_state<unsigned long long, tile_ordering::relaxed> state; //!< slot 0 of word_stride slots per tile, cleared to invalid before the launch
  unsigned long long* tile_counter;     //!< zeroed before the launch (unused when tiles == 1)
  unsigned long long* total;            //!< written by the last tile: the number selected (device or
                                        //!< mapped host memory)
  RejectedIt rejected;
};

//! A thread's 1- or 2-byte items, in (row, item) order, packed four or two to a 32-bit word as they
//! were loaded from 16-byte chunks: held as an array of T, every item took a register of its own (64
//! a thread for 1-byte items: 120 registers, one block an SM; docs/design/copy_if.md, variants).
//! Other items are a plain array, T[items]; the free functions below serve both.
template <class T, int Items>
struct packed_items
{
  static_assert(sizeof(T) == 1 || sizeof(T) == 2, "select: packed items are 1 or 2 bytes");
  static constexpr int per_word  = static_cast<int>(4 / sizeof(T));
  static constexpr int item_bits = static_cast<int>(8 * sizeof(T));
  static_assert(Items % per_word == 0, "select: packed items fill whole words");
  std::uint32_t word[Items / per_word];
};

//! Item k in the low bytes of a word (little-endian, as the chunk was loaded). A byte: one byte
//! permute (PRMT) that also zeroes the rest, where a shift and a mask took two for the middle bytes.
template <class T, int Items>
__device__ __forceinline__ T item_at(const packed_items<T, Items>& a, int k)
{
  using P                  = packed_items<T, Items>;
  const std::uint32_t bits = sizeof(T) == 1 ? __byte_perm(a.word[k / P::per_word], 0u, 0x4440u + static_cast<unsigned>(k % P::per_word))
                                            : a.word[k / P::per_word] >> (P::item_bits * (k % P::per_word));
  T x;
  std::memcpy(&x, &bits, sizeof(T));
  return x;
}
template <class T, int Items>
__device__ __forceinline__ T item_at(const T (&a)[Items], int k)
{
  return a[k];
}

template <class T, int Items>
__device__ __forceinline__ void set_item(packed_items<T, Items>& a, int k, const T& x)
{
  using P            = packed_items<T, Items>;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof(T));
  const int shift          = P::item_bits * (k % P::per_word);
  const std::uint32_t keep = ~(((1u << P::item_bits) - 1u) << shift);
  a.word[k / P::per_word]  = (a.word[k / P::per_word] & keep) | (bits << shift);
}
template <class T, int Items, class U>
__device__ __forceinline__ void set_item(T (&a)[Items], int k, U&& x)
{
  a[k] = static_cast<U&&>(x);
}

//! Items [first, first + 16 / sizeof(T)) from one 16-byte chunk.
template <class T, int Items>
__device__ __forceinline__ void set_chunk(packed_items<T, Items>& a, int first, const uint4& raw)
{
  std::memcpy(&a.word[first / packed_items<T, Items>::per_word], &raw, sizeof(raw));
}
template <class T, int Items>
__device__ __forceinline__ void set_chunk(T (&a)[Items], int first, const uint4& raw)
{
  std::memcpy(&a[first], &raw, sizeof(raw));
}

//! Before item-by-item loads: the words of packed items that do not exist are defined.
template <class T, int Items>
__device__ __forceinline__ void clear_items(packed_items<T, Items>& a)
{
#pragma unroll
  for (int w = 0; w < Items / packed_items<T, Items>::per_word; ++w)
  {
    a.word[w] = 0;
  }
}
template <class T, int Items>
__device__ __forceinline__ void clear_items(T (&)[Items])
{}

//! Hides from the compiler that packed words are unchanged since the selection read them, so that it
//! extracts each item again where it is staged instead of keeping every extracted item alive across
//! the block scan (one register an item).
template <class T, int Items>
__device__ __forceinline__ void hide_items(packed_items<T, Items>& a)
{
#pragma unroll
  for (int w = 0; w < Items / packed_items<T, Items>::per_word; ++w)
  {
    asm volatile("" : "+r"(a.word[w]));
  }
}
template <class T, int Items>
__device__ __forceinline__ void hide_items(T (&)[Items])
{}

//! Exclusive sum of one u64 a thread over a block of Threads, and the block's total: a shuffle scan in
//! each warp, then every warp scans the warps' totals at once with shuffles (lane w holds warp w's),
//! where cub::BlockScan's warp-scans variant has every thread walk all the warps' totals (about 90
//! instructions a thread at 16 warps, against about 25 here). One barrier (block_sync<Barrier,
//! Threads>); `warp_totals` (Threads / 32 words of shared memory) may be written again only after a
//! later barrier.
template <int Threads, int Barrier = 0>
__device__ __forceinline__ void block_exclusive_sum(unsigned long long x,
                                                    unsigned long long& exclusive,
                                                    unsigned long long& total,
                                                    unsigned long long (&warp_totals)[Threads / 32])
{
  constexpr int warps     = Threads / 32;
  constexpr unsigned full = 0xffffffffu;
  static_assert(Threads % 32 == 0 && warps <= 32, "select: the warps' totals are scanned by one warp");
  const int lane                 = static_cast<int>(threadIdx.x % 32);
  const int warp                 = static_cast<int>(threadIdx.x / 32);
  unsigned long long inclusive   = x;
#pragma unroll
  for (int d = 1; d < 32; d *= 2)
  {
    const unsigned long long up = __shfl_up_sync(full, inclusive, d);
    inclusive += lane >= d ? up : 0ull;
  }
  if (lane == 31)
  {
    warp_totals[warp] = inclusive;
  }
  block_sync<Barrier, Threads>();
  unsigned long long scanned = lane < warps ? warp_totals[lane] : 0ull;
#pragma unroll
  for (int d = 1; d < warps; d *= 2)
  {
    const unsigned long long up = __shfl_up_sync(full, scanned, d);
    scanned += lane >= d ? up : 0ull;
  }
  total                           = __shfl_sync(full, scanned, warps - 1);
  const unsigned long long before = __shfl_sync(full, scanned, (warp + 31) % 32);
  exclusive                       = (warp == 0 ? 0ull : before) + inclusive - x;
}

//! Shift-right of the 64-bit pair (hi:lo) by `shift` bits (0..31), low word of the result.
__device__ __forceinline__ std::uint32_t funnel_shift(std::uint32_t lo, std::uint32_t hi, unsigned shift)
{
  return __funnelshift_r(lo, hi, shift);
}

//! The block-level steps of copy_if over tiles of items of T under Tuning (the struct the kernel's
//! architecture chose: tuning.hpp, tuning_for).
template <class T, class Tuning, class Paths, class Params, class InputIt, class StencilIt, class OutputIt, class Pred>
struct agent
{
  using shape                        = tile_shape<T, Tuning>;
  static constexpr int block_threads = shape::block_threads;
  static constexpr int rows          = shape::rows;
  static constexpr int vec           = shape::vec;
  static constexpr int items         = shape::items_per_thread;
  static constexpr bool has_stencil  = !std::is_same<StencilIt, no_stencil>::value;
  static constexpr bool need_items   = !Paths::discard || !has_stencil;
  //! Unique: item i is selected where it is the first, or pred(item i - 1, item i) (the caller's
  //! inequality) holds.
  static constexpr bool adjacent = Paths::select == select_kind::adjacent;
  using rejected_t               = decltype(Params::rejected);
  //! Partition: the items not selected are staged after the selected ones and written to p.rejected.
  static constexpr bool two_outputs = !std::is_same<rejected_t, no_rejected>::value;
  static_assert(!adjacent || !has_stencil, "select: unique selects on the items themselves");
  static_assert(!two_outputs || !Paths::discard, "select: partition writes both outputs");

  static_assert(items <= 64, "select: one thread's selection flags must fit one 64-bit mask");
  //! One bit an item: 32 bits where that holds them on the vector path for items of up to 8 bytes
  //! (measured with stage_first), 64 elsewhere.
  using mask_type =
    std::conditional_t<(items <= 32 && Paths::load_vectors && sizeof(T) <= 8), std::uint32_t, std::uint64_t>;
  static_assert(!Paths::load_vectors || (shape::vectorizable && vec * sizeof(T) == 16),
                "select: the vector load path needs 16-byte chunks of whole items");
  static_assert(alignof(T) <= 16, "select: value types aligned beyond 16 bytes are not supported");

  //! 1- and 2-byte items on the vector load path stay packed in 32-bit words (packed_items).
  static constexpr bool pack_items = Paths::load_vectors && sizeof(T) < 4 && Tuning::pack_small_items;
  using items_t                    = std::conditional_t<pack_items, packed_items<T, items>, T[items]>;

  //! The schedule this instantiation runs: the one Paths forces, else the tuning's for its path.
  static constexpr tile_schedule schedule = schedule_of<T, Tuning, Paths::load_vectors, Paths::schedule>();
  //! The specialised schedule: the tile's threads synchronize on named barrier 1 (block_sync), without
  //! the producer and look-back warps; its kernel's other schedule (in order, launched without those
  //! warps) uses the same barrier.
  static constexpr bool specialized = schedule == tile_schedule::specialized;
  static constexpr int scan_barrier = specialized ? tile_barrier : 0;

  //! The rank's block scan: block_exclusive_sum (tuning; always in the specialised schedule, whose
  //! tile threads do not include every thread of the block), else cub::BlockScan.
  static constexpr bool shuffle_scan =
    specialized || (pack_items && sizeof(T) == 1 ? Tuning::shuffle_scan_1byte : Tuning::shuffle_scan);

  using block_scan = cub::BlockScan<unsigned long long, block_threads, cub::BLOCK_SCAN_WARP_SCANS>;

  struct shared_storage
  {
    union
    {
      typename block_scan::TempStorage scan;
      unsigned long long warp_totals[block_threads / 32];
    };
    alignas(16) unsigned char staging[shape::staging_bytes];
    unsigned long long tile_slot;
    unsigned long long exclusive;
  };

  const Params& p;
  shared_storage& smem;

  //! warp_lookback's initial delay (tuning): measured for the vector load path only.
  static constexpr unsigned lookback_delay_ns = !Paths::load_vectors ? 0u
                                              : sizeof(T) >= 4       ? Tuning::lookback_delay_ns
                                                                     : Tuning::small_lookback_delay_ns;
  //! The pipelined schedule's delay before the first poll (tuning).
  static constexpr unsigned pipelined_delay_ns = Tuning::pipelined_lookback_delay_ns;
  //! In order: warp 0 stages its items before its look-back (tuning; measured for 4- and 8-byte
  //! items on the vector path).
  static constexpr bool stage_first =
    Tuning::stage_before_lookback && Paths::load_vectors && (sizeof(T) == 4 || sizeof(T) == 8);

  //! The selected items of a tile, in a staging buffer of shape::staging_bytes (smem.staging, or one
  //! of the bulk schedule's slots).
  __device__ static T* staged(unsigned char* buffer)
  {
    return reinterpret_cast<T*>(buffer);
  }

  //! The flags of row j's items in a selection mask, in place.
  __device__ static mask_type row_flags(mask_type mask, int j)
  {
    constexpr std::uint64_t row_bits = vec == 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << vec) - 1);
    return mask & static_cast<mask_type>(row_bits << (j * vec));
  }

  //! Virtual index of thread t's first item in row j.
  __device__ static std::uint64_t row_start(std::uint64_t tile_base, int j)
  {
    return tile_base + (static_cast<std::uint64_t>(j) * block_threads + threadIdx.x) * vec;
  }

  __device__ bool valid(std::uint64_t i) const
  {
    return i >= p.head && i < p.virtual_items;
  }

  //! Loads this thread's items (Full: every item of the tile exists, so no bounds checks).
  template <bool Full>
  __device__ void load_items(std::uint64_t tile_base, items_t& item) const
  {
    if constexpr (!Full)
    {
      clear_items(item);
    }
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const std::uint64_t start = row_start(tile_base, j);
      bool whole_chunk = false;
      if constexpr (Paths::load_vectors)
      {
        whole_chunk = Full || (start >= p.head && start + vec <= p.virtual_items);
      }
      if (whole_chunk)
      {
        // Read-only for the whole kernel (input and output must not overlap): non-coherent load.
        const uint4 raw = __ldg(p.chunks + start / vec);
        set_chunk(item, j * vec, raw);
      }
      else
      {
        // Per-item path: fancy iterators, and the partial chunks at either end of the vector path
        // (so that nothing outside [first, last) is ever read).
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = start + v;
          if (Full || valid(i))
          {
            set_item(item, j * vec + v, *(p.input + static_cast<std::ptrdiff_t>(i - p.head)));
          }
        }
      }
    }
  }

  //! Bit (j * vec + v) of the result: item v of row j exists and is selected. `slot`: the tile's
  //! bytes in a slot (a full tile of the bulk or specialised schedule, before anything is staged in
  //! it), or null.
  template <bool Full>
  __device__ mask_type select_flags(std::uint64_t tile_base, const items_t& item, const unsigned char* slot = nullptr) const
  {
    // A mutable copy: Thrust accepts predicates whose operator() is not const.
    Pred pred = p.pred;
    mask_type mask = 0;
    if constexpr (adjacent)
    {
      // Unique: the item before item v of row j is item v - 1 of the row, and before the row's first
      // the last item of the thread before: the lane below's (a shuffle), or for lane 0 the item
      // before in the slot where the tile is in one and the item is in the tile (a shared-memory read,
      // not a round trip to L2 that the row's compares wait for), else the input's (a load; in place,
      // a tile before may have written it, but only where it keeps every item before it, so with the
      // same value). The first item of the input is selected.
      const unsigned lane = threadIdx.x % 32;
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
        const std::uint64_t start = row_start(tile_base, j);
        T before{};
        bool from_input = true; // types that do not shuffle as bytes: every lane loads its item before
        if constexpr (std::is_trivially_copyable<T>::value)
        {
          before     = shuffle_up(item_at(item, j * vec + vec - 1), 1);
          from_input = lane == 0;
        }
        if (from_input && start > p.head && (Full || start <= p.virtual_items))
        {
          if (Full && slot != nullptr && start > tile_base)
          {
            before = reinterpret_cast<const T*>(slot)[start - 1 - tile_base];
          }
          else
          {
            before = *(p.input + static_cast<std::ptrdiff_t>(start - 1 - p.head));
          }
        }
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = start + v;
          const T current       = item_at(item, j * vec + v);
          if ((Full || valid(i)) && (i == p.head || static_cast<bool>(pred(v == 0 ? before : item_at(item, j * vec + v - 1), current))))
          {
            mask |= mask_type(1) << (j * vec + v);
          }
        }
      }
    }
    else if constexpr (has_stencil)
    {
      using stencil_value = typename std::iterator_traits<StencilIt>::value_type;
      stencil_value s[items];
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = row_start(tile_base, j) + v;
          if (Full || valid(i))
          {
            s[j * vec + v] = *(p.stencil + static_cast<std::ptrdiff_t>(i - p.head));
          }
        }
      }
#pragma unroll
      for (int k = 0; k < items; ++k)
      {
        const std::uint64_t i = row_start(tile_base, k / vec) + k % vec;
        if ((Full || valid(i)) && static_cast<bool>(pred(s[k])))
        {
          mask |= mask_type(1) << k;
        }
      }
    }
    else if constexpr (pack_items)
    {
      // Row by row, each flag set by one predicated OR (in PTX: the compiler made a select and a
      // three-way OR of flags kept in registers of their own), and each row's flags one word (the
      // empty asm) before the next row's predicates run. Measured on the H200 at 3 blocks an SM:
      // u8 2^28 108 -> 0 bytes of spills and (with the byte permutes of item_at) 7-17% faster, u16
      // 3-11% faster than the per-item loop below (docs/design/copy_if.md, variants).
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
        std::uint32_t row_mask = 0;
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          const std::uint64_t i = row_start(tile_base, j) + v;
          const unsigned chosen = (Full || valid(i)) && static_cast<bool>(pred(item_at(item, j * vec + v)));
          asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t@p or.b32 %0, %0, %2;\n\t}"
              : "+r"(row_mask)
              : "r"(chosen), "r"(1u << v));
        }
        asm volatile("" : "+r"(row_mask));
        mask |= static_cast<mask_type>(row_mask) << (j * vec);
      }
    }
    else
    {
#pragma unroll
      for (int k = 0; k < items; ++k)
      {
        const std::uint64_t i = row_start(tile_base, k / vec) + k % vec;
        if ((Full || valid(i)) && static_cast<bool>(pred(item_at(item, k))))
        {
          mask |= mask_type(1) << k;
        }
      }
    }
    return mask;
  }

  //! The vector store path's view of output[offset, offset + count): output bytes [a, b), of which
  //! [f, l) are whole aligned 16-byte chunks (none when f >= l); the head [a, f) and the tail [l, b)
  //! are whole items (T is size-aligned and 16 is a multiple of sizeof(T)).
  struct output_span
  {
    T* out;
    std::uintptr_t a, f, l;
    //! Items in [a, f).
    __device__ std::uint32_t head_items() const { return static_cast<std::uint32_t>((f - a) / sizeof(T)); }
    //! The item at l.
    __device__ std::uint32_t tail_first() const { return static_cast<std::uint32_t>((l - a) / sizeof(T)); }
  };
  template <class Out>
  __device__ output_span span_of(Out output, std::uint64_t offset, std::uint32_t count) const
  {
    output_span s;
    s.out                  = output + offset;
    s.a                    = reinterpret_cast<std::uintptr_t>(s.out);
    const std::uintptr_t b = s.a + static_cast<std::uintptr_t>(count) * sizeof(T);
    s.f                    = (s.a + 15) & ~std::uintptr_t(15);
    s.l                    = b & ~std::uintptr_t(15);
    return s;
  }

  //! The last tile's thread 0: the total selected, for the host (a plain store: the host reads
  //! it after the kernel completes, in stream order).
  __device__ void write_total(std::uint64_t tile, std::uint64_t offset, std::uint32_t count) const
  {
    if (tile == p.tiles - 1 && threadIdx.x == 0)
    {
      *p.total = offset + count;
    }
  }

  //! Writes the tile's `count` items staged in `buffer` to output[offset, offset + count).
  __device__ void store(std::uint64_t offset, std::uint32_t count, unsigned char* buffer) const
  {
    store_to(p.output, offset, count, buffer, 0);
  }

  //! Writes the `count` items staged `first_byte` bytes into `buffer` to output[offset, offset + count)
  //! (the selected items: first_byte 0; partition's rejected items after them).
  template <class Out>
  __device__ void store_to(Out output, std::uint64_t offset, std::uint32_t count, unsigned char* buffer, std::uint32_t first_byte) const
  {
    const T* const items_at = staged(buffer + first_byte);
    // The vector store path: the output is a T pointer (the selected items' where Paths says so).
    if constexpr (Paths::store_vectors && std::is_same<Out, T*>::value)
    {
      // The body [f, l): one vector store a chunk, from the staged bytes shifted by h = f - a; the
      // head and the tail item by item (span_of).
      const output_span span = span_of(output, offset, count);
      T* out                 = span.out;
      const std::uintptr_t a = span.a, f = span.f, l = span.l;
      if (f >= l)
      {
        for (std::uint32_t i = threadIdx.x; i < count; i += block_threads)
        {
          out[i] = items_at[i];
        }
        return;
      }
      const std::uint32_t head_items = span.head_items();
      const std::uint32_t tail_first = span.tail_first();
      if (threadIdx.x < head_items)
      {
        out[threadIdx.x] = items_at[threadIdx.x];
      }
      if (tail_first + threadIdx.x < count)
      {
        out[tail_first + threadIdx.x] = items_at[tail_first + threadIdx.x];
      }
      // The body's first source byte, first_byte + h, from the 32-bit words of the buffer.
      const unsigned h                 = static_cast<unsigned>(f - a) + first_byte;
      const unsigned shift             = (h & 3u) * 8u;
      const std::uint32_t* words       = reinterpret_cast<const std::uint32_t*>(buffer) + (h >> 2);
      const std::uint32_t body_chunks  = static_cast<std::uint32_t>((l - f) / 16);
      uint4* body                      = reinterpret_cast<uint4*>(f);
      constexpr int chunks_per_thread  = static_cast<int>((shape::tile_items * sizeof(T) / 16 + block_threads - 1) / block_threads);
#pragma unroll
      for (int r = 0; r < chunks_per_thread; ++r)
      {
        const std::uint32_t c = r * block_threads + threadIdx.x;
        if (c < body_chunks)
        {
          // Reads at most 4 bytes past the staged items: inside the staging slack.
          const std::uint32_t* w = words + 4 * c;
          uint4 out_chunk;
          out_chunk.x = funnel_shift(w[0], w[1], shift);
          out_chunk.y = funnel_shift(w[1], w[2], shift);
          out_chunk.z = funnel_shift(w[2], w[3], shift);
          out_chunk.w = funnel_shift(w[3], w[4], shift);
          body[c]     = out_chunk;
        }
      }
    }
    else
    {
#pragma unroll
      for (int k = 0; k < items; ++k)
      {
        const std::uint32_t i = k * block_threads + threadIdx.x;
        if (i < count)
        {
          *(output + static_cast<std::ptrdiff_t>(offset + i)) = items_at[i];
        }
      }
    }
  }

  //! What rank() finds for one tile: this thread's selection flags, the tile position of its first
  //! selected item in each row, and the tile's selected count.
  struct ranking
  {
    mask_type mask;
    std::uint32_t row_base[rows];
    std::uint32_t count;
  };

  //! Flags this thread's items and ranks the selected ones in the tile with one block scan
  //! (contains a barrier: every thread's earlier reads of the staging buffer are done after it).
  template <bool Full>
  __device__ ranking rank(std::uint64_t tile_base, const items_t& item) const
  {
    return rank<Full>(tile_base, item, smem.warp_totals);
  }
  //! The same, with the shuffle scan's warp totals in `warp_totals` (the specialised schedule
  //! alternates two arrays: the next scan may then start before every thread has read this one's).
  //! `slot`: as for select_flags.
  template <bool Full>
  __device__ ranking rank(std::uint64_t tile_base,
                          const items_t& item,
                          unsigned long long (&warp_totals)[block_threads / 32],
                          const unsigned char* slot = nullptr) const
  {
    ranking r;
    r.mask = select_flags<Full>(tile_base, item, slot);

    // Per-row counts packed 16 bits apiece: one exclusive block scan ranks all rows at once, and no
    // field carries into the next because a row's total is at most block_threads * vec < 2^16.
    unsigned long long packed = 0;
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      packed |= static_cast<unsigned long long>(__popcll(static_cast<std::uint64_t>(row_flags(r.mask, j)))) << (16 * j);
    }
    unsigned long long exclusive_packed = 0, aggregate_packed = 0;
    if constexpr (shuffle_scan)
    {
      block_exclusive_sum<block_threads, scan_barrier>(packed, exclusive_packed, aggregate_packed, warp_totals);
    }
    else
    {
      block_scan(smem.scan).ExclusiveSum(packed, exclusive_packed, aggregate_packed);
    }

    r.count = 0;
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      r.row_base[j] = r.count + static_cast<std::uint32_t>((exclusive_packed >> (16 * j)) & 0xffffu);
      r.count += static_cast<std::uint32_t>((aggregate_packed >> (16 * j)) & 0xffffu);
    }
    return r;
  }

  //! Places this thread's selected items in `buffer` at their tile positions, in (row, thread, item)
  //! order, which is input order (stable).
  //! Partition (two_outputs): the items not selected follow the tile's selected ones, also in input
  //! order: the item at tile position q (row, thread, item) that has s selected items before it in the
  //! tile goes to count + (q - lead) - s, where lead is the number of virtual items before `first` in
  //! this tile (tile 0's head; every other tile's is 0). Items past the end are not staged.
  __device__ void stage(const ranking& r, items_t& item, unsigned char* buffer, std::uint64_t tile_base) const
  {
    if constexpr (!Paths::discard)
    {
      hide_items(item);
      [[maybe_unused]] const std::uint64_t lead = tile_base < p.head ? p.head - tile_base : 0;
#pragma unroll
      for (int j = 0; j < rows; ++j)
      {
        std::uint32_t position = r.row_base[j];
        if constexpr (pack_items && Tuning::skip_unselected_rows && !two_outputs)
        {
          if (row_flags(r.mask, j) == 0)
          {
            continue;
          }
        }
#pragma unroll
        for (int v = 0; v < vec; ++v)
        {
          if (r.mask & (mask_type(1) << (j * vec + v)))
          {
            ::new (static_cast<void*>(staged(buffer) + position)) T(item_at(item, j * vec + v));
            ++position;
          }
          else if constexpr (two_outputs)
          {
            const std::uint64_t i = row_start(tile_base, j) + v;
            if (valid(i))
            {
              const std::uint32_t q = static_cast<std::uint32_t>(i - tile_base - lead);
              ::new (static_cast<void*>(staged(buffer) + r.count + q - position)) T(item_at(item, j * vec + v));
            }
          }
        }
      }
    }
  }

  //! Warp 0 only, after publish_count: the tile's global offset (its predecessors' selected items)
  //! into smem.exclusive; publishes the tile's inclusive count for its successors (tile 0's was
  //! published by publish_count; a lone tile has no tile state).
  __device__ void find_offset(std::uint64_t tile, std::uint32_t count, unsigned delay_ns) const
  {
    // Relaxed tile words: only the counts inside them are read (tile_state.cuh, tile_ordering).
    const unsigned long long exclusive =
      tile == 0 ? 0ull
                : warp_lookback_published<0>(p.state, static_cast<std::size_t>(tile), 0,
                                             static_cast<unsigned long long>(count), delay_ns);
    if (threadIdx.x == 0)
    {
      smem.exclusive = exclusive;
    }
  }

  //! Thread 0: publishes the tile's count for its successors' look-backs as soon as it is known (an
  //! aggregate; tile 0's is its inclusive count). A lone tile has no tile state.
  __device__ void publish_count(std::uint64_t tile, std::uint32_t count) const
  {
    if (threadIdx.x == 0 && p.tiles > 1)
    {
      if (tile == 0)
      {
        p.state.publish_inclusive(0, 0, static_cast<unsigned long long>(count));
      }
      else
      {
        p.state.publish_aggregate(static_cast<std::size_t>(tile), 0, static_cast<unsigned long long>(count));
      }
    }
  }

  //! Partition: the tile's rejected items, staged after its `count` selected ones, to p.rejected after
  //! the rejected items of the tiles before (the tile's first valid item's index less the selected
  //! items before the tile, `offset`).
  __device__ void store_rejected(std::uint64_t tile, std::uint64_t offset, std::uint32_t count, unsigned char* buffer) const
  {
    if constexpr (two_outputs)
    {
      const std::uint64_t tile_base = tile * shape::tile_items;
      const std::uint64_t first     = tile_base > p.head ? tile_base : p.head;
      const std::uint64_t end =
        tile_base + shape::tile_items < p.virtual_items ? tile_base + shape::tile_items : p.virtual_items;
      store_to(p.rejected, first - p.head - offset, static_cast<std::uint32_t>(end - first) - count, buffer,
               count * static_cast<std::uint32_t>(sizeof(T)));
    }
  }

  //! After the barrier that follows staging and find_offset: writes the tile's items staged in
  //! `buffer` to the output at its offset (and partition's rejected ones); the last tile writes the
  //! total.
  __device__ void finish_staged(std::uint64_t tile, std::uint32_t count, unsigned char* buffer) const
  {
    const std::uint64_t offset = smem.exclusive;
    if constexpr (!Paths::discard)
    {
      store(offset, count, buffer);
      store_rejected(tile, offset, count, buffer);
    }
    write_total(tile, offset, count);
  }

  __device__ bool full_tile(std::uint64_t tile) const
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    return tile_base >= p.head && tile_base + shape::tile_items <= p.virtual_items;
  }

  //! The in-order schedule, one tile: load, rank, then warp 0 looks back while the other warps stage
  //! (where stage_first, warp 0 stages its own items first), a barrier, and the stores. The block's
  //! loads wait for the tile's look-back.
  template <bool Full>
  __device__ void process(std::uint64_t tile) const
  {
    const std::uint64_t tile_base = tile * shape::tile_items;
    items_t item;
    if constexpr (need_items)
    {
      load_items<Full>(tile_base, item);
    }
    const ranking r = rank<Full>(tile_base, item);
    if constexpr (stage_first)
    {
      // Warp 0's items die before its look-back (fewer registers live there: spills avoided); the
      // look-back still starts within the delay it sleeps anyway.
      publish_count(tile, r.count);
      stage(r, item, smem.staging, tile_base);
      if (threadIdx.x < 32)
      {
        find_offset(tile, r.count, p.tiles > gridDim.x ? lookback_delay_ns : 0u);
      }
    }
    else
    {
      // Warp 0 learns the tile's global offset first, so successors waiting on this tile see its
      // inclusive prefix as early as possible; the other warps stage their items meanwhile.
      if (threadIdx.x < 32)
      {
        publish_count(tile, r.count);
        find_offset(tile, r.count, p.tiles > gridDim.x ? lookback_delay_ns : 0u);
      }
      stage(r, item, smem.staging, tile_base);
    }
    // Sync point: staging complete and smem.exclusive written before anyone reads either.
    __syncthreads();
    finish_staged(tile, r.count, smem.staging);
    if (p.tiles != 1)
    {
      // The stores have read the staging buffer and smem.exclusive before the next tile writes them;
      // block_next_tile writes smem.tile_slot before its barrier, after every thread's read of the
      // previous index.
      __syncthreads();
    }
  }

  //! The in-order schedule: tiles from the counter one after another (lookback/pipeline.cuh).
  __device__ void run_in_order() const
  {
    run_tiles_in_order(*this, smem.tile_slot);
  }

  //! The pipelined schedule: the look-back of a tile overlaps the loads of the block's next one. A
  //! block ranks and stages tile t, publishes its count and takes its next tile u; then it issues
  //! u's loads, and only then does warp 0 wait for t's offset (the other warps wait at the barrier
  //! with u's loads in flight); then t's stores, then u is ranked (the scan's barrier frees the
  //! staging buffer) and staged. One staging buffer; u's items wait in registers.
  //! Forward progress: a block holds at most two tiles, t (count published) and u (taken after t's
  //! count was published). The lowest tile without an inclusive count has only inclusive
  //! predecessors: if it is some block's t, that block's warp 0 finishes its look-back; if it is some
  //! block's u, that block's t is lower, so inclusive, and the block goes on to rank and publish u.
  __device__ void run_pipelined() const
  {
    const bool lone    = p.tiles == 1;
    std::uint64_t tile = lone ? 0 : block_next_tile(p.tile_counter, smem.tile_slot);
    std::uint64_t pending       = p.tiles; // staged, waiting for its offset; p.tiles: none
    std::uint32_t pending_count = 0;
    const unsigned delay_ns     = p.tiles > gridDim.x ? pipelined_delay_ns : 0u;
    items_t item;
    while (true)
    {
      const bool have_tile = tile < p.tiles;
      const bool full      = have_tile && full_tile(tile);
      if constexpr (need_items)
      {
        if (have_tile)
        {
          if (full)
          {
            load_items<true>(tile * shape::tile_items, item);
          }
          else
          {
            load_items<false>(tile * shape::tile_items, item);
          }
        }
      }
      if (pending < p.tiles)
      {
        if (threadIdx.x < 32)
        {
          find_offset(pending, pending_count, delay_ns);
        }
        // Sync point: smem.exclusive written and the staging complete.
        __syncthreads();
        finish_staged(pending, pending_count, smem.staging);
      }
      if (!have_tile)
      {
        return;
      }
      // rank's scan has a barrier: every thread's stores have read the staging buffer and
      // smem.exclusive before anyone stages over them.
      const ranking r = full ? rank<true>(tile * shape::tile_items, item) : rank<false>(tile * shape::tile_items, item);
      publish_count(tile, r.count);
      stage(r, item, smem.staging, tile * shape::tile_items);
      pending       = tile;
      pending_count = r.count;
      // The barrier in block_next_tile makes the staging complete; smem.tile_slot was last read
      // before rank's barrier. A lone tile takes no next one (its stores follow the barrier above).
      tile = lone ? p.tiles : block_next_tile(p.tile_counter, smem.tile_slot);
    }
  }

  //! The bulk schedule writes a tile's whole output chunks with one bulk copy (tuning).
  static constexpr bool bulk_stores =
    Paths::store_vectors && (sizeof(T) < 4 ? Tuning::bulk_stores_small : Tuning::bulk_stores);

  //! The bulk schedule's barriers and tile indices, after its slots in dynamic shared memory.
  struct bulk_sync
  {
    bulk_barrier loaded[Tuning::bulk_slots]; // slot s's tile has landed (full tiles only)
    unsigned long long tile[Tuning::bulk_slots]; // the tile in slot s; p.tiles or more: none
  };
  static_assert(Tuning::bulk_slots >= 3,
                "select: the bulk schedule needs a slot for the tile being ranked, one for the tile waiting for "
                "its offset, and one in flight (with two, a slot's tile index would be read without a barrier "
                "after it was written)");

  //! Thread `threadIdx.x`'s items of a tile from a slot, as load_items reads them from the input
  //! (row j: the 16-byte chunk j * block_threads + threadIdx.x of the slot).
  __device__ static void read_slot(const unsigned char* slot, items_t& item)
  {
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      const uint4 raw = reinterpret_cast<const uint4*>(slot)[j * block_threads + threadIdx.x];
      set_chunk(item, j * vec, raw);
    }
  }

  //! The inverse of read_slot: this thread's items into their chunks of a slot.
  __device__ static void write_slot(unsigned char* slot, const items_t& item)
  {
#pragma unroll
    for (int j = 0; j < rows; ++j)
    {
      uint4 raw;
      std::memcpy(&raw, reinterpret_cast<const unsigned char*>(&item) + j * 16, sizeof(raw));
      reinterpret_cast<uint4*>(slot)[j * block_threads + threadIdx.x] = raw;
    }
  }

  //! The bulk schedule's stores of a tile whose `count` selected items are staged at `slot + shift`
  //! for output[offset, ...), where shift is the output's address modulo 16 on the vector store path
  //! (0 elsewhere): the output's whole 16-byte chunks are then 16-byte aligned in the slot too. The
  //! items before the first and after the last of those chunks: lanes of warp 0. The chunks: one bulk
  //! copy from thread 0 (Tuning::bulk_stores; the block fenced and synchronized after staging), or
  //! 16-byte stores from every thread. The last tile writes the total.
  __device__ void bulk_store(std::uint64_t tile, std::uint64_t offset, std::uint32_t count, unsigned char* slot,
                             unsigned shift) const
  {
    if constexpr (Paths::store_vectors)
    {
      const output_span span = span_of(p.output, offset, count);
      T* out                 = span.out;
      const T* staged_items  = staged(slot + shift);
      const std::uintptr_t f = span.f, l = span.l;
      if (f >= l)
      {
        // Fewer than 32 bytes: at most 31 items.
        if (threadIdx.x < count)
        {
          out[threadIdx.x] = staged_items[threadIdx.x];
        }
      }
      else
      {
        const std::uint32_t head_items = span.head_items();
        const std::uint32_t tail_first = span.tail_first();
        // At most 15 items each (16 / sizeof(T) - 1).
        if (threadIdx.x < head_items)
        {
          out[threadIdx.x] = staged_items[threadIdx.x];
        }
        if (threadIdx.x >= 16 && threadIdx.x < 32 && tail_first + (threadIdx.x - 16) < count)
        {
          out[tail_first + (threadIdx.x - 16)] = staged_items[tail_first + (threadIdx.x - 16)];
        }
        // The first whole chunk: at slot + 16 when the output starts inside a chunk, else at slot.
        const unsigned char* body_src = slot + (shift == 0 ? 0 : 16);
        const std::uint32_t body_bytes = static_cast<std::uint32_t>(l - f);
        if constexpr (bulk_stores)
        {
          if (threadIdx.x == 0)
          {
            bulk_copy_to_global(reinterpret_cast<void*>(f), body_src, body_bytes);
            bulk_commit();
          }
        }
        else
        {
          const uint4* src = reinterpret_cast<const uint4*>(body_src);
          uint4* dst       = reinterpret_cast<uint4*>(f);
          for (std::uint32_t c = threadIdx.x; c < body_bytes / 16; c += block_threads)
          {
            dst[c] = src[c];
          }
        }
      }
    }
    else if constexpr (!Paths::discard)
    {
      store(offset, count, slot);
    }
    write_total(tile, offset, count);
  }

  //! The bulk schedule (sm_90 and newer, the vector load path): thread 0 takes tiles ahead and has the
  //! copy engine bring each full one into a slot of shared memory (cp.async.bulk, counted by the
  //! slot's barrier); the first slot is smem.staging, the others `dynamic` (bulk_dynamic_bytes, with
  //! the bulk_sync after them). A block holds the tile `a` that waits for its offset (count
  //! published, items still in its slot as loaded), the tile `b` it ranks, and bulk_slots - 2 tiles in
  //! flight. Each step: wait for b's bytes (a partial tile is loaded item by item and written to its
  //! slot as a copy would have), rank b and publish its count; every thread reads a's items back from
  //! a's slot, and warp 0 looks back for a (whose count was published a step earlier); a barrier;
  //! a's selected items staged in place in its slot, aligned like the output (bulk_store); a barrier;
  //! a's stores; a proxy fence and a barrier (the slot's generic reads and writes before the copy
  //! engine's writes); thread 0 takes the next tile into a's slot.
  //! Forward progress: a look-back waits only on lower tiles; the lowest tile without an inclusive
  //! count is some block's a, b or a tile in flight, and that block's earlier tiles all have theirs,
  //! so its look-back (if any) ends and it goes on to rank, publish and look back for that tile.
  __device__ void run_bulk(unsigned char* dynamic) const
  {
    static_assert(!two_outputs, "select: the bulk schedule stages one output (schedule_choice::tuned_two_outputs)");
    constexpr int slots               = Tuning::bulk_slots;
    constexpr std::uint32_t tile_size = static_cast<std::uint32_t>(shape::tile_items * sizeof(T));
    static_assert(Paths::load_vectors && tile_size % 16 == 0 && sizeof(items_t) == rows * 16,
                  "select: bulk copies move whole 16-byte chunks");
    bulk_sync& sync = *reinterpret_cast<bulk_sync*>(dynamic + (slots - 1) * shape::staging_bytes);
    const auto slot = [&](int s) { return agent::slot(dynamic, s); };
    const bool lone = p.tiles == 1;
    bool taken_lone = false; // thread 0, lone tile: tile 0 was taken
    // Thread 0: takes the block's next tile into slot s and, for a full tile, starts its copy.
    const auto fill = [&](int s) {
      std::uint64_t t = p.tiles;
      if (lone)
      {
        t          = taken_lone ? p.tiles : 0;
        taken_lone = true;
      }
      else
      {
        t = take_tile_index(p.tile_counter);
      }
      sync.tile[s] = t;
      if (t < p.tiles && full_tile(t))
      {
        bulk_expect_bytes(sync.loaded[s], tile_size);
        bulk_copy_to_shared(slot(s), p.chunks + t * shape::tile_items / vec, tile_size, sync.loaded[s]);
      }
    };
    if (threadIdx.x == 0)
    {
#pragma unroll
      for (int s = 0; s < slots; ++s)
      {
        bulk_barrier_init(sync.loaded[s]);
      }
      bulk_proxy_fence(); // the initialized barriers, before the copies that count on them
#pragma unroll
      for (int s = 0; s < slots - 1; ++s)
      {
        fill(s);
      }
    }
    __syncthreads(); // barriers initialized, the first tile indices written
    const unsigned delay_ns    = p.tiles > gridDim.x ? Tuning::bulk_lookback_delay_ns : 0u;
    std::uint32_t parity       = 0; // bit s: the parity of slot s's next phase
    int a_slot                 = -1; // none yet
    std::uint64_t a_tile       = 0;
    ranking a_rank{};
    int b_slot = 0;
    while (true)
    {
      // Written by thread 0 at least one barrier ago (slots >= 3).
      const std::uint64_t b_tile = sync.tile[b_slot];
      const bool have_b          = b_tile < p.tiles;
      ranking b_rank{};
      if (have_b)
      {
        const std::uint64_t tile_base = b_tile * shape::tile_items;
        items_t item;
        if (full_tile(b_tile))
        {
          bulk_wait(sync.loaded[b_slot], (parity >> b_slot) & 1u);
          parity ^= 1u << b_slot;
          read_slot(slot(b_slot), item);
          b_rank = rank<true>(tile_base, item, smem.warp_totals, slot(b_slot));
        }
        else
        {
          load_items<false>(tile_base, item);
          write_slot(slot(b_slot), item);
          b_rank = rank<false>(tile_base, item);
        }
        publish_count(b_tile, b_rank.count);
      }
      if (a_slot >= 0)
      {
        items_t item;
        read_slot(slot(a_slot), item);
        if (threadIdx.x < 32)
        {
          find_offset(a_tile, a_rank.count, delay_ns);
        }
        // Sync point: a's offset in smem.exclusive; every thread has read its items of a's slot.
        __syncthreads();
        const std::uint64_t offset = smem.exclusive;
        unsigned shift             = 0;
        if constexpr (Paths::store_vectors)
        {
          shift = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p.output + offset) % 16);
        }
        stage(a_rank, item, slot(a_slot) + shift, a_tile * shape::tile_items);
        if constexpr (bulk_stores)
        {
          bulk_proxy_fence(); // the staged items, before the bulk copy that reads them
        }
        // Sync point: a staged; smem.exclusive read.
        __syncthreads();
        bulk_store(a_tile, offset, a_rank.count, slot(a_slot), shift);
      }
      if (!have_b)
      {
        // Every tile this block took and copied has been waited for: tiles are taken in order, so
        // the slots after the first one without a tile hold none either.
        if constexpr (bulk_stores)
        {
          if (threadIdx.x == 0)
          {
            bulk_wait_read(); // shared memory stays readable until the copies have read it
          }
        }
        return;
      }
      bulk_proxy_fence();
      // Sync point: a's stores have read its slot (the bulk copy: below, by thread 0); b's slot and
      // index are read.
      __syncthreads();
      if (threadIdx.x == 0)
      {
        if constexpr (bulk_stores)
        {
          bulk_wait_read();
        }
        fill(a_slot >= 0 ? a_slot : slots - 1);
      }
      a_slot = b_slot;
      a_tile = b_tile;
      a_rank = b_rank;
      b_slot = b_slot + 1 == slots ? 0 : b_slot + 1;
    }
  }

  // --- The specialised schedule's tile step (lookback/pipeline.cuh, specialized_pipeline): rank a
  // --- tile and stage its selected items in place in its slot; a step later, store them at the offset
  // --- the look-back warp found. Counts go to the look-back warp, offsets come back.
  static constexpr int slots        = Tuning::bulk_slots;
  static constexpr int tile_threads = block_threads;
  using aggregate_t                 = std::uint32_t;
  using prefix_t                    = unsigned long long;
  using extra_t                     = specialized_extra<T, Tuning>;
  //! What a tile's reduce leaves for its keep: the ranking and this thread's items.
  struct reduced_t
  {
    ranking rank;
    items_t item;
  };

  __device__ std::uint64_t tiles() const
  {
    return p.tiles;
  }
  __device__ unsigned long long* tile_counter() const
  {
    return p.tile_counter;
  }
  //! Slot s of the bulk and specialised schedules: the static staging buffer, then the dynamic ones.
  __device__ unsigned char* slot(unsigned char* dynamic, int s) const
  {
    return s == 0 ? smem.staging : dynamic + static_cast<std::size_t>(s - 1) * shape::staging_bytes;
  }
  //! Producer: full tile t's chunks into the slot. Without items to read (a discard output chosen by a
  //! stencil) no tile is copied.
  __device__ bool copy_tile(std::uint64_t t, unsigned char* slot_bytes, bulk_barrier& full) const
  {
    constexpr std::uint32_t tile_size = static_cast<std::uint32_t>(shape::tile_items * sizeof(T));
    if constexpr (need_items)
    {
      bulk_expect_bytes(full, tile_size);
      bulk_copy_to_shared(slot_bytes, p.chunks + t * shape::tile_items / vec, tile_size, full);
      return true;
    }
    else
    {
      return false;
    }
  }
  //! Tile threads: this thread's items of tile t (a full tile from its slot, a partial one from the
  //! input), ranked with the shuffle scan on the tile barrier (its warp totals alternate between two
  //! arrays: the next scan may start before every thread has read this one's), the count published.
  template <bool Full>
  __device__ reduced_t reduce(std::uint64_t t, unsigned char* slot_bytes, extra_t& extra, bool odd) const
  {
    const std::uint64_t tile_base = t * shape::tile_items;
    unsigned long long(&totals)[block_threads / 32] = odd ? extra.warp_totals : smem.warp_totals;
    reduced_t r;
    if constexpr (need_items)
    {
      if constexpr (Full)
      {
        read_slot(slot_bytes, r.item);
      }
      else
      {
        load_items<false>(tile_base, r.item);
      }
    }
    r.rank = rank<Full>(tile_base, r.item, totals, Full ? slot_bytes : nullptr);
    publish_count(t, r.rank.count);
    return r;
  }
  __device__ static aggregate_t aggregate_of(const reduced_t& r)
  {
    return r.rank.count;
  }
  //! Tile threads: the selected items staged in place in the slot (the scan's barrier followed every
  //! thread's reads of it).
  __device__ void keep(reduced_t& r, std::uint64_t t, unsigned char* slot_bytes, extra_t&) const
  {
    stage(r.rank, r.item, slot_bytes, t * shape::tile_items);
  }
  //! Tile threads: the staged items to the output at the tile's offset; the last tile writes the total.
  __device__ void finish(std::uint64_t t, unsigned char* slot_bytes, extra_t&, aggregate_t count, prefix_t offset) const
  {
    if constexpr (!Paths::discard)
    {
      store(offset, static_cast<std::uint32_t>(count), slot_bytes);
      store_rejected(t, offset, static_cast<std::uint32_t>(count), slot_bytes);
    }
    write_total(t, offset, static_cast<std::uint32_t>(count));
  }
  //! Look-back warp: tile t's offset (tile 0's count was published as inclusive: publish_count),
  //! after Tuning::specialized_lookback_delay_ns where blocks loop over tiles.
  __device__ prefix_t look_back(std::uint64_t t, aggregate_t count) const
  {
    return t == 0 ? 0ull
                  : warp_lookback_published<Tuning::specialized_backoff_ns>(
                      p.state, static_cast<std::size_t>(t), 0, static_cast<unsigned long long>(count),
                      p.tiles > gridDim.x ? Tuning::specialized_lookback_delay_ns : 0u);
  }

  //! The specialised schedule (sm_90 and newer, the vector load path): the bulk schedule's slots run
  //! by the single-pass pipeline's producer, look-back warp and tile threads (lookback/pipeline.cuh).
  __device__ void run_specialized(unsigned char* dynamic) const
  {
    static_assert(Paths::load_vectors && shape::tile_items * sizeof(T) % 16 == 0 && sizeof(items_t) == rows * 16,
                  "select: bulk copies move whole 16-byte chunks");
    using pipeline = specialized_pipeline<const agent>;
    static_assert(sizeof(typename pipeline::sync_t) + (slots - 1) * shape::staging_bytes == specialized_dynamic_bytes<T, Tuning>(),
                  "select: plan.hpp's specialized_dynamic_bytes is this layout");
    pipeline::run(*this, dynamic, (slots - 1) * shape::staging_bytes);
  }
};

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
