// Tuning of sweep's onesweep radix sort: one constexpr struct, sized from the key and value widths.
#pragma once

#include <cstddef>

namespace sweep
{
namespace detail
{
namespace radix
{

//! Onesweep tile shape for keys of KeyBytes and values of ValueBytes (0: keys only) on sm_90.
//! A tile is Threads * Items keys; the shared scatter buffer holds one tile of the wider of key and
//! value and must stay within the 48 KiB static shared memory limit together with the per-warp
//! digit counters (Threads/32 * 256 * 2 bytes).
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct onesweep_tuning
{
  static constexpr int radix_bits  = 8;
  static constexpr int radix_size  = 1 << radix_bits;
  static constexpr int threads     = 384;
  static constexpr std::size_t wide = KeyBytes > ValueBytes ? KeyBytes : ValueBytes;
  // Keys-only 4-byte sorts: 384 x 23 (CUB's sm_90 shape; 80 registers, no spills, 43,600 B shared).
  // With values, 23 items spill at the two-blocks-per-SM register budget, so they keep 20.
  static constexpr int items       = wide <= 4 ? (ValueBytes == 0 ? 23 : 20) : 12;
  static constexpr int tile_items  = threads * items;
  // Blocks per SM the pass kernel is compiled for (__launch_bounds__ minimum): two, so that one
  // block's look-back wait is covered by the other's loads and stores.
  static constexpr int min_blocks  = 2;

  // Upfront histogram: blocks of 512 threads, each thread reads `histogram_items` keys per round.
  static constexpr int histogram_threads = 512;
  static constexpr int histogram_items   = 16;

  // Inputs up to this many keys are sorted by one block (cub::BlockRadixSort), in place.
  static constexpr int small_threads = 256;
  static constexpr int small_items   = KeyBytes <= 4 && ValueBytes <= 4 ? 16 : 8;
  static constexpr int small_tile    = small_threads * small_items;
};

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
