// Shared pieces of the copy_if GPU tests: value types, selectivity predicates, and the check that
// runs sweep and stock Thrust on the same input and compares bitwise with poisoned outputs.
#pragma once

#include <sweep/copy_if.cuh>
#include <sweep/detail/copy_if/plan.hpp>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>

#include <common/test_utils.cuh>

#include <cstdint>
#include <string>

namespace sweep_test
{

struct s12
{
  std::int32_t a, b, c;
};
struct s24
{
  std::int64_t a;
  std::int32_t b;
  float c;
  double d;
};
struct alignas(16) s16
{
  std::uint32_t w[4];
};
struct s32
{
  double d[4];
};
static_assert(sizeof(s12) == 12 && sizeof(s24) == 24 && sizeof(s16) == 16 && sizeof(s32) == 32, "test types");

//! The copy_if tile of T that sweep's kernel in this binary uses on the current device.
template <class T>
std::size_t copy_if_tile()
{
  return sweep::detail::copy_if_impl::tile_dims_for<T>(tuned_arch()).tile_items;
}

//! The sizes of the iterator tests of copy_if and the algorithms on its kernel: around the float tile
//! of the kernel this binary runs, to past 37 tiles and 10^6 (a function: test listing must not touch
//! the GPU).
inline std::vector<std::size_t> iterator_sizes_of_copy_if()
{
  const std::size_t tile = copy_if_tile<float>();
  return {0, 1, 33, tile - 1, tile + 1, 37 * tile + 11, 1000003};
}

//! Keeps about pct% of the values, decided by a hash of the value's bytes (any trivially copyable T).
template <class T>
struct keep_percent
{
  unsigned pct;
  __host__ __device__ bool operator()(const T& x) const
  {
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&x);
    std::uint64_t h            = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
    {
      h = h * 0x100000001b3ull ^ bytes[i];
    }
    return sweep_test::mix64(h) % 100 < pct;
  }
};

inline std::string label(const char* what, std::size_t n, unsigned pct)
{
  return std::string(what) + " n=" + std::to_string(n) + " keep=" + std::to_string(pct) + "%";
}

//! Runs thrust::copy_if(thrust::device, ...) and thrust::copy_if(policy, ...) on [first, first + n)
//! into poisoned outputs (at output offset `out_offset`) and requires equal counts, bitwise-equal
//! selected items and untouched poison at and after the returned end.
template <class T, class Policy, class InputIt, class Pred>
void check_against_thrust(Policy policy, InputIt first, std::size_t n, Pred pred, const std::string& what,
                          std::size_t out_offset = 0)
{
  thrust::device_vector<T> expected(n + out_offset + 4), actual(n + out_offset + 4);
  sweep_test::poison(expected);
  sweep_test::poison(actual);
  const auto e_end = thrust::copy_if(thrust::device, first, first + n, expected.begin() + out_offset, pred);
  const auto a_end = thrust::copy_if(policy, first, first + n, actual.begin() + out_offset, pred);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::size_t count = static_cast<std::size_t>(e_end - expected.begin());
  INFO(what << ", seed = " << sweep_test::test_seed());
  REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == count);
  sweep_test::require_bitwise_equal(expected, actual, count, what);
  sweep_test::require_poison_intact(actual, count, what);
}

} // namespace sweep_test
