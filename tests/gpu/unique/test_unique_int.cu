// unique_copy, unique (in place) and unique_count of integers of 1, 2, 4 and 8 bytes, signed and
// unsigned, on sweep::par against thrust::device: runs of length 1 (almost everything kept), of 8 on
// average, of 100000 (crossing many tiles) and all equal (almost nothing kept), at the edge sizes of
// the copy_if tile; and more than 300 tiles ([slow]).
#include "unique_test.cuh"

using namespace sweep_test;

namespace
{

template <class T>
void unique_of_runs(const char* name, const std::vector<std::size_t>& sizes)
{
  for (run_shape shape : all_run_shapes)
  {
    const auto ids  = run_ids(sizes.back(), shape, test_seed());
    const auto data = items_of_runs<T>(ids, run_value<T>{test_seed() + 1});
    for (std::size_t n : sizes)
    {
      check_unique_forms(data, n, unique_label(name, shape, n));
    }
  }
}

} // namespace

TEST_CASE("unique of 1-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::uint8_t>("uint8", compaction_sizes<std::uint8_t>());
  unique_of_runs<std::int8_t>("int8", compaction_sizes<std::int8_t>());
}

TEST_CASE("unique of 2-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::int16_t>("int16", compaction_sizes<std::int16_t>());
  unique_of_runs<std::uint16_t>("uint16", compaction_sizes<std::uint16_t>());
}

TEST_CASE("unique of 4-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::int32_t>("int32", compaction_sizes<std::int32_t>());
  unique_of_runs<std::uint32_t>("uint32", compaction_sizes<std::uint32_t>());
}

TEST_CASE("unique of 8-byte integers matches thrust in every run shape", "[unique][int]")
{
  unique_of_runs<std::int64_t>("int64", compaction_sizes<std::int64_t>());
  unique_of_runs<std::uint64_t>("uint64", compaction_sizes<std::uint64_t>());
}

TEST_CASE("unique of small inputs (0 to 33 items) matches thrust", "[unique][int][small]")
{
  const std::vector<std::size_t> sizes = {0, 1, 2, 3, 31, 32, 33};
  unique_of_runs<std::uint8_t>("uint8", sizes);
  unique_of_runs<std::int32_t>("int32", sizes);
  unique_of_runs<std::uint64_t>("uint64", sizes);
}

TEST_CASE("unique over more than 300 tiles matches thrust", "[unique][int][many_tiles][slow]")
{
  unique_of_runs<std::uint8_t>("uint8", {many_tiles<std::uint8_t>()});
  unique_of_runs<std::uint32_t>("uint32", {many_tiles<std::uint32_t>()});
  unique_of_runs<std::int64_t>("int64", {many_tiles<std::int64_t>()});
}
