// The block-level steps of sweep's shared-memory histogram kernel: zero (and stage the levels of)
// the privatized copies, count full tiles with 16-byte loads, count the ragged ends, merge the
// copies into the global counters; and the sample -> privatized bin mappings they count through.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/detail/histogram/bin_transforms.hpp>
#include <sweep/detail/histogram/block_accumulate.cuh>
#include <sweep/detail/histogram/plan.hpp>

namespace sweep
{
namespace detail
{
namespace histogram_impl
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

//! Privatized bins of the samples [begin, end) of a tile of BlockThreads x ItemsPerThread (item k of
//! thread t is sample begin + k * BlockThreads + t); -1 past `end`.
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

//! One block of the shared-memory kernel over the launch `work`. Shared layout, 32-bit words:
//!   hist[bin * copies + copy], copy = lane % copies; with 32 copies each lane owns one bank, so
//!   the atomics of a warp never conflict on any data (uniform or all one value);
//!   then, if stage_levels, the range levels (16-byte aligned).
//! The kernel calls the steps in order with a barrier after init and after the counting.
template <int BlockThreads, int ItemsPerThread, class Mapping, class SampleIt>
struct agent
{
  using sample_t     = typename Mapping::sample_type;
  static constexpr int tile = BlockThreads * ItemsPerThread;

  SampleIt first;
  const shared_launch& work;
  Mapping& map;
  unsigned char* smem;
  unsigned int* hist;

  //! Zeroes the privatized copies and, for range bins, stages the levels behind them (the mapping
  //! then reads them from shared memory).
  __device__ __forceinline__ void init() const
  {
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
  }

  //! Privatized bins of the full tile at `base`. Pointer input: 16-byte loads, striped: vector j of
  //! thread i is vector j * BlockThreads + i of the tile, so each load instruction of a warp reads
  //! 512 contiguous bytes. The tile starts 16-byte aligned (head). __ldcs: every sample is read
  //! once, keep it out of the way in L2.
  __device__ __forceinline__ void load_full_tile(std::uint64_t base, int (&bins)[ItemsPerThread]) const
  {
    if constexpr (std::is_pointer_v<SampleIt>)
    {
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
  }

  //! Counts full tiles blockIdx.x, blockIdx.x + gridDim.x, ... into the thread's copy. With fewer
  //! than 32 copies, equal neighbours in a thread's items are added as one run.
  __device__ __forceinline__ void count_full_tiles() const
  {
    const int lane      = threadIdx.x % 32;
    const int copy      = lane & (work.copies - 1);
    const int stride    = work.copies;
    const bool use_runs = work.copies < 32; // with 32 copies same-bin atomics of a warp never collide
    for (std::uint64_t t = blockIdx.x; t < work.full_tiles; t += gridDim.x)
    {
      int bins[ItemsPerThread];
      load_full_tile(work.head + t * tile, bins);
      if (use_runs)
      {
        count_bin_runs(bins, hist, stride, copy);
      }
      else
      {
        count_bins(bins, hist, stride, copy);
      }
    }
  }

  //! Counts the ragged ends (fewer than a tile each: [0, head) and the tail) with guarded loads.
  __device__ __forceinline__ void count_ragged_ends() const
  {
    const int lane                 = threadIdx.x % 32;
    const int copy                 = lane & (work.copies - 1);
    const int stride               = work.copies;
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

  //! Merges the copies into the output: thread i sums bin i's copies starting at copy (i % copies)
  //! so that the 32 threads of a warp read 32 different banks, and adds the block total to the
  //! output bin with a relaxed device-scope atomicAdd (the counts only need to be complete when the
  //! kernel ends; the stream orders the readers).
  template <class Accum>
  __device__ __forceinline__ void merge_to_global(Accum* out) const
  {
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
};

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
