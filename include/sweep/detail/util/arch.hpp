// The one place that maps a compute capability to the architecture whose tuning it runs: sweep's
// architectures, their documented per-SM limits (every tuning struct is checked against them), the
// architecture device code being compiled picks its tuning for, and the bridge by which host code,
// which learns a kernel's architecture at run time, reaches the same tuning struct. Plain C++ (the
// host-only unit tests include it).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <sweep/detail/util/host_device.hpp>

namespace sweep
{
namespace detail
{

//! sweep's architectures, as compute capability major x 100 + minor x 10 (the form of __CUDA_ARCH__).
//! Each algorithm's tuning.hpp maps every one of them to one of its tuning structs.
inline constexpr int tuning_archs[] = {750, 800, 860, 890, 900, 1000, 1200};

//! The architecture whose tuning code for compute capability `cc` (major x 100 + minor x 10: what
//! __CUDA_ARCH__ is, and a kernel's cudaFuncAttributes::ptxVersion x 10) uses: the newest of
//! tuning_archs not newer than cc (8.7 -> 8.6, 10.3 -> 10.0, 12.1 -> 12.0), and 750 below 7.5, which
//! sweep claims nothing for.
SWEEP_HOST_DEVICE constexpr int tuning_arch(int cc)
{
  return cc >= 1200 ? 1200
       : cc >= 1000 ? 1000
       : cc >= 900  ? 900
       : cc >= 890  ? 890
       : cc >= 860  ? 860
       : cc >= 800  ? 800
                    : 750;
}

//! The per-SM limits of one of sweep's architectures that a kernel's shape must fit: threads and
//! blocks a multiprocessor holds, 32-bit registers, shared memory (the largest carveout) and what a
//! block may have of it, and how the driver allocates it per block.
struct arch_limits
{
  int threads_per_sm;
  int blocks_per_sm;
  int registers_per_sm;
  std::size_t shared_per_sm;
  std::size_t shared_per_block;          //!< with the opt-in beyond 48 KiB (dynamic shared memory only)
  std::size_t reserved_shared_per_block; //!< kept by the driver for every resident block
  std::size_t shared_granularity;        //!< a block's shared memory is allocated in these units
};

//! Static shared memory a block may declare, on every architecture (more needs dynamic shared memory
//! and the opt-in).
inline constexpr std::size_t static_shared_per_block = 48 * 1024;

//! The documented limits of `arch` (one of tuning_archs): threads, blocks and registers per SM and
//! shared memory per SM and per block from the CUDA C++ Programming Guide's table of technical
//! specifications per compute capability; the carveouts, the allocation granularity, the reserved
//! shared memory per block (from 8.0 on) and the blocks per SM as the toolkit's occupancy calculator
//! (cuda_occupancy.h, CUDA 13.0) has them. Only sm_90's were checked against a device (the H200).
SWEEP_HOST_DEVICE constexpr arch_limits limits_of(int arch)
{
  constexpr std::size_t kib = 1024;
  switch (arch)
  {
    case 750: // Turing
      return {1024, 16, 65536, 64 * kib, 64 * kib, 0, 256};
    case 800: // A100
      return {2048, 32, 65536, 164 * kib, 163 * kib, 1 * kib, 128};
    case 860: // GA10x
      return {1536, 16, 65536, 100 * kib, 99 * kib, 1 * kib, 128};
    case 890: // Ada
      return {1536, 24, 65536, 100 * kib, 99 * kib, 1 * kib, 128};
    case 900: // Hopper (H100, H200)
    case 1000: // Blackwell (B200)
      return {2048, 32, 65536, 228 * kib, 227 * kib, 1 * kib, 128};
    default: // 1200: Blackwell (RTX 50)
      return {1536, 24, 65536, 100 * kib, 99 * kib, 1 * kib, 128};
  }
}

//! Shared memory one resident block of `bytes` (static and dynamic) takes of its SM: with the
//! driver's reserve, rounded up to the allocation unit.
SWEEP_HOST_DEVICE constexpr std::size_t shared_footprint(const arch_limits& limits, std::size_t bytes)
{
  const std::size_t with_reserve = bytes + limits.reserved_shared_per_block;
  return (with_reserve + limits.shared_granularity - 1) / limits.shared_granularity * limits.shared_granularity;
}

//! True when `blocks` blocks of `threads` threads and `shared_bytes` of shared memory each can be
//! resident on one SM of an architecture with `limits` at once (registers aside: __launch_bounds__
//! makes the compiler fit them).
SWEEP_HOST_DEVICE constexpr bool blocks_fit(const arch_limits& limits, int threads, int blocks, std::size_t shared_bytes)
{
  return threads * blocks <= limits.threads_per_sm && blocks <= limits.blocks_per_sm
      && shared_bytes <= limits.shared_per_block
      && static_cast<std::size_t>(blocks) * shared_footprint(limits, shared_bytes) <= limits.shared_per_sm;
}

//! The architecture the device code being compiled picks its tuning for: tuning_arch(__CUDA_ARCH__).
//! Kernels choose their tuning struct with it at compile time (their __launch_bounds__ and shared
//! storage come from that struct); host code never reads it, it finds a kernel's architecture at run
//! time (util/kernel_tuning.cuh). 0 in the host compiler's pass, where kernels' attributes and bodies
//! are parsed but no device code is made: every tuning_for maps 0 to some valid struct.
#if defined(__CUDA_ARCH__)
inline constexpr int compiled_arch = tuning_arch(__CUDA_ARCH__);
#else
inline constexpr int compiled_arch = 0;
#endif

//! Calls f(std::integral_constant<int, A>{}) for A = tuning_arch(arch) and returns its result: how host
//! code, which learns at run time which architecture a kernel was compiled for, reaches the tuning
//! struct types that device code chose at compile time (tuning_for<A> in each tuning.hpp).
template <class F>
decltype(auto) with_tuning_arch(int arch, F&& f)
{
  switch (tuning_arch(arch))
  {
    case 750:
      return std::forward<F>(f)(std::integral_constant<int, 750>{});
    case 800:
      return std::forward<F>(f)(std::integral_constant<int, 800>{});
    case 860:
      return std::forward<F>(f)(std::integral_constant<int, 860>{});
    case 890:
      return std::forward<F>(f)(std::integral_constant<int, 890>{});
    case 900:
      return std::forward<F>(f)(std::integral_constant<int, 900>{});
    case 1000:
      return std::forward<F>(f)(std::integral_constant<int, 1000>{});
    default:
      return std::forward<F>(f)(std::integral_constant<int, 1200>{});
  }
}

} // namespace detail
} // namespace sweep
