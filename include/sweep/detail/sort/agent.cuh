// One onesweep digit pass (Adinets & Merrill 2022, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs") as a block-level agent: each tile is loaded, its digits counted per warp
// and published, its keys ranked by warp-level matching (block_rank.cuh), the global start of each
// of its digits found by per-digit decoupled look-back, and its keys scattered through shared
// memory. The kernels that run it are in kernels.cuh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/sort/block_rank.cuh>
#include <sweep/detail/sort/key_traits.cuh>
#include <sweep/detail/sort/plan.hpp>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! Back-off of the per-digit look-back walk while a predecessor has published nothing (lookback.cuh):
//! sleeping up to 128 ns between polls measured 4-5% faster than a hot spin on the H200.
constexpr unsigned lookback_backoff_ns = 128;

//! Predecessors loaded at once per step of that walk (thread_lookback_walk's Batch): 4 measured
//! 5-8% faster than one at a time on the H200, 8 no better than 4.
constexpr int lookback_batch = 4;

//! Marker value type for keys-only sorts.
struct no_value
{};

//! The tile state of a digit pass: counts only, so relaxed ordering suffices (see tile_state.cuh:
//! readers use nothing but the value in the word they read, and status and value are one atomic word).
using pass_state = tile_state<std::uint32_t, tile_ordering::relaxed>;

//! Arguments of one pass over one portion of the input (a portion is at most portion_keys keys so
//! that every per-digit count fits the 30-bit value of a uint32 tile-state word).
template <class Key, class Value>
struct pass_args
{
  // The two key (and value) buffers; the pass's route (plan.hpp) says which one it reads.
  Key* keys[2];
  Value* values[2];
  bool positions;                    // index sorts: values are positions, made up by the first pass
  std::size_t begin;                 // first key of this portion
  std::size_t count;                 // keys in this portion
  int pass;                          // digit: bits [8 * pass, 8 * pass + 8) of the radix-order key bits
  pass_state state;                  // tiles x 256 slots, cleared before the launch
  unsigned long long* tile_counter;  // starts at route << pass_route::ticket_shift (histogram kernel)
  const unsigned long long* bins_in; // global start of each digit for this portion
  unsigned long long* bins_out;      // bins_in + this portion's digit counts (last tile writes)
};

//! The block-level steps of one digit pass over one tile of Threads x Items keys.
//! Invariant kept by every tile: its digit-d keys go to global positions
//!   bins_in[d] + (digit-d keys in earlier tiles) + (digit-d keys before it in this tile),
//! i.e. a stable counting sort by the pass's digit.
//! Keys live in registers and shared memory in key_traits::encode form (radix order, reversible);
//! positions past the portion's end are padding with all-ones bits (digit 255), which rank after
//! every real key of the tile and are neither published nor stored.
template <class Key, class Value, bool HasValues, bool Descending, class Shape, class Offset>
struct onesweep_agent
{
  static constexpr int Threads    = Shape::threads;
  static constexpr int Items      = Shape::items;
  using traits                    = key_traits<Key>;
  using bits_type                 = typename traits::bits_type;
  static constexpr int warps      = Threads / 32;
  static constexpr int tile       = Threads * Items;
  static constexpr int warp_items = 32 * Items;
  static constexpr std::size_t exchange_bytes =
    tile * (HasValues && sizeof(Value) > sizeof(Key) ? sizeof(Value) : sizeof(Key));
  static_assert(Threads % 32 == 0 && Threads >= radix_digits, "one thread per digit");
  static_assert(tile < 65536, "tile positions are packed two to a register (16 bits each)");

  using ranker = tile_ranker<warps, Items>;
  static_assert(std::is_same<Offset, std::uint32_t>::value || std::is_same<Offset, unsigned long long>::value,
                "global positions are 32- or 64-bit");

