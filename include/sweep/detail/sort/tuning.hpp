// Tuning of sweep's onesweep radix sort: one named struct per architecture (the digit pass's tile
// shapes and the one-block sort's), and tuning_for, the one place that chooses among them by the
// architectures of util/arch.hpp; the shapes for given key and value widths; the size thresholds,
// the same on every architecture. Plain C++ (host-only unit tests include it).
#pragma once

#include <cstddef>
#include <type_traits>

#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! The tile of one digit pass kernel: threads x items keys, the blocks per SM the kernel is compiled
//! for (__launch_bounds__ minimum: while one block waits in its look-back, another streams keys),
//! and whether it runs persistent blocks (a grid of one wave whose blocks take tiles until none is
//! left, so that a skipped pass costs one ticket a resident block instead of one a tile) or one block
//! a tile. lookback_first: the tile's 256 look-back threads find its digits' global starts right
//! after the digit scan, before the block ranks its keys, instead of after ranking (agent.cuh,
//! process_tile): the values the look-back needs die before the ranking, which frees registers.
struct pass_tile
{
  int threads;
  int items;
  int min_blocks;
  bool persistent;
  bool lookback_first = false;
};

//! sm_90 (H200), measured. A pass tile's shared exchange buffer holds one tile of the wider of key
//! and value, overlaid on the 32-bit per-warp digit counters (threads/32 * 1 KiB), and must stay
//! within the 48 KiB static shared memory limit together with the 64-bit scatter bases (2 KiB).
//! Large shapes, measured on the H200 with the pass of docs/design/sort.md (one run, medians of 7,
//! temp storage preallocated, against cub::DeviceRadixSort in the same run):
//!   4-byte keys only:  512 x 21, 2 blocks an SM (64 registers): u32 2^28 1.027x CUB, float 2^27
//!                      1.03x; 384 x 19 at 3 blocks 1.006x / 1.02x; 384 x 23 at 2 blocks (80
//!                      registers) 8% slower than 512 x 21 in an earlier build of the pass.
//!   8-byte keys only:  384 x 14, 3 blocks an SM, look-back first (56 registers): u64 2^27 7.19 ms
//!                      against 7.48 for 384 x 12 with it after (1.078x CUB then; 256 x 16 at 3
//!                      blocks 1.012x); CUB 8.23.
//!   4-byte pairs:      512 x 20, 2 blocks, look-back first (64 registers): u32/u32 pairs 2^28
//!                      6.89 ms against 7.98 for 384 x 20 with the look-back after ranking (80
//!                      registers; 512 x 20 spills there), 7.85 for 384 x 20, 7.38 for 512 x 16 and
//!                      7.37 for 384 x 24 with it first, 8.05 for 384 x 16 at 3 blocks; CUB 8.49
//!                      (one run, docs/design/sort.md, variants). 512 x 22 spills.
//!   8-byte values:     512 x 11, 2 blocks, one block a tile, look-back first (56 registers):
//!                      u32/u64 pairs 2^27 5.20 ms against 5.30 for 384 x 14 persistent with it
//!                      after (0.970x CUB then; 256 x 16 at 3 blocks 0.931x), 5.49 for that with it
//!                      first, 5.38 for 512 x 10 persistent with it first; CUB 5.21.
//! Persistent blocks against one block a tile, on the H200 (whole sorts, A/B in one run): u32 2^28
//! level, u32 keys below 2^16 and below 2^24 (two and one passes skipped) 4% faster, u32/u64 pairs
//! 1% faster; u64 keys 1.5% and u32/u32 pairs 6.7% slower (the loop costs them registers: 4-20 bytes
//! of spills), so those shapes keep one block a tile; so does the later 512 x 11 tile of 8-byte values
//! (faster without the loop, above). Small inputs never skip (pass_skip_min_keys).
struct tuning_sm90
{
  //! Inputs of at most small_shape_max_keys keys: 256 x 8 keys, so that a 2^16-key sort runs 32
  //! tiles a pass instead of 8 (whole call at 2^16 about 61 -> 50 us on the H200).
  static constexpr pass_tile small_tiles{256, 8, 2, false};
  //! Keys of 1 to 4 bytes alone.
  static constexpr pass_tile narrow_keys{512, 21, 2, true};
  //! 8-byte keys alone.
  static constexpr pass_tile wide_keys{384, 14, 3, false, true};
  //! Keys with values, neither wider than 4 bytes.
  static constexpr pass_tile narrow_pairs{512, 20, 2, false, true};
  //! Keys with values, one of them 8 bytes wide.
  static constexpr pass_tile wide_pairs{512, 11, 2, false, true};
  //! The one-block sort (cub::BlockRadixSort, in place) of inputs of at most one of its tiles:
  //! 256 threads x 16 keys, 8 when the key or the moved value is wider than 4 bytes.
  static constexpr int single_block_threads    = 256;
  static constexpr int single_block_items      = 16;
  static constexpr int single_block_wide_items = 8;
};

