// Launch parameters of sweep's histogram kernels: one named struct per measured architecture, and
// the one place that chooses among them. Plain C++ (host-only unit tests check the plan built on it).
#pragma once

#include <cstddef>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

//! sm_90 (H200: 132 SMs, 228 KB shared per SM, 227 KB per block opt-in). 32 copies of 256 bins are
//! 32 KB, so six blocks of 256 threads share an SM; 64 bytes per thread per tile keeps four 16-byte
//! loads in flight per thread for byte samples.
struct tuning_sm90
{
  //! Threads per block of every histogram kernel.
  static constexpr int block_threads = 256;
  //! Sample bytes each thread loads per tile, 1- and 2-byte samples.
  static constexpr int bytes_per_thread_narrow = 64;
  //! The same for 4- and 8-byte samples.
  static constexpr int bytes_per_thread_wide = 32;
  //! Shared bytes a block may spend on privatized copies.
  static constexpr std::size_t copies_budget_bytes = 48 * 1024;
  //! Privatized copies per block; 32 puts copy `lane` in bank `lane`.
  static constexpr int max_copies = 32;
  //! Cap on the persistent grid's resident blocks per SM.
  static constexpr int max_blocks_per_sm = 8;
};

//! The tuning the kernels are instantiated with: sm_90's, the only architecture measured so far
//! (tuned on the H200 only; add a struct per architecture when another is measured).
using tuning = tuning_sm90;

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
