// unique_by_key_copy and unique_by_key (in place) on sweep::par against thrust::device, bitwise, keys
// and values (each value distinct, so the kept item of a run shows): integer keys of 1, 2 and 8 bytes
// under equal_to, int32 keys equal by their tens with 12-byte struct values, 64-bit keys with 24-byte
// struct values, float and double keys with NaN and mixed signed zeros, 12-byte struct keys equal by
// their first word; every run shape at the edge sizes of the key's copy_if tile, and more than 300
// tiles ([slow]).
#include "unique_test.cuh"

using namespace sweep_test;

namespace
{

template <class K, class V, class Gen, class... Pred>
void by_key_of_runs(const char* name, const std::vector<std::size_t>& sizes, Gen gen, Pred... pred)
{
  const auto values = random_vector<V>(sizes.back(), test_seed() + 6);
  for (run_shape shape : all_run_shapes)
  {
    const auto ids  = run_ids(sizes.back(), shape, test_seed() + 7);
    const auto keys = items_of_runs<K>(ids, gen);
    for (std::size_t n : sizes)
    {
      const std::string what = unique_label(name, shape, n);
      check_unique_by_key_copy<K, V>(sweep::par, keys.begin(), values.begin(), n, what, pred...);
      check_unique_by_key_in_place<K, V>(sweep::par, keys.begin(), values.begin(), n, what, pred...);
    }
  }
}

} // namespace

TEST_CASE("unique_by_key of uint8 keys and uint32 values matches thrust", "[unique][by_key]")
{
  by_key_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", compaction_sizes<std::uint8_t>(),
                                              run_value<std::uint8_t>{test_seed()});
}

TEST_CASE("unique_by_key of int16 keys and int64 values matches thrust", "[unique][by_key]")
{
  by_key_of_runs<std::int16_t, std::int64_t>("int16/int64", compaction_sizes<std::int16_t>(),
                                             run_value<std::int16_t>{test_seed()});
}

TEST_CASE("unique_by_key of int32 keys equal by their tens and 12-byte values keeps each run's first",
          "[unique][by_key][custom]")
{
  by_key_of_runs<std::int32_t, s12>("int32 by tens/s12", compaction_sizes<std::int32_t>(),
                                    tens_key<std::int32_t>{test_seed(), tens_of<std::int32_t>()},
                                    equal_div_10<std::int32_t>{});
}

TEST_CASE("unique_by_key of uint64 keys and 24-byte values matches thrust", "[unique][by_key]")
{
  by_key_of_runs<std::uint64_t, s24>("uint64/s24", compaction_sizes<std::uint64_t>(),
                                     run_value<std::uint64_t>{test_seed()});
}

TEST_CASE("unique_by_key of float and double keys with NaN and signed zeros matches thrust", "[unique][by_key][float]")
{
  by_key_of_runs<float, double>("float/double", compaction_sizes<float>(), float_run_value<float>{test_seed()});
  by_key_of_runs<double, std::uint8_t>("double/uint8", compaction_sizes<double>(), float_run_value<double>{test_seed()});
}

TEST_CASE("unique_by_key of 12-byte keys equal by their first word matches thrust", "[unique][by_key][custom]")
{
  by_key_of_runs<s12, float>("s12/float", compaction_sizes<s12>(), keyed_item<s12>{test_seed()}, same_first_word<s12>{});
}

TEST_CASE("unique_by_key of small inputs (0 to 33 items) matches thrust", "[unique][by_key][small]")
{
  by_key_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", {0, 1, 2, 31, 32, 33}, run_value<std::uint8_t>{test_seed()});
  by_key_of_runs<std::int32_t, s12>("int32 by tens/s12", {0, 1, 2, 31, 32, 33},
                                    tens_key<std::int32_t>{test_seed(), tens_of<std::int32_t>()},
                                    equal_div_10<std::int32_t>{});
}

TEST_CASE("unique_by_key over more than 300 tiles matches thrust", "[unique][by_key][many_tiles][slow]")
{
  by_key_of_runs<std::uint8_t, std::uint32_t>("uint8/uint32", {many_tiles<std::uint8_t>()},
                                              run_value<std::uint8_t>{test_seed()});
  by_key_of_runs<std::uint64_t, s24>("uint64/s24", {many_tiles<std::uint64_t>()}, run_value<std::uint64_t>{test_seed()});
}
