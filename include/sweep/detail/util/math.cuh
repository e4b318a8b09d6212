// Small integer helpers shared by host and device code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sweep
{
namespace detail
{

//! ceil(a / b) for non-negative a and positive b.
template <class T>
__host__ __device__ constexpr T ceil_div(T a, T b)
{
  return (a + b - 1) / b;
}

//! The smallest multiple of `alignment` (a power of two) that is >= value.
__host__ __device__ constexpr std::size_t align_up(std::size_t value, std::size_t alignment)
{
  return (value + alignment - 1) & ~(alignment - 1);
}

__host__ __device__ constexpr bool is_pow2(std::size_t value)
{
  return value != 0 && (value & (value - 1)) == 0;
}

//! Number of bits needed to hold values in [0, value]: bit_width(0) == 0.
__host__ __device__ constexpr int bit_width(std::uint64_t value)
{
  int bits = 0;
  while (value != 0)
  {
    ++bits;
    value >>= 1;
  }
  return bits;
}

} // namespace detail
} // namespace sweep
