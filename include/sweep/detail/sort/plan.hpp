// Planning of a onesweep sort (which passes run and through which buffers, how the input is cut
// into portions, which tiles the kernels of an architecture use): plain C++, shared by the host, the
// device and the host-only unit tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include <sweep/detail/sort/tuning.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/host_device.hpp>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! Digits of 8 bits, for every key width and size: chosen by measurement on the H200
//! (benchmarks/probe_digit_width.cu, docs/design/sort.md). Three 11-bit passes beat four 8-bit ones
//! (six against eight for 64-bit keys) only if an 11-bit pass costs less than 4/3 of an 8-bit one.
//! A pass stripped to what grows with the digit count (block histogram, per-tile digit bases,
//! exchange, scatter into 2^bits runs; no stable ranking, no look-back) took, 8 -> 11 bits on its
//! best tile: u32 2^28 802 -> 1519 us (1.89x), 2^24 61 -> 108 us (1.77x), 2^20 11.7 -> 16.3 us
//! (1.39x), u64 2^27 774 -> 1207 us (1.56x): every one past 4/3. The real 8-bit pass adds 388 us
//! (1190 against 802 us at u32 2^28) for its ranking and look-back, which 2^11 digits only make
//! dearer.
constexpr int radix_digits = 256;

//! The largest per-digit count a uint32 tile-state word carries: u32 [status:2][value:30].
//! dispatch.cuh checks this against tile_word<std::uint32_t>::value_limit.
constexpr std::size_t tile_word32_limit = (std::size_t(1) << 30) - 1;

//! The route of a sort's digit passes through its two key (and value) buffers, decided on the
//! device by the upfront histogram's last block (so that skipping needs no read-back, works under
//! par_nosync and inside CUDA graphs) and handed to every block of every pass with its tile index.
//! route[p] for pass p: source_bit = the buffer the pass reads (it writes the other one), runs_bit =
//! the pass runs (else all its blocks return at once), first_bit = the first pass that runs (index
//! sorts generate the key positions there). route[passes]: result_bit = the buffer that holds the
//! result; the number of passes that run in bits 8 and up.
struct pass_route
{
  static constexpr std::uint32_t source_bit = 1u;
  static constexpr std::uint32_t runs_bit   = 2u;
  static constexpr std::uint32_t first_bit  = 4u;
  static constexpr std::uint32_t result_bit = 1u;
  static constexpr int runs_shift           = 8;
  //! Each (pass, portion) tile counter starts at route[pass] << ticket_shift (the upfront histogram
  //! writes it), so the atomic that gives a block its tile index also gives it the route, in one round
  //! trip: tile index = ticket & tile_mask, route word = ticket >> ticket_shift.
  static constexpr int ticket_shift               = 48;
  static constexpr unsigned long long tile_mask   = (1ull << ticket_shift) - 1;

  SWEEP_HOST_DEVICE static constexpr int runs(std::uint32_t summary)
  {
    return static_cast<int>(summary >> runs_shift);
  }
};

//! Fills route[0, passes] (pass_route) from which passes are trivial (one digit holds every key: a
//! stable counting sort by a constant digit is the identity); returns the number of passes that run.
SWEEP_HOST_DEVICE inline int route_passes(const bool* trivial, int passes, std::uint32_t* route)
{
  std::uint32_t buffer = 0;
  int runs             = 0;
  for (int p = 0; p < passes; ++p)
  {
    if (trivial[p])
    {
      route[p] = buffer;
      continue;
    }
    route[p] = buffer | pass_route::runs_bit | (runs == 0 ? pass_route::first_bit : 0u);
    buffer ^= pass_route::source_bit;
    ++runs;
  }
  route[passes] = buffer | (static_cast<std::uint32_t>(runs) << pass_route::runs_shift);
  return runs;
}

//! Keys per portion: the largest multiple of the tile whose per-digit counts fit a uint32 word.
constexpr std::size_t portion_keys(std::size_t tile_items)
{
  return (tile_word32_limit / tile_items) * tile_items;
}

//! Bytes of one pass's tile state for `tiles` tiles: a uint32 word per digit per tile
//! (dispatch.cuh checks this against pass_state::bytes).
constexpr std::size_t pass_state_bytes(std::size_t tiles)
{
  return tiles * radix_digits * sizeof(std::uint32_t);
}

