// sweep's histogram kernels: a persistent-grid kernel over privatized shared-memory histograms with
// 16-byte loads, a global-atomics kernel for bin counts that do not fit in shared memory, and the
// small helpers (level gathering, counter conversion) around them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/detail/histogram/bin_transforms.cuh>
#include <sweep/detail/histogram/block_accumulate.cuh>

namespace sweep
{
namespace detail
{
namespace histo
{

//! Privatized bins are the output bins: each sample goes through the transform while counting.
template <class SampleT, class Op>
struct direct_mapping
{
  using sample_type = SampleT;
  using op_type     = Op;
  Op op;
  __device__ __forceinline__ int privatized(SampleT sample) const
  {
    return op(sample);
  }
  __device__ __forceinline__ int output(int bin) const
  {
    return bin;
  }
};

//! 8-bit samples: count the 256 raw byte values, and apply the transform to each raw value when the
//! block flushes (as CUB does for 8-bit samples; the bins are the same since the transform is the
//! same function of the value). Counting is then a byte extract and an atomic, whatever the op.
//! The raw value is the byte read unsigned, so a negative int8 sample has a privatized bin in
//! [128, 256) and is counted (CUB 3.0.1 takes `(int) sample`, negative, and drops it:
//! NVIDIA/cccl#10977).
template <class SampleT, class Op>
struct raw_byte_mapping
{
  static_assert(sizeof(SampleT) == 1, "raw byte privatization is for 8-bit samples");
  using sample_type = SampleT;
  using op_type     = Op;
  Op op;
  __device__ __forceinline__ int privatized(SampleT sample) const
  {
    return static_cast<int>(static_cast<unsigned char>(sample));
  }
  __device__ __forceinline__ int output(int raw) const
  {
    return op(static_cast<SampleT>(static_cast<unsigned char>(raw)));
  }
};

template <class Op>
struct is_range_op : std::false_type
{};
template <class SampleT, class LevelT>
struct is_range_op<range_transform<SampleT, LevelT>> : std::true_type
{};

//! Byte offset of the staged levels behind the privatized histogram in dynamic shared memory.
__host__ __device__ constexpr std::size_t staged_levels_offset(int priv_bins, int copies)
{
  return (static_cast<std::size_t>(priv_bins) * static_cast<std::size_t>(copies) * 4 + 15) / 16 * 16;
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

template <int BlockThreads, int ItemsPerThread, class Mapping, class SampleIt>
__device__ __forceinline__ void load_guarded_bins(
  const Mapping& map, SampleIt first, std::uint64_t begin, std::uint64_t end, int (&bins)[ItemsPerThread])
{
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k)
  {
    const std::uint64_t index = begin + static_cast<std::uint64_t>(k) * BlockThreads + threadIdx.x;
    bins[k]                   = index < end ? map.privatized(first[index]) : -1;
  }
}

//! Persistent-grid histogram into privatized shared-memory copies (grid sized to the GPU by the
//! dispatcher; block b takes full tiles b, b + grid, ...). Shared layout, 32-bit words:
//!   hist[bin * copies + copy], copy = lane % copies; with 32 copies each lane owns one bank, so
//!   the atomics of a warp never conflict on any data (uniform or all one value);
//!   then, if stage_levels, the range levels (16-byte aligned).
//! Invariant: a block counts at most 2^32 - 1 samples per launch (the dispatcher splits larger
//! inputs), so the 32-bit shared counters cannot wrap.
//! Sync points: (1) after zeroing/staging, before counting; (2) after counting, before the flush.
//! The flush adds each bin's block total to out[] with a relaxed device-scope atomicAdd: the
//! counts only need to be complete when the kernel ends (the stream orders the readers).
template <int BlockThreads, int ItemsPerThread, class Mapping, class SampleIt, class Accum>
__global__ void __launch_bounds__(BlockThreads)
  shared_histogram_kernel(SampleIt first, shared_launch work, Mapping map, Accum* out)
{
  using sample_t = typename Mapping::sample_type;
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned int* hist = reinterpret_cast<unsigned int*>(smem);

  const int words = work.priv_bins * work.copies;
  for (int i = threadIdx.x; i < words; i += BlockThreads)
  {
    hist[i] = 0;
  }
  if constexpr (is_range_op<typename Mapping::op_type>::value)
  {
    if (work.stage_levels)
    {
      using level_t = std::remove_const_t<std::remove_pointer_t<decltype(map.op.levels)>>;
      level_t* staged = reinterpret_cast<level_t*>(smem + staged_levels_offset(work.priv_bins, work.copies));
      for (int i = threadIdx.x; i < map.op.num_levels; i += BlockThreads)
      {
        staged[i] = map.op.levels[i];
      }
      map.op.levels = staged;
    }
  }
  __syncthreads(); // (1)

  const int lane        = threadIdx.x % 32;
  const int copy        = lane & (work.copies - 1);
  const int stride      = work.copies;
  const bool use_runs   = work.copies < 32; // with 32 copies same-bin atomics of a warp never collide
  constexpr int tile    = BlockThreads * ItemsPerThread;

  for (std::uint64_t t = blockIdx.x; t < work.full_tiles; t += gridDim.x)
  {
    const std::uint64_t base = work.head + t * tile;
    int bins[ItemsPerThread];
    if constexpr (std::is_pointer_v<SampleIt>)
    {
      // 16-byte loads, striped: vector j of thread i is vector j * BlockThreads + i of the tile,
      // so each load instruction of a warp reads 512 contiguous bytes. The tile starts 16-byte
      // aligned (head). __ldcs: every sample is read once, keep it out of the way in L2.
      constexpr int vec_items = 16 / sizeof(sample_t);
      constexpr int vecs      = ItemsPerThread / vec_items;
      static_assert(ItemsPerThread % vec_items == 0, "a thread's items are whole 16-byte vectors");
      const uint4* vp = reinterpret_cast<const uint4*>(first + base);
      uint4 raw[vecs];
#pragma unroll
      for (int j = 0; j < vecs; ++j)
      {
        raw[j] = __ldcs(vp + j * BlockThreads + threadIdx.x);
      }
#pragma unroll
      for (int j = 0; j < vecs; ++j)
      {
        sample_t items[vec_items];
        std::memcpy(items, &raw[j], 16);
#pragma unroll
        for (int k = 0; k < vec_items; ++k)
        {
          bins[j * vec_items + k] = map.privatized(items[k]);
        }
      }
    }
    else
    {
#pragma unroll
      for (int k = 0; k < ItemsPerThread; ++k)
      {
        bins[k] = map.privatized(first[base + static_cast<std::uint64_t>(k) * BlockThreads + threadIdx.x]);
      }
    }
    if (use_runs)
    {
      count_bin_runs(bins, hist, stride, copy);
    }
    else
    {
      count_bins(bins, hist, stride, copy);
    }
  }

  // The ragged ends (fewer than a tile each) go to the last block, whose tile loop is shortest.
  if (blockIdx.x == gridDim.x - 1)
  {
    const std::uint64_t tail_begin = work.head + work.full_tiles * tile;
    const std::uint64_t ends[2][2] = {{0, work.head}, {tail_begin, work.n}};
    for (int part = 0; part < 2; ++part)
    {
      for (std::uint64_t begin = ends[part][0]; begin < ends[part][1]; begin += tile)
      {
        int bins[ItemsPerThread];
        load_guarded_bins<BlockThreads>(map, first, begin, ends[part][1], bins);
        count_bins(bins, hist, stride, copy);
      }
    }
  }
  __syncthreads(); // (2)

  // Flush: thread i sums bin i's copies starting at copy (i % copies) so that the 32 threads of a
  // warp read 32 different banks, and adds the block total to the output bin.
  for (int bin = threadIdx.x; bin < work.priv_bins; bin += BlockThreads)
  {
    unsigned int total = 0;
    for (int c = 0; c < work.copies; ++c)
    {
      total += hist[bin * work.copies + ((c + bin) & (work.copies - 1))];
    }
    if (total != 0)
    {
      const int out_bin = map.output(bin);
      if (out_bin >= 0)
      {
        atomicAdd(out + out_bin, static_cast<Accum>(total));
      }
    }
  }
}

//! Bins that do not fit in shared memory: every sample run is a relaxed device-scope atomicAdd on
//! the output counters (correct for any bin count, slower; equal neighbours in a thread are merged).
template <int BlockThreads, int ItemsPerThread, class Mapping, class SampleIt, class Accum>
__global__ void __launch_bounds__(BlockThreads)
  global_histogram_kernel(SampleIt first, std::uint64_t n, Mapping map, Accum* out)
{
  constexpr int tile = BlockThreads * ItemsPerThread;
  for (std::uint64_t begin = static_cast<std::uint64_t>(blockIdx.x) * tile; begin < n;
       begin += static_cast<std::uint64_t>(gridDim.x) * tile)
  {
    int bins[ItemsPerThread];
    load_guarded_bins<BlockThreads>(map, first, begin, n, bins);
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

} // namespace histo
} // namespace detail
} // namespace sweep
