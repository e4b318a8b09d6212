// Tile state for decoupled look-back (Merrill & Garland 2016, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back"): one status+value word per (tile, slot), the one implementation shared by
// every single-pass algorithm in sweep (copy_if one slot per tile, or slot 0 of 8 with the rest as
// padding where blocks loop over tiles; onesweep one per digit).
#pragma once

#include <cuda/atomic>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sweep/detail/util/global_atomic.cuh>

namespace sweep
{
namespace detail
{

//! What a tile has published for one slot.
enum class tile_status : unsigned
{
  invalid   = 0, //!< nothing yet: the tile has not reached its publish point (memset-zero state)
  aggregate = 1, //!< value is the tile's own reduction; its prefix is still unknown
  inclusive = 2, //!< value is the inclusive prefix: this tile's reduction plus every earlier tile's
};

//! Packs a status and a value into one word so that both are published by one atomic store:
//!   u64 [status:2][value:62]     u32 [status:2][value:30]
//! Word is std::uint32_t or unsigned long long. Values must be < 2^(bits-2); callers check this
//! on the host (value_limit) before choosing the word size.
template <class Word>
struct tile_word
{
  static_assert(std::is_same<Word, std::uint32_t>::value || std::is_same<Word, unsigned long long>::value,
                "tile_word: Word must be std::uint32_t or unsigned long long");

  static constexpr int bits        = static_cast<int>(sizeof(Word) * 8);
  static constexpr int value_bits  = bits - 2;
  static constexpr Word value_mask = (Word(1) << value_bits) - 1;

  //! The largest value a word can carry.
  static constexpr Word value_limit = value_mask;

  __host__ __device__ static constexpr Word pack(tile_status status, Word value)
  {
    return (static_cast<Word>(status) << value_bits) | (value & value_mask);
  }
  __host__ __device__ static constexpr tile_status status(Word word)
  {
    return static_cast<tile_status>(word >> value_bits);
  }
  __host__ __device__ static constexpr Word value(Word word)
  {
    return word & value_mask;
  }
};

//! The memory order of tile-word publishes and reads.
//!  acquire_release: publish with release, read with acquire. Use it when a reader goes on to read
//!    other memory the publishing block wrote before publishing (the word is then a flag for it).
//!  relaxed: when readers use nothing but the value inside the word they read (compaction and
//!    onesweep exchange counts only). Status and value travel in one atomic word, so single-location
//!    coherence already guarantees a reader that sees `aggregate`/`inclusive` also sees the value
//!    stored with it; release would put a GPU-wide fence before every publish and acquire an L1
//!    invalidation on every poll, for ordering nobody uses.
enum class tile_ordering
{
  acquire_release,
  relaxed,
};

//! A view of the tile-state array in temporary storage: words[tile * slots + slot].
//! No global or static device state: each call allocates and clears its own array, so concurrent
//! calls on different streams never share state.
template <class Word, tile_ordering Ordering = tile_ordering::acquire_release>
struct tile_state
{
  using word_type = Word;
  using packing   = tile_word<Word>;
  static constexpr tile_ordering ordering = Ordering;
  static constexpr cuda::std::memory_order publish_order =
    Ordering == tile_ordering::relaxed ? cuda::std::memory_order_relaxed : cuda::std::memory_order_release;
  static constexpr cuda::std::memory_order read_order =
    Ordering == tile_ordering::relaxed ? cuda::std::memory_order_relaxed : cuda::std::memory_order_acquire;

  Word* words        = nullptr;
  std::uint32_t slots = 1;

  //! Bytes needed for `tiles` tiles of `slots` slots each.
  __host__ __device__ static constexpr std::size_t bytes(std::size_t tiles, std::uint32_t slots)
  {
    return tiles * slots * sizeof(Word);
  }

  //! Resets every word to `invalid` (all-zero) on the stream, before the kernel that uses it.
  __host__ cudaError_t clear_async(std::size_t tiles, cudaStream_t stream) const
  {
    return cudaMemsetAsync(words, 0, bytes(tiles, slots), stream);
  }

  __device__ Word* address(std::size_t tile, std::uint32_t slot) const
  {
    return words + tile * slots + slot;
  }

  //! Publishes the tile's own reduction (publish_order: with release, a reader that sees this word
  //! with acquire also sees everything the publishing thread wrote before it).
  __device__ void publish_aggregate(std::size_t tile, std::uint32_t slot, Word value) const
  {
    global_atomic_store<publish_order>(address(tile, slot), packing::pack(tile_status::aggregate, value));
  }

  //! Publishes the inclusive prefix through this tile (publish_order, as above).
  __device__ void publish_inclusive(std::size_t tile, std::uint32_t slot, Word value) const
  {
    global_atomic_store<publish_order>(address(tile, slot), packing::pack(tile_status::inclusive, value));
  }

  //! Reads one word (read_order: acquire pairs with the publisher's release).
  __device__ Word load(std::size_t tile, std::uint32_t slot) const
  {
    return global_atomic_load<read_order>(address(tile, slot));
  }
};

//! Zeroes `count` words at `words` with every thread of the grid (a grid-stride loop), for a later
//! kernel on the same stream: the state of the thread's next call in call_scratch's other half
//! (util/call_scratch.hpp), which this kernel does not use. Nothing when count is 0.
__device__ inline void clear_ahead(unsigned long long* words, std::uint32_t count)
{
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    words[i] = 0;
  }
}

} // namespace detail
} // namespace sweep
