// Host side of sweep's onesweep radix sort: chooses the path (one block, or upfront histogram plus
// one kernel per non-trivial digit pass), allocates every temporary up front and launches.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/sort/kernels.cuh>
#include <sweep/detail/sort/key_traits.cuh>
#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/sort/tuning.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/error.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>
#include <sweep/detail/util/math.hpp>
#include <sweep/detail/util/policy.cuh>
#include <sweep/detail/util/temp_storage.cuh>

namespace sweep
{
namespace detail
{
namespace sort_impl
{

//! Test hook: when false, every digit pass runs even if the histogram shows it is trivial.
//! Read when a sort is enqueued (a captured graph keeps the setting of its capture).
inline std::atomic<bool>& pass_skipping_enabled()
{
  static std::atomic<bool> enabled{true};
  return enabled;
}

//! Test hook: when not 0, the most blocks a persistent pass launches (so that small sorts loop over
//! many tiles a block). Read when a sort is enqueued.
inline std::atomic<unsigned>& persistent_grid_limit()
{
  static std::atomic<unsigned> limit{0};
  return limit;
}

//! Test hook: when not 0, the most blocks the upfront histogram launches (so that small sorts make
//! each block count in several chunks). Read when a sort is enqueued.
inline std::atomic<unsigned>& histogram_grid_limit()
{
  static std::atomic<unsigned> limit{0};
  return limit;
}

//! Test hook: the most bytes of tile state for which every pass gets its own (make_sort_plan;
//! state_upfront_max_bytes unless a test lowers it, so that smaller sorts share one state cleared
//! before each pass). Read when a sort is enqueued.
inline std::atomic<std::size_t>& state_upfront_limit()
{
  static std::atomic<std::size_t> limit{state_upfront_max_bytes};
  return limit;
}

//! Test hook: when true, the upfront histogram counts in 8 columns at every size (the form small
//! inputs and devices short of shared memory use). Read when a sort is enqueued.
inline std::atomic<bool>& histogram_narrow_only()
{
  static std::atomic<bool> narrow{false};
  return narrow;
}

static_assert(tile_word32_limit == tile_word<std::uint32_t>::value_limit, "plan.hpp: tile word limit");
static_assert(pass_state_bytes(1000) == pass_state::bytes(1000, radix_digits), "plan.hpp: tile state bytes");

// How values travel: not at all, moved with the keys in every pass, or as 32-bit positions that are
// sorted with the keys and used once at the end to gather the values.
enum class value_mode
{
  none,
  direct,
  index,
};

//! What the host launches a digit pass with on the current device (kernel_launch): its tile under the
//! tuning its code was compiled with (pass_tile_for) and, for a persistent tile, the blocks of it the
//! device holds at once (the most a pass launches).
template <auto Kernel, std::size_t KeyBytes, std::size_t ValueBytes, bool Small>
__host__ const kernel_launch<pass_tile>& pass_launch_for()
{
  return kernel_launch_for<Kernel, pass_tile>(
    [](int arch) { return pass_tile_for<KeyBytes, ValueBytes, Small>(arch); },
    [](const pass_tile& tile) { return tile.persistent ? tile.threads : 0; });
}

//! What the host launches the one-block sort with on the current device: its tile under the tuning
//! its code was compiled with (single_block_dims_for). Found once per device and kernel.
template <auto Kernel, std::size_t KeyBytes, std::size_t ValueBytes>
__host__ const single_block_dims& single_block_launch_for()
{
  return per_kernel_value<Kernel, single_block_dims>([](int arch, int) {
    return single_block_dims_for<KeyBytes, ValueBytes>(arch);
  });
}

inline unsigned grid_for(std::size_t n, int threads)
{
  const std::size_t blocks = ceil_div<std::size_t>(n, threads);
  const std::size_t cap    = static_cast<std::size_t>(current_device_info().sm_count) * 16;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(blocks, cap)));
}

//! The types an onesweep sort of Key with values through ValueIt (Mode) works with.
template <value_mode Mode, class Key, class ValueIt>
struct sort_types
{
  using value_type = std::conditional_t<Mode == value_mode::none, no_value,
                                        typename std::iterator_traits<ValueIt>::value_type>;
  // What the pass kernel moves as a value.
  using moved_type = std::conditional_t<Mode == value_mode::index, std::uint32_t, value_type>;
  static constexpr bool has_values    = Mode != value_mode::none;
  static constexpr std::size_t vbytes = has_values ? sizeof(moved_type) : 0;
};

//! The passes of onesweep_sort for n > one block's tile: upfront histogram, then one kernel per
//! non-trivial digit pass, with the small inputs' tiles when Small.
template <bool Descending, value_mode Mode, bool Small, class Derived, class Key, class ValueIt>
__host__ void onesweep_passes(execution_policy<Derived>& policy, Key* keys, ValueIt values, std::size_t n)
{
  using types                  = sort_types<Mode, Key, ValueIt>;
  using value_type             = typename types::value_type;
  using moved_type             = typename types::moved_type;
  using tuning                 = upfront_histogram_tuning; // not chosen by architecture yet (tuning.hpp)
  using args_t                 = pass_args<Key, moved_type>;
  constexpr bool has_values    = types::has_values;
  constexpr int passes         = static_cast<int>(sizeof(Key));
  const cudaStream_t stream    = stream_of(policy);

  // The pass kernel of this sort's global positions (32-bit when every position fits), and its tile
  // under the tuning its code was compiled with.
  constexpr auto narrow_kernel = &onesweep_pass_kernel<Key, moved_type, has_values, Descending, Small, std::uint32_t>;
  constexpr auto wide_kernel   = &onesweep_pass_kernel<Key, moved_type, has_values, Descending, Small, unsigned long long>;
  const bool narrow                      = n <= std::size_t(0xffffffffu);
  void (*const pass_kernel)(args_t)      = narrow ? narrow_kernel : wide_kernel;
  const kernel_launch<pass_tile>& launch = narrow ? pass_launch_for<narrow_kernel, sizeof(Key), types::vbytes, Small>()
                                                  : pass_launch_for<wide_kernel, sizeof(Key), types::vbytes, Small>();
  const std::size_t tile        = static_cast<std::size_t>(launch.tile.threads) * static_cast<std::size_t>(launch.tile.items);
  const sort_plan plan = make_sort_plan(n, tile, passes, sizeof(Key), has_values ? sizeof(moved_type) : 0,
                                        Mode == value_mode::index, sizeof(value_type),
                                        state_upfront_limit().load(std::memory_order_relaxed));
  const std::size_t per_portion = plan.per_portion;
  const std::size_t portions    = plan.portions;
  const std::size_t counters    = plan.counters;
  // A persistent tile's pass launches at most as many blocks as the device holds at once (or the
  // test hook's limit; read once per sort): its blocks loop over the tiles, and a skipped pass costs
  // one wave, not one block per tile. Other tiles launch one block per tile.
  const unsigned grid_limit     = persistent_grid_limit().load(std::memory_order_relaxed);
  const std::size_t most_blocks = grid_limit != 0 ? grid_limit : launch.resident_blocks;

  // Tile states: one per pass when small, else one cleared before each launch (make_sort_plan;
  // status codes alternating by pass instead of the memset measured slower: docs/design/sort.md,
  // variants). Everything is allocated here, before any kernel runs.
  const bool state_per_pass     = plan.state_per_pass;
  const std::size_t state_bytes = plan.state_bytes;
  temp_layout<sort_part_count> layout;
  for (std::size_t bytes : plan.part_bytes)
  {
    layout.add(bytes);
  }
  temp_storage<execution_policy<Derived>> temp(policy, layout);

  unsigned long long* hist     = temp.template part<unsigned long long>(hist_and_counters);
  unsigned long long* counter0 = hist + passes * radix_digits;
  unsigned* histogram_done     = reinterpret_cast<unsigned*>(counter0 + counters);
  unsigned long long* bin_data = temp.template part<unsigned long long>(bins);
  std::uint32_t* route         = temp.template part<std::uint32_t>(routes);
  std::uint32_t* state_data    = temp.template part<std::uint32_t>(state_words);

  const std::size_t cleared = state_per_pass ? layout.offsets[state_words] + layout.sizes[state_words]
                                                 - layout.offsets[hist_and_counters]
                                             : layout.sizes[hist_and_counters];
  throw_on_error(cudaMemsetAsync(hist, 0, cleared, stream), "sweep::sort: memset");
  // From here work is enqueued: should a later step throw, the stream is drained before the
  // temporary storage goes back (a user allocator may hand it out again at once).
  const drain_stream_on_throw drain{stream};
  // Below pass_skip_min_keys every pass runs, so the host knows where the result ends up.
  const bool allow_skip = n >= pass_skip_min_keys && pass_skipping_enabled().load(std::memory_order_relaxed);
  {
    // Also decides, on the device, which passes run and through which buffers (route).
    // 32 columns where they fit, else 8; small inputs 8: their few blocks are latency-bound, and 32
    // columns cost each block 4x the shared memory to clear and add up.
    constexpr int threads = tuning::histogram_threads;
    constexpr int unroll  = tuning::histogram_unroll;
    const unsigned limit  = histogram_grid_limit().load(std::memory_order_relaxed);
    const bool narrow_only = use_small_shape(n) || histogram_narrow_only().load(std::memory_order_relaxed);
    const unsigned wide_resident = narrow_only ? 0u : upfront_histogram_blocks<Key, Descending, threads, unroll, 5>();
    const unsigned resident =
      wide_resident != 0 ? wide_resident : upfront_histogram_blocks<Key, Descending, threads, unroll, 3>();
    const std::size_t per_block = static_cast<std::size_t>(threads) * tuning::histogram_min_keys_per_thread;
    const unsigned blocks       = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(ceil_div(n, per_block), limit != 0 ? limit : resident)));
    if (wide_resident != 0)
    {
      launch_upfront_histogram<Key, Descending, threads, unroll, 5>(
        blocks, stream, keys, n, hist, bin_data, route, counter0, static_cast<int>(portions), allow_skip, histogram_done);
    }
    else
    {
      launch_upfront_histogram<Key, Descending, threads, unroll, 3>(
        blocks, stream, keys, n, hist, bin_data, route, counter0, static_cast<int>(portions), allow_skip, histogram_done);
    }
    check_launch("sweep::sort: histogram kernel");
  }

  moved_type* val_buf[2] = {nullptr, nullptr};
  if constexpr (Mode == value_mode::direct)
  {
    val_buf[0] = &*values; // contiguous: the caller passes a raw pointer
    val_buf[1] = temp.template part<moved_type>(alt_values);
  }
  else if constexpr (Mode == value_mode::index)
  {
    val_buf[0] = temp.template part<moved_type>(positions);
    val_buf[1] = temp.template part<moved_type>(alt_values);
  }

  // Every pass is launched; each block finds its pass's route with its tile index (the tile counters
  // start at the route, pass_route::ticket_shift): a skipped pass's blocks return at once, and the
  // passes that run find their buffers there.
  for (int pass = 0; pass < passes; ++pass)
  {
    for (std::size_t portion = 0; portion < portions; ++portion)
    {
      const std::size_t begin = portion * per_portion;
      const std::size_t count = std::min(per_portion, n - begin);
      const std::size_t tiles = ceil_div(count, tile);
      pass_state state;
      state.slots = radix_digits;
      state.words = state_data;
      if (state_per_pass)
      {
        state.words += static_cast<std::size_t>(pass) * (state_bytes / sizeof(std::uint32_t));
      }
      else
      {
        throw_on_error(state.clear_async(tiles, stream), "sweep::sort: tile state clear");
      }
      args_t args;
      args.keys[0]      = keys;
      args.keys[1]      = temp.template part<Key>(alt_keys);
      args.values[0]    = val_buf[0];
      args.values[1]    = val_buf[1];
      args.positions    = Mode == value_mode::index;
      args.begin        = begin;
      args.count        = count;
      args.pass         = pass;
      args.state        = state;
      args.tile_counter = counter0 + pass * portions + portion;
      args.bins_in      = bin_data + (pass * 2 + portion % 2) * radix_digits;
      args.bins_out     = bin_data + (pass * 2 + (portion + 1) % 2) * radix_digits;
      const std::size_t grid = launch.tile.persistent ? std::min(tiles, most_blocks) : tiles;
      pass_kernel<<<static_cast<unsigned>(grid), launch.tile.threads, 0, stream>>>(args);
      check_launch("sweep::sort: onesweep pass kernel");
    }
  }

  const std::uint32_t* summary = route + passes;
  const unsigned copy_grid     = grid_for(n, 256);
  if (allow_skip || passes % 2 == 1)
  {
    // Usually a check that returns at once: one wave of blocks at most.
    constexpr auto copy_back = &copy_back_kernel<Key, moved_type>;
    const std::size_t back_grid =
      std::min<std::size_t>(ceil_div<std::size_t>(n, 256 * copy_back_unroll), resident_blocks<copy_back>(256));
    copy_back<<<static_cast<unsigned>(back_grid), 256, 0, stream>>>(
      summary, temp.template part<Key>(alt_keys), keys, Mode == value_mode::direct ? val_buf[1] : nullptr,
      Mode == value_mode::direct ? val_buf[0] : nullptr, n);
    check_launch("sweep::sort: copy back kernel");
  }
  if constexpr (Mode == value_mode::index)
  {
    value_type* copy = temp.template part<value_type>(value_copy);
    copy_in_kernel<value_type><<<copy_grid, 256, 0, stream>>>(summary, values, copy, n);
    check_launch("sweep::sort: value copy kernel");
    gather_kernel<value_type><<<copy_grid, 256, 0, stream>>>(summary, copy, val_buf[0], val_buf[1], values, n);
    check_launch("sweep::sort: value gather kernel");
  }
  synchronize_optional(policy, "sweep::sort: synchronize");
}

