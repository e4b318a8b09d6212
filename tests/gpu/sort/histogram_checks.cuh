// Checks of the sort's upfront histogram edges, through whole sorts against thrust::device: keys
// that are not 16-byte aligned (its one-key-at-a-time path), and blocks that count in several
// chunks (each 16-bit column count is added to the global histogram and cleared before it could
// overflow), in both column counts. Used by test_sort_keys_misc.cu, with the
// key types and directions that file already sorts (each (key, direction) pair compiles its kernels
// once per file).
#pragma once

#include "sort_test_common.cuh"

#include <sweep/detail/sort/dispatch.cuh>

namespace sweep_test
{

//! Counts in 8 columns at every size while in scope (the form small inputs and devices short of
//! shared memory use).
struct narrow_histogram : hook_setting<bool>
{
  narrow_histogram()
      : hook_setting<bool>(sweep::detail::sort_impl::histogram_narrow_only(), true)
  {}
};

//! Sorts [offset, offset + n) of a random vector with both policies; the whole vector must match
//! (the keys around the range untouched).
template <class Key, class Compare>
void check_offset(std::size_t n, std::size_t offset, Compare comp, std::uint64_t seed)
{
  INFO("n = " << n << ", offset = " << offset << " keys, key bytes " << sizeof(Key));
  const auto input = random_vector<Key>(n + offset + 5, seed);
  thrust::device_vector<Key> expected = input;
  thrust::sort(thrust::device, expected.begin() + offset, expected.begin() + offset + n, comp);
  thrust::device_vector<Key> actual = input;
  thrust::sort(sweep::par, actual.begin() + offset, actual.begin() + offset + n, comp);
  require_bitwise_equal(expected, actual, input.size(), "offset sort");
}

//! Offsets of 1-3 keys at sizes past the one-block limit: the small pass shape (8 columns) once,
//! the large one (32 columns) twice.
template <class Key, class Compare>
void check_offsets(Compare comp, std::uint64_t seed)
{
  for (std::size_t n : {std::size_t(5000), small_shape_max + 1, (std::size_t(1) << 20) + 3})
  {
    for (std::size_t offset : {std::size_t(1), std::size_t(2), std::size_t(3)})
    {
      check_offset<Key>(n, offset, comp, seed + n + offset);
    }
  }
}

//! One value, three values and random keys with the histogram held to `blocks` blocks.
template <class Key, class Compare>
void check_chunks(std::size_t n, unsigned blocks, Compare comp, std::uint64_t seed)
{
  // The upfront histogram's grid held to `blocks` blocks.
  const hook_setting<unsigned> held(sweep::detail::sort_impl::histogram_grid_limit(), blocks);
  INFO("n = " << n << ", histogram blocks " << blocks << ", key bytes " << sizeof(Key)
              << (sweep::detail::sort_impl::histogram_narrow_only() ? ", 8 columns" : ", 32 columns"));
  check_keys(few_valued_vector<Key>(n, 1, seed), comp, "one value");
  check_keys(few_valued_vector<Key>(n, 3, seed + 1), comp, "three values");
  check_keys(random_vector<Key>(n, seed + 2), comp, "random");
}

} // namespace sweep_test