//! The temporary storage parts of a onesweep sort, in allocation order. hist_and_counters and
//! state_words are adjacent, so that one memset clears both.
enum sort_part : int
{
  alt_keys,          // the second key buffer
  alt_values,        // values moved with the keys: the second value buffer; index sorts: positions B
  positions,         // index sorts: positions A
  value_copy,        // index sorts: the values, copied once for the final gather
  bins,              // each pass's digit starts (two slots a pass: portions ping-pong)
  routes,            // the passes' routes and the summary (pass_route)
  hist_and_counters, // the digit histograms, a tile counter per (pass, portion), the histogram's done count
  state_words,       // tile state: one per pass, or one shared and cleared before each launch
  sort_part_count
};

//! How an n-key onesweep sort with tiles of `tile` keys is laid out: portions, tiles, tile state and
//! the bytes of each temporary part. moved_bytes: what a pass moves with each key (0: keys only;
//! 4 for index sorts, which move 32-bit positions); value_bytes: the values' size, for index sorts'
//! copy.
struct sort_plan
{
  std::size_t per_portion  = 0; // keys a portion (a multiple of the tile)
  std::size_t portions     = 0;
  std::size_t max_tiles    = 0; // tiles of the largest portion
  std::size_t counters     = 0; // tile counters: one per (pass, portion)
  std::size_t state_bytes  = 0; // one pass's tile state
  bool state_per_pass      = false;
  std::size_t part_bytes[sort_part_count] = {};
};

//! Tile state: when all passes' fit `upfront_max_bytes` (state_upfront_max_bytes, tuning.hpp; a test
//! hook may lower it), one per pass, all cleared by the call's one memset together with the
//! histogram and tile counters; otherwise a single one, cleared before each (pass, portion) launch.
inline sort_plan make_sort_plan(std::size_t n, std::size_t tile, int passes, std::size_t key_bytes,
                                std::size_t moved_bytes, bool index_mode, std::size_t value_bytes,
                                std::size_t upfront_max_bytes = state_upfront_max_bytes)
{
  sort_plan plan;
  const std::size_t p = static_cast<std::size_t>(passes);
  plan.per_portion    = portion_keys(tile);
  plan.portions       = (n + plan.per_portion - 1) / plan.per_portion;
  const std::size_t first_portion = n < plan.per_portion ? n : plan.per_portion;
  plan.max_tiles      = (first_portion + tile - 1) / tile;
  plan.counters       = p * plan.portions;
  plan.state_bytes    = pass_state_bytes(plan.max_tiles);
  plan.state_per_pass = plan.portions == 1 && p * plan.state_bytes <= upfront_max_bytes;
  plan.part_bytes[alt_keys]          = n * key_bytes;
  plan.part_bytes[alt_values]        = n * moved_bytes;
  plan.part_bytes[positions]         = index_mode ? n * sizeof(std::uint32_t) : 0;
  plan.part_bytes[value_copy]        = index_mode ? n * value_bytes : 0;
  plan.part_bytes[bins]              = p * 2 * radix_digits * sizeof(unsigned long long);
  plan.part_bytes[routes]            = (p + 1) * sizeof(std::uint32_t);
  plan.part_bytes[hist_and_counters] = (p * radix_digits + plan.counters + 1) * sizeof(unsigned long long);
  plan.part_bytes[state_words]       = (plan.state_per_pass ? p : 1) * plan.state_bytes;
  return plan;
}

//! The pass tile for keys of KeyBytes and moved values of ValueBytes (0: keys only) under the tuning
//! of architecture `arch` (util/arch.hpp): the tile a pass kernel whose code was compiled for `arch`
//! uses. Small: the small inputs' shape. Host only.
template <std::size_t KeyBytes, std::size_t ValueBytes, bool Small>
pass_tile pass_tile_for(int arch)
{
  return with_tuning_arch(arch, [](auto a) {
    return pass_shape<tuning_for<decltype(a)::value>, KeyBytes, ValueBytes, Small>::config;
  });
}

//! The one-block sort's threads and keys for keys of KeyBytes and moved values of ValueBytes under
//! the tuning of architecture `arch`. Host only.
struct single_block_dims
{
  int threads    = 0;
  int tile_items = 0;
};

template <std::size_t KeyBytes, std::size_t ValueBytes>
single_block_dims single_block_dims_for(int arch)
{
  return with_tuning_arch(arch, [](auto a) {
    using shape = single_block_shape<tuning_for<decltype(a)::value>, KeyBytes, ValueBytes>;
    return single_block_dims{shape::threads, shape::tile_items};
  });
}

} // namespace sort_impl
} // namespace detail
} // namespace sweep
