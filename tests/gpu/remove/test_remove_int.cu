// remove, remove_if (without a stencil) in place and remove_copy of integers of 1, 2, 4 and 8 bytes,
// signed and unsigned, on sweep::par against thrust::device: 0, 5, 50, 95 and 100% removed (in place:
// almost everything and almost nothing kept) at the edge sizes of the copy_if tile, a value of another
// type than the items, and more than 300 tiles ([slow]).
#include "remove_test.cuh"

using namespace sweep_test;

namespace
{

template <class T>
void remove_of(const char* name, const std::vector<std::size_t>& sizes)
{
  const T value = static_cast<T>(77);
  for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
  {
    const auto data = generated_vector<T>(sizes.back(), value_share<T>{test_seed() + 50, pct, value});
    for (std::size_t n : sizes)
    {
      const std::string what = remove_label(name, n, pct);
      check_remove<T>(sweep::par, data.begin(), n, value, what);
      check_remove_copy<T>(sweep::par, data.begin(), n, value, what);
      check_remove_if<T>(sweep::par, data.begin(), n, no_stencil{}, keep_percent<T>{pct}, what);
    }
  }
}

} // namespace

TEST_CASE("remove of 1-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::uint8_t>("uint8", compaction_sizes<std::uint8_t>());
  remove_of<std::int8_t>("int8", compaction_sizes<std::int8_t>());
}

TEST_CASE("remove of 2-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::int16_t>("int16", compaction_sizes<std::int16_t>());
  remove_of<std::uint16_t>("uint16", compaction_sizes<std::uint16_t>());
}

TEST_CASE("remove of 4-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::uint32_t>("uint32", compaction_sizes<std::uint32_t>());
  remove_of<std::int32_t>("int32", compaction_sizes<std::int32_t>());
}

TEST_CASE("remove of 8-byte integers matches thrust at every removed share", "[remove][int]")
{
  remove_of<std::int64_t>("int64", compaction_sizes<std::int64_t>());
  remove_of<std::uint64_t>("uint64", compaction_sizes<std::uint64_t>());
}

TEST_CASE("remove of uint8 items with an int value (compared as int: 300 removes nothing)", "[remove][int][small]")
{
  const std::size_t n = 100003;
  const auto data     = generated_vector<std::uint8_t>(n, value_share<std::uint8_t>{test_seed() + 51, 30, 44});
  for (int value : {44, 300, -212})
  {
    const std::string what = "uint8 items, int value " + std::to_string(value) + ", n=" + std::to_string(n);
    check_remove<std::uint8_t>(sweep::par, data.begin(), n, value, what);
    check_remove_copy<std::uint8_t>(sweep::par, data.begin(), n, value, what);
  }
}

TEST_CASE("remove of small inputs (0 to 33 items) matches thrust", "[remove][int][small]")
{
  remove_of<std::uint8_t>("uint8", {0, 1, 2, 31, 32, 33});
  remove_of<std::uint32_t>("uint32", {0, 1, 2, 31, 32, 33});
}

TEST_CASE("remove over more than 300 tiles matches thrust", "[remove][int][many_tiles][slow]")
{
  remove_of<std::uint8_t>("uint8", {many_tiles<std::uint8_t>()});
  remove_of<std::uint32_t>("uint32", {many_tiles<std::uint32_t>()});
}
