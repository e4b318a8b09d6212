// Shared checks of the sort tests: run stock Thrust (thrust::device) and sweep::par on the same
// input and require bitwise-identical keys (and values).
#pragma once

#include <sweep/detail/radix/tuning.cuh>
#include <sweep/sort.cuh>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

#include <common/test_utils.cuh>

#include <cstdint>
#include <string>
#include <vector>

namespace sweep_sort_test
{

//! One tile of the onesweep pass for 4-byte keys only; edge sizes are built around it.
constexpr std::size_t tile_items = sweep::detail::radix::onesweep_tuning<4, 0>::tile_items;

//! Sizes for key-type sweeps: the edge sizes plus a few around the single-block limit.
inline std::vector<std::size_t> sizes()
{
  std::vector<std::size_t> s = sweep_test::edge_sizes(tile_items);
  for (std::size_t extra : {2047, 2048, 2049, 4095, 4096, 4097})
  {
    s.push_back(extra);
  }
  return s;
}

template <class Key, class Compare>
void check_keys(const thrust::device_vector<Key>& input, Compare comp, const std::string& what)
{
  thrust::device_vector<Key> expected = input;
  thrust::sort(thrust::device, expected.begin(), expected.end(), comp);
  thrust::device_vector<Key> actual = input;
  thrust::sort(sweep::par, actual.begin(), actual.end(), comp);
  sweep_test::require_bitwise_equal(expected, actual, input.size(), what);
}

template <class Key, class Value, class Compare>
void check_pairs(const thrust::device_vector<Key>& keys,
                 const thrust::device_vector<Value>& values,
                 Compare comp,
                 const std::string& what)
{
  thrust::device_vector<Key> expected_keys     = keys;
  thrust::device_vector<Value> expected_values = values;
  thrust::sort_by_key(thrust::device, expected_keys.begin(), expected_keys.end(), expected_values.begin(), comp);
  thrust::device_vector<Key> actual_keys     = keys;
  thrust::device_vector<Value> actual_values = values;
  thrust::sort_by_key(sweep::par, actual_keys.begin(), actual_keys.end(), actual_values.begin(), comp);
  sweep_test::require_bitwise_equal(expected_keys, actual_keys, keys.size(), what + " (keys)");
  sweep_test::require_bitwise_equal(expected_values, actual_values, keys.size(), what + " (values)");
}

//! Keys with few distinct values (many ties: stability is visible), from random bits.
template <class Key>
struct few_values
{
  int distinct;
  std::uint64_t seed;
  __host__ __device__ Key operator()(std::uint64_t i) const
  {
    const std::uint64_t r = sweep_test::mix64(i ^ sweep_test::mix64(seed));
    return sweep_test::from_bits<Key>{}(sweep_test::mix64(r % static_cast<std::uint64_t>(distinct)));
  }
};

template <class Key>
thrust::device_vector<Key> few_valued_vector(std::size_t n, int distinct, std::uint64_t seed)
{
  return sweep_test::generated_vector<Key>(n, few_values<Key>{distinct, seed});
}

} // namespace sweep_sort_test
