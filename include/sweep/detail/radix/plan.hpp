// Host-only planning of a onesweep sort (which passes run, how the input is cut into portions);
// plain C++ so that the unit tests can check it without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sweep
{
namespace detail
{
namespace radix
{

constexpr int radix_digits = 256;

//! The largest per-digit count a uint32 tile-state word carries: u32 [status:2][value:30].
//! dispatch.cuh checks this against tile_word<std::uint32_t>::value_limit.
constexpr std::size_t tile_word32_limit = (std::size_t(1) << 30) - 1;

//! Which passes must run, from the upfront histograms hist[pass * 256 + digit] of n keys: pass p is
//! trivial when one digit holds all n keys, since a stable counting sort by a constant digit is
//! the identity. Returns the number of passes that run.
inline int plan_passes(const unsigned long long* hist, int passes, std::size_t n, bool* active)
{
  int count = 0;
  for (int p = 0; p < passes; ++p)
  {
    active[p] = true;
    for (int d = 0; d < radix_digits; ++d)
    {
      if (hist[p * radix_digits + d] == n)
      {
        active[p] = false;
      }
    }
    count += active[p] ? 1 : 0;
  }
  return count;
}

//! Keys per portion: the largest multiple of the tile whose per-digit counts fit a uint32 word.
constexpr std::size_t portion_keys(std::size_t tile_items)
{
  return (tile_word32_limit / tile_items) * tile_items;
}

} // namespace radix
} // namespace detail
} // namespace sweep
