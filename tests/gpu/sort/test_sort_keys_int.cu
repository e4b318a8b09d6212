// sweep::par sort of integer keys (1, 2, 4, 8 bytes, signed and unsigned, bool) against thrust::device.
#include "sort_test_common.cuh"

#include <cuda/std/functional>

namespace
{

template <class Key, class Compare>
void check_all_sizes(Compare comp, const char* name)
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : sweep_test::sizes())
  {
    sweep_test::check_keys(sweep_test::random_vector<Key>(n, seed + n), comp, std::string(name) + " random");
    sweep_test::check_keys(sweep_test::few_valued_vector<Key>(n, 3, seed ^ n), comp,
                                std::string(name) + " three values");
  }
}

} // namespace

TEST_CASE("sort uint32 keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::uint32_t>(thrust::less<std::uint32_t>(), "uint32 less");
  check_all_sizes<std::uint32_t>(thrust::greater<std::uint32_t>(), "uint32 greater");
}

TEST_CASE("sort int32 keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::int32_t>(thrust::less<std::int32_t>(), "int32 less");
  check_all_sizes<std::int32_t>(cuda::std::greater<void>(), "int32 greater<void>");
}

TEST_CASE("sort 64-bit keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::uint64_t>(thrust::less<std::uint64_t>(), "uint64 less");
  check_all_sizes<std::int64_t>(thrust::greater<std::int64_t>(), "int64 greater");
}

TEST_CASE("sort 8- and 16-bit keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::uint8_t>(thrust::less<std::uint8_t>(), "uint8 less");
  check_all_sizes<std::int8_t>(thrust::greater<std::int8_t>(), "int8 greater");
  check_all_sizes<std::uint16_t>(cuda::std::less<void>(), "uint16 less<void>");
  check_all_sizes<std::int16_t>(thrust::less<std::int16_t>(), "int16 less");
}

TEST_CASE("sort bool keys matches thrust", "[sort][keys]")
{
  check_all_sizes<bool>(thrust::less<bool>(), "bool less");
  check_all_sizes<bool>(thrust::greater<bool>(), "bool greater");
}