//! sm_86, sm_89 and sm_120 (1536 threads and 100 KB of shared memory an SM): sized from those
//! documented limits, not measured (only an H200 was at hand). sm_90's tiles; 8-byte keys alone are
//! compiled for 2 blocks an SM, as three 39 KB blocks do not fit 100 KB.
struct tuning_sm86 : tuning_sm90
{
  static constexpr pass_tile wide_keys{384, 12, 2, false};
};

//! sm_75 (1024 threads and 64 KB of shared memory an SM): sized from those documented limits, not
//! measured. sm_90's large tiles (39-45 KB) fit one block an SM, and the pass relies on a second block
//! streaming keys while one waits in its look-back: every large tile holds fewer keys, so that two
//! blocks (at most 1024 threads) fit 64 KB with 64-bit scatter bases.
struct tuning_sm75 : tuning_sm90
{
  static constexpr pass_tile narrow_keys{512, 14, 2, true};
  static constexpr pass_tile wide_keys{384, 9, 2, false};
  static constexpr pass_tile narrow_pairs{384, 19, 2, false};
  static constexpr pass_tile wide_pairs{384, 9, 2, true};
};

//! The tuning of each of sweep's architectures (util/arch.hpp): the one place that chooses. sm_80
//! (2048 threads, 164 KB an SM) holds sm_90's shapes, and sm_100 has sm_90's limits: both run sm_90's
//! tuning. Arch 0 (the host compiler's pass, util/arch.hpp) parses with sm_90's.
template <int Arch>
using tuning_for = std::conditional_t<Arch == 750,
                                      tuning_sm75,
                                      std::conditional_t<Arch == 860 || Arch == 890 || Arch == 1200, tuning_sm86, tuning_sm90>>;

//! The pass tile of Tuning for keys of KeyBytes and values of ValueBytes (0: keys only); Small: the
//! shape of inputs of at most small_shape_max_keys keys.
template <class Tuning, std::size_t KeyBytes, std::size_t ValueBytes, bool Small>
struct pass_shape
{
  static constexpr std::size_t wide = KeyBytes > ValueBytes ? KeyBytes : ValueBytes;
  static constexpr bool keys_only   = ValueBytes == 0;
  static constexpr pass_tile config = Small       ? Tuning::small_tiles
                                    : keys_only   ? (KeyBytes <= 4 ? Tuning::narrow_keys : Tuning::wide_keys)
                                    : wide <= 4   ? Tuning::narrow_pairs
                                                  : Tuning::wide_pairs;
  static constexpr int threads      = config.threads;
  static constexpr int items        = config.items;
  static constexpr int tile_items   = threads * items;
  static constexpr int min_blocks   = config.min_blocks;
  static constexpr bool persistent  = config.persistent;
  static constexpr bool lookback_first = config.lookback_first;
};

//! The one-block sort's tile under Tuning for keys of KeyBytes and moved values of ValueBytes.
template <class Tuning, std::size_t KeyBytes, std::size_t ValueBytes>
struct single_block_shape
{
  static constexpr int threads = Tuning::single_block_threads;
  static constexpr int items =
    KeyBytes <= 4 && ValueBytes <= 4 ? Tuning::single_block_items : Tuning::single_block_wide_items;
  static constexpr int tile_items = threads * items;
};

//! Static shared bytes of a pass block of `tile` over keys or values `wide` bytes wide, at most: the
//! exchange tile or the per-warp digit counters, whichever is larger, the 64-bit scatter bases, the
//! digit scan's per-warp totals, the ticket and the one-digit flag. The kernel checks its exact
//! storage against the architecture's limits at compile time (kernels.cuh).
constexpr std::size_t pass_shared_bytes(const pass_tile& tile, std::size_t wide)
{
  const std::size_t exchange = static_cast<std::size_t>(tile.threads) * tile.items * wide;
  const std::size_t counters = static_cast<std::size_t>(tile.threads) / 32 * 256 * 4;
  return (exchange > counters ? exchange : counters) + 256 * 8 + 8 * 4 + 16;
}

