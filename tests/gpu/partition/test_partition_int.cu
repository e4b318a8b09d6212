// The partition forms of 1-, 2-, 4- and 8-byte integers.
#include "partition_test.cuh"

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// stable_partition_copy, stable_partition, partition_copy and partition (in place) of 1- and 2-byte
// integers, signed and unsigned, without a stencil, on sweep::par against thrust::device: 0, 5, 50, 95
// and 100% selected, at the edge sizes of the copy_if tile (stable forms bitwise; the others the same
// items on each side, each side as the predicate says); small inputs; more than 300 tiles ([slow]).

namespace
{

template <class T>
void partition_of(const char* name, const std::vector<std::size_t>& sizes)
{
  check_partition_shares(random_vector<T>(sizes.back(), test_seed() + 20), sizes, name);
}

} // namespace

TEST_CASE("partition of 1-byte integers matches thrust at every selected share", "[partition][int]")
{
  partition_of<std::uint8_t>("uint8", compaction_sizes<std::uint8_t>());
  partition_of<std::int8_t>("int8", compaction_sizes<std::int8_t>());
}

TEST_CASE("partition of 2-byte integers matches thrust at every selected share", "[partition][int]")
{
  partition_of<std::int16_t>("int16", compaction_sizes<std::int16_t>());
  partition_of<std::uint16_t>("uint16", compaction_sizes<std::uint16_t>());
}

TEST_CASE("partition of small inputs (0 to 33 items) matches thrust", "[partition][int][small]")
{
  partition_of<std::uint8_t>("uint8", {0, 1, 2, 31, 32, 33});
  partition_of<std::int16_t>("int16", {0, 1, 2, 31, 32, 33});
}

TEST_CASE("partition of 1-byte items over more than 300 tiles matches thrust", "[partition][int][many_tiles][slow]")
{
  partition_of<std::uint8_t>("uint8", {many_tiles<std::uint8_t>()});
}

// --------------------------------------------------------------------------------------------------
// stable_partition_copy, stable_partition, partition_copy and partition (in place) of 4- and 8-byte
// integers, signed and unsigned, without a stencil, on sweep::par against thrust::device: 0, 5, 50, 95
// and 100% selected, at the edge sizes of the copy_if tile (stable forms bitwise; the others the same
// items on each side, each side as the predicate says); small inputs; more than 300 tiles ([slow]).

TEST_CASE("partition of 4-byte integers matches thrust at every selected share", "[partition][int]")
{
  partition_of<std::int32_t>("int32", compaction_sizes<std::int32_t>());
  partition_of<std::uint32_t>("uint32", compaction_sizes<std::uint32_t>());
}

TEST_CASE("partition of 8-byte integers matches thrust at every selected share", "[partition][int]")
{
  partition_of<std::uint64_t>("uint64", compaction_sizes<std::uint64_t>());
  partition_of<std::int64_t>("int64", compaction_sizes<std::int64_t>());
}

TEST_CASE("partition of small 4- and 8-byte inputs (0 to 33 items) matches thrust", "[partition][int][small]")
{
  partition_of<std::int32_t>("int32", {0, 1, 2, 31, 32, 33});
  partition_of<std::uint64_t>("uint64", {0, 1, 2, 31, 32, 33});
}

TEST_CASE("partition of 4-byte items over more than 300 tiles matches thrust", "[partition][int][many_tiles][slow]")
{
  partition_of<std::int32_t>("int32", {many_tiles<std::int32_t>()});
}
