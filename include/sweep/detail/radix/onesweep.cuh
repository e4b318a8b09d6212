// One onesweep digit pass (Adinets & Merrill 2022, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs"): each block ranks one tile by warp-level multi-split, finds the global start
// of each of its digits by per-digit decoupled look-back, and scatters through shared memory.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/radix/histogram.cuh>
#include <sweep/detail/radix/key_traits.cuh>

namespace sweep
{
namespace detail
{
namespace radix
{

//! Back-off of the per-digit look-back walk while a predecessor has published nothing (lookback.cuh):
//! sleeping up to 128 ns between polls measured 4-5% faster than a hot spin on the H200 (u32, u64,
//! skewed keys; docs/perf-sort.md, version 5).
constexpr unsigned lookback_backoff_ns = 128;

//! Predecessors loaded at once per step of that walk (thread_lookback_walk's Batch): 4 measured
//! 5-8% faster than one at a time on the H200, 8 no better than 4 (docs/perf-sort.md, version 6).
constexpr int lookback_batch = 4;

//! Marker value type for keys-only sorts.
struct no_value
{};

//! Arguments of one pass over one portion of the input (a portion is at most portion_keys keys so
//! that every per-digit count fits the 30-bit value of a uint32 tile-state word).
//! The tile state of a digit pass: counts only, so relaxed ordering suffices (see tile_state.cuh:
//! readers use nothing but the value in the word they read, and status and value are one atomic word).
using pass_state = tile_state<std::uint32_t, tile_ordering::relaxed>;

template <class Key, class Value>
struct pass_args
{
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in; // index sorts: nullptr in the first pass means "value = key's position"
  Value* values_out;
  std::size_t begin; // first key of this portion
  std::size_t count; // keys in this portion
  int pass;          // digit: bits [8 * pass, 8 * pass + 8) of the ordered key
  pass_state state;                           // tiles x 256 slots, cleared before the launch
  unsigned long long* tile_counter;           // zeroed before the launch
  const unsigned long long* bins_in;          // global start of each digit for this portion
  unsigned long long* bins_out;               // bins_in + this portion's digit counts (last tile writes)
};

template <class Key, class Value, bool HasValues, bool Descending, int Threads, int Items>
struct onesweep_pass
{
  using traits                  = key_traits<Key>;
  using bits_type               = typename traits::bits_type;
  static constexpr int warps    = Threads / 32;
  static constexpr int tile     = Threads * Items;
  static constexpr int warp_items = 32 * Items;
  static constexpr std::size_t exchange_bytes =
    tile * (HasValues && sizeof(Value) > sizeof(Key) ? sizeof(Value) : sizeof(Key));
  static_assert(Threads % 32 == 0 && Threads >= radix_digits, "one thread per digit");
  static_assert(tile < 65536, "per-warp digit counters are 16-bit");

  using block_scan = cub::BlockScan<std::uint32_t, Threads, cub::BLOCK_SCAN_WARP_SCANS>;

  struct shared_storage
  {
    // Ranking uses the buffer as per-warp digit match masks (match_masks[warp][digit], one bit a
    // lane); it becomes the tile in digit order (keys, then values) only after ranking is done.
    // (For 1- and 2-byte keys the masks are the larger member.)
    union
    {
      alignas(16) unsigned char exchange[exchange_bytes];
      std::uint32_t match_masks[warps][radix_digits];
    };
    std::uint16_t warp_counts[warps][radix_digits];     // per-warp digit counts, then offsets in tile
    unsigned long long scatter_base[radix_digits];      // global position of digit d minus its tile offset
    typename block_scan::TempStorage scan;
    unsigned long long tile_slot;
  };
};

//! One digit pass. Launched with one block per tile of the portion; blocks take tile indices in
//! start order (block_next_tile), so a tile only waits in its look-back on tiles already running.
//! Invariant kept by every tile: its digit-d keys go to global positions
//!   bins_in[d] + (digit-d keys in earlier tiles) + (digit-d keys before it in this tile),
//! i.e. a stable counting sort by the pass's digit.
//! Two or three blocks per SM (MinBlocks, see pass_shape): while one block waits in its look-back
//! another streams keys.
template <class Key, class Value, bool HasValues, bool Descending, int Threads, int Items, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks) onesweep_pass_kernel(pass_args<Key, Value> args)
{
  using config    = onesweep_pass<Key, Value, HasValues, Descending, Threads, Items>;
  using traits    = typename config::traits;
  using bits_type = typename config::bits_type;
  using packing   = tile_word<std::uint32_t>;
  constexpr int tile       = config::tile;
  constexpr int warp_items = config::warp_items;
  constexpr unsigned full  = 0xffffffffu;

  __shared__ typename config::shared_storage smem;
  bits_type* tile_keys = reinterpret_cast<bits_type*>(smem.exchange);

  const int tid  = static_cast<int>(threadIdx.x);
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int pass = args.pass;

  for (int i = tid; i < config::warps * radix_digits / 2; i += Threads)
  {
    reinterpret_cast<std::uint32_t*>(&smem.warp_counts[0][0])[i] = 0;
  }
  for (int i = tid; i < config::warps * radix_digits; i += Threads)
  {
    (&smem.match_masks[0][0])[i] = 0;
  }
  // Contains __syncthreads(), which also publishes the zeroed counters and masks.
  const std::size_t tile_index = static_cast<std::size_t>(block_next_tile(args.tile_counter, smem.tile_slot));
  const std::size_t tile_begin = tile_index * tile; // within the portion
  const std::size_t left       = args.count - tile_begin;
  const int valid              = left < static_cast<std::size_t>(tile) ? static_cast<int>(left) : tile;
  const bool full_tile         = valid == tile;

  // Issued now, used after the look-back: the digit's global start for this portion.
  unsigned long long digit_start = 0;
  if (tid < radix_digits)
  {
    digit_start = args.bins_in[tid];
  }

  // Load: warp w owns keys [w * warp_items, (w + 1) * warp_items) of the tile, lane l holds keys
  // i * 32 + l of that range (coalesced, all Items loads in flight at once). Positions past `valid`
  // are padding with all-ones ordered bits (digit 255): they rank after every real key of the tile
  // and are neither counted nor stored. Digits are recomputed from the key bits where needed
  // (a shift and a mask for integers) rather than held in registers.
  const std::size_t warp_first = args.begin + tile_begin + static_cast<std::size_t>(warp) * warp_items + lane;
  const int local_first        = warp * warp_items + lane;
  bits_type keys[Items];
  if (full_tile)
  {
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      keys[i] = traits::to_bits(args.keys_in[warp_first + i * 32]);
    }
  }
  else
  {
    constexpr bits_type pad = traits::template padding_bits<Descending>();
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      keys[i] = local_first + i * 32 < valid ? traits::to_bits(args.keys_in[warp_first + i * 32]) : pad;
    }
  }

