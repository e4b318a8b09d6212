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

//! Marker value type for keys-only sorts.
struct no_value
{};

//! Arguments of one pass over one portion of the input (a portion is at most portion_keys keys so
//! that every per-digit count fits the 30-bit value of a uint32 tile-state word).
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
  tile_state<std::uint32_t> state;            // tiles x 256 slots, cleared before the launch
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
    alignas(16) unsigned char exchange[exchange_bytes]; // the tile, in digit order (keys, then values)
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
template <class Key, class Value, bool HasValues, bool Descending, int Threads, int Items>
__global__ void __launch_bounds__(Threads) onesweep_pass_kernel(pass_args<Key, Value> args)
{
  using config    = onesweep_pass<Key, Value, HasValues, Descending, Threads, Items>;
  using traits    = typename config::traits;
  using bits_type = typename config::bits_type;
  constexpr int tile       = config::tile;
  constexpr int warp_items = config::warp_items;
  constexpr unsigned full  = 0xffffffffu;

  __shared__ typename config::shared_storage smem;
  bits_type* tile_keys = reinterpret_cast<bits_type*>(smem.exchange);

  const int tid  = static_cast<int>(threadIdx.x);
  const int lane = tid % 32;
  const int warp = tid / 32;

  for (int i = tid; i < config::warps * radix_digits / 2; i += Threads)
  {
    reinterpret_cast<std::uint32_t*>(&smem.warp_counts[0][0])[i] = 0;
  }
  // Contains __syncthreads(), which also publishes the zeroed counters.
  const std::size_t tile_index = static_cast<std::size_t>(block_next_tile(args.tile_counter, smem.tile_slot));
  const std::size_t tile_begin = tile_index * tile; // within the portion
  const std::size_t left       = args.count - tile_begin;
  const int valid              = left < static_cast<std::size_t>(tile) ? static_cast<int>(left) : tile;
  const bool full_tile         = valid == tile;

  // Load: warp w owns keys [w * warp_items, (w + 1) * warp_items) of the tile, lane l holds keys
  // i * 32 + l of that range (coalesced). Positions past `valid` are padding with digit 255; they
  // rank after every real key of the tile and are neither counted nor stored.
  const std::size_t warp_first = args.begin + tile_begin + static_cast<std::size_t>(warp) * warp_items + lane;
  const int local_first        = warp * warp_items + lane;
  bits_type keys[Items];
  std::uint32_t digits[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    if (full_tile || local_first + i * 32 < valid)
    {
      keys[i]   = traits::to_bits(args.keys_in[warp_first + i * 32]);
      digits[i] = traits::template digit<Descending>(keys[i], args.pass);
    }
    else
    {
      keys[i]   = 0;
      digits[i] = radix_digits - 1;
    }
  }

  // Rank within the warp (warp-level multi-split): the lanes holding the same digit find each other
  // with match.any; the highest of them bumps the warp's counter for that digit once by the group
  // size and broadcasts the old count. Items are visited in key order (i, then lane), so ranks are
  // stable.
  std::uint32_t ranks[Items];
  const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const unsigned peers = __match_any_sync(full, digits[i]);
    const int leader     = 31 - __clz(peers);
    std::uint32_t before = 0;
    if (lane == leader)
    {
      before = smem.warp_counts[warp][digits[i]];
      smem.warp_counts[warp][digits[i]] = static_cast<std::uint16_t>(before + __popc(peers));
    }
    before   = __shfl_sync(full, before, leader);
    ranks[i] = before + __popc(peers & lanes_below);
    __syncwarp(); // the counter write is visible to the next item's leader, whichever lane it is
  }
  __syncthreads(); // all warps' counts are final

  // Thread d < 256 owns digit d: warp counts -> exclusive offsets across warps; the block-wide
  // exclusive scan over digits gives the digit's first position in the tile.
  std::uint32_t digit_count = 0;
  if (tid < radix_digits)
  {
#pragma unroll
    for (int w = 0; w < config::warps; ++w)
    {
      const std::uint32_t c   = smem.warp_counts[w][tid];
      smem.warp_counts[w][tid] = static_cast<std::uint16_t>(digit_count);
      digit_count += c;
    }
  }
  std::uint32_t digit_offset = 0;
  config::block_scan(smem.scan).ExclusiveSum(digit_count, digit_offset);

  if (tid < radix_digits)
  {
    // The tile's real keys of digit d (padding was counted under digit 255).
    const std::uint32_t real = tid == radix_digits - 1 ? digit_count - static_cast<std::uint32_t>(tile - valid)
                                                       : digit_count;
    std::uint32_t before_tile = 0;
    if (tile_index == 0)
    {
      args.state.publish_inclusive(0, static_cast<std::uint32_t>(tid), real);
    }
    else
    {
      // Publishes `real` with release, then walks back with acquire loads (tile_state.cuh).
      before_tile = thread_lookback(args.state, tile_index, static_cast<std::uint32_t>(tid), real);
    }
    const unsigned long long global = args.bins_in[tid] + before_tile;
    smem.scatter_base[tid]          = global - digit_offset; // unsigned wrap-around is intended
    if (tile_index == (args.count - 1) / tile)
    {
      // The last tile knows the portion's totals: the next portion's digit starts.
      args.bins_out[tid] = global + real;
    }
#pragma unroll
    for (int w = 0; w < config::warps; ++w)
    {
      smem.warp_counts[w][tid] = static_cast<std::uint16_t>(smem.warp_counts[w][tid] + digit_offset);
    }
  }
  __syncthreads(); // tile offsets and scatter bases are final

#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    ranks[i] += smem.warp_counts[warp][digits[i]];
    tile_keys[ranks[i]] = keys[i];
  }
  __syncthreads(); // the tile is in digit order in shared memory

  // Store: consecutive threads write consecutive keys of one digit run to consecutive addresses.
  std::uint8_t out_digits[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j)
  {
    const int idx = j * Threads + tid;
    if (full_tile || idx < valid)
    {
      const bits_type b = tile_keys[idx];
      const std::uint32_t d = traits::template digit<Descending>(b, args.pass);
      out_digits[j]         = static_cast<std::uint8_t>(d);
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
        tile_values[ranks[i]] = values[i];
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
    {
      const int idx = j * Threads + tid;
      if (full_tile || idx < valid)
      {
        args.values_out[smem.scatter_base[out_digits[j]] + idx] = tile_values[idx];
      }
    }
  }
}

} // namespace radix
} // namespace detail
} // namespace sweep
