// Tuning of sweep's onesweep radix sort: one constexpr struct, sized from the key and value widths.
#pragma once

#include <cstddef>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! Onesweep pass tile shape for keys of KeyBytes and values of ValueBytes (0: keys only) on sm_90.
//! A tile is threads * items keys; the shared exchange buffer holds one tile of the wider of key and
//! value, overlaid on the 32-bit per-warp digit counters (threads/32 * 1 KiB), and must stay within
//! the 48 KiB static shared memory limit together with the 64-bit scatter bases (2 KiB).
//! Small is the shape for inputs of at most small_shape_max_keys keys: 256 x 8 keys, so that a
//! 2^16-key sort runs 32 tiles a pass instead of 8 (whole call at 2^16 about 61 -> 50 us on the H200).
//! Large shapes, measured on the H200 with the pass of docs/design/sort.md (one run, medians of 7,
//! temp storage preallocated, against cub::DeviceRadixSort in the same run):
//!   4-byte keys only:  512 x 21, 2 blocks an SM (64 registers): u32 2^28 1.027x CUB, float 2^27
//!                      1.03x; 384 x 19 at 3 blocks 1.006x / 1.02x; 384 x 23 at 2 blocks (80
//!                      registers) 8% slower than 512 x 21 in an earlier build of the pass.
//!   8-byte keys only:  384 x 12, 3 blocks an SM (56 registers): 1.078x; 256 x 16 at 3 blocks 1.012x.
//!   4-byte pairs:      384 x 20, 2 blocks: 0.999x; 512 x 16 1.005x (spills 44 bytes); 384 x 16 at
//!                      3 blocks 0.947x.
//!   8-byte values:     384 x 14, 2 blocks: u32/u64 pairs 0.970x; 256 x 16 at 3 blocks 0.931x.
template <std::size_t KeyBytes, std::size_t ValueBytes, bool Small>
struct pass_shape
{
  static constexpr std::size_t wide = KeyBytes > ValueBytes ? KeyBytes : ValueBytes;
  static constexpr bool keys_only   = ValueBytes == 0;
  static constexpr int threads      = Small ? 256 : keys_only && KeyBytes <= 4 ? 512 : 384;
  static constexpr int items        = Small ? 8 : keys_only ? (KeyBytes <= 4 ? 21 : 12) : wide <= 4 ? 20 : 14;
  static constexpr int tile_items   = threads * items;
  //! Blocks per SM the pass kernel is compiled for (__launch_bounds__ minimum): while one block
  //! waits in its look-back, another streams keys.
  static constexpr int min_blocks = !Small && keys_only && KeyBytes == 8 ? 3 : 2;
  //! Persistent blocks (onesweep_pass_kernel): a grid of one wave whose blocks loop over the tiles,
  //! so that a skipped pass costs one ticket a resident block instead of one a tile. Against one
  //! block a tile, on the H200 (whole sorts, A/B in one run): u32 2^28 level, u32 keys below 2^16
  //! and below 2^24 (two and one passes skipped) 4% faster, u32/u64 pairs 1% faster; u64 keys 1.5%
  //! and u32/u32 pairs 6.7% slower (the loop costs them registers: 4-20 bytes of spills), so those
  //! shapes keep one block a tile. Small inputs never skip (pass_skip_min_keys).
  static constexpr bool persistent = !Small && (keys_only ? KeyBytes <= 4 : wide == 8);
};

//! Onesweep's other constants for keys of KeyBytes and values of ValueBytes (0: keys only).
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct onesweep_tuning
{
  static constexpr int radix_bits = 8;
  static constexpr int radix_size = 1 << radix_bits;

  // Upfront histogram (upfront_histogram.cuh): blocks of 1024 threads, each with two 16-byte loads
  // in flight. On the H200, u32 2^28 keys: 1024 x 2 0.298 ms, 1024 x 1 0.305, 512 x 2 0.323 (three
  // blocks an SM), 256 x 2 0.363; u64 2^27 1024 x 2 0.309 ms, 512 x 2 0.417 (one block an SM).
  static constexpr int histogram_threads = 1024;
  static constexpr int histogram_unroll  = 2;
  //! Keys a thread counts at least, for the grid size of small inputs.
  static constexpr int histogram_min_keys_per_thread = 16;

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

//! From this many keys on, passes whose digit is the same for every key are skipped; the upfront
//! histogram decides it on the device (plan.hpp, pass_route), and a kernel then copies the result
//! back if an odd number of passes ran. Below it every pass runs, so the host knows where the
//! result ends up and launches no such check: a small pass costs about as much as that launch.
constexpr std::size_t pass_skip_min_keys = small_shape_max_keys + 1;

//! Up to this many bytes of tile state, every pass gets its own, cleared once at the start of the
//! call together with the histogram (saves one memset launch per pass on small inputs).
constexpr std::size_t state_upfront_max_bytes = std::size_t(4) << 20;

} // namespace sort_impl
} // namespace detail
} // namespace sweep