  struct shared_storage
  {
    // The ranking's per-warp digit counters (counts, then running tile positions) until ranking is
    // done; then the tile in digit order (keys, then values).
    union
    {
      alignas(16) unsigned char exchange[exchange_bytes];
      typename ranker::storage rank;
    };
    // Global position of digit d minus its tile offset (modulo 2^32 for 32-bit Offset: the sum
    // with a tile position is exact whenever the result fits, which the dispatch guarantees).
    Offset scatter_base[radix_digits];
    std::uint32_t scan_partials[radix_digits / 32]; // per-warp totals of the digit scan
    unsigned long long tile_slot; // this block's ticket: route word and tile index (plan.hpp)
    int tile_digit;               // the digit of every key of a full one-digit tile, or -1
  };

  shared_storage& smem;
  const pass_args<Key, Value>& args;
  int tid; // threadIdx.x, re-read opaquely for every tile (start())
  std::size_t tile_index = 0;
  int valid              = 0; // real keys in this tile
  bits_type keys[Items];      // encoded; item i of this lane is tile key first_local + i * 32
  std::uint32_t ranks[(Items + 1) / 2];

  __device__ onesweep_agent(shared_storage& storage, const pass_args<Key, Value>& a)
      : smem(storage)
      , args(a)
      , tid(static_cast<int>(threadIdx.x))
  {}

  __device__ std::uint32_t digit(bits_type encoded) const
  {
    return static_cast<std::uint32_t>(traits::template radix_bits<Descending>(encoded) >> (8 * args.pass)) & 0xffu;
  }
  //! The digit of this lane's item i, recomputed from the key each time it is needed: the empty asm
  //! hides that the key is the same as in the last call, so the compiler cannot keep every item's
  //! digit alive from counting to ranking (Items more registers, which spill at three blocks an SM).
  __device__ std::uint32_t item_digit(int i) const
  {
    bits_type key = keys[i];
    if constexpr (sizeof(bits_type) == 8)
    {
      asm volatile("" : "+l"(key));
    }
    else
    {
      std::uint32_t wide = key;
      asm volatile("" : "+r"(wide));
      key = static_cast<bits_type>(wide);
    }
    return digit(key);
  }
  // The buffers of this pass, chosen by its route word. Each step takes the pointer it needs once,
  // into a local, before its loop: stores through a generic pointer could alias shared memory, so a
  // call per item would reload the route word after every store.
  __device__ std::uint32_t route() const
  {
    return static_cast<std::uint32_t>(smem.tile_slot >> pass_route::ticket_shift);
  }
  __device__ bool flipped() const { return (route() & pass_route::source_bit) != 0; }
  __device__ const Key* keys_in() const { return flipped() ? args.keys[1] : args.keys[0]; }
  __device__ Key* keys_out() const { return flipped() ? args.keys[0] : args.keys[1]; }
  __device__ const Value* values_in() const { return flipped() ? args.values[1] : args.values[0]; }
  __device__ Value* values_out() const { return flipped() ? args.values[0] : args.values[1]; }
  //! Index sorts' first pass that runs: the values are the keys' positions in the input.
  __device__ bool made_up_values() const
  {
    return args.positions && (route() & pass_route::first_bit) != 0;
  }

  __device__ bool full_tile() const { return valid == tile; }
  __device__ int first_local() const { return (tid / 32) * warp_items + tid % 32; }
  __device__ std::size_t first_global() const
  {
    return args.begin + tile_index * tile + static_cast<std::size_t>(first_local());
  }