//! `tile`, over keys or values `wide` bytes wide, fits `limits` and static shared memory: min_blocks
//! blocks resident at once, one thread per digit, 16-bit tile positions.
constexpr bool pass_tile_fits(const arch_limits& limits, const pass_tile& tile, std::size_t wide)
{
  return tile.threads % 32 == 0 && tile.threads >= 256 && tile.threads * tile.items < 65536
      && pass_shared_bytes(tile, wide) <= static_shared_per_block
      && blocks_fit(limits, tile.threads, tile.min_blocks, pass_shared_bytes(tile, wide));
}

//! Every pass tile of Tuning fits `limits`, over the widest keys and values it serves.
template <class Tuning>
constexpr bool fits(const arch_limits& limits)
{
  return pass_tile_fits(limits, Tuning::small_tiles, 8) && pass_tile_fits(limits, Tuning::narrow_keys, 4)
      && pass_tile_fits(limits, Tuning::wide_keys, 8) && pass_tile_fits(limits, Tuning::narrow_pairs, 4)
      && pass_tile_fits(limits, Tuning::wide_pairs, 8);
}

static_assert(fits<tuning_for<750>>(limits_of(750)) && fits<tuning_for<800>>(limits_of(800))
                && fits<tuning_for<860>>(limits_of(860)) && fits<tuning_for<890>>(limits_of(890))
                && fits<tuning_for<900>>(limits_of(900)) && fits<tuning_for<1000>>(limits_of(1000))
                && fits<tuning_for<1200>>(limits_of(1200)),
              "sort tuning: a struct does not fit the architecture it is chosen for");

//! The upfront histogram kernel's shape (upfront_histogram.cuh): blocks of 1024 threads, each with
//! two 16-byte loads in flight. On the H200, u32 2^28 keys: 1024 x 2 0.298 ms, 1024 x 1 0.305,
//! 512 x 2 0.323 (three blocks an SM), 256 x 2 0.363; u64 2^27 1024 x 2 0.309 ms, 512 x 2 0.417 (one
//! block an SM). Not chosen by architecture yet: that kernel takes its block size from the host as a
//! template parameter (1024 threads fit every architecture of util/arch.hpp; the dispatcher checks
//! at run time whether its 32-column counters fit the device's shared memory).
struct upfront_histogram_tuning
{
  static constexpr int histogram_threads = 1024;
  static constexpr int histogram_unroll  = 2;
  //! Keys a thread counts at least, for the grid size of small inputs.
  static constexpr int histogram_min_keys_per_thread = 16;
};

//! Up to this many keys the passes use the small tile shape (pass_shape<..., true>). Measured on
//! the H200 (u32 keys, whole call): small tiles are faster up to 2^18 keys, about even at 2^19 and
//! slower at 2^20 (the look-back walks grow with the tile count). The host decides before it knows
//! which architecture the kernels run, so the same on every architecture.
constexpr std::size_t small_shape_max_keys = std::size_t(1) << 18;

//! Which tile shape the passes of an n-key sort use.
constexpr bool use_small_shape(std::size_t n)
{
  return n <= small_shape_max_keys;
}

//! From this many keys on, passes whose digit is the same for every key are skipped; the upfront
//! histogram decides it on the device (plan.hpp, pass_route), and a kernel then copies the result
//! back if an odd number of passes ran. Below it every pass runs, so the host knows where the
//! result ends up and launches no such check: a small pass costs about as much as that launch.
constexpr std::size_t pass_skip_min_keys = small_shape_max_keys + 1;

//! Up to this many bytes of tile state for all passes, every pass gets its own, cleared once at the
//! start of the call together with the histogram; past it the passes share one, cleared by a memset
//! before each launch. Each memset launch cost about 2 us between the passes on the H200: u32 keys,
//! whole sorts, three rounds in one run, against a limit of 4 MiB: 2^24 (6.4 MB of state) 386 ->
//! 377-380 us with a limit of 8 or 32 MiB, 2^26 (25.6 MB) 1311-1317 -> 1301-1303 us with 32 MiB,
//! 2^28 unchanged (100 MB: past both). At most this much memory more than one shared state.
constexpr std::size_t state_upfront_max_bytes = std::size_t(32) << 20;

} // namespace sort_impl
} // namespace detail
} // namespace sweep
