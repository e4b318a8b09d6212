// Small integer helpers shared by host and device code.
#pragma once

#include <cstddef>
#include <cstdint>

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

} // namespace detail
} // namespace sweep
