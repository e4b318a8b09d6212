// Small integer helpers shared by host and device code.
#pragma once

#include <cstddef>
#include <cstdint>

#include <sweep/detail/util/host_device.hpp>

namespace sweep
{
namespace detail
{

//! ceil(a / b) for non-negative a and positive b.
template <class T>
SWEEP_HOST_DEVICE constexpr T ceil_div(T a, T b)
{
  return (a + b - 1) / b;
}

//! The smallest multiple of `alignment` (a power of two) that is >= value.
SWEEP_HOST_DEVICE constexpr std::size_t align_up(std::size_t value, std::size_t alignment)
{
  return (value + alignment - 1) & ~(alignment - 1);
}

} // namespace detail
} // namespace sweep
