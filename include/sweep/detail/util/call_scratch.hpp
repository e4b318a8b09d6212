// Per host thread and device: storage that a synchronizing call (one that waits on the host for a
// device result, like copy_if's count) reuses from one call to the next instead of asking the driver
// for it each time.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>

#include <sweep/detail/util/device_info.hpp>

namespace sweep
{
namespace detail
{

//! - Pinned host words mapped into the device's address space, which a kernel writes its result to:
//!   the host reads it after synchronizing the stream, with no copy launched.
//! - A small device buffer for the temporary storage of small calls: no stream-ordered allocation
//!   and free per call. Two halves of device_bytes. A call that clears what it uses with a memset
//!   (copy_if) takes half 0 and marks it dirty. The scans alternate the halves: a scan whose half is
//!   clean needs no memset, and its kernel clears the other half's dirty bytes for the thread's next
//!   scan (clear_ahead, lookback/tile_state.cuh), which saves a memset a call (scan/dispatch.cuh).
//! On the H200 the two took a 2^16-item copy_if from about 31 to 16-18 us a call (an 8-byte copy into
//! pageable memory costs about 5 us, the allocation about 2 us; docs/design/copy_if.md, variants).
//! One per host thread and device. A call may use it only if it synchronizes its stream before it
//! returns, or before it throws once its kernel may run, so the thread's next call finds it free.
//! It belongs to the CUDA context that was current when it was made (the device's primary context,
//! or one the application made current with the driver API). When the thread's current context for
//! the device changes, it is freed in its own context if that context still exists (a context
//! destroyed or reset took the memory with it) and made anew in the new one: never used dangling,
//! never leaked.
struct call_scratch
{
  static constexpr std::size_t device_bytes = std::size_t(64) << 10;
  //! The pinned words: [0] a call's count; [1] a second result of the same call (in-place partition's
  //! choice of sides, partition.cuh).
  static constexpr int host_words = 2;

  unsigned long long* host_word   = nullptr; //!< pinned host memory: host_words words
  unsigned long long* mapped_word = nullptr; //!< the same words as the device addresses them
  void* device_buffer             = nullptr; //!< 2 * device_bytes of device memory: the two halves
  //! Bytes from the start of each half that may not be zero (a call's counter and status words);
  //! all of it while the contents are unknown.
  std::size_t dirty[2] = {device_bytes, device_bytes};
  //! The half the thread's next scan takes.
  int next_half = 0;
  unsigned long long context_id   = 0;       //!< the id of the context the three belong to (0: none
                                             //!< made); ids are never reused

  call_scratch() = default;
  call_scratch(const call_scratch&)            = delete;
  call_scratch& operator=(const call_scratch&) = delete;

  //! At thread exit: release().
  ~call_scratch() { release(); }

  //! Frees the three in their own context if it still exists, then forgets them. Leaves the calling
  //! thread's current context as it was.
  void release() noexcept;

  //! Half h of the device buffer.
  void* half(int h) const { return static_cast<unsigned char*>(device_buffer) + static_cast<std::size_t>(h) * device_bytes; }

  //! Drops all three without freeing.
  void forget() noexcept
  {
    host_word     = nullptr;
    mapped_word   = nullptr;
    device_buffer = nullptr;
    context_id    = 0;
    dirty[0]      = device_bytes;
    dirty[1]      = device_bytes;
    next_half     = 0;
  }
};

//! The driver functions call_scratch needs, through the runtime (no link against libcuda); any of
//! them nullptr when the driver lacks it (then there is no scratch).
struct context_driver
{
  using get_current_fn = CUresult(CUDAAPI*)(CUcontext*);                    // cuCtxGetCurrent, CUDA 4.0
  using get_id_fn      = CUresult(CUDAAPI*)(CUcontext, unsigned long long*); // cuCtxGetId, CUDA 12.0
  using push_fn        = CUresult(CUDAAPI*)(CUcontext);                     // cuCtxPushCurrent, CUDA 4.0
  using pop_fn         = CUresult(CUDAAPI*)(CUcontext*);                    // cuCtxPopCurrent, CUDA 4.0
  using pointer_attribute_fn =
    CUresult(CUDAAPI*)(void*, CUpointer_attribute, CUdeviceptr); // cuPointerGetAttribute, CUDA 4.0
  get_current_fn get_current             = nullptr;
  get_id_fn get_id                       = nullptr;
  push_fn push                           = nullptr;
  pop_fn pop                             = nullptr;
  pointer_attribute_fn pointer_attribute = nullptr;

  bool complete() const { return get_current && get_id && push && pop && pointer_attribute; }

