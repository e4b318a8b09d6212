// Host-side arithmetic of sweep's histograms: items per thread, the temporary-storage layout, the
// privatized copies and the shared memory they take, the persistent grid, and the split of a long
// input into launches, under one architecture's tuning (tuning.hpp). Plain C++ (host-only unit tests
// include it); the dispatcher and the kernels take every number from here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sweep/detail/histogram/tuning.hpp>
#include <sweep/detail/util/host_device.hpp>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

//! Samples each thread loads per tile: Tuning's bytes per thread over the sample size.
template <class Tuning, class SampleT>
constexpr int items_per_thread =
  (sizeof(SampleT) <= 2 ? Tuning::bytes_per_thread_narrow : Tuning::bytes_per_thread_wide)
  / static_cast<int>(sizeof(SampleT));

//! Counters the kernels can add to in place: a raw pointer to 32- or 64-bit integers.
template <class Counter, class CountOut>
constexpr bool direct_output_v = std::is_pointer_v<CountOut> && std::is_integral_v<Counter>
                              && !std::is_same_v<Counter, bool> && (sizeof(Counter) == 4 || sizeof(Counter) == 8);

template <class Counter>
using direct_accum_t = std::conditional_t<sizeof(Counter) == 4, unsigned int, unsigned long long>;

//! Bytes of the 64-bit accumulation buffer (none when the counters are updated in place).
template <class Counter, class CountOut>
constexpr std::size_t accum_bytes(int num_bins)
{
  return direct_output_v<Counter, CountOut> ? 0 : static_cast<std::size_t>(num_bins) * sizeof(unsigned long long);
}

//! Byte offset of the staged levels behind the privatized histogram in dynamic shared memory.
SWEEP_HOST_DEVICE constexpr std::size_t staged_levels_offset(int priv_bins, int copies)
{
  return (static_cast<std::size_t>(priv_bins) * static_cast<std::size_t>(copies) * 4 + 15) / 16 * 16;
}

//! How one histogram is counted: the shared-memory kernel over `copies` privatized copies of
//! priv_bins 32-bit counters (smem bytes of dynamic shared memory, the range levels staged behind
//! them when stage_levels), or, when one copy does not fit in a block, the global-atomics kernel;
//! blocks of block_threads threads loading items_per_thread samples each per tile (the tuning of the
//! kernel's architecture).
struct launch_plan
{
  int block_threads    = 0;
  int items_per_thread = 0;
  bool use_shared      = true;
  int priv_bins        = 0;
  int copies           = 1;
  std::size_t smem     = 0;
  bool stage_levels    = false;
  int grid             = 1;

  //! Samples of one tile.
  std::uint64_t tile() const
  {
    return static_cast<std::uint64_t>(block_threads) * static_cast<std::uint64_t>(items_per_thread);
  }
};

//! The plan's shared-memory part for priv_bins bins, level_bytes of range levels (0: none) and
//! `limit` bytes of shared memory per block (the device's opt-in maximum): the most copies, a power
//! of two up to Tuning::max_copies, within Tuning::copies_budget_bytes (32 makes every warp's atomics
//! conflict-free), and the levels staged when they fit beside them. Samples of SampleT. The grid is
//! left at 1.
template <class Tuning, class SampleT>
launch_plan plan_shared_memory(int priv_bins, std::size_t level_bytes, std::size_t limit)
{
  const std::size_t one = static_cast<std::size_t>(priv_bins) * 4;
  launch_plan plan;
  plan.block_threads    = Tuning::block_threads;
  plan.items_per_thread = items_per_thread<Tuning, SampleT>;
  plan.priv_bins        = priv_bins;
  if (one > limit)
  {
    plan.use_shared = false;
    return plan;
  }
  while (plan.copies * 2 <= Tuning::max_copies && one * plan.copies * 2 <= Tuning::copies_budget_bytes)
  {
    plan.copies *= 2;
  }
  plan.smem = one * plan.copies;
  if (level_bytes > 0 && staged_levels_offset(priv_bins, plan.copies) + level_bytes <= limit)
  {
    plan.stage_levels = true;
    plan.smem         = staged_levels_offset(priv_bins, plan.copies) + level_bytes;
  }
  return plan;
}

//! The persistent grid: sm_count x the blocks an SM holds (per_sm), at most Tuning::max_blocks_per_sm.
template <class Tuning>
int persistent_grid(int sm_count, int per_sm)
{
  return sm_count * std::min(per_sm, Tuning::max_blocks_per_sm);
}

//! Blocks of the global-atomics kernel for n samples: the plan's grid, never more than tiles.
inline std::uint64_t global_launch_grid(const launch_plan& plan, std::uint64_t n, std::uint64_t tile)
{
  return std::min<std::uint64_t>(plan.grid, (n + tile - 1) / tile);
}

//! Samples of a pointer input at `address` before its first 16-byte boundary, which go through the
//! guarded path; all n when the address is misaligned for the sample type itself (scalar loads).
inline std::uint64_t aligned_head(std::uintptr_t address, std::size_t sample_bytes, std::uint64_t n)
{
  std::uint64_t head = 0;
  if (address % sample_bytes == 0 && address % 16 != 0)
  {
    head = (16 - address % 16) / sample_bytes;
  }
  else if (address % sample_bytes != 0)
  {
    head = n; // misaligned for its own type: everything guarded (scalar loads)
  }
  return std::min(head, n);
}

//! Work of one launch of the shared-memory kernel. Samples [0, head) and [head + full_tiles *
//! tile, n) are the ragged ends; tiles in between start 16-byte aligned when the input is a pointer.
struct shared_launch
{
  std::uint64_t n;
  std::uint64_t head;
  std::uint64_t full_tiles;
  int priv_bins;
  int copies; // power of two in [1, 32]
  bool stage_levels;
};

//! The shared-memory launch that starts at sample `offset` of n (head: aligned_head, guarded in the
//! first launch only). 32-bit shared counters: a block may count at most 2^31 samples of full tiles
//! per launch, so a long input takes several launches; the next starts at offset + work.n.
inline shared_launch shared_launch_at(
  const launch_plan& plan, std::uint64_t n, std::uint64_t offset, std::uint64_t head, std::uint64_t tile)
{
  const std::uint64_t chunk_tiles = static_cast<std::uint64_t>(plan.grid) * ((std::uint64_t(1) << 31) / tile);
  const std::uint64_t remaining   = n - offset;
  shared_launch work{};
  work.head         = offset == 0 ? head : 0;
  work.full_tiles   = std::min((remaining - work.head) / tile, chunk_tiles);
  work.n            = work.full_tiles == chunk_tiles ? work.head + work.full_tiles * tile : remaining;
  work.priv_bins    = plan.priv_bins;
  work.copies       = plan.copies;
  work.stage_levels = plan.stage_levels;
  return work;
}

//! Blocks of one shared-memory launch: one per full tile, at least one, at most the plan's grid.
inline std::uint64_t shared_launch_grid(const launch_plan& plan, const shared_launch& work)
{
  return std::clamp<std::uint64_t>(work.full_tiles, 1, static_cast<std::uint64_t>(plan.grid));
}

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
