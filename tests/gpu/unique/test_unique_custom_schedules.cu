// The unique forms under custom equality, and on each schedule.
#include "unique_test.cuh"

#include <copy_if/forced_schedule.cuh>
#include <sweep/detail/copy_if/dispatch.cuh>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/unique.cuh>
#include <cstdint>
#include <string>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// unique_copy, unique (in place) and unique_count under user predicates on sweep::par against
// thrust::device, bitwise: keys equal by their tens (a run's keys differ, the first is kept), a
// predicate neither symmetric nor transitive (Thrust tests adjacent pairs as pred(previous, current)),
// 12- and 24-byte structs equal by their first word (their other bytes differ inside a run), an item
// larger than copy_if's largest (400 bytes), predicates whose operator() is not const, and device
// lambdas.

namespace
{

template <class T, class Gen, class Pred>
void unique_under(const char* name, const std::vector<std::size_t>& sizes, Gen gen, Pred pred)
{
  for (run_shape shape : all_run_shapes)
  {
    const auto ids  = run_ids(sizes.back(), shape, test_seed() + 4);
    const auto data = items_of_runs<T>(ids, gen);
    for (std::size_t n : sizes)
    {
      check_unique_forms(data, n, unique_label(name, shape, n), pred);
    }
  }
}

//! Thrust's own tests pass predicates like this one: operator() is not const.
struct mutable_same_high_bits
{
  __host__ __device__ bool operator()(std::int32_t a, std::int32_t b)
  {
    return (a >> 3) == (b >> 3);
  }
};

struct big_item
{
  std::uint32_t w[100];
};
static_assert(sizeof(big_item) == 400, "an item larger than copy_if's staging takes");

} // namespace

TEST_CASE("unique under equality of tens keeps each run's first key (uint8, int16, int32, uint64)",
          "[unique][custom]")
{
  unique_under<std::uint8_t>("uint8 by tens", compaction_sizes<std::uint8_t>(),
                             tens_key<std::uint8_t>{test_seed(), tens_of<std::uint8_t>()}, equal_div_10<std::uint8_t>{});
  unique_under<std::int16_t>("int16 by tens", compaction_sizes<std::int16_t>(),
                             tens_key<std::int16_t>{test_seed(), tens_of<std::int16_t>()}, equal_div_10<std::int16_t>{});
  unique_under<std::int32_t>("int32 by tens", compaction_sizes<std::int32_t>(),
                             tens_key<std::int32_t>{test_seed(), tens_of<std::int32_t>()}, equal_div_10<std::int32_t>{});
  unique_under<std::uint64_t>("uint64 by tens", compaction_sizes<std::uint64_t>(),
                              tens_key<std::uint64_t>{test_seed(), tens_of<std::uint64_t>()},
                              equal_div_10<std::uint64_t>{});
}

TEST_CASE("unique under an asymmetric, non-transitive predicate compares adjacent items as thrust does",
          "[unique][custom]")
{
  unique_under<std::int32_t>("int32 steps_up", compaction_sizes<std::int32_t>(), step_key<std::int32_t>{test_seed()},
                             steps_up<std::int32_t>{});
  unique_under<std::uint8_t>("uint8 steps_up", compaction_sizes<std::uint8_t>(), step_key<std::uint8_t>{test_seed()},
                             steps_up<std::uint8_t>{});
}

TEST_CASE("unique of 12- and 24-byte structs equal by their first word keeps each run's first item",
          "[unique][custom][struct]")
{
  unique_under<s12>("s12", compaction_sizes<s12>(), keyed_item<s12>{test_seed()}, same_first_word<s12>{});
  unique_under<s24>("s24", compaction_sizes<s24>(), keyed_item<s24>{test_seed()}, same_first_word<s24>{});
}

TEST_CASE("unique of 400-byte items (larger than copy_if's largest) matches thrust", "[unique][custom][struct]")
{
  unique_under<big_item>("400-byte items", {0, 1, 33, 1000, 100003}, keyed_item<big_item>{test_seed()},
                         same_first_word<big_item>{});
}

TEST_CASE("unique accepts predicates whose operator() is not const, and device lambdas", "[unique][custom][small]")
{
  const std::vector<std::size_t> sizes = {0, 1, 33, 5000, 100003};
  unique_under<std::int32_t>("mutable predicate", sizes, run_value<std::int32_t>{test_seed()}, mutable_same_high_bits{});
  const auto ids  = run_ids(sizes.back(), run_shape::short_runs, test_seed() + 5);
  const auto data = items_of_runs<std::int32_t>(ids, tens_key<std::int32_t>{test_seed(), 1000});
  for (std::size_t n : sizes)
  {
    const auto device_pred = [] __device__(std::int32_t a, std::int32_t b) {
      return a / 10 == b / 10;
    };
    check_unique_copy<std::int32_t>(sweep::par, data.begin(), n, unique_label("device lambda", run_shape::short_runs, n),
                                    device_pred);
    check_unique_in_place<std::int32_t>(sweep::par, data.begin(), n,
                                        unique_label("device lambda", run_shape::short_runs, n), device_pred);
    const auto host_device_pred = [] __host__ __device__(std::int32_t a, std::int32_t b) {
      return a / 10 == b / 10;
    };
    check_unique_count(sweep::par, data.begin(), n, unique_label("host device lambda", run_shape::short_runs, n),
                       host_device_pred);
  }
}

// --------------------------------------------------------------------------------------------------
// unique (copy_if's adjacent selection) under each of copy_if's tile schedules, forced through the
// dispatcher (tuning.hpp, tile_schedule): in order, pipelined, bulk and specialised. The public calls
// run the tuning's schedule (the other unique tests); here each schedule runs on the same inputs as
// stock Thrust's unique_copy (and, in place, unique): runs of 1, of 8 on average and of 100000 items,
// 1-, 4- and 8-byte items, edge sizes of the tile, misaligned starts, more tiles than resident blocks.
// The item before a lane's first comes from the lane below, from the tile's slot (bulk and
// specialised schedules) or from the input (in order, pipelined, and a tile's first item): every
// row, warp and tile boundary is crossed by runs here.

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
