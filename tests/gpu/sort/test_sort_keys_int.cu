// sweep::par sort of integer keys (1, 2, 4, 8 bytes, signed and unsigned, bool) against thrust::device.
#include "histogram_checks.cuh"
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

TEST_CASE("upfront histogram: integer keys not 16-byte aligned", "[sort][histogram]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::check_offsets<std::uint8_t>(thrust::less<std::uint8_t>(), seed);
  sweep_test::check_offsets<std::int8_t>(thrust::greater<std::int8_t>(), seed);
  sweep_test::check_offsets<std::uint16_t>(cuda::std::less<void>(), seed);
  sweep_test::check_offsets<std::uint32_t>(thrust::greater<std::uint32_t>(), seed);
  sweep_test::check_offsets<std::uint64_t>(thrust::less<std::uint64_t>(), seed);
  sweep_test::check_offsets<std::int64_t>(thrust::greater<std::int64_t>(), seed);
}

TEST_CASE("upfront histogram: blocks that count integer keys in several chunks", "[sort][histogram]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  // One block of 1024 threads, 32 columns: a chunk is 510 rounds of 16-byte vectors of 4-byte keys
  // (2^23 keys: five chunks), 126 of 1-byte keys (2^22: three), 1022 of 8-byte keys (2^22: three);
  // two blocks, 254 rounds of 2-byte keys (2^23: three); one key a round from a misaligned start,
  // 2046 rounds (2^21 + 5: two).
  sweep_test::check_chunks<std::uint32_t>(std::size_t(1) << 23, 1, thrust::less<std::uint32_t>(), seed);
  sweep_test::check_chunks<std::uint32_t>(std::size_t(1) << 23, 1, thrust::greater<std::uint32_t>(), seed + 9);
  sweep_test::check_chunks<std::uint8_t>(std::size_t(1) << 22, 1, thrust::less<std::uint8_t>(), seed);
  sweep_test::check_chunks<std::int8_t>(std::size_t(1) << 22, 1, thrust::greater<std::int8_t>(), seed);
  sweep_test::check_chunks<std::uint16_t>(std::size_t(1) << 23, 2, cuda::std::less<void>(), seed);
  sweep_test::check_chunks<std::uint64_t>((std::size_t(1) << 22) + 17, 1, thrust::less<std::uint64_t>(), seed);
  {
    const sweep_test::hook_setting<unsigned> held(sweep::detail::sort_impl::histogram_grid_limit(), 1);
    sweep_test::check_offset<std::uint32_t>((std::size_t(1) << 21) + 5, 1, thrust::less<std::uint32_t>(), seed);
  }
  // 8 columns: 254 rounds of 8-byte keys (2^22 + 17: nine chunks), 30 of 1-byte keys (2^22: nine).
  const sweep_test::narrow_histogram narrow;
  sweep_test::check_chunks<std::int64_t>((std::size_t(1) << 22) + 17, 1, thrust::greater<std::int64_t>(), seed + 3);
  sweep_test::check_chunks<std::uint8_t>(std::size_t(1) << 22, 1, thrust::less<std::uint8_t>(), seed + 4);
}

TEST_CASE("upfront histogram, small enough for compute-sanitizer: both column counts, a misaligned start, "
          "chunks",
          "[sort][histogram][san]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::check_offset<std::uint32_t>(5000, 1, thrust::less<std::uint32_t>(), seed); // 8 columns, one key a round
  sweep_test::check_offset<std::uint64_t>(sweep_test::small_shape_max + 1, 2, thrust::less<std::uint64_t>(),
                                          seed); // 32 columns
  const sweep_test::narrow_histogram narrow;
  const sweep_test::hook_setting<unsigned> held(sweep::detail::sort_impl::histogram_grid_limit(), 1);
  // 8 columns, one block: 30 rounds of 16 one-byte keys a chunk, so 2^20 + 3 keys take three.
  sweep_test::check_keys(sweep_test::random_vector<std::uint8_t>((std::size_t(1) << 20) + 3, seed),
                         thrust::less<std::uint8_t>(), "one block, 8 columns");
}
