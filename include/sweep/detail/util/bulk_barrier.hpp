// The shared-memory barrier word of Hopper's bulk asynchronous copies (bulk_copy.cuh), as a plain type
// that host code can lay out (the pipelines' shared-memory layouts are computed on the host too).
#pragma once

namespace sweep
{
namespace detail
{

//! A shared-memory barrier (mbarrier) that completes a phase when its expected arrivals and the bytes
//! they announced (bulk_expect_bytes, bulk_copy_to_shared) have arrived. u64 in shared memory,
//! 8-aligned.
struct bulk_barrier
{
  unsigned long long word;
};

} // namespace detail
} // namespace sweep
