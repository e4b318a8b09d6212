// Hopper's bulk asynchronous copies between global and shared memory (cp.async.bulk, the copy engine
// that TMA drives) and the shared-memory barriers (mbarrier) that count their bytes: the few PTX
// instructions sweep uses, each behind a small function. Only sm_90 and newer have them
// (bulk_copy_available); elsewhere the functions trap, and no kernel calls them there.
#pragma once

#include <cstdint>

#include <sweep/detail/util/bulk_barrier.hpp>

namespace sweep
{
namespace detail
{

//! Device code being compiled has cp.async.bulk and transaction-counting mbarriers (sm_90 and newer).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
inline constexpr bool bulk_copy_available = true;
#else
inline constexpr bool bulk_copy_available = false;
#endif

__device__ __forceinline__ std::uint32_t shared_address(const void* p)
{
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

//! One thread: the barrier expects `arrivals` arrivals a phase (one: the arrival of
//! bulk_expect_bytes). The block must synchronize (and the async proxy see the initialization:
//! bulk_proxy_fence) before any copy or other thread uses it.
__device__ __forceinline__ void bulk_barrier_init(bulk_barrier& b, std::uint32_t arrivals = 1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(&b.word)), "r"(arrivals) : "memory");
#else
  (void) b;
  (void) arrivals;
  __trap();
#endif
}

//! This thread arrives on `b` for its current phase, announcing no bytes (release: its earlier
//! writes are visible to the threads that wait for that phase: bulk_wait).
__device__ __forceinline__ void bulk_arrive(bulk_barrier& b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(&b.word)) : "memory");
#else
  (void) b;
  __trap();
#endif
}

//! Orders this thread's earlier generic accesses to shared memory (stores, loads, a barrier's
//! initialization) before later accesses of the async proxy (bulk copies) that a barrier
//! (__syncthreads) orders after them: a slot the block wrote and read is then safe to refill.
__device__ __forceinline__ void bulk_proxy_fence()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
  __trap();
#endif
}

//! One thread: arrives on `b` for its current phase and announces `bytes` more to come from copies
//! (the phase completes when they have landed).
__device__ __forceinline__ void bulk_expect_bytes(bulk_barrier& b, std::uint32_t bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(&b.word)), "r"(bytes)
               : "memory");
#else
  (void) b;
  (void) bytes;
  __trap();
#endif
}

//! One thread: copies `bytes` (a multiple of 16) from global `src` to shared `dst` (both 16-byte
//! aligned) asynchronously; the bytes count towards `b`'s current phase.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, std::uint32_t bytes, bulk_barrier& b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                 shared_address(dst)),
               "l"(__cvta_generic_to_global(src)),
               "r"(bytes),
               "r"(shared_address(&b.word))
               : "memory");
#else
  (void) dst;
  (void) src;
  (void) bytes;
  (void) b;
  __trap();
#endif
}

//! One thread: copies `bytes` (a multiple of 16) from shared `src` to global `dst` (both 16-byte
//! aligned) asynchronously, as part of this thread's current bulk group (bulk_commit). The block's
//! generic writes of `src` must come first (bulk_proxy_fence, then a barrier).
__device__ __forceinline__ void bulk_copy_to_global(void* dst, const void* src, std::uint32_t bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(__cvta_generic_to_global(dst)),
               "r"(shared_address(src)),
               "r"(bytes)
               : "memory");
#else
  (void) dst;
  (void) src;
  (void) bytes;
  __trap();
#endif
}

//! One thread: closes its current bulk group (the copies to global issued since the last commit).
__device__ __forceinline__ void bulk_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#else
  __trap();
#endif
}

//! One thread: waits until every bulk group it committed has read its shared memory (the source may
//! then be overwritten; the global writes may still be in flight: they complete before the kernel
//! does).
__device__ __forceinline__ void bulk_wait_read()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#else
  __trap();
#endif
}

//! Every thread that needs the data: waits until `b` completes the phase of parity `parity` (0 for its
//! first phase, then alternating); the copied bytes, and the writes its arriving threads made before
//! they arrived, are then visible to the caller. On a barrier that has not completed a phase yet,
//! parity 1 names the phase before its first one and returns at once.
__device__ __forceinline__ void bulk_wait(bulk_barrier& b, std::uint32_t parity)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  std::uint32_t done = 0;
  do
  {
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(shared_address(&b.word)), "r"(parity)
                 : "memory");
  } while (done == 0);
#else
  (void) b;
  (void) parity;
  __trap();
#endif
}

} // namespace detail
} // namespace sweep
