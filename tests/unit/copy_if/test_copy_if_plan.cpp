// Host-only checks of copy_if's tile arithmetic: load paths per value type, tile sizes under each
// architecture's tuning and the fit of those tunings, the vector path's alignment head, tile counts
// past 2^31 items and the temporary-storage parts.
#include <sweep/detail/copy_if/plan.hpp>
#include <sweep/detail/copy_if/tuning.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace ci = sweep::detail::copy_if_impl;
using sweep::detail::copy_if_impl::make_tile_plan;
using sweep::detail::copy_if_impl::vector_head;

namespace
{
//! sm_90's tile (the H200's, measured).
template <class T>
using tile_shape = ci::tile_shape<T, ci::tuning_sm90>;
} // namespace

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
struct s128 // the largest type sweep's kernel takes
{
  double d[16];
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
  STATIC_REQUIRE(ci::supported_type<s64>);
  STATIC_REQUIRE(ci::supported_type<s128>);
  STATIC_REQUIRE_FALSE(ci::supported_type<s256>);
  STATIC_REQUIRE(tile_shape<s24>::staging_bytes == 1024 * 24 + 16);
  // Over-aligned types go to Thrust too (the staging buffer is 16-byte aligned).
  struct alignas(32) over_aligned
  {
    float x;
  };
  STATIC_REQUIRE_FALSE(ci::supported_type<over_aligned>);
}

TEST_CASE("copy_if tunings: sm_90's on sm_90 and sm_100 (on sm_80 without bulk copies), sized-from-limits ones elsewhere",
          "[copy_if][arch]")
{
  STATIC_REQUIRE(std::is_same<ci::tuning_for<800>, ci::tuning_sm80>::value);
  STATIC_REQUIRE(std::is_base_of<ci::tuning_sm90, ci::tuning_sm80>::value);
  STATIC_REQUIRE(std::is_same<ci::tuning_for<900>, ci::tuning_sm90>::value);
  STATIC_REQUIRE(std::is_same<ci::tuning_for<1000>, ci::tuning_sm90>::value);
  STATIC_REQUIRE(std::is_same<ci::tuning_for<860>, ci::tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<ci::tuning_for<890>, ci::tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<ci::tuning_for<1200>, ci::tuning_sm86>::value);
  STATIC_REQUIRE(std::is_same<ci::tuning_for<750>, ci::tuning_sm75>::value);
  // The host compiler's pass parses the kernels with some valid struct.
  STATIC_REQUIRE(std::is_same<ci::tuning_for<0>, ci::tuning_sm90>::value);
  // Every struct fits the architectures it is chosen for: the vector path's blocks per SM (threads
  // and shared memory) and one row of the largest type in static shared memory.
  for (int arch : sweep::detail::tuning_archs)
  {
    const sweep::detail::arch_limits limits = sweep::detail::limits_of(arch);
    const bool fits = sweep::detail::with_tuning_arch(arch, [&](auto a) {
      using tuning = ci::tuning_for<decltype(a)::value>;
      CHECK(tuning::vector_block_threads * tuning::vector_blocks_per_sm <= limits.threads_per_sm);
      CHECK(tuning::vector_block_threads * tuning::vector_blocks_per_sm_2byte <= limits.threads_per_sm);
      CHECK(tuning::vector_block_threads * tuning::vector_blocks_per_sm_1byte <= limits.threads_per_sm);
      CHECK(tuning::vector_blocks_per_sm * sweep::detail::shared_footprint(limits, ci::vector_block_shared_bytes<tuning>())
            <= limits.shared_per_sm);
      return ci::fits<tuning>(limits);
    });
    CHECK(fits);
  }
  // sm_90's four blocks would not fit the smaller SMs: the reason for their structs.
  CHECK_FALSE(ci::fits<ci::tuning_sm90>(sweep::detail::limits_of(860)));
  CHECK_FALSE(ci::fits<ci::tuning_sm90>(sweep::detail::limits_of(750)));
  CHECK_FALSE(ci::fits<ci::tuning_sm86>(sweep::detail::limits_of(750)));
}

