// Shared helpers for sweep's GPU tests: seeded device-side random data, poisoning, bitwise comparison,
// the edge sizes STYLE.md asks for.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <sweep/detail/util/kernel_tuning.cuh>

#include "../../common/mix64.hpp" // sweep_test::mix64

namespace sweep_test
{

//! The seed for this process: $SWEEP_TEST_SEED if set, else fresh from std::random_device.
//! Tests put it in an INFO() so a failure prints it.
inline std::uint64_t test_seed()
{
  static const std::uint64_t seed = [] {
    if (const char* env = std::getenv("SWEEP_TEST_SEED"))
    {
      return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 0));
    }
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }();
  return seed;
}

//! Makes a value of T from 64 random bits. Integers take all their bits; floating-point values are
//! spread over many magnitudes and both signs (no NaN unless asked for by the caller).
template <class T>
struct from_bits
{
  __host__ __device__ T operator()(std::uint64_t bits) const
  {
    if constexpr (std::is_same<T, bool>::value)
    {
      return (bits & 1) != 0;
    }
    else if constexpr (std::is_integral<T>::value)
    {
      return static_cast<T>(bits);
    }
    else if constexpr (std::is_floating_point<T>::value)
    {
      // mantissa from the low bits, a signed exponent in [-20, 20] from the high bits
      const double mantissa = static_cast<double>(bits & 0xfffffffffffffull) / 4503599627370496.0; // [0,1)
      const int exponent    = static_cast<int>((bits >> 52) % 41) - 20;
      double v              = (1.0 + mantissa) * ldexp(1.0, exponent);
      return static_cast<T>((bits >> 63) ? -v : v);
    }
    else
    {
      // trivially copyable structs: fill bytes
      T out;
      unsigned char* bytes = reinterpret_cast<unsigned char*>(&out);
      std::uint64_t state  = bits;
      for (std::size_t i = 0; i < sizeof(T); ++i)
      {
        if (i % 8 == 0 && i != 0)
        {
          state = mix64(state);
        }
        bytes[i] = static_cast<unsigned char>(state >> (8 * (i % 8)));
      }
      return out;
    }
  }
};

template <class T>
struct random_element
{
  std::uint64_t seed;
  __host__ __device__ T operator()(std::uint64_t i) const
  {
    return from_bits<T>{}(mix64(i ^ mix64(seed)));
  }
};

//! v[i] = gen(i) for i in [0, n), generated on the device (fast even past 2^31 elements).
template <class T, class Gen>
thrust::device_vector<T> generated_vector(std::size_t n, Gen gen)
{
  thrust::device_vector<T> v(n);
  thrust::transform(thrust::device,
                    thrust::counting_iterator<std::uint64_t>(0),
                    thrust::counting_iterator<std::uint64_t>(n),
                    v.begin(),
                    gen);
  return v;
}

//! n random values of T generated on the device.
template <class T>
thrust::device_vector<T> random_vector(std::size_t n, std::uint64_t seed)
{
  return generated_vector<T>(n, random_element<T>{seed});
}