  static const context_driver& get()
  {
    static const context_driver driver = [] {
      context_driver d;
      auto query = [](const char* name, int version) -> void* {
        void* fn                               = nullptr;
        cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &status) != cudaSuccess
            || status != cudaDriverEntryPointSuccess)
        {
          return nullptr;
        }
        return fn;
      };
      d.get_current = reinterpret_cast<get_current_fn>(query("cuCtxGetCurrent", 4000));
      d.get_id      = reinterpret_cast<get_id_fn>(query("cuCtxGetId", 12000));
      d.push        = reinterpret_cast<push_fn>(query("cuCtxPushCurrent", 4000));
      d.pop         = reinterpret_cast<pop_fn>(query("cuCtxPopCurrent", 4000));
      d.pointer_attribute =
        reinterpret_cast<pointer_attribute_fn>(query("cuPointerGetAttribute", 4000));
      (void) cudaGetLastError(); // a missing entry point only means no scratch
      return d;
    }();
    return driver;
  }
};

//! The id of the calling thread's current CUDA context (cuCtxGetId: unique for the life of the
//! process, so a context made again by cudaDeviceReset has a new one); 0 when there is no current
//! context or the driver cannot tell.
__host__ inline unsigned long long current_context_id()
{
  const context_driver& driver = context_driver::get();
  if (!driver.complete())
  {
    return 0;
  }
  CUcontext context     = nullptr;
  unsigned long long id = 0;
  if (driver.get_current(&context) != CUDA_SUCCESS || context == nullptr || driver.get_id(context, &id) != CUDA_SUCCESS)
  {
    return 0;
  }
  return id;
}

inline void call_scratch::release() noexcept
{
  if (context_id == 0)
  {
    return;
  }
  const context_driver& driver = context_driver::get();
  // The context that owns the device buffer now, asked of the buffer's address (never of the stored
  // handle, which may name a destroyed context): the scratch's own context if it still exists (same
  // id; ids are never reused). A destroyed context took the memory with it; an address since reused
  // by another context's allocation reports that context, whose id differs.
  CUcontext owner       = nullptr;
  unsigned long long id = 0;
  if (driver.complete()
      && driver.pointer_attribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, reinterpret_cast<CUdeviceptr>(device_buffer))
           == CUDA_SUCCESS
      && owner != nullptr && driver.get_id(owner, &id) == CUDA_SUCCESS && id == context_id
      && driver.push(owner) == CUDA_SUCCESS)
  {
    (void) cudaFree(device_buffer);
    (void) cudaFreeHost(host_word);
    CUcontext popped = nullptr;
    (void) driver.pop(&popped);
  }
  (void) cudaGetLastError(); // nothing to report to (at thread exit the runtime may be unloading)
  forget();
}

//! The calling thread's scratch for the current device, made on first use and again after the device's
//! context was reset; nullptr when there is no current context yet (the runtime makes it on the first
//! call that needs it), when the device cannot map host memory, or when making it failed. Callers
//! then take their general path (a device word and a copy; allocated storage).
//! Per thread, not per_device_value (device_info.hpp): a scratch is used by one call at a time
//! without a lock, which only a per-thread slot guarantees, and it is freed at thread exit.
__host__ inline call_scratch* thread_call_scratch()
{
  thread_local call_scratch slots[max_cached_devices];
  thread_local unsigned long long failed_in[max_cached_devices] = {}; // context where making it failed
  const int device = current_cached_device();
  if (device < 0)
  {
    return nullptr;
  }
  const unsigned long long context = current_context_id();
  if (context == 0 || failed_in[device] == context)
  {
    return nullptr;
  }
  call_scratch& s = slots[device];
  if (s.context_id == context)
  {
    return &s;
  }
  s.release(); // none yet, or made in another context: freed there if it still exists

  int can_map  = 0;
  void* host   = nullptr;
  void* mapped = nullptr;
  void* buffer = nullptr;
  const bool made = cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, device) == cudaSuccess
                 && can_map != 0
                 && cudaHostAlloc(&host, call_scratch::host_words * sizeof(unsigned long long), cudaHostAllocMapped) == cudaSuccess
                 && cudaHostGetDevicePointer(&mapped, host, 0) == cudaSuccess
                 && cudaMalloc(&buffer, 2 * call_scratch::device_bytes) == cudaSuccess;
  if (!made)
  {
    (void) cudaGetLastError(); // not an error for the caller: it falls back
    if (host != nullptr)
    {
      (void) cudaFreeHost(host);
    }
    failed_in[device] = context;
    return nullptr;
  }
  s.host_word     = static_cast<unsigned long long*>(host);
  s.mapped_word   = static_cast<unsigned long long*>(mapped);
  s.device_buffer = buffer;
  s.context_id    = context;
  s.dirty[0]      = call_scratch::device_bytes; // cudaMalloc's contents are unknown
  s.dirty[1]      = call_scratch::device_bytes;
  s.next_half     = 0;
  return &s;
}

} // namespace detail
} // namespace sweep
