// Ranking of one onesweep tile (Adinets & Merrill 2022): per-warp digit counts first ("early
// counts", so that the tile can publish its counts before it ranks), then each key's position in
// the tile's stable digit order by warp-level matching against per-warp running offsets.
#pragma once

#include <cstdint>

#include <sweep/detail/sort/plan.hpp>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

constexpr unsigned full_warp = 0xffffffffu;

//! a & b & c in one instruction (LOP3).
__device__ __forceinline__ unsigned and3(unsigned a, unsigned b, unsigned c)
{
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, 0x80;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

//! The lanes of the calling warp whose 8-bit digit equals this lane's (all lanes must call). One
//! ballot per digit bit: a fixed cost, whatever the number of distinct digits (the hardware
//! match.any costs more the more distinct values a warp holds; docs/design/sort.md). Each step is
//! a predicate, a ballot and a conditional complement, written in PTX so that the complement stays
//! a predicated instruction instead of a select; the eight masks are then ANDed three at a time
//! (4 instructions instead of 7: u32 2^28 1.6% faster, u32 2^24 2.9%, float 2.7% on the H200).
__device__ __forceinline__ unsigned warp_match_digit(unsigned digit)
{
  unsigned votes[8];
#pragma unroll
  for (int bit = 0; bit < 8; ++bit)
  {
    // votes[bit]: the lanes whose bit agrees with this lane's
    asm volatile("{\n\t.reg .pred p;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 p, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t}"
        : "=r"(votes[bit])
        : "r"(digit), "r"(1u << bit));
  }
  return and3(votes[3], votes[4], votes[5]) & and3(votes[6], votes[7], and3(votes[0], votes[1], votes[2]));
}

//! Tile ranking over per-warp digit counters in shared memory, counters[warp][digit] (32-bit).
//! Keys are visited in tile order: item i of lane l in warp w is tile key w * 32 * Items + i * 32 + l.
//! Protocol, with the caller's barriers between the steps:
//!   1. count():  every warp adds its keys' digits into its own row (rows zeroed by the caller);
//!   2. the caller turns the counts into offsets: counters[w][d] = the tile position of warp w's
//!      first digit-d key (digit d's tile offset plus the digit-d keys of warps before w);
//!   3. rank():   every key gets its tile position; the rows end as the next free positions.
template <int Warps, int Items>
struct tile_ranker
{
  //! The ranking's shared memory, all zero before count().
  struct storage
  {
    std::uint32_t counters[Warps][radix_digits];
  };

  //! Step 1. digit_of(i) is the digit of this lane's item i. One shared atomic a key and no
  //! branch, so that the items' atomics issue back to back.
  template <class DigitOf>
  __device__ __forceinline__ static void count(storage& s, DigitOf digit_of)
  {
    std::uint32_t* row = s.counters[threadIdx.x / 32];
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      atomicAdd(row + digit_of(i), 1u);
    }
  }

  //! Step 3. Writes the tile position of item i into ranks[i / 2], half i % 2 (16 bits each).
  //! The lowest lane of each digit group takes the group's positions from the warp's running
  //! offset with one atomic (which returns the old offset); the group's lanes follow in lane order.
  template <class DigitOf>
  __device__ __forceinline__ static void rank(storage& s,
                                              DigitOf digit_of,
                                              std::uint32_t (&ranks)[(Items + 1) / 2])
  {
    const unsigned lane        = threadIdx.x % 32;
    const unsigned lanes_below = (1u << lane) - 1u;
    std::uint32_t* row         = s.counters[threadIdx.x / 32];
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      const unsigned d             = digit_of(i);
      const unsigned peers         = warp_match_digit(d);
      const unsigned before        = __popc(peers & lanes_below);
      std::uint32_t first          = 0;
      if (before == 0)
      {
        first = atomicAdd(row + d, static_cast<std::uint32_t>(__popc(peers)));
      }
      const std::uint32_t position = __shfl_sync(full_warp, first, __ffs(peers) - 1) + before;
      ranks[i / 2]                 = i % 2 == 0 ? position : ranks[i / 2] | (position << 16);
    }
  }

  //! The tile position of item i, from rank()'s packed ranks.
  __device__ __forceinline__ static std::uint32_t position(const std::uint32_t (&ranks)[(Items + 1) / 2], int i)
  {
    return (ranks[i / 2] >> (16 * (i % 2))) & 0xffffu;
  }
};

} // namespace sort_impl
} // namespace detail
} // namespace sweep
