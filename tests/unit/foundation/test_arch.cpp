// Host-only checks of util/arch.hpp: which architecture's tuning each compute capability runs, the
// documented limits, the fit arithmetic every tuning struct is checked with, and the run-time bridge
// to the tuning struct types. Built by a host compiler: arch.hpp needs no CUDA.
#include <sweep/detail/util/arch.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

namespace sd = sweep::detail;

TEST_CASE("tuning_arch maps every listed architecture to itself", "[arch]")
{
  for (int arch : sd::tuning_archs)
  {
    CHECK(sd::tuning_arch(arch) == arch);
  }
  STATIC_REQUIRE(sd::tuning_arch(750) == 750);
  STATIC_REQUIRE(sd::tuning_arch(800) == 800);
  STATIC_REQUIRE(sd::tuning_arch(860) == 860);
  STATIC_REQUIRE(sd::tuning_arch(890) == 890);
  STATIC_REQUIRE(sd::tuning_arch(900) == 900);
  STATIC_REQUIRE(sd::tuning_arch(1000) == 1000);
  STATIC_REQUIRE(sd::tuning_arch(1200) == 1200);
}

TEST_CASE("tuning_arch maps an architecture between two listed ones to the older", "[arch]")
{
  CHECK(sd::tuning_arch(870) == 860);  // Orin
  CHECK(sd::tuning_arch(880) == 860);
  CHECK(sd::tuning_arch(1010) == 1000); // Thor under CUDA 12
  CHECK(sd::tuning_arch(1030) == 1000); // B300
  CHECK(sd::tuning_arch(1100) == 1000); // Thor under CUDA 13
  CHECK(sd::tuning_arch(1210) == 1200); // GB10
  CHECK(sd::tuning_arch(1300) == 1200); // newer than any listed: the newest
  // Below 7.5, which sweep claims nothing for: sm_75's tuning, the smallest limits listed.
  CHECK(sd::tuning_arch(700) == 750);
  CHECK(sd::tuning_arch(720) == 750);
  CHECK(sd::tuning_arch(0) == 750);
}

TEST_CASE("architecture limits as documented", "[arch]")
{
  constexpr std::size_t kib = 1024;
  CHECK(sd::limits_of(750).threads_per_sm == 1024);
  CHECK(sd::limits_of(750).shared_per_sm == 64 * kib);
  CHECK(sd::limits_of(750).reserved_shared_per_block == 0);
  CHECK(sd::limits_of(800).threads_per_sm == 2048);
  CHECK(sd::limits_of(800).shared_per_sm == 164 * kib);
  for (int arch : {860, 890, 1200})
  {
    CHECK(sd::limits_of(arch).threads_per_sm == 1536);
    CHECK(sd::limits_of(arch).shared_per_sm == 100 * kib);
    CHECK(sd::limits_of(arch).shared_per_block == 99 * kib);
  }
  for (int arch : {900, 1000})
  {
    CHECK(sd::limits_of(arch).threads_per_sm == 2048);
    CHECK(sd::limits_of(arch).shared_per_sm == 228 * kib);
    CHECK(sd::limits_of(arch).shared_per_block == 227 * kib);
  }
  for (int arch : sd::tuning_archs)
  {
    const sd::arch_limits l = sd::limits_of(arch);
    CHECK(l.registers_per_sm == 65536);
    CHECK(l.shared_per_block <= l.shared_per_sm);
    CHECK(l.reserved_shared_per_block == (arch >= 800 ? kib : 0));
    CHECK(l.threads_per_sm % 32 == 0);
  }
}

TEST_CASE("blocks_fit counts threads, blocks and shared memory with the reserve and granularity", "[arch]")
{
  const sd::arch_limits sm90 = sd::limits_of(900);
  CHECK(sd::shared_footprint(sm90, 0) == 1024);
  CHECK(sd::shared_footprint(sm90, 1) == 1024 + 128);
  CHECK(sd::shared_footprint(sm90, 32 * 1024) == 33 * 1024);
  CHECK(sd::blocks_fit(sm90, 512, 4, 32 * 1024));
  CHECK_FALSE(sd::blocks_fit(sm90, 512, 5, 0));      // 2560 threads
  CHECK_FALSE(sd::blocks_fit(sm90, 32, 33, 0));      // 33 blocks
  CHECK_FALSE(sd::blocks_fit(sm90, 256, 1, 228 * 1024)); // beyond a block's shared memory
  // Six blocks of 38 KiB take 6 x 39 KiB = 234 KiB of 228.
  CHECK(sd::blocks_fit(sm90, 256, 5, 38 * 1024));
  CHECK_FALSE(sd::blocks_fit(sm90, 256, 6, 38 * 1024));
  const sd::arch_limits sm75 = sd::limits_of(750);
  CHECK(sd::shared_footprint(sm75, 1) == 256); // no reserve, 256-byte granules
  CHECK(sd::blocks_fit(sm75, 512, 2, 32 * 1024));
  CHECK_FALSE(sd::blocks_fit(sm75, 512, 2, 32 * 1024 + 1));
  CHECK_FALSE(sd::blocks_fit(sm75, 512, 3, 0));
}

TEST_CASE("with_tuning_arch reaches the listed architecture as a compile-time constant", "[arch]")
{
  const auto value = [](auto a) {
    static_assert(std::is_same<decltype(a), std::integral_constant<int, decltype(a)::value>>::value, "a constant");
    return decltype(a)::value;
  };
  for (int arch : sd::tuning_archs)
  {
    CHECK(sd::with_tuning_arch(arch, value) == arch);
  }
  CHECK(sd::with_tuning_arch(870, value) == 860);
  CHECK(sd::with_tuning_arch(1010, value) == 1000);
  CHECK(sd::with_tuning_arch(1210, value) == 1200);
}

TEST_CASE("host code sees arch 0: device code alone picks a tuning by __CUDA_ARCH__", "[arch]")
{
  STATIC_REQUIRE(sd::compiled_arch == 0);
}
