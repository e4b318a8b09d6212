// Tuning of sweep's onesweep radix sort: one constexpr struct, sized from the key and value widths.
#pragma once

#include <cstddef>

namespace sweep
{
namespace detail
{
namespace radix
{

//! Onesweep pass tile shape for keys of KeyBytes and values of ValueBytes (0: keys only) on sm_90.
//! A tile is threads * items keys; the shared scatter buffer holds one tile of the wider of key and
//! value and must stay within the 48 KiB static shared memory limit together with the per-warp
//! digit counters (threads/32 * 256 * 2 bytes).
//! Small is the shape for inputs of at most small_shape_max_keys keys: 256 x 8 keys, so that a
//! 2^16-key sort runs 32 tiles a pass instead of 8 and each block ranks 8 keys a thread instead of
//! 23 (whole call at 2^16 about 61 -> 50 us on the H200; docs/perf-sort.md, version 8).
template <std::size_t KeyBytes, std::size_t ValueBytes, bool Small>
struct pass_shape
{
  static constexpr std::size_t wide = KeyBytes > ValueBytes ? KeyBytes : ValueBytes;
  static constexpr int threads      = Small ? 256 : 384;
  // Keys-only 4-byte sorts: 384 x 23 (80 registers, no spills, 43,600 B shared); 20 measured 3-5%
  // slower on the H200 (docs/perf-sort.md, version 8). With values, 23 items spill at the
  // two-blocks-per-SM register budget, so they keep 20.
  static constexpr int items      = Small ? 8 : wide <= 4 ? (ValueBytes == 0 ? 23 : 20) : 12;
  static constexpr int tile_items = threads * items;
  // Blocks per SM the pass kernel is compiled for (__launch_bounds__ minimum): at least two, so
  // that one block's look-back wait is covered by another's loads and stores. Three (56 registers,
  // a few bytes of spills) for 8-byte keys without values: u64 2^27 about 8% faster on the H200;
  // for 4-byte keys (384 x 16, 17 or 19; 256 x 23) and for pairs three measured 2-20% slower
  // (docs/perf-sort.md, version 9).
  static constexpr int min_blocks = !Small && KeyBytes == 8 && ValueBytes == 0 ? 3 : 2;
};

//! Onesweep's other constants for keys of KeyBytes and values of ValueBytes (0: keys only).
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct onesweep_tuning
{
  static constexpr int radix_bits = 8;
  static constexpr int radix_size = 1 << radix_bits;

  // Upfront histogram: blocks of 512 threads, each thread reads `histogram_items` keys per round.
  static constexpr int histogram_threads = 512;
  static constexpr int histogram_items   = 16;

  // Inputs up to this many keys are sorted by one block (cub::BlockRadixSort), in place.
  static constexpr int small_threads = 256;
  static constexpr int small_items   = KeyBytes <= 4 && ValueBytes <= 4 ? 16 : 8;
  static constexpr int small_tile    = small_threads * small_items;
};

//! Up to this many keys the passes use the small tile shape (pass_shape<..., true>). Measured on
//! the H200 (u32 keys, whole call): small tiles are faster up to 2^18 keys, about even at 2^19 and
//! slower at 2^20 (the look-back walks grow with the tile count).
constexpr std::size_t small_shape_max_keys = std::size_t(1) << 18;

//! Which tile shape the passes of an n-key sort use.
constexpr bool use_small_shape(std::size_t n)
{
  return n <= small_shape_max_keys;
}

//! From this many keys on, the host reads the upfront histogram back to skip passes whose digit is
//! the same for every key (one small D2H copy and one stream synchronization, ~10-20 us). Below it
//! a pass costs about as much as that round trip, so every pass runs and the call never blocks.
constexpr std::size_t pass_skip_min_keys = std::size_t(1) << 22;

//! Up to this many bytes of tile state, every pass gets its own, cleared once at the start of the
//! call together with the histogram (saves one memset launch per pass on small inputs).
constexpr std::size_t state_upfront_max_bytes = std::size_t(4) << 20;

} // namespace radix
} // namespace detail
} // namespace sweep
