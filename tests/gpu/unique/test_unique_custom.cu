// unique_copy, unique (in place) and unique_count under user predicates on sweep::par against
// thrust::device, bitwise: keys equal by their tens (a run's keys differ, the first is kept), a
// predicate neither symmetric nor transitive (Thrust tests adjacent pairs as pred(previous, current)),
// 12- and 24-byte structs equal by their first word (their other bytes differ inside a run), an item
// larger than copy_if's largest (400 bytes), predicates whose operator() is not const, and device
// lambdas.
#include "unique_test.cuh"

using namespace sweep_test;

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
