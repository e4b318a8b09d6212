// Launch parameters of sweep's histogram kernels, one constexpr struct per compute capability.
#pragma once

#include <cstddef>

namespace sweep
{
namespace detail
{
namespace histo
{

struct tuning
{
  int block_threads;                 // threads per block of every histogram kernel
  int bytes_per_thread_narrow;       // sample bytes each thread loads per tile, 1- and 2-byte samples
  int bytes_per_thread_wide;         // the same for 4- and 8-byte samples
  std::size_t copies_budget_bytes;   // shared bytes a block may spend on privatized copies
  int max_copies;                    // copies per block; 32 puts copy `lane` in bank `lane`
  int max_blocks_per_sm;             // cap on the persistent grid
};

// sm_90 (H200: 132 SMs, 228 KB shared per SM, 227 KB per block opt-in). 32 copies of 256 bins are
// 32 KB, so six blocks of 256 threads share an SM; 64 bytes per thread per tile keeps four 16-byte
// loads in flight per thread for byte samples.
inline constexpr tuning tuning_sm90{256, 64, 32, 48 * 1024, 32, 8};

//! The tuning the kernels are instantiated with: sm_90's, the only architecture measured so far
//! (tuned on the H200, sm_90, only; add a struct per architecture when another is measured).
inline constexpr tuning default_tuning = tuning_sm90;

} // namespace histo
} // namespace detail
} // namespace sweep