  // Rank within the warp (warp-level multi-split). The lanes holding the same digit find each other
  // through a warp-private mask per digit in shared memory (the idea of CUB's
  // BlockRadixRankMatchEarlyCounts, WARP_MATCH_ATOMIC_OR): every lane ORs its bit into
  // match_masks[warp][digit], and after __syncwarp the mask is exactly the set of its peers. One
  // shared atomic and one load a key, against 8 ballots (version 3) or the hardware match.any, whose
  // cost grows with the number of distinct digits (version 2; docs/perf-sort.md). The highest peer
  // (leader) bumps the warp's counter for the digit by the group size, broadcasts the old count, and
  // clears the mask for the next item. Items are visited in key order (i, then lane): stable ranks.
  // Measured: faster than the 8 ballots for spread digits, ~10% slower with few distinct digits a
  // warp (lanes of one digit hit one word, and same-address shared atomics serialize). Warps whose
  // 32 digits are all equal (two warp reductions tell) skip the mask: 2^28 keys of four distinct
  // values 7.47 -> 5.35 ms, half one value 7.2 -> 6.35 ms, uniform keys unchanged (perf-sort.md, v7).
  // Ranks are < 2^16 (tile < 65536): two per register, which keeps the kernel within the register
  // budget of two blocks per SM. ranks[i / 2] holds item i in its (i % 2)-th half.
  std::uint32_t ranks[(Items + 1) / 2];
  const unsigned lane_bit    = 1u << lane;
  const unsigned lanes_below = lane_bit - 1u;
  std::uint16_t* my_counts   = smem.warp_counts[warp];
  std::uint32_t* my_masks    = smem.match_masks[warp];
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const std::uint32_t d = traits::template digit<Descending>(keys[i], pass);
    // All 32 lanes holding the same digit (runs of equal keys: skewed or already partly sorted
    // inputs) are their own peers: no mask, whose same-address atomics would serialize.
    const bool one_digit = __reduce_and_sync(full, d) == __reduce_or_sync(full, d);
    unsigned peers       = full;
    if (!one_digit)
    {
      atomicOr(&my_masks[d], lane_bit);
      __syncwarp(); // every lane's bit is in the masks
      peers = my_masks[d];
    }
    const int leader     = 31 - __clz(peers);
    std::uint32_t before = 0;
    if (lane == leader)
    {
      before       = my_counts[d];
      my_counts[d] = static_cast<std::uint16_t>(before + __popc(peers));
    }
    // Every lane's shuffle source (leader) depends on the mask it loaded, so all loads of the masks
    // have returned once the shuffle completes: the leader may clear its digit's mask after it.
    before = __shfl_sync(full, before, leader);
    if (!one_digit && lane == leader)
    {
      my_masks[d] = 0;
    }
    const std::uint32_t rank = before + __popc(peers & lanes_below);
    ranks[i / 2]             = i % 2 == 0 ? rank : ranks[i / 2] | (rank << 16);
    __syncwarp(); // the cleared masks and the counter writes are visible to the next item's lanes
  }
  __syncthreads(); // all warps' counts are final

  // Thread d < 256 owns digit d: warp counts -> exclusive offsets across warps; then it publishes
  // the tile's count of d at once (successors can walk past it) and issues the load of the nearest
  // predecessor's word, whose latency the block scan and the key placement below hide.
  std::uint32_t digit_count = 0;
  std::uint32_t real        = 0;
  std::uint32_t first_word  = 0;
  if (tid < radix_digits)
  {
#pragma unroll
    for (int w = 0; w < config::warps; ++w)
    {
      const std::uint32_t c   = smem.warp_counts[w][tid];
      smem.warp_counts[w][tid] = static_cast<std::uint16_t>(digit_count);
      digit_count += c;
    }
    // The tile's real keys of digit d (padding was counted under digit 255).
    real = tid == radix_digits - 1 ? digit_count - static_cast<std::uint32_t>(tile - valid) : digit_count;
    if (tile_index == 0)
    {
      args.state.publish_inclusive(0, static_cast<std::uint32_t>(tid), real);
      first_word = packing::pack(tile_status::inclusive, 0);
    }
    else
    {
      args.state.publish_aggregate(tile_index, static_cast<std::uint32_t>(tid), real);
      first_word = args.state.load(tile_index - 1, static_cast<std::uint32_t>(tid));
    }
  }
  std::uint32_t digit_offset = 0;
  config::block_scan(smem.scan).ExclusiveSum(digit_count, digit_offset);
  if (tid < radix_digits)
  {
#pragma unroll
    for (int w = 0; w < config::warps; ++w)
    {
      smem.warp_counts[w][tid] = static_cast<std::uint16_t>(smem.warp_counts[w][tid] + digit_offset);
    }
  }
  __syncthreads(); // tile offsets of every (warp, digit) are final

  // Place the tile in digit order in shared memory; ranks become tile positions.
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const std::uint32_t d = traits::template digit<Descending>(keys[i], pass);
    const std::uint32_t pos = ((ranks[i / 2] >> (16 * (i % 2))) & 0xffffu) + my_counts[d];
    ranks[i / 2] = i % 2 == 0 ? (ranks[i / 2] & 0xffff0000u) | pos : (ranks[i / 2] & 0xffffu) | (pos << 16);
    tile_keys[pos] = keys[i];
  }

  if (tid < radix_digits)
  {
    const std::uint32_t before_tile =
      tile_index == 0 ? 0u
                      : thread_lookback_walk<lookback_backoff_ns, lookback_batch>(
                          args.state, tile_index, static_cast<std::uint32_t>(tid), real, first_word);
    const unsigned long long global = digit_start + before_tile;
    smem.scatter_base[tid]          = global - digit_offset; // unsigned wrap-around is intended
    if (tile_index == (args.count - 1) / tile)
    {
      // The last tile knows the portion's totals: the next portion's digit starts.
      args.bins_out[tid] = global + real;
    }
  }
  __syncthreads(); // the tile is in digit order in shared memory and the scatter bases are final

  // Store: consecutive threads write consecutive keys of one digit run to consecutive addresses.
  // Values need the digits again after the exchange buffer is reused: four 8-bit digits a word.
  constexpr int digit_words = HasValues ? (Items + 3) / 4 : 1;
  std::uint32_t out_digits[digit_words];
