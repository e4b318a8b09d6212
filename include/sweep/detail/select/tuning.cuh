// Tuning of sweep's copy_if kernel: one constexpr struct, written where it is used. Plain C++ (no
// CUDA keywords) so that the host-only unit tests can check the tile arithmetic built on it.
#pragma once

namespace sweep
{
namespace detail
{

//! One tile = block_threads threads x rows x (row_bytes of input per thread per row).
//! sm_90 (H200): 256 threads x 4 rows x 16-byte vector loads = 64 bytes in flight per thread,
//! 16 KiB per block, several blocks per SM; the packed-row scan needs rows <= 4 and
//! block_threads * (items per row per thread) < 2^16 (checked in the kernel).
struct select_tuning
{
  static constexpr int block_threads = 256;
  static constexpr int rows          = 4;
  static constexpr int row_bytes     = 16;
  //! Types so large that four rows would stage more than this take fewer rows (>= 1); larger
  //! than one row fits, copy_if falls back to Thrust.
  static constexpr int max_staging_bytes = 32768;
};

} // namespace detail
} // namespace sweep
