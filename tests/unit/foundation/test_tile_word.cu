// Host-only checks of the tile-state word packing and of temporary-storage layout arithmetic.
#include <sweep/detail/lookback/tile_state.cuh>
#include <sweep/detail/util/math.hpp>
#include <sweep/detail/util/temp_storage.cuh>

#include <catch2/catch.hpp>

#include <cstdint>

using sweep::detail::tile_status;

TEMPLATE_TEST_CASE("tile_word packs status and value without overlap", "[lookback]", std::uint32_t, unsigned long long)
{
  using packing = sweep::detail::tile_word<TestType>;
  STATIC_REQUIRE(packing::value_bits == static_cast<int>(sizeof(TestType) * 8) - 2);
  const TestType values[] = {0, 1, 2, 12345, packing::value_limit - 1, packing::value_limit};
  for (tile_status status : {tile_status::invalid, tile_status::aggregate, tile_status::inclusive})
  {
    for (TestType value : values)
    {
      const TestType word = packing::pack(status, value);
      CHECK(packing::status(word) == status);
      CHECK(packing::value(word) == value);
    }
  }
  // all-zero memory (what clear_async writes) must read as `invalid` with value 0
  CHECK(packing::status(TestType(0)) == tile_status::invalid);
  CHECK(packing::value(TestType(0)) == 0);
  // the status sits in the top two bits
  CHECK(packing::pack(tile_status::inclusive, 0) == (TestType(2) << (sizeof(TestType) * 8 - 2)));
  CHECK(packing::pack(tile_status::aggregate, 0) == (TestType(1) << (sizeof(TestType) * 8 - 2)));
}

TEST_CASE("tile_word value limits are 2^30-1 and 2^62-1", "[lookback]")
{
  CHECK(sweep::detail::tile_word<std::uint32_t>::value_limit == (std::uint32_t(1) << 30) - 1);
  CHECK(sweep::detail::tile_word<unsigned long long>::value_limit == (1ull << 62) - 1);
}

TEST_CASE("tile_state sizes its array per tile and slot", "[lookback]")
{
  CHECK(sweep::detail::tile_state<std::uint32_t>::bytes(10, 256) == 10 * 256 * 4);
  CHECK(sweep::detail::tile_state<unsigned long long>::bytes(3, 1) == 24);
}

TEST_CASE("temp_layout aligns every part to 256 bytes", "[temp]")
{
  sweep::detail::temp_layout<4> layout{1, 256, 0, 300};
  CHECK(layout.parts == 4);
  CHECK(layout.offsets[0] == 0);
  CHECK(layout.offsets[1] == 256);
  CHECK(layout.offsets[2] == 512);
  CHECK(layout.offsets[3] == 512);
  CHECK(layout.total == 1024);
  for (int i = 0; i < layout.parts; ++i)
  {
    CHECK(layout.offsets[i] % 256 == 0);
  }
}

TEST_CASE("integer helpers", "[math]")
{
  using namespace sweep::detail;
  CHECK(ceil_div<std::size_t>(0, 4) == 0);
  CHECK(ceil_div<std::size_t>(1, 4) == 1);
  CHECK(ceil_div<std::size_t>(8, 4) == 2);
  CHECK(ceil_div<std::size_t>((std::size_t(1) << 33) + 1, 4096) == (std::size_t(1) << 21) + 1);
  CHECK(align_up(0, 256) == 0);
  CHECK(align_up(257, 256) == 512);
}
