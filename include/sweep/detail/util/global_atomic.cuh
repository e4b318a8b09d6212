// Atomic loads, stores and additions on 32- and 64-bit words in global memory, by the PTX
// instructions that name the global state space and the GPU scope, each with the memory order its
// caller states (as cuda::atomic_ref<Word, cuda::thread_scope_device> takes it).
//
// Why not cuda::atomic_ref: every libcu++ atomic on a pointer first asks whether the pointer is in
// local memory (automatic storage, which libcu++ serves without atomics). In CCCL 3.0 that question
// is the __isLocal builtin, which the compiler folds away for pointers into global memory; since
// CCCL 3.1 (3.2 and later: with nvcc before 13.1) it is an `asm volatile` isspacep.local, which the
// compiler can neither drop nor share between calls. sweep's look-back kernels then carried one
// query and one fallback branch per atomic, and spilled: with CCCL 3.5.0 the u32 onesweep pass had
// 8 bytes of stack and 2682 SASS instructions against none and 2306 with CCCL 3.0.1, and the sort
// ran 8% slower (docs/design/sort.md, "Building against other CCCL releases"). The words here (tile
// states, tile tickets, completion counters) always live in global memory, so sweep states it.
#pragma once

#include <cuda/atomic>

#include <vector_types.h>

#include <cstdint>
#include <type_traits>

namespace sweep
{
namespace detail
{

template <class Word>
constexpr bool is_atomic_word_v = std::is_integral_v<Word> && std::is_unsigned_v<Word>
                               && (sizeof(Word) == 4 || sizeof(Word) == 8);

//! The word at `p` (global memory), read atomically at GPU scope; Order: relaxed or acquire.
template <cuda::std::memory_order Order, class Word>
__device__ __forceinline__ Word global_atomic_load(const Word* p)
{
  static_assert(is_atomic_word_v<Word>, "global_atomic_load: a 32- or 64-bit unsigned word");
  static_assert(Order == cuda::std::memory_order_relaxed || Order == cuda::std::memory_order_acquire,
                "global_atomic_load: relaxed or acquire");
  const auto address = __cvta_generic_to_global(p);
  if constexpr (sizeof(Word) == 8)
  {
    unsigned long long value;
    if constexpr (Order == cuda::std::memory_order_acquire)
    {
      asm volatile("ld.acquire.gpu.global.b64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
    }
    else
    {
      asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
    }
    return static_cast<Word>(value);
  }
  else
  {
    unsigned value;
    if constexpr (Order == cuda::std::memory_order_acquire)
    {
      asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(value) : "l"(address) : "memory");
    }
    else
    {
      asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(value) : "l"(address) : "memory");
    }
    return static_cast<Word>(value);
  }
}

//! Stores `value` at `p` (global memory) atomically at GPU scope; Order: relaxed or release.
template <cuda::std::memory_order Order, class Word>
__device__ __forceinline__ void global_atomic_store(Word* p, Word value)
{
  static_assert(is_atomic_word_v<Word>, "global_atomic_store: a 32- or 64-bit unsigned word");
  static_assert(Order == cuda::std::memory_order_relaxed || Order == cuda::std::memory_order_release,
                "global_atomic_store: relaxed or release");
  const auto address = __cvta_generic_to_global(p);
  if constexpr (sizeof(Word) == 8)
  {
    const unsigned long long v = value;
    if constexpr (Order == cuda::std::memory_order_release)
    {
      asm volatile("st.release.gpu.global.b64 [%0], %1;" : : "l"(address), "l"(v) : "memory");
    }
    else
    {
      asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" : : "l"(address), "l"(v) : "memory");
    }
  }
  else
  {
    const unsigned v = value;
    if constexpr (Order == cuda::std::memory_order_release)
    {
      asm volatile("st.release.gpu.global.b32 [%0], %1;" : : "l"(address), "r"(v) : "memory");
    }
    else
    {
      asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" : : "l"(address), "r"(v) : "memory");
    }
  }
}

//! Adds `value` to the word at `p` (global memory) atomically at GPU scope and returns the word it
//! replaced; Order: relaxed or acq_rel.
template <cuda::std::memory_order Order, class Word>
__device__ __forceinline__ Word global_atomic_fetch_add(Word* p, Word value)
{
  static_assert(is_atomic_word_v<Word>, "global_atomic_fetch_add: a 32- or 64-bit unsigned word");
  static_assert(Order == cuda::std::memory_order_relaxed || Order == cuda::std::memory_order_acq_rel,
                "global_atomic_fetch_add: relaxed or acq_rel");
  const auto address = __cvta_generic_to_global(p);
  if constexpr (sizeof(Word) == 8)
  {
    unsigned long long old;
    const unsigned long long v = value;
    if constexpr (Order == cuda::std::memory_order_acq_rel)
    {
      asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(address), "l"(v) : "memory");
    }
    else
    {
      asm volatile("atom.relaxed.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(address), "l"(v) : "memory");
    }
    return static_cast<Word>(old);
  }
  else
  {
    unsigned old;
    const unsigned v = value;
    if constexpr (Order == cuda::std::memory_order_acq_rel)
    {
      asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(address), "r"(v) : "memory");
    }
    else
    {
      asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(address), "r"(v) : "memory");
    }
    return static_cast<Word>(old);
  }
}

//! Two 64-bit words at `p` (global memory, 16-byte aligned) read as one 128-bit access at GPU scope
//! (PTX ld.b128, sm_70 and newer: a single memory operation, so both halves come from the same
//! store); Order: relaxed.
template <cuda::std::memory_order Order>
__device__ __forceinline__ ulonglong2 global_atomic_load_128(const unsigned long long* p)
{
  static_assert(Order == cuda::std::memory_order_relaxed, "global_atomic_load_128: relaxed");
  const auto address = __cvta_generic_to_global(p);
  ulonglong2 v;
  asm volatile("{\n\t.reg .b128 t;\n\tld.relaxed.gpu.global.b128 t, [%2];\n\tmov.b128 {%0, %1}, t;\n\t}"
               : "=l"(v.x), "=l"(v.y)
               : "l"(address)
               : "memory");
  return v;
}

//! Stores two 64-bit words at `p` (global memory, 16-byte aligned) as one 128-bit access at GPU
//! scope (PTX st.b128); Order: relaxed.
template <cuda::std::memory_order Order>
__device__ __forceinline__ void global_atomic_store_128(unsigned long long* p, ulonglong2 v)
{
  static_assert(Order == cuda::std::memory_order_relaxed, "global_atomic_store_128: relaxed");
  const auto address = __cvta_generic_to_global(p);
  asm volatile("{\n\t.reg .b128 t;\n\tmov.b128 t, {%0, %1};\n\tst.relaxed.gpu.global.b128 [%2], t;\n\t}"
               :
               : "l"(v.x), "l"(v.y), "l"(address)
               : "memory");
}

} // namespace detail
} // namespace sweep
