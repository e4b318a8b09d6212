// Tile state for look-backs that carry a value of any trivially copyable type (the scans: the tile's
// reduction under the user's operator, Merrill & Garland 2016), beside tile_state.cuh's packed counts.
// Values of up to 4 bytes travel with their status in one 64-bit word, of up to 8 bytes in one 128-bit
// word; larger ones in arrays of 32-bit words beside a status word that is published with release and
// read with acquire.
#pragma once

#include <cuda/atomic>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/util/global_atomic.cuh>

namespace sweep
{
namespace detail
{

//! The state of every tile of one call for values of type T, in temporary storage (one allocation,
//! cleared to all-zero = every tile `invalid` by one memset before the kernel). Three layouts:
//!   packed   (sizeof(T) <= 4): words[tile * stride], u64 [status:32][value bits:32]. Relaxed
//!            publishes and reads: status and value are one atomic word, so single-location coherence
//!            gives a reader that sees a status the value published with it (tile_state.cuh,
//!            tile_ordering::relaxed); nothing else is read through it.
//!   wide     (sizeof(T) <= 8): words[2 * tile * stride], u128 [status:64][value bits:64], each
//!            published and read by one 128-bit access (PTX st/ld .b128), relaxed as above. Measured
//!            against the unpacked layout on the H200: docs/design/scan.md.
//!   unpacked (larger T): flags[tile * stride], u32 status; aggregates[tile * value_words + k] and
//!            inclusives[...], the value's bytes as u32 words. The publisher stores the value's words
//!            (relaxed), then the status with release; a reader polls the status relaxed and, once it
//!            uses the value, issues an acquire fence and then reads the words (relaxed, at GPU scope:
//!            never a stale L1 line). An aggregate and an inclusive value have words of their own, so a
//!            reader that saw `aggregate` reads a value nobody overwrites.
//! `stride` words a tile spreads the words that ~500 polling warps read over separate lines where
//! blocks loop over tiles (copy_if/tuning.hpp, tile_word_stride, measured there).
template <class T>
struct value_tile_state
{
  static_assert(std::is_trivially_copyable<T>::value, "value_tile_state: values are copied as bytes");

  static constexpr bool packed    = sizeof(T) <= 4;
  static constexpr bool wide      = !packed && sizeof(T) <= 8;
  static constexpr int value_words = static_cast<int>((sizeof(T) + 3) / 4);
  //! Bytes of one tile's status word (the stride's unit).
  static constexpr std::uint32_t status_word_bytes = packed ? 8 : wide ? 16 : 4;

  unsigned long long* words   = nullptr; //!< packed and wide
  std::uint32_t* flags        = nullptr; //!< unpacked
  std::uint32_t* aggregates   = nullptr; //!< unpacked
  std::uint32_t* inclusives   = nullptr; //!< unpacked
  std::uint32_t stride        = 1;

  //! Bytes of the status part (packed: the words) for `tiles` tiles of `stride` words each.
  __host__ __device__ static constexpr std::size_t status_bytes(std::size_t tiles, std::uint32_t stride)
  {
    return tiles * stride * status_word_bytes;
  }
  //! Bytes of each value part (unpacked only; 0 otherwise).
  __host__ __device__ static constexpr std::size_t value_bytes(std::size_t tiles)
  {
    return packed || wide ? 0 : tiles * static_cast<std::size_t>(value_words) * sizeof(std::uint32_t);
  }
  //! Bytes of the whole state: the status part, then the aggregates, then the inclusive values, each
  //! starting 16-byte aligned. Only the status part needs clearing.
  __host__ __device__ static constexpr std::size_t bytes(std::size_t tiles, std::uint32_t stride)
  {
    return round16(status_bytes(tiles, stride)) + 2 * round16(value_bytes(tiles));
  }

