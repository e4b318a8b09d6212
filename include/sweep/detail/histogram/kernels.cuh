// sweep's histogram kernels, thin: the persistent-grid kernel over privatized shared-memory copies
// (its steps are the agent's, agent.cuh), the global-atomics kernel for bin counts that do not fit in
// shared memory, and the small helpers (level gathering, counter conversion) around them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include <sweep/detail/histogram/agent.cuh>
#include <sweep/detail/histogram/block_accumulate.cuh>
#include <sweep/detail/histogram/plan.hpp>
#include <sweep/detail/histogram/tuning.hpp>
#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

//! Persistent-grid histogram into privatized shared-memory copies (grid sized to the GPU by the
//! dispatcher; block b takes full tiles b, b + grid, ...; the ragged ends go to the last block,
//! whose tile loop is shortest). Shared layout: see agent.
//! Invariant: a block counts at most 2^32 - 1 samples per launch (the dispatcher splits larger
//! inputs), so the 32-bit shared counters cannot wrap.
//! Sync points: (1) after zeroing/staging, before counting; (2) after counting, before the merge.
//! The tuning (block size, samples a thread) is the one of the architecture this code is compiled
//! for (tuning_for<compiled_arch>), never a template parameter: one instantiation serves every
//! architecture, and the host finds the same struct from the kernel's PTX version (dispatch.cuh).
template <class Mapping, class SampleIt, class Accum>
__global__ void __launch_bounds__(tuning_for<compiled_arch>::block_threads)
  shared_histogram_kernel(SampleIt first, shared_launch work, Mapping map, Accum* out)
{
  using tuning = tuning_for<compiled_arch>;
  extern __shared__ __align__(16) unsigned char smem[];
  const agent<tuning::block_threads, items_per_thread<tuning, typename Mapping::sample_type>, Mapping, SampleIt> block{
    first, work, map, smem, reinterpret_cast<unsigned int*>(smem)};
  block.init();
  __syncthreads(); // (1)
  block.count_full_tiles();
  if (blockIdx.x == gridDim.x - 1)
  {
    block.count_ragged_ends();
  }
  __syncthreads(); // (2)
  block.merge_to_global(out);
}

//! Bins that do not fit in shared memory: every sample run is a relaxed device-scope atomicAdd on
//! the output counters (correct for any bin count, slower; equal neighbours in a thread are merged).
//! Tuned like shared_histogram_kernel.
template <class Mapping, class SampleIt, class Accum>
__global__ void __launch_bounds__(tuning_for<compiled_arch>::block_threads)
  global_histogram_kernel(SampleIt first, std::uint64_t n, Mapping map, Accum* out)
{
  using tuning          = tuning_for<compiled_arch>;
  constexpr int threads = tuning::block_threads;
  constexpr int items   = items_per_thread<tuning, typename Mapping::sample_type>;
  constexpr int tile    = threads * items;
  for (std::uint64_t begin = static_cast<std::uint64_t>(blockIdx.x) * tile; begin < n;
       begin += static_cast<std::uint64_t>(gridDim.x) * tile)
  {
    int bins[items];
    load_guarded_bins<threads>(map, first, begin, n, bins);
    count_bin_runs(bins, out, 1, 0);
  }
}

//! levels[i] = levels_first[i]: the levels, from any device-accessible iterator, into temp storage.
template <class LevelIt, class LevelT>
__global__ void gather_levels_kernel(LevelIt levels_first, int num_levels, LevelT* levels)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num_levels)
  {
    levels[i] = static_cast<LevelT>(levels_first[i]);
  }
}

//! counts[i] = Counter(accum[i]): the final counts through any output iterator.
template <class Counter, class Accum, class CountIt>
__global__ void write_counts_kernel(const Accum* accum, int num_bins, CountIt counts)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num_bins)
  {
    counts[i] = static_cast<Counter>(accum[i]);
  }
}

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