#pragma unroll
  for (int k = 0; k < digit_words; ++k)
  {
    out_digits[k] = 0;
  }
#pragma unroll
  for (int j = 0; j < Items; ++j)
  {
    const int idx = j * Threads + tid;
    if (full_tile || idx < valid)
    {
      const bits_type b     = tile_keys[idx];
      const std::uint32_t d = traits::template digit<Descending>(b, pass);
      if constexpr (HasValues)
      {
        out_digits[j / 4] |= d << (8 * (j % 4));
      }
      Key key;
      memcpy(&key, &b, sizeof(Key));
      args.keys_out[smem.scatter_base[d] + idx] = key;
    }
  }

  if constexpr (HasValues)
  {
    Value values[Items];
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      if (full_tile || local_first + i * 32 < valid)
      {
        if constexpr (std::is_integral<Value>::value)
        {
          values[i] = args.values_in != nullptr ? args.values_in[warp_first + i * 32]
                                                : static_cast<Value>(warp_first + i * 32);
        }
        else
        {
          values[i] = args.values_in[warp_first + i * 32];
        }
      }
    }
    __syncthreads(); // every thread has read its keys out of the exchange buffer
    Value* tile_values = reinterpret_cast<Value*>(smem.exchange);
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      if (full_tile || local_first + i * 32 < valid)
      {
        tile_values[(ranks[i / 2] >> (16 * (i % 2))) & 0xffffu] = values[i];
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
    {
      const int idx = j * Threads + tid;
      if (full_tile || idx < valid)
      {
        const std::uint32_t d = (out_digits[j / 4] >> (8 * (j % 4))) & 0xffu;
        args.values_out[smem.scatter_base[d] + idx] = tile_values[idx];
      }
    }
  }
}

} // namespace radix
} // namespace detail
} // namespace sweep