  //! A view of the state at `base` (bytes(tiles, stride) of temporary storage, 16-byte aligned).
  __host__ static value_tile_state at(void* base, std::size_t tiles, std::uint32_t stride)
  {
    value_tile_state s;
    s.stride                 = stride;
    unsigned char* const raw = static_cast<unsigned char*>(base);
    if constexpr (packed || wide)
    {
      s.words = reinterpret_cast<unsigned long long*>(raw);
    }
    else
    {
      s.flags      = reinterpret_cast<std::uint32_t*>(raw);
      s.aggregates = reinterpret_cast<std::uint32_t*>(raw + round16(status_bytes(tiles, stride)));
      s.inclusives = reinterpret_cast<std::uint32_t*>(raw + round16(status_bytes(tiles, stride)) + round16(value_bytes(tiles)));
    }
    return s;
  }

  //! Publishes the tile's value with `status` (aggregate or inclusive). One thread.
  __device__ void publish(std::size_t tile, tile_status status, const T& value) const
  {
    if constexpr (packed)
    {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &value, sizeof(T));
      const unsigned long long word = (static_cast<unsigned long long>(status) << 32) | bits;
      global_atomic_store<cuda::std::memory_order_relaxed>(words + tile * stride, word);
    }
    else if constexpr (wide)
    {
      ulonglong2 word{0, static_cast<unsigned long long>(status)};
      std::memcpy(&word.x, &value, sizeof(T));
      global_atomic_store_128<cuda::std::memory_order_relaxed>(words + 2 * tile * stride, word);
    }
    else
    {
      std::uint32_t bits[value_words] = {};
      std::memcpy(bits, &value, sizeof(T));
      std::uint32_t* const slot = (status == tile_status::inclusive ? inclusives : aggregates) + tile * value_words;
#pragma unroll
      for (int k = 0; k < value_words; ++k)
      {
        global_atomic_store<cuda::std::memory_order_relaxed>(slot + k, bits[k]);
      }
      // Release: the value's words are visible to a reader that sees this status with acquire.
      global_atomic_store<cuda::std::memory_order_release>(flags + tile * stride, static_cast<std::uint32_t>(status));
    }
  }

  //! What a poll of one tile returns: its status and, packed or wide, the value's bits with it.
  struct observation
  {
    tile_status status      = tile_status::invalid;
    unsigned long long bits = 0; //!< packed and wide only
  };

  //! Polls tile `tile`'s status (relaxed; the value comes with it when packed).
  __device__ observation poll(std::size_t tile) const
  {
    observation o;
    if constexpr (packed)
    {
      const unsigned long long word = global_atomic_load<cuda::std::memory_order_relaxed>(words + tile * stride);
      o.status                      = static_cast<tile_status>(word >> 32);
      o.bits                        = static_cast<std::uint32_t>(word);
    }
    else if constexpr (wide)
    {
      const ulonglong2 word = global_atomic_load_128<cuda::std::memory_order_relaxed>(words + 2 * tile * stride);
      o.status              = static_cast<tile_status>(word.y);
      o.bits                = word.x;
    }
    else
    {
      o.status = static_cast<tile_status>(global_atomic_load<cuda::std::memory_order_relaxed>(flags + tile * stride));
    }
    return o;
  }

  //! Unpacked: orders the value reads after the polls that saw their statuses (an acquire fence at GPU
  //! scope, pairing with the publisher's release). Packed and wide: nothing to order.
  __device__ static void acquire_values()
  {
    if constexpr (!packed && !wide)
    {
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
    }
  }

  //! The value of a tile whose poll returned `o` (aggregate or inclusive); unpacked, after
  //! acquire_values.
  __device__ T value(std::size_t tile, const observation& o) const
  {
    T v;
    if constexpr (packed || wide)
    {
      // Little-endian: the value's bytes are the low bytes of the word.
      std::memcpy(&v, &o.bits, sizeof(T));
    }
    else
    {
      const std::uint32_t* const slot = (o.status == tile_status::inclusive ? inclusives : aggregates) + tile * value_words;
      std::uint32_t bits[value_words];
#pragma unroll
      for (int k = 0; k < value_words; ++k)
      {
        bits[k] = global_atomic_load<cuda::std::memory_order_relaxed>(slot + k);
      }
      std::memcpy(&v, bits, sizeof(T));
    }
    return v;
  }

private:
  __host__ __device__ static constexpr std::size_t round16(std::size_t b)
  {
    return (b + 15) / 16 * 16;
  }
};

} // namespace detail
} // namespace sweep
