// Per host thread and device: storage that a synchronizing call (one that waits on the host for a
// device result, like copy_if's count) reuses from one call to the next instead of asking the driver
// for it each time.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>

#include <sweep/detail/util/device_info.cuh>

namespace sweep
{
namespace detail
{

//! - A pinned host word mapped into the device's address space, which a kernel writes its result to:
//!   the host reads it after synchronizing the stream, with no copy launched.
//! - A small device buffer for the temporary storage of small calls: no stream-ordered allocation
//!   and free per call.
//! On the H200 the two took a 2^16-item copy_if from about 31 to 16-18 us a call (an 8-byte copy into
//! pageable memory costs about 5 us, the allocation about 2 us; docs/perf-copy_if.md, v6).
//! One per host thread and device. A call may use it only if it synchronizes its stream before it
//! returns, or before it throws once its kernel may run, so the thread's next call finds it free.
//! It belongs to the device's primary context of the time it was made: after cudaDeviceReset it is
//! made anew (thread_call_scratch compares context ids), never used dangling.
struct call_scratch
{
  static constexpr std::size_t device_bytes = std::size_t(64) << 10;

  unsigned long long* host_word   = nullptr; //!< pinned host memory
  unsigned long long* mapped_word = nullptr; //!< the same word as the device addresses it
  void* device_buffer             = nullptr; //!< device_bytes of device memory
  unsigned long long context_id   = 0;       //!< the context the three belong to (0: none made)
  int device                      = -1;

  call_scratch() = default;
  call_scratch(const call_scratch&)            = delete;
  call_scratch& operator=(const call_scratch&) = delete;

  //! At thread exit: frees the two if their context is still the device's current one (after a
  //! reset their memory went with the old context, and the addresses may belong to someone else now).
  ~call_scratch();

  //! Drops both without freeing.
  void forget() noexcept
  {
    host_word     = nullptr;
    mapped_word   = nullptr;
    device_buffer = nullptr;
    context_id    = 0;
    device        = -1;
  }
};

//! The id of the calling thread's current CUDA context (cuCtxGetId, unique for the life of the process,
//! so a context made again by cudaDeviceReset has a new one); 0 when there is no current context or the
//! driver cannot tell. The driver functions come through the runtime (no link against libcuda).
__host__ inline unsigned long long current_context_id()
{
  using get_current_fn = CUresult(CUDAAPI*)(CUcontext*);                    // cuCtxGetCurrent, CUDA 4.0
  using get_id_fn      = CUresult(CUDAAPI*)(CUcontext, unsigned long long*); // cuCtxGetId, CUDA 12.0
  struct entry_points
  {
    get_current_fn get_current = nullptr;
    get_id_fn get_id           = nullptr;
  };
  static const entry_points driver = [] {
    entry_points e;
    void* fn                               = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 4000, cudaEnableDefault, &status) == cudaSuccess
        && status == cudaDriverEntryPointSuccess)
    {
      e.get_current = reinterpret_cast<get_current_fn>(fn);
    }
    fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuCtxGetId", &fn, 12000, cudaEnableDefault, &status) == cudaSuccess
        && status == cudaDriverEntryPointSuccess)
    {
      e.get_id = reinterpret_cast<get_id_fn>(fn);
    }
    (void) cudaGetLastError(); // a missing entry point only means no scratch
    return e;
  }();
  if (driver.get_current == nullptr || driver.get_id == nullptr)
  {
    return 0;
  }
  CUcontext context       = nullptr;
  unsigned long long id   = 0;
  if (driver.get_current(&context) != CUDA_SUCCESS || context == nullptr || driver.get_id(context, &id) != CUDA_SUCCESS)
  {
    return 0;
  }
  return id;
}

inline call_scratch::~call_scratch()
{
  if (context_id == 0)
  {
    return;
  }
  int previous = -1;
  if (cudaGetDevice(&previous) == cudaSuccess && (previous == device || cudaSetDevice(device) == cudaSuccess))
  {
    if (current_context_id() == context_id)
    {
      (void) cudaFree(device_buffer);
      (void) cudaFreeHost(host_word);
    }
    if (previous != device)
    {
      (void) cudaSetDevice(previous);
    }
  }
  (void) cudaGetLastError(); // at thread exit (the runtime may be unloading): nothing to report to
  forget();
}

//! The calling thread's scratch for the current device, made on first use and again after the device's
//! context was reset; nullptr when there is no current context yet (the runtime makes it on the first
//! call that needs it), when the device cannot map host memory, or when making it failed. Callers
//! then take their general path (a device word and a copy; allocated storage).
__host__ inline call_scratch* thread_call_scratch()
{
  thread_local call_scratch slots[max_cached_devices];
  thread_local unsigned long long failed_in[max_cached_devices] = {}; // context where making it failed
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= max_cached_devices)
  {
    (void) cudaGetLastError();
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
  s.forget(); // none yet, or made in a context that no longer exists (its memory went with it)

  int can_map  = 0;
  void* host   = nullptr;
  void* mapped = nullptr;
  void* buffer = nullptr;
  const bool made = cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, device) == cudaSuccess
                 && can_map != 0
                 && cudaHostAlloc(&host, sizeof(unsigned long long), cudaHostAllocMapped) == cudaSuccess
                 && cudaHostGetDevicePointer(&mapped, host, 0) == cudaSuccess
                 && cudaMalloc(&buffer, call_scratch::device_bytes) == cudaSuccess;
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
  s.device        = device;
  return &s;
}

} // namespace detail
} // namespace sweep