  //! Zeroes this block's counters and takes its next ticket: a tile index and the pass's route in one
  //! atomic (contains __syncthreads()). Returns false when the pass does not run (every block returns
  //! at once) or every tile of the portion is taken. The block's previous tile, if any, must be done
  //! with shared memory (the kernel's barrier between tiles).
  __device__ bool start()
  {
    // Persistent blocks: the thread index is hidden from the compiler, so that nothing derived from
    // it is hoisted out of the kernel's tile loop and kept alive across tiles (that spilled 12-36
    // bytes and measured 5% slower on u32 2^28).
    if constexpr (Shape::persistent)
    {
      unsigned thread = 0;
      asm volatile("mov.u32 %0, %%tid.x;" : "=r"(thread));
      tid = static_cast<int>(thread);
    }
    uint4* counters = reinterpret_cast<uint4*>(&smem.rank);
    for (int i = tid; i < static_cast<int>(sizeof(smem.rank) / sizeof(uint4)); i += Threads)
    {
      counters[i] = make_uint4(0, 0, 0, 0);
    }
    if (tid == 0)
    {
      smem.tile_digit = -1;
    }
    const unsigned long long ticket = block_next_tile(args.tile_counter, smem.tile_slot);
    if ((route() & pass_route::runs_bit) == 0)
    {
      return false;
    }
    tile_index = static_cast<std::size_t>(ticket & pass_route::tile_mask);
    if (Shape::persistent && tile_index * tile >= args.count)
    {
      return false;
    }
    const std::size_t left = args.count - tile_index * tile;
    valid                  = left < static_cast<std::size_t>(tile) ? static_cast<int>(left) : tile;
    return true;
  }

  //! Load: warp w owns tile keys [w * warp_items, (w + 1) * warp_items), lane l holds keys
  //! i * 32 + l of that range (coalesced, all Items loads in flight at once).
  __device__ void load()
  {
    const Key* in = keys_in() + first_global();
    if (full_tile())
    {
#pragma unroll
      for (int i = 0; i < Items; ++i)
      {
        keys[i] = traits::template encode<Descending>(traits::to_bits(in[i * 32]));
      }
    }
    else
    {
      const int first = first_local();
#pragma unroll
      for (int i = 0; i < Items; ++i)
      {
        keys[i] = first + i * 32 < valid ? traits::template encode<Descending>(traits::to_bits(in[i * 32]))
                                         : traits::all_ones;
      }
    }
  }

  //! Thread d < 256: the tile's count of digit d, published at once as this tile's aggregate so
  //! that successors can walk past it while this tile still ranks. Returns the count including
  //! padding (for the offsets) and sets `real` (without) and `first_word` (the nearest
  //! predecessor's word, loaded now and used in look_back()).
  __device__ std::uint32_t publish(std::uint32_t& real, std::uint32_t& first_word)
  {
    using packing         = tile_word<std::uint32_t>;
    std::uint32_t counted = 0;
#pragma unroll
    for (int w = 0; w < warps; ++w)
    {
      counted += smem.rank.counters[w][tid];
    }
    real = tid == radix_digits - 1 ? counted - static_cast<std::uint32_t>(tile - valid) : counted;
    const auto slot = static_cast<std::uint32_t>(tid);
    if (tile_index == 0)
    {
      args.state.publish_inclusive(0, slot, real);
      first_word = packing::pack(tile_status::inclusive, 0);
    }
    else
    {
      args.state.publish_aggregate(tile_index, slot, real);
      first_word = args.state.load(tile_index - 1, slot);
    }
    if (counted == static_cast<std::uint32_t>(tile) && full_tile())
    {
      smem.tile_digit = tid;
    }
    return counted;
  }