TEST_CASE("copy_if tiles per architecture: the same load paths, sm_75 stages half as much", "[copy_if][arch]")
{
  // sm_86's tiles are sm_90's: only the blocks per SM differ.
  STATIC_REQUIRE(ci::tile_shape<float, ci::tuning_sm86>::tile_items == tile_shape<float>::tile_items);
  STATIC_REQUIRE(ci::tile_shape<s24, ci::tuning_sm86>::tile_items == tile_shape<s24>::tile_items);
  // sm_75: 16 KiB tiles; the vector path keeps 512 threads with 2 rows.
  STATIC_REQUIRE(ci::tile_shape<float, ci::tuning_sm75>::block_threads == 512);
  STATIC_REQUIRE(ci::tile_shape<float, ci::tuning_sm75>::rows == 2);
  STATIC_REQUIRE(ci::tile_shape<float, ci::tuning_sm75>::tile_items == 4096);
  STATIC_REQUIRE(ci::tile_shape<std::uint8_t, ci::tuning_sm75>::tile_items == 512 * 32);
  STATIC_REQUIRE(ci::tile_shape<s24, ci::tuning_sm75>::rows == 2);
  // The largest supported type still stages one row (32 KiB) under the 16 KiB budget.
  STATIC_REQUIRE(ci::tile_shape<s128, ci::tuning_sm75>::rows == 1);
  STATIC_REQUIRE(ci::tile_shape<s128, ci::tuning_sm75>::staging_bytes == 256 * 128 + 16);
  // The load path does not depend on the tuning.
  STATIC_REQUIRE(ci::tile_shape<float, ci::tuning_sm75>::vectorizable);
  STATIC_REQUIRE_FALSE(ci::tile_shape<s12, ci::tuning_sm75>::vectorizable);

  // tile_dims_for: what the host launches for a kernel compiled for each architecture.
  CHECK(ci::tile_dims_for<float>(900).block_threads == 512);
  CHECK(ci::tile_dims_for<float>(900).tile_items == 8192);
  CHECK(ci::tile_dims_for<float>(1000).tile_items == 8192);
  CHECK(ci::tile_dims_for<float>(800).tile_items == 8192);
  CHECK(ci::tile_dims_for<float>(890).tile_items == 8192);
  CHECK(ci::tile_dims_for<float>(750).tile_items == 4096);
  CHECK(ci::tile_dims_for<s12>(750).block_threads == 256);
  CHECK(ci::tile_dims_for<s12>(870).tile_items == 1024);
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
  SECTION("a tile's look-back word takes word_stride words")
  {
    const auto plan = make_tile_plan(5 * 4096 + 1, 4096, 0, 16);
    CHECK(plan.tiles == 6);
    CHECK(plan.word_stride == 16);
    CHECK(plan.state_bytes == 6 * 16 * 8);
    CHECK(ci::tile_dims_for<float>(900).word_stride == ci::tuning_sm90::tile_word_stride);
  }
  SECTION("tile words are spread out only where there are more tiles than resident blocks")
  {
    const auto packed = make_tile_plan(5 * 4096 + 1, 4096, 0, 16, 6);
    CHECK(packed.tiles == 6);
    CHECK(packed.word_stride == 1);
    CHECK(packed.state_bytes == 6 * 8);
    const auto spread = make_tile_plan(5 * 4096 + 1, 4096, 0, 16, 5);
    CHECK(spread.word_stride == 16);
    CHECK(spread.state_bytes == 6 * 16 * 8);
  }
}

