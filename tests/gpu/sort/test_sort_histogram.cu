// The upfront histogram's edges, through whole sorts against thrust::device: keys that are not
// 16-byte aligned (its one-key-at-a-time path), and blocks that count in several chunks (each 16-bit
// column count is added to the global histogram and cleared before it could overflow), with keys
// of one value, where every count of a pass lands in one column word.
#include "sort_test_common.cuh"

#include <sweep/detail/sort/dispatch.cuh>

namespace
{

//! Holds the upfront histogram's grid to `blocks` blocks while in scope.
struct histogram_grid
{
  explicit histogram_grid(unsigned blocks) { sweep::detail::sort_impl::histogram_grid_limit() = blocks; }
  ~histogram_grid() { sweep::detail::sort_impl::histogram_grid_limit() = 0; }
  histogram_grid(const histogram_grid&)            = delete;
  histogram_grid& operator=(const histogram_grid&) = delete;
};

//! Sorts [offset, offset + n) of a random vector with both policies; the whole vector must match
//! (the keys around the range untouched).
template <class Key>
void check_offset(std::size_t n, std::size_t offset, std::uint64_t seed)
{
  INFO("n = " << n << ", offset = " << offset << " keys, key bytes " << sizeof(Key));
  const auto input = sweep_test::random_vector<Key>(n + offset + 5, seed);
  thrust::device_vector<Key> expected = input;
  thrust::sort(thrust::device, expected.begin() + offset, expected.begin() + offset + n);
  thrust::device_vector<Key> actual = input;
  thrust::sort(sweep::par, actual.begin() + offset, actual.begin() + offset + n);
  sweep_test::require_bitwise_equal(expected, actual, input.size(), "offset sort");
}

template <class Key>
void check_offsets(std::uint64_t seed)
{
  for (std::size_t n : {std::size_t(5000), sweep_test::small_shape_max + 1, (std::size_t(1) << 20) + 3})
  {
    for (std::size_t offset : {std::size_t(1), std::size_t(2), std::size_t(3)})
    {
      check_offset<Key>(n, offset, seed + n + offset);
    }
  }
}

//! Counts in 8 columns at every size while in scope.
struct narrow_histogram
{
  narrow_histogram() { sweep::detail::sort_impl::histogram_narrow_only() = true; }
  ~narrow_histogram() { sweep::detail::sort_impl::histogram_narrow_only() = false; }
  narrow_histogram(const narrow_histogram&)            = delete;
  narrow_histogram& operator=(const narrow_histogram&) = delete;
};

//! One value, or random keys, with the histogram held to `blocks` blocks: n / blocks keys a block.
template <class Key>
void check_chunks(std::size_t n, unsigned blocks, std::uint64_t seed)
{
  const histogram_grid held(blocks);
  INFO("n = " << n << ", histogram blocks " << blocks << ", key bytes " << sizeof(Key)
              << (sweep::detail::sort_impl::histogram_narrow_only() ? ", 8 columns" : ""));
  sweep_test::check_keys(sweep_test::few_valued_vector<Key>(n, 1, seed), thrust::less<Key>(), "one value");
  sweep_test::check_keys(sweep_test::few_valued_vector<Key>(n, 3, seed + 1), thrust::greater<Key>(), "three values");
  sweep_test::check_keys(sweep_test::random_vector<Key>(n, seed + 2), thrust::less<Key>(), "random");
}

} // namespace

TEST_CASE("upfront histogram: keys not 16-byte aligned", "[sort][histogram]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  check_offsets<std::uint8_t>(seed);
  check_offsets<std::uint16_t>(seed);
  check_offsets<std::uint32_t>(seed);
  check_offsets<float>(seed);
  check_offsets<std::uint64_t>(seed);
  check_offsets<double>(seed);
}

TEST_CASE("upfront histogram: blocks that count in several chunks", "[sort][histogram]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  // One block of 1024 threads, 32 columns: a chunk is 510 rounds of 16-byte vectors of 4-byte keys
  // (2^23 keys: five chunks), 126 of 1-byte keys (2^22: three), 1022 of 8-byte keys (2^22: three);
  // two blocks, 254 rounds of 2-byte keys (2^23: three); one key a round from a misaligned start,
  // 2046 rounds (2^21 + 5: two).
  check_chunks<std::uint32_t>(std::size_t(1) << 23, 1, seed);
  check_chunks<std::uint8_t>(std::size_t(1) << 22, 1, seed);
  check_chunks<std::uint16_t>(std::size_t(1) << 23, 2, seed);
  check_chunks<std::uint64_t>((std::size_t(1) << 22) + 17, 1, seed);
  {
    const histogram_grid held(1);
    check_offset<std::uint32_t>((std::size_t(1) << 21) + 5, 1, seed);
  }
  // 8 columns (small inputs' and small-shared-memory devices' form): 254 rounds of 8-byte keys
  // (2^22 + 17: nine chunks), 30 of 1-byte keys (2^22: nine).
  const narrow_histogram narrow;
  check_chunks<std::uint64_t>((std::size_t(1) << 22) + 17, 1, seed + 3);
  check_chunks<std::uint8_t>(std::size_t(1) << 22, 1, seed + 4);
  check_chunks<float>((std::size_t(1) << 20) + 1, 4, seed + 5);
}

TEST_CASE("upfront histogram, small enough for compute-sanitizer: both column counts, a misaligned start, "
          "chunks",
          "[sort][histogram][san]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  check_offset<std::uint32_t>(5000, 1, seed);                   // 8 columns, one key a round
  check_offset<std::uint64_t>(sweep_test::small_shape_max + 1, 2, seed); // 32 columns
  const narrow_histogram narrow;
  const histogram_grid held(1);
  // 8 columns, one block: 30 rounds of 16 one-byte keys a chunk, so 2^20 + 3 keys take three.
  sweep_test::check_keys(sweep_test::random_vector<std::uint8_t>((std::size_t(1) << 20) + 3, seed),
                         thrust::less<std::uint8_t>(), "one block, 8 columns");
}
