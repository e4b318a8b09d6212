// splitmix64, the one seeded mix that the GPU tests (tests/gpu/common/test_utils.cuh) and the
// benchmarks (benchmarks/bench_common.cuh) both generate their data with. Here, under tests/, because
// tests are its first user; benchmarks include it by relative path (no library code depends on it).
#pragma once

#include <cstdint>

#include <sweep/detail/util/host_device.hpp>

namespace sweep_test
{

//! splitmix64: a good 64-bit mix of (index, seed); the same on host and device.
SWEEP_HOST_DEVICE inline std::uint64_t mix64(std::uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

} // namespace sweep_test