TEST_CASE("copy_if schedules: each type's, forced ones, and the bulk schedule's shared memory", "[copy_if][schedule]")
{
  using ci::schedule_choice;
  using ci::tile_schedule;
  using sm90 = ci::tuning_sm90;
  // sm_90, the tuning's choices on the vector load path (tuning.hpp says what was measured).
  STATIC_REQUIRE(ci::schedule_of<std::uint8_t, sm90, true, schedule_choice::tuned>() == tile_schedule::specialized);
  STATIC_REQUIRE(ci::schedule_of<std::uint16_t, sm90, true, schedule_choice::tuned>() == tile_schedule::bulk);
  STATIC_REQUIRE(ci::schedule_of<float, sm90, true, schedule_choice::tuned>() == tile_schedule::specialized);
  STATIC_REQUIRE(ci::schedule_of<std::uint32_t, sm90, true, schedule_choice::tuned>() == tile_schedule::specialized);
  STATIC_REQUIRE(ci::schedule_of<double, sm90, true, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<std::uint64_t, sm90, true, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<s16, sm90, true, schedule_choice::tuned>() == tile_schedule::bulk);
  // Off the vector load path: in order, and a forced bulk schedule falls back to it.
  STATIC_REQUIRE(ci::schedule_of<std::uint16_t, sm90, false, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<float, sm90, false, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<s12, sm90, false, schedule_choice::bulk>() == tile_schedule::in_order);
  // Forced schedules.
  STATIC_REQUIRE(ci::schedule_of<float, sm90, true, schedule_choice::bulk>() == tile_schedule::bulk);
  STATIC_REQUIRE(ci::schedule_of<std::uint16_t, sm90, true, schedule_choice::in_order>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<float, sm90, true, schedule_choice::pipelined>() == tile_schedule::pipelined);
  // Architectures without bulk copies never run it, forced or not; sm_80 keeps sm_90's other choices.
  STATIC_REQUIRE(ci::schedule_of<std::uint16_t, ci::tuning_sm80, true, schedule_choice::tuned>() == tile_schedule::pipelined);
  STATIC_REQUIRE(ci::schedule_of<s16, ci::tuning_sm80, true, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<float, ci::tuning_sm80, true, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<std::uint8_t, ci::tuning_sm80, true, schedule_choice::tuned>() == tile_schedule::pipelined);
  STATIC_REQUIRE(ci::schedule_of<std::uint8_t, ci::tuning_sm86, true, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<float, ci::tuning_sm75, true, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<float, ci::tuning_sm80, true, schedule_choice::bulk>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<std::uint16_t, ci::tuning_sm86, true, schedule_choice::tuned>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<std::uint16_t, ci::tuning_sm75, true, schedule_choice::bulk>() == tile_schedule::in_order);
  // Dynamic shared memory: bulk_slots - 1 slots of the staging size, then two u64 a slot.
  STATIC_REQUIRE(ci::bulk_dynamic_bytes<float, sm90>() == (sm90::bulk_slots - 1) * (32768 + 16) + sm90::bulk_slots * 16);
  CHECK(ci::tile_dims_for<std::uint16_t, true>(900).bulk_shared == ci::bulk_dynamic_bytes<std::uint16_t, sm90>());
  CHECK(ci::tile_dims_for<std::uint16_t, true>(1000).bulk_shared == ci::bulk_dynamic_bytes<std::uint16_t, sm90>());
  CHECK(ci::tile_dims_for<std::uint16_t, true>(800).bulk_shared == 0);
  CHECK(ci::tile_dims_for<std::uint16_t, false>(900).bulk_shared == 0);
  CHECK(ci::tile_dims_for<double, true>(900).bulk_shared == 0);
  CHECK(ci::tile_dims_for<float, true>(900).bulk_shared == ci::specialized_dynamic_bytes<float, sm90>());
  CHECK(ci::tile_dims_for<float, true>(900).extra_threads == sweep::detail::pipeline_extra_threads);
  CHECK(ci::tile_dims_for<float, true>(800).extra_threads == 0);
  CHECK(ci::tile_dims_for<float, true, schedule_choice::bulk>(900).bulk_shared == ci::bulk_dynamic_bytes<float, sm90>());
  CHECK(ci::tile_dims_for<float, true, schedule_choice::bulk>(860).bulk_shared == 0);
  CHECK(ci::tile_dims_for<float, true, schedule_choice::bulk>(900).extra_threads == 0);
}

