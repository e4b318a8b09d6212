// sweep::block_histogram: a block-wide cooperative histogram into shared memory for users' own
// kernels, like cub::BlockHistogram but taking the number of valid items (a tile's tail) or a
// per-item validity mask, so callers never invent padding values.
#pragma once

#include <cuda_runtime_api.h>

#include <sweep/detail/histogram/block_accumulate.cuh>

namespace sweep
{

//! How block_histogram keeps invalid items out of the counts. guard_bin is the default, chosen by
//! measurement: on an H200, 2^28 uint8 samples into 256 bins with every tile partial (the worst case),
//! guard_bin took 0.243 ms and subtract_padding 0.246 ms (benchmarks/bench_histogram.cu).
enum class block_histogram_tail
{
  //! Invalid items add to a guard counter in the primitive's temp storage, which is dropped:
  //! branch-free (the atomic's address is selected), works for masks and counts alike.
  guard_bin,
  //! Invalid items are counted in bin 0 and the number of them is subtracted from bin 0 again
  //! (one atomic per thread with invalid items). The invalid items' values are never read.
  subtract_padding,
};

//! A block-wide histogram of ItemsPerThread bin indices per thread into a shared-memory array of
//! Bins counters. T is an integer type; every valid item must lie in [0, Bins) (as in
//! cub::BlockHistogram). Items are in the blocked arrangement for the `valid_items` forms: item k
//! of the thread with linear index t is item t * ItemsPerThread + k of the tile (what
//! cub::BlockLoad's default arrangement produces).
//!
//! Collective: every thread of the block (BlockThreads threads, 1-, 2- or 3-D) must call each
//! member function, in the same order. init_histogram and histogram contain __syncthreads();
//! composite does not, so one histogram may take several composite calls, and the caller puts a
//! __syncthreads() between the last composite and reading the counters.
//! Counter: unsigned int (default), int or unsigned long long (shared-memory atomicAdd types).
template <class T,
          int BlockThreads,
          int ItemsPerThread,
          int Bins,
          class Counter             = unsigned int,
          block_histogram_tail Tail = block_histogram_tail::guard_bin>
class block_histogram
{
  static_assert(Bins > 0 && ItemsPerThread > 0 && BlockThreads > 0, "positive sizes");

public:
  //! Shared storage the primitive needs (the guard counter); may be reused after a barrier.
  struct temp_storage
  {
    Counter guard;
  };

  __device__ explicit block_histogram(temp_storage& storage)
      : storage_(storage)
      , tid_(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))
  {}

  //! Zeroes the histogram. Ends with __syncthreads(), so composite may follow directly.
  __device__ void init_histogram(Counter (&histogram)[Bins])
  {
    for (int i = tid_; i < Bins; i += BlockThreads)
    {
      histogram[i] = 0;
    }
    __syncthreads();
  }

  //! Adds every item (a full tile) to the histogram: the device histogram kernel's counting step
  //! (detail::histogram_impl::count_bins), on one copy of the bins.
  __device__ void composite(const T (&items)[ItemsPerThread], Counter (&histogram)[Bins])
  {
    int bins[ItemsPerThread];
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k)
    {
      bins[k] = static_cast<int>(items[k]);
    }
    detail::histogram_impl::count_bins(bins, histogram, 1, 0);
  }

  //! Adds the first valid_items items of the tile (blocked arrangement); the others are not read
  //! as bins. valid_items >= BlockThreads * ItemsPerThread means a full tile.
  __device__ void composite(const T (&items)[ItemsPerThread], Counter (&histogram)[Bins], int valid_items)
  {
    bool valid[ItemsPerThread];
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k)
    {
      valid[k] = tid_ * ItemsPerThread + k < valid_items;
    }
    composite(items, histogram, valid);
  }

  //! Adds the items whose valid flag is set.
  __device__ void
  composite(const T (&items)[ItemsPerThread], Counter (&histogram)[Bins], const bool (&valid)[ItemsPerThread])
  {
    if constexpr (Tail == block_histogram_tail::guard_bin)
    {
#pragma unroll
      for (int k = 0; k < ItemsPerThread; ++k)
      {
        Counter* target = valid[k] ? histogram + static_cast<int>(items[k]) : &storage_.guard;
        atomicAdd(target, Counter(1));
      }
    }
    else
    {
      Counter padding = 0;
#pragma unroll
      for (int k = 0; k < ItemsPerThread; ++k)
      {
        padding += valid[k] ? 0 : 1;
        atomicAdd(histogram + (valid[k] ? static_cast<int>(items[k]) : 0), Counter(1));
      }
      if (padding != 0)
      {
        // Unsigned wrap-around (or a transient negative int) is fine: the additions and this
        // subtraction commute, and bin 0 is exact once every thread has passed.
        atomicAdd(histogram, Counter(0) - padding);
      }
    }
  }

  //! init_histogram + composite(valid_items) + __syncthreads(): on return every thread may read
  //! the finished histogram.
  __device__ void
  histogram(const T (&items)[ItemsPerThread], Counter (&histogram)[Bins], int valid_items = BlockThreads * ItemsPerThread)
  {
    init_histogram(histogram);
    composite(items, histogram, valid_items);
    __syncthreads();
  }

private:
  temp_storage& storage_;
  int tid_;
};

} // namespace sweep