  //! Thread d < 256: the exclusive scan of the tile's digit counts (the tile offset of digit d).
  //! Contains __syncthreads(); called by every thread.
  __device__ std::uint32_t scan_digits(std::uint32_t counted)
  {
    const int lane          = tid % 32;
    std::uint32_t inclusive = counted;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2)
    {
      const std::uint32_t up = __shfl_up_sync(full_warp, inclusive, offset);
      inclusive += lane >= offset ? up : 0u;
    }
    if (tid < radix_digits && lane == 31)
    {
      smem.scan_partials[tid / 32] = inclusive;
    }
    __syncthreads();
    std::uint32_t exclusive = inclusive - counted;
#pragma unroll
    for (int w = 0; w < radix_digits / 32; ++w)
    {
      exclusive += w < tid / 32 ? smem.scan_partials[w] : 0u;
    }
    return exclusive;
  }

  //! Thread d < 256: counters[w][d] becomes the tile position of warp w's first digit-d key.
  __device__ void counts_to_offsets(std::uint32_t digit_offset)
  {
#pragma unroll
    for (int w = 0; w < warps; ++w)
    {
      const std::uint32_t c = smem.rank.counters[w][tid];
      smem.rank.counters[w][tid] = digit_offset;
      digit_offset += c;
    }
  }

  //! Thread d < 256: the global start of digit d's keys of this tile (waits for the predecessors'
  //! counts, publishes this tile's inclusive count). The last tile of the portion also writes the
  //! next portion's digit starts.
  __device__ unsigned long long look_back(std::uint32_t real, std::uint32_t first_word)
  {
    const unsigned long long digit_start = args.bins_in[tid];
    const std::uint32_t before_tile =
      tile_index == 0 ? 0u
                      : thread_lookback_walk<lookback_backoff_ns, lookback_batch>(
                          args.state, tile_index, static_cast<std::uint32_t>(tid), real, first_word);
    const unsigned long long global = digit_start + before_tile;
    if (tile_index == (args.count - 1) / tile)
    {
      args.bins_out[tid] = global + real;
    }
    return global;
  }

  //! Thread d < 256: scatter_base[d] = the global start of digit d's keys of this tile (look_back())
  //! minus digit d's tile offset. Unsigned wrap-around is intended: base + tile position is the
  //! global position.
  __device__ void find_scatter_base(std::uint32_t real, std::uint32_t first_word, std::uint32_t digit_offset)
  {
    smem.scatter_base[tid] = static_cast<Offset>(look_back(real, first_word) - digit_offset);
  }

  //! The value of this lane's item i (index sorts: its position in the input on the first pass).
  __device__ Value load_value(int i, const Value* in, bool made_up) const
  {
    const std::size_t at = first_global() + static_cast<std::size_t>(i) * 32;
    if constexpr (std::is_integral<Value>::value)
    {
      return made_up ? static_cast<Value>(at) : in[at];
    }
    else
    {
      (void) made_up;
      return in[at];
    }
  }

  //! Short path of a full tile whose keys all have digit `d`: no ranking and no exchange; the keys
  //! (and values) go straight from registers to global positions start + tile position, coalesced.
  __device__ void store_one_digit(Offset start)
  {
    const Offset out      = start + static_cast<Offset>(first_local());
    Key* const keys_to    = keys_out();
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      const bits_type b = traits::template decode<Descending>(keys[i]);
      Key key;
      memcpy(&key, &b, sizeof(Key));
      keys_to[out + i * 32] = key;
    }
    if constexpr (HasValues)
    {
      const Value* const values_from = values_in();
      const bool made_up             = made_up_values();
      Value* const values_to         = values_out();
#pragma unroll
      for (int i = 0; i < Items; ++i)
      {
        values_to[out + i * 32] = load_value(i, values_from, made_up);
      }
    }
  }

  //! Place: the tile in digit order in shared memory.
  __device__ void place_keys()
  {
    bits_type* tile_keys = reinterpret_cast<bits_type*>(smem.exchange);
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      tile_keys[ranker::position(ranks, i)] = keys[i];
    }
  }

  //! Scatter: consecutive threads write consecutive keys of one digit run to consecutive addresses.
  //! Values need the digits again after the exchange buffer is reused: four 8-bit digits a word.
  template <int DigitWords>
  __device__ void scatter_keys(std::uint32_t (&digits)[DigitWords])
  {
    const bits_type* tile_keys = reinterpret_cast<const bits_type*>(smem.exchange);
    Key* const keys_to         = keys_out();
#pragma unroll
    for (int j = 0; j < Items; ++j)
    {
      const int idx = j * Threads + tid;
      if (full_tile() || idx < valid)
      {
        const bits_type s     = tile_keys[idx];
        const std::uint32_t d = digit(s);
        if constexpr (HasValues)
        {
          digits[j / 4] |= d << (8 * (j % 4));
        }
        const bits_type b = traits::template decode<Descending>(s);
        Key key;
        memcpy(&key, &b, sizeof(Key));
        keys_to[smem.scatter_base[d] + static_cast<Offset>(idx)] = key;
      }
    }
  }

  //! The values follow their keys through the same exchange (after scatter_keys).
  template <int DigitWords>
  __device__ void scatter_values(const std::uint32_t (&digits)[DigitWords])
  {
    Value values[Items];
    const int first                = first_local();
    const Value* const values_from = values_in();
    const bool made_up             = made_up_values();
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      if (full_tile() || first + i * 32 < valid)
      {
        values[i] = load_value(i, values_from, made_up);
      }
    }
    __syncthreads(); // every thread has read its keys out of the exchange buffer
    Value* tile_values = reinterpret_cast<Value*>(smem.exchange);
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      if (full_tile() || first + i * 32 < valid)
      {
        tile_values[ranker::position(ranks, i)] = values[i];
      }
    }
    __syncthreads();
    Value* const values_to = values_out();