TEST_CASE("copy_if's specialised schedule: where it runs, its shared memory and its warps", "[copy_if][schedule]")
{
  using ci::schedule_choice;
  using ci::tile_schedule;
  using sm90 = ci::tuning_sm90;
  STATIC_REQUIRE(ci::schedule_of<float, sm90, true, schedule_choice::specialized>() == tile_schedule::specialized);
  STATIC_REQUIRE(ci::schedule_of<std::uint8_t, sm90, true, schedule_choice::specialized>() == tile_schedule::specialized);
  // Off the vector load path, and without bulk copies, it runs in order.
  STATIC_REQUIRE(ci::schedule_of<s12, sm90, false, schedule_choice::specialized>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<float, ci::tuning_sm80, true, schedule_choice::specialized>() == tile_schedule::in_order);
  STATIC_REQUIRE(ci::schedule_of<float, ci::tuning_sm75, true, schedule_choice::specialized>() == tile_schedule::in_order);
  // bulk_slots - 1 slots of the staging size, then the pipeline's words: six u64 a slot (four
  // barriers, two tile indices), a u32 count a slot (padded to 8 bytes for the u64 offsets after
  // them), a u64 offset a slot, and a second array of the scan's warp totals (16 warps).
  STATIC_REQUIRE(ci::specialized_dynamic_bytes<float, sm90>()
                 == (sm90::bulk_slots - 1) * (32768 + 16) + sm90::bulk_slots * 6 * 8 + 16 + sm90::bulk_slots * 8 + 16 * 8);
  STATIC_REQUIRE(sm90::bulk_slots == 3);
  STATIC_REQUIRE(ci::schedule_dynamic_bytes<float, sm90, true, schedule_choice::specialized>()
                 == ci::specialized_dynamic_bytes<float, sm90>());
  STATIC_REQUIRE(ci::schedule_dynamic_bytes<float, sm90, true, schedule_choice::in_order>() == 0);
  STATIC_REQUIRE(ci::schedule_dynamic_bytes<float, sm90, true, schedule_choice::pipelined>() == 0);
  STATIC_REQUIRE(ci::schedule_dynamic_bytes<float, sm90, false, schedule_choice::specialized>() == 0);
  // Two warps beside the tile's 512 threads: the producer and the look-back warp.
  STATIC_REQUIRE(ci::launch_threads<float, sm90, true, schedule_choice::specialized>() == 512 + 64);
  STATIC_REQUIRE(ci::launch_threads<float, sm90, true, schedule_choice::bulk>() == 512);
  STATIC_REQUIRE(ci::launch_threads<float, ci::tuning_sm80, true, schedule_choice::specialized>() == 512);
  const ci::tile_dims d = ci::tile_dims_for<float, true, schedule_choice::specialized>(900);
  CHECK(d.block_threads == 512);
  CHECK(d.extra_threads == 64);
  CHECK(d.bulk_shared == ci::specialized_dynamic_bytes<float, sm90>());
  const ci::tile_dims old_arch = ci::tile_dims_for<float, true, schedule_choice::specialized>(800);
  CHECK(old_arch.extra_threads == 0);
  CHECK(old_arch.bulk_shared == 0);
}

TEST_CASE("in-place partition: the sample's indices and choice, and the rotated form's moves", "[copy_if][partition]")
{
  // Samples evenly spaced from item 0, the last below n; no overflow at 2^40 items.
  STATIC_REQUIRE(ci::partition_sample_index(0, 1000) == 0);
  STATIC_REQUIRE(ci::partition_sample_index(4095, std::uint64_t(4096) * 7) == 4095 * 7);
  STATIC_REQUIRE(ci::partition_sample_index(4095, 5000) == 4998); // floor(4095 * 5000 / 4096)
  STATIC_REQUIRE(ci::partition_sample_index(4095, std::uint64_t(1) << 40) == (std::uint64_t(4095) << 28));
  // Rotated where fewer than a quarter of the samples are selected.
  STATIC_REQUIRE(ci::partition_rotates(0));
  STATIC_REQUIRE(ci::partition_rotates(1023));
  STATIC_REQUIRE(!ci::partition_rotates(1024));
  STATIC_REQUIRE(!ci::partition_rotates(4096));
  STATIC_REQUIRE(ci::partition_samples % ci::partition_sample_threads == 0);
  // S < R: the first S rejected items move to [R, n); S > R: all R move to [S, n); the two ranges
  // never overlap (moved <= moved_to) and the move fills [moved_to, n) exactly.
  for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(2), std::uint64_t(10), std::uint64_t(1) << 33})
  {
    for (std::uint64_t rejected : {std::uint64_t(0), std::uint64_t(1), n / 3, n / 2, n - 1, n})
    {
      if (rejected > n)
      {
        continue;
      }
      const ci::rotated_moves m = ci::plan_rotated_moves(n, rejected);
      INFO("n = " << n << ", rejected = " << rejected);
      CHECK(m.selected == n - rejected);
      CHECK(m.moved == std::min(m.selected, rejected));
      CHECK(m.moved_to == std::max(m.selected, rejected));
      CHECK(m.moved <= m.moved_to);
      CHECK(m.moved_to + m.moved == n);
    }
  }
}
