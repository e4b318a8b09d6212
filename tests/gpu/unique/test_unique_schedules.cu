// unique (copy_if's adjacent selection) under each of copy_if's tile schedules, forced through the
// dispatcher (tuning.hpp, tile_schedule): in order, pipelined, bulk and specialised. The public calls
// run the tuning's schedule (the other unique tests); here each schedule runs on the same inputs as
// stock Thrust's unique_copy (and, in place, unique): runs of 1, of 8 on average and of 100000 items,
// 1-, 4- and 8-byte items, edge sizes of the tile, misaligned starts, more tiles than resident blocks.
// The item before a lane's first comes from the lane below, from the tile's slot (bulk and
// specialised schedules) or from the input (in order, pipelined, and a tile's first item): every
// row, warp and tile boundary is crossed by runs here.
#include "unique_test.cuh"

#include <copy_if/forced_schedule.cuh>

#include <sweep/detail/copy_if/dispatch.cuh>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/unique.cuh>

#include <cstdint>
#include <string>

using namespace sweep_test;

namespace
{
namespace ci = sweep::detail::copy_if_impl;
using ci::schedule_choice;
using differs = sweep::detail::differs_from_before<::cuda::std::equal_to<>>;

//! Stock Thrust's unique_copy and sweep's dispatcher under schedule S on the n items at `first` (a raw
//! pointer: the vector load path), into poisoned outputs at `out_offset`; and unique in place on
//! copies of them: equal counts, bitwise-equal items, poison intact after the end (in place: after
//! the range).
template <class T, schedule_choice S>
void check_unique_schedule(const T* first, std::size_t n, const std::string& what, std::size_t out_offset = 0)
{
  INFO(what << ", schedule " << schedule_name(S) << ", seed = " << test_seed());
  auto policy = sweep::par;
  {
    thrust::device_vector<T> expected(n + out_offset + 4), actual(n + out_offset + 4);
    poison(expected);
    poison(actual);
    const auto e_end = thrust::unique_copy(thrust::device, first, first + n, expected.begin() + out_offset);
    T* out           = thrust::raw_pointer_cast(actual.data()) + out_offset;
    const std::uint64_t count =
      ci::dispatch<T, false, S, ci::select_kind::adjacent>(policy, first, n, ci::no_stencil{}, out, differs{});
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::size_t e_count = static_cast<std::size_t>(e_end - expected.begin()) - out_offset;
    REQUIRE(count == e_count);
    require_bitwise_equal(expected, actual, out_offset + e_count, "unique_copy " + what);
    require_poison_intact(actual, out_offset + e_count, "unique_copy " + what);
  }
  {
    auto expected = guarded_copy<T>(first, n);
    auto actual   = guarded_copy<T>(first, n);
    const auto e_end =
      thrust::unique(thrust::device, expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(n));
    T* in_place = thrust::raw_pointer_cast(actual.data());
    const std::uint64_t count =
      ci::dispatch<T, false, S, ci::select_kind::adjacent>(policy, in_place, n, ci::no_stencil{}, in_place, differs{});
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::size_t e_count = static_cast<std::size_t>(e_end - expected.begin());
    REQUIRE(count == e_count);
    require_bitwise_equal(expected, actual, e_count, "unique in place " + what);
    require_poison_intact(actual, n, "unique in place " + what);
  }
}

template <class T, schedule_choice S>
void unique_under(const char* name)
{
  const std::size_t tile = copy_if_tile<T>();
  const std::size_t sms  = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  std::vector<std::size_t> sizes = {1, 2, 31, 33, tile - 1, tile, tile + 1, 3 * tile + 17};
  const std::size_t many         = 3 * sms * tile + 5;
  for (run_shape shape : {run_shape::distinct, run_shape::short_runs, run_shape::long_runs})
  {
    const auto ids  = run_ids(many + 8, shape, test_seed());
    const auto data = items_of_runs<T>(ids, run_value<T>{test_seed() + 3});
    const T* raw    = thrust::raw_pointer_cast(data.data());
    for (std::size_t n : sizes)
    {
      check_unique_schedule<T, S>(raw, n, unique_label(name, shape, n));
    }
    // Misaligned starts (the vector path's partial first chunk; tile 0's virtual head) and an
    // unaligned output.
    for (std::size_t offset : {std::size_t(1), std::size_t(3)})
    {
      check_unique_schedule<T, S>(raw + offset, 5 * tile + 9,
                                  unique_label(name, shape, 5 * tile + 9) + " in+" + std::to_string(offset) + " out+1", 1);
    }
    // More tiles than resident blocks: blocks loop over tiles.
    check_unique_schedule<T, S>(raw + 1, many, unique_label(name, shape, many) + " many tiles");
  }
}

template <schedule_choice S>
void unique_under_schedule()
{
  unique_under<std::uint8_t, S>("uint8");
  unique_under<std::uint32_t, S>("uint32");
  unique_under<std::uint64_t, S>("uint64");
}

} // namespace

TEMPLATE_TEST_CASE_SIG("unique under each forced copy_if schedule matches thrust (runs crossing rows, warps, tiles)",
                       "[unique][schedule]",
                       ((schedule_choice S), S),
                       (schedule_choice::in_order),
                       (schedule_choice::pipelined),
                       (schedule_choice::bulk),
                       (schedule_choice::specialized))
{
  unique_under_schedule<S>();
}