//! Sorts keys[0, n) in place (values along, through the iterator `values` unless Mode is none).
//! Throws std::bad_alloc before any kernel runs when temporary storage is short, and
//! thrust::system_error on CUDA errors. Synchronizes like Thrust's sort (synchronize_optional).
template <bool Descending, value_mode Mode, class Derived, class Key, class ValueIt>
__host__ void onesweep_sort(execution_policy<Derived>& policy, Key* keys, ValueIt values, std::size_t n)
{
  using types                  = sort_types<Mode, Key, ValueIt>;
  constexpr bool has_values    = types::has_values;
  constexpr std::size_t vbytes = types::vbytes;
  const cudaStream_t stream    = stream_of(policy);

  if (n <= 1)
  {
    synchronize_optional(policy, "sweep::sort: synchronize");
    return;
  }
  throw_on_pending_error("sweep::sort: an earlier CUDA call left this error");
  // The one-block sort's tile under the tuning its code was compiled with.
  constexpr auto one_block          = &single_block_sort_kernel<Key, ValueIt, has_values, Descending, vbytes>;
  const single_block_dims& one_tile = single_block_launch_for<one_block, sizeof(Key), vbytes>();
  if (n <= static_cast<std::size_t>(one_tile.tile_items))
  {
    one_block<<<1, one_tile.threads, 0, stream>>>(keys, values, static_cast<int>(n));
    check_launch("sweep::sort: single-block kernel");
    synchronize_optional(policy, "sweep::sort: synchronize");
    return;
  }
  if (Mode == value_mode::index && n > std::size_t(0xffffffffu))
  {
    throw_invalid_argument("sweep::sort_by_key", "keys", "past 2^32 - 1 keys need values of at most 8 bytes in contiguous memory");
  }
  if (use_small_shape(n))
  {
    onesweep_passes<Descending, Mode, true>(policy, keys, values, n);
  }
  else
  {
    onesweep_passes<Descending, Mode, false>(policy, keys, values, n);
  }
}

} // namespace sort_impl
} // namespace detail
} // namespace sweep
