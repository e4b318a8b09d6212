// Tuning of sweep's copy_if kernel: one constexpr struct, written where it is used. Plain C++ (no
// CUDA keywords) so that the host-only unit tests can check the tile arithmetic built on it. Laid out
// like histogram/tuning.hpp and sort/tuning.hpp on purpose (one shape for the three algorithms).
#pragma once

namespace sweep
{
namespace detail
{
namespace copy_if_impl
{

//! One tile = block_threads threads x rows x (row_bytes of input per thread per row).
//! sm_90 (H200): 16-byte vector loads, 4 rows = 64 bytes in flight per thread. Types that load as
//! 16-byte vectors (size-aligned powers of two up to 16 bytes) use 512 threads (32 KiB tiles, four
//! blocks per SM); the others 256 threads (so that structs up to 128 bytes still fit the staging
//! budget). 512 measured faster than 256 and 384 for 1-, 4-, 8- and 16-byte items (2-byte items
//! were not measured; docs/design/copy_if.md, variants).
//! The packed-row scan needs rows <= 4 and block_threads * (items per row per thread) < 2^16
//! (checked in tile_shape).
struct tuning
{
  static constexpr int block_threads        = 256;
  static constexpr int vector_block_threads = 512;
  static constexpr int rows                 = 4;
  static constexpr int row_bytes            = 16;
  //! Types so large that four rows would stage more than this take fewer rows (>= 1); larger
  //! than one row fits, copy_if falls back to Thrust.
  static constexpr int max_staging_bytes = 32768;
  //! Look-back: nanoseconds a tile sleeps between publishing its count and its first poll
  //! (warp_lookback's initial_delay_ns), for the vector load path, when there are more tiles than
  //! blocks (blocks loop; smaller inputs have no predecessors worth waiting for). Measured on the
  //! H200 with 512-thread tiles: 1500 ns for items of 4 bytes and more (float 0.67 -> 0.59 ms at
  //! 2^28), 500 ns for 1- and 2-byte items (fewer, larger tiles: longer delays were slower there).
  static constexpr unsigned lookback_delay_ns       = 1500;
  static constexpr unsigned small_lookback_delay_ns = 500;
};

} // namespace copy_if_impl
} // namespace detail
} // namespace sweep
