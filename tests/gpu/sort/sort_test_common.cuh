// Shared checks of the sort tests: run stock Thrust (thrust::device) and sweep::par on the same
// input and require bitwise-identical keys (and values).
#pragma once

#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/sort/tuning.hpp>
#include <sweep/sort.cuh>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

#include <cuda/version>

#include <common/test_utils.cuh>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace sweep_test
{

//! Whether stock Thrust sorts more than 2^31 - 1 keys: before CCCL 2.7 it hands CUB the count as an
//! int and sorts the wrong count, so the tests past 2^31 have no reference there (sweep's 64-bit
//! path is tested on 2.7 and later).
inline constexpr bool stock_sorts_past_int_max = CCCL_VERSION >= 2007000;

//! Holds one of the sort's test hooks (an atomic of sort/dispatch.cuh: pass_skipping_enabled,
//! persistent_grid_limit, histogram_grid_limit, state_upfront_limit, histogram_narrow_only) at
//! `value` while in scope, and puts back the value it had, also when an assertion throws.
template <class T>
class hook_setting
{
public:
  hook_setting(std::atomic<T>& hook, T value)
      : hook_(hook)
      , before_(hook.load())
  {
    hook_.store(value);
  }
  ~hook_setting() { hook_.store(before_); }
  hook_setting(const hook_setting&)            = delete;
  hook_setting& operator=(const hook_setting&) = delete;

private:
  std::atomic<T>& hook_;
  T before_;
};

//! One pass tile for keys of KeyBytes and values of ValueBytes (0: keys only) that the pass kernels
//! of this binary use on the current device; Small: the small inputs' shape.
template <std::size_t KeyBytes, std::size_t ValueBytes, bool Small>
std::size_t pass_tile_items()
{
  const sweep::detail::sort_impl::pass_tile tile =
    sweep::detail::sort_impl::pass_tile_for<KeyBytes, ValueBytes, Small>(tuned_arch());
  return static_cast<std::size_t>(tile.threads) * static_cast<std::size_t>(tile.items);
}

//! One tile of the onesweep pass for 4-byte keys only (the shape inputs past
//! small_shape_max_keys use); edge sizes are built around it.
inline std::size_t tile_items()
{
  return pass_tile_items<4, 0, false>();
}
//! One tile of the small inputs' pass shape (4-byte keys only).
inline std::size_t small_tile_items()
{
  return pass_tile_items<4, 0, true>();
}
constexpr std::size_t small_shape_max = sweep::detail::sort_impl::small_shape_max_keys;

//! Sizes for key-type sweeps: the edge sizes, a few around the single-block limit, the small
//! shape's tile edges, and both sides of the switch between the two tile shapes.
inline std::vector<std::size_t> sizes()
{
  std::vector<std::size_t> s   = sweep_test::edge_sizes(tile_items());
  const std::size_t small_tile = small_tile_items();
  for (std::size_t extra : {std::size_t(2047), std::size_t(2048), std::size_t(2049), std::size_t(4095),
                            std::size_t(4096), std::size_t(4097), 3 * small_tile - 1, 3 * small_tile,
                            3 * small_tile + 1, small_shape_max, small_shape_max + 1})
  {
    s.push_back(extra);
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
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

} // namespace sweep_test