//! Fills the vector's bytes with 0xA5 so that unwritten outputs are visible.
template <class T>
void poison(thrust::device_vector<T>& v)
{
  if (!v.empty())
  {
    REQUIRE(cudaMemset(thrust::raw_pointer_cast(v.data()), 0xA5, v.size() * sizeof(T)) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
}

template <class T>
bool bitwise_equal(const T& a, const T& b)
{
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::string describe(const T& v)
{
  std::ostringstream os;
  if constexpr (std::is_arithmetic<T>::value)
  {
    os << +v << " ";
  }
  os << "[bytes";
  const unsigned char* p = reinterpret_cast<const unsigned char*>(&v);
  for (std::size_t i = 0; i < sizeof(T); ++i)
  {
    os << ' ' << std::hex << static_cast<int>(p[i]);
  }
  os << "]";
  return os.str();
}

//! Requires the first n elements of two ranges (host vectors) to be bitwise equal; on mismatch it
//! reports the first differing index with both values.
template <class T>
void require_bitwise_equal(const thrust::host_vector<T>& expected,
                           const thrust::host_vector<T>& actual,
                           std::size_t n,
                           const std::string& what)
{
  INFO(what << ", n = " << n << ", seed = " << test_seed());
  REQUIRE(expected.size() >= n);
  REQUIRE(actual.size() >= n);
  // One memcmp of the whole ranges is the same test as one per element (bitwise_equal) and stays
  // fast in test code built without optimization; the loop only runs to name the first mismatch.
  if (n == 0 || std::memcmp(expected.data(), actual.data(), n * sizeof(T)) == 0)
  {
    SUCCEED();
    return;
  }
  for (std::size_t i = 0; i < n; ++i)
  {
    if (!bitwise_equal(expected[i], actual[i]))
    {
      FAIL("first mismatch at index " << i << ": expected " << describe(expected[i]) << ", got "
                                      << describe(actual[i]));
    }
  }
  SUCCEED();
}

//! Device-vector form: copies both to the host first.
template <class T>
void require_bitwise_equal(const thrust::device_vector<T>& expected,
                           const thrust::device_vector<T>& actual,
                           std::size_t n,
                           const std::string& what)
{
  thrust::host_vector<T> e(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(n));
  thrust::host_vector<T> a(actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n));
  require_bitwise_equal(e, a, n, what);
}

//! Requires every byte of v from index `from` on to still be the 0xA5 poison.
template <class T>
void require_poison_intact(const thrust::device_vector<T>& v, std::size_t from, const std::string& what)
{
  INFO(what << ": nothing may be written at or after the returned end (" << from << ")");
  if (from >= v.size())
  {
    return;
  }
  std::vector<unsigned char> bytes((v.size() - from) * sizeof(T));
  REQUIRE(cudaMemcpy(bytes.data(),
                     thrust::raw_pointer_cast(v.data()) + from,
                     bytes.size(),
                     cudaMemcpyDeviceToHost)
          == cudaSuccess);
  const auto bad = std::find_if(bytes.begin(), bytes.end(), [](unsigned char b) {
    return b != 0xA5;
  });
  if (bad != bytes.end())
  {
    FAIL("byte " << (bad - bytes.begin()) << " past the end was overwritten");
  }
}

//! A kernel of this test binary (never launched): its code is compiled for the same architectures
//! as every sweep kernel the binary holds.
template <int>
__global__ void arch_probe_kernel()
{}

//! The architecture (sweep::detail::tuning_arch) of the sweep kernels this binary runs on the current
//! device, found as the library finds it for its own kernels: their tuning, so the tile sizes that
//! test sizes are built around. Call it inside a test case, never from a static initializer (the
//! binary must list its tests on machines without a GPU).
inline int tuned_arch()
{
  return sweep::detail::kernel_arch<&arch_probe_kernel<0>>();
}

//! The sizes every algorithm is tested at: 0, 1, 31, 32, 33, tile-1, tile, tile+1, many tiles
//! (+ a ragged tail), and 2^k - 1, 2^k, 2^k + 1 for a few k.
inline std::vector<std::size_t> edge_sizes(std::size_t tile_items)
{
  std::vector<std::size_t> sizes = {0, 1, 31, 32, 33};
  for (std::size_t t : {tile_items - 1, tile_items, tile_items + 1, 7 * tile_items + 5, 131 * tile_items + 17})
  {
    sizes.push_back(t);
  }
  for (int k : {10, 16, 20})
  {
    sizes.push_back((std::size_t(1) << k) - 1);
    sizes.push_back(std::size_t(1) << k);
    sizes.push_back((std::size_t(1) << k) + 1);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

//! A non-blocking stream for one test, destroyed at the end of its scope.
struct stream_guard
{
  cudaStream_t stream{};
  stream_guard()
  {
    REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  }
  ~stream_guard()
  {
    cudaStreamDestroy(stream);
  }
};

//! Whether this device has room for a test of `bytes` bytes of device memory (with headroom).
inline bool device_has_memory(std::size_t bytes)
{
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
  {
    return false;
  }
  return bytes + (std::size_t(2) << 30) < free_bytes;
}

} // namespace sweep_test