#pragma unroll
    for (int j = 0; j < Items; ++j)
    {
      const int idx = j * Threads + tid;
      if (full_tile() || idx < valid)
      {
        const std::uint32_t d = (digits[j / 4] >> (8 * (j % 4))) & 0xffu;
        values_to[smem.scatter_base[d] + static_cast<Offset>(idx)] = tile_values[idx];
      }
    }
  }

  //! The pass over the tile that start() (barrier (a): counters zeroed, route and tile index known)
  //! gave this block. Barriers: (b) after counting: all counts in; (c) in scan_digits; (d) offsets
  //! final; (e) ranking done, the counters' memory may become the exchange; (f) tile in digit order
  //! and scatter bases final.
  __device__ void process_tile()
  {
    load();
    const auto digit_of = [this](int i) { return item_digit(i); };
    ranker::count(smem.rank, digit_of);
    __syncthreads(); // (b)

    std::uint32_t counted = 0, real = 0, first_word = 0;
    if (tid < radix_digits)
    {
      counted = publish(real, first_word);
    }
    const std::uint32_t digit_offset = scan_digits(counted); // (c)
    if (tid < radix_digits)
    {
      counts_to_offsets(digit_offset);
    }
    __syncthreads(); // (d)

    if (smem.tile_digit >= 0)
    {
      if (tid < radix_digits)
      {
        const unsigned long long global = look_back(real, first_word);
        if (tid == smem.tile_digit)
        {
          smem.scatter_base[0] = static_cast<Offset>(global);
        }
      }
      __syncthreads();
      store_one_digit(smem.scatter_base[0]);
      return;
    }

    // The look-back before or after ranking (Shape::lookback_first, tuning.hpp).
    if constexpr (Shape::lookback_first)
    {
      if (tid < radix_digits)
      {
        find_scatter_base(real, first_word, digit_offset);
      }
      // The warps reconverge before the ranking's ballots: without it ptxas 13.0 fails to allocate
      // registers for the keys-only kernels (C7600).
      __syncwarp();
    }
    ranker::rank(smem.rank, digit_of, ranks);
    __syncthreads(); // (e)
    place_keys();
    if constexpr (!Shape::lookback_first)
    {
      if (tid < radix_digits)
      {
        find_scatter_base(real, first_word, digit_offset);
      }
    }
    __syncthreads(); // (f)

    constexpr int digit_words = HasValues ? (Items + 3) / 4 : 1;
    std::uint32_t digits[digit_words] = {};
    scatter_keys(digits);
    if constexpr (HasValues)
    {
      scatter_values(digits);
    }
  }
};

} // namespace sort_impl
} // namespace detail
} // namespace sweep
