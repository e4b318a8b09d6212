// Host-only checks of copy_if's tile arithmetic: load paths per value type, tile sizes, the vector
// path's alignment head, tile counts past 2^31 items and the temporary-storage parts.
#include <sweep/detail/copy_if/plan.hpp>

#include <catch2/catch.hpp>

#include <cstdint>

using sweep::detail::copy_if_impl::make_tile_plan;
using sweep::detail::copy_if_impl::tile_shape;
using sweep::detail::copy_if_impl::vector_head;

namespace
{
struct s12
{
  std::int32_t a, b, c;
};
struct s24
{
  double a, b, c;
};
struct alignas(16) s16
{
  std::uint32_t w[4];
};
struct s64
{
  double d[8];
};
struct s256
{
  double d[32];
};
struct unaligned8
{
  char c[8]; // alignof 1: a T* may sit anywhere, so no chunk loads
};
} // namespace

TEST_CASE("tile_shape picks the vector path only for size-aligned power-of-two types", "[copy_if]")
{
  STATIC_REQUIRE(tile_shape<std::uint8_t>::vectorizable);
  STATIC_REQUIRE(tile_shape<std::int16_t>::vectorizable);
  STATIC_REQUIRE(tile_shape<float>::vectorizable);
  STATIC_REQUIRE(tile_shape<double>::vectorizable);
  STATIC_REQUIRE(tile_shape<s16>::vectorizable);
  STATIC_REQUIRE_FALSE(tile_shape<s12>::vectorizable);
  STATIC_REQUIRE_FALSE(tile_shape<s24>::vectorizable);
  STATIC_REQUIRE_FALSE(tile_shape<unaligned8>::vectorizable);
}

TEST_CASE("tile_shape tile sizes: 64 bytes per thread, 512 threads for vector types, 256 otherwise", "[copy_if]")
{
  STATIC_REQUIRE(tile_shape<std::uint8_t>::vec == 16);
  STATIC_REQUIRE(tile_shape<std::uint8_t>::block_threads == 512);
  STATIC_REQUIRE(tile_shape<std::uint8_t>::tile_items == 512 * 64);
  STATIC_REQUIRE(tile_shape<float>::vec == 4);
  STATIC_REQUIRE(tile_shape<float>::tile_items == 8192);
  STATIC_REQUIRE(tile_shape<double>::tile_items == 4096);
  STATIC_REQUIRE(tile_shape<s16>::tile_items == 2048);
  STATIC_REQUIRE(tile_shape<s16>::staging_bytes == 32768 + 16);
  // Types without the vector path keep 256 threads.
  STATIC_REQUIRE(tile_shape<s12>::vec == 1);
  STATIC_REQUIRE(tile_shape<s12>::block_threads == 256);
  STATIC_REQUIRE(tile_shape<s12>::tile_items == 1024);
  STATIC_REQUIRE(tile_shape<unaligned8>::block_threads == 256);
  STATIC_REQUIRE(tile_shape<s24>::rows == 4);
  // Every row count fits its 16-bit field of the packed scan.
  STATIC_REQUIRE(tile_shape<std::uint8_t>::block_threads * tile_shape<std::uint8_t>::vec < 65536);
  // Staging stays within the budget: large types take fewer rows, huge ones go to Thrust.
  STATIC_REQUIRE(tile_shape<s64>::rows == 2);
  STATIC_REQUIRE(tile_shape<s64>::supported);
  STATIC_REQUIRE_FALSE(tile_shape<s256>::supported);
  STATIC_REQUIRE(tile_shape<s24>::staging_bytes == 1024 * 24 + 16);
  // Over-aligned types go to Thrust too (the staging buffer is 16-byte aligned).
  struct alignas(32) over_aligned
  {
    float x;
  };
  STATIC_REQUIRE_FALSE(tile_shape<over_aligned>::supported);
}

TEST_CASE("vector_head aligns the first chunk down to 16 bytes", "[copy_if]")
{
  CHECK(vector_head(0x1000, 4, 16) == 0);
  CHECK(vector_head(0x1004, 4, 16) == 1);
  CHECK(vector_head(0x100c, 4, 16) == 3);
  CHECK(vector_head(0x100f, 1, 16) == 15);
  CHECK(vector_head(0x1008, 8, 16) == 1);
  CHECK(vector_head(0x1006, 2, 16) == 3);
}

TEST_CASE("make_tile_plan counts tiles over head + n items", "[copy_if]")
{
  SECTION("n == 0 needs nothing")
  {
    const auto plan = make_tile_plan(0, 4096, 3);
    CHECK(plan.tiles == 0);
    CHECK(plan.head == 0);
    CHECK(plan.state_bytes == 0);
  }
  SECTION("exact and ragged tiles")
  {
    CHECK(make_tile_plan(1, 4096, 0).tiles == 1);
    CHECK(make_tile_plan(4095, 4096, 0).tiles == 1);
    CHECK(make_tile_plan(4096, 4096, 0).tiles == 1);
    CHECK(make_tile_plan(4097, 4096, 0).tiles == 2);
    // A head pushes the last item into another tile.
    CHECK(make_tile_plan(4096, 4096, 1).tiles == 2);
    CHECK(make_tile_plan(4093, 4096, 3).tiles == 1);
    CHECK(make_tile_plan(4094, 4096, 3).tiles == 2);
  }
  SECTION("past 2^31 and 2^32 items: 64-bit counts, one u64 word per tile")
  {
    const std::uint64_t n = (std::uint64_t(1) << 32) + 5;
    const auto plan       = make_tile_plan(n, 16384, 7);
    CHECK(plan.virtual_items == n + 7);
    CHECK(plan.tiles == (n + 7 + 16383) / 16384);
    CHECK(plan.state_bytes == plan.tiles * 8);
    CHECK(plan.header_bytes == 16);
    CHECK(plan.tiles <= sweep::detail::copy_if_impl::max_tiles);
  }
}
