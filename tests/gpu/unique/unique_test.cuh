// Shared checks of the unique GPU tests: each runs one of unique_copy, unique (in place), unique_count,
// unique_by_key_copy, unique_by_key (in place) on a sweep policy and on thrust::device over the same
// input (the in-place forms on a copy, against Thrust's copying form on thrust::device: the same kept
// items, and half the reference kernels to compile) and requires the same returned ends or count,
// bitwise equal outputs and nothing written after the returned ends (in place: after the range).
#pragma once

#include <common/compaction_test.cuh>

#include <thrust/unique.h>

#include <cstdint>
#include <string>

namespace sweep_test
{

inline std::string unique_label(const std::string& what, run_shape shape, std::size_t n)
{
  return what + ", " + run_name(shape) + ", n=" + std::to_string(n);
}

//! unique_copy(policy, first, first + n, out, pred...) against thrust::device into poisoned outputs
//! of n + 4 items of OutT.
template <class OutT, class Policy, class It, class... Pred>
void check_unique_copy(Policy policy, It first, std::size_t n, const std::string& what, Pred... pred)
{
  thrust::device_vector<OutT> expected(n + 4), actual(n + 4);
  poison(expected);
  poison(actual);
  const auto last  = first + static_cast<std::ptrdiff_t>(n);
  const auto e_end = thrust::unique_copy(thrust::device, first, last, expected.begin(), pred...);
  const auto a_end = thrust::unique_copy(policy, first, last, actual.begin(), pred...);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO("unique_copy " << what << ", seed = " << test_seed());
  const std::size_t count = static_cast<std::size_t>(e_end - expected.begin());
  REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == count);
  require_bitwise_equal(expected, actual, count, "unique_copy " + what);
  require_poison_intact(actual, count, "unique_copy " + what);
}

//! unique(policy, ...) in place on a copy of [first, first + n) against thrust::unique_copy on
//! thrust::device of [first, first + n) (the same kept items; one reference kernel set for the copying
//! and in-place forms): the same end, the same kept items, and the guard after the range untouched.
template <class T, class Policy, class It, class... Pred>
void check_unique_in_place(Policy policy, It first, std::size_t n, const std::string& what, Pred... pred)
{
  thrust::device_vector<T> expected(n);
  auto actual      = guarded_copy<T>(first, n);
  const auto e_end = thrust::unique_copy(thrust::device, first, first + static_cast<std::ptrdiff_t>(n), expected.begin(), pred...);
  const auto a_end = thrust::unique(policy, actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(n), pred...);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO("unique " << what << ", seed = " << test_seed());
  const std::size_t count = static_cast<std::size_t>(e_end - expected.begin());
  REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == count);
  require_bitwise_equal(expected, actual, count, "unique (in place) " + what);
  require_poison_intact(actual, n, "unique (in place) " + what);
}

//! unique_count(policy, first, first + n, pred...) against thrust::device.
template <class Policy, class It, class... Pred>
void check_unique_count(Policy policy, It first, std::size_t n, const std::string& what, Pred... pred)
{
  const auto last     = first + static_cast<std::ptrdiff_t>(n);
  const auto expected = thrust::unique_count(thrust::device, first, last, pred...);
  const auto actual   = thrust::unique_count(policy, first, last, pred...);
  INFO("unique_count " << what << ", seed = " << test_seed());
  REQUIRE(actual == expected);
}

//! unique_copy, unique and unique_count of the first n items of `data`, on sweep::par.
template <class T, class... Pred>
void check_unique_forms(const thrust::device_vector<T>& data, std::size_t n, const std::string& what, Pred... pred)
{
  check_unique_copy<T>(sweep::par, data.begin(), n, what, pred...);
  check_unique_in_place<T>(sweep::par, data.begin(), n, what, pred...);
  check_unique_count(sweep::par, data.begin(), n, what, pred...);
}

//! unique_by_key_copy(policy, ...) of n keys and values against thrust::device, into poisoned outputs
//! of n + 4 keys and values: both ends, bitwise keys and values, nothing after either end.
template <class K, class V, class Policy, class KeyIt, class ValueIt, class... Pred>
void check_unique_by_key_copy(Policy policy, KeyIt keys, ValueIt values, std::size_t n, const std::string& what,
                              Pred... pred)
{
  thrust::device_vector<K> e_keys(n + 4), a_keys(n + 4);
  thrust::device_vector<V> e_values(n + 4), a_values(n + 4);
  poison(e_keys);
  poison(a_keys);
  poison(e_values);
  poison(a_values);
  const auto last = keys + static_cast<std::ptrdiff_t>(n);
  const auto e    = thrust::unique_by_key_copy(thrust::device, keys, last, values, e_keys.begin(), e_values.begin(), pred...);
  const auto a    = thrust::unique_by_key_copy(policy, keys, last, values, a_keys.begin(), a_values.begin(), pred...);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO("unique_by_key_copy " << what << ", seed = " << test_seed());
  const std::size_t count = static_cast<std::size_t>(e.first - e_keys.begin());
  REQUIRE(static_cast<std::size_t>(e.second - e_values.begin()) == count);
  REQUIRE(static_cast<std::size_t>(a.first - a_keys.begin()) == count);
  REQUIRE(static_cast<std::size_t>(a.second - a_values.begin()) == count);
  require_bitwise_equal(e_keys, a_keys, count, "unique_by_key_copy keys " + what);
  require_bitwise_equal(e_values, a_values, count, "unique_by_key_copy values " + what);
  require_poison_intact(a_keys, count, "unique_by_key_copy keys " + what);
  require_poison_intact(a_values, count, "unique_by_key_copy values " + what);
}

//! unique_by_key(policy, ...) in place on copies of n keys and values against
//! thrust::unique_by_key_copy on thrust::device of the same keys and values (the same kept pairs; one
//! reference kernel set for the copying and in-place forms): both ends, the kept keys and values, the
//! guards after both ranges.
template <class K, class V, class Policy, class KeyIt, class ValueIt, class... Pred>
void check_unique_by_key_in_place(Policy policy, KeyIt keys, ValueIt values, std::size_t n, const std::string& what,
                                  Pred... pred)
{
  thrust::device_vector<K> e_keys(n);
  thrust::device_vector<V> e_values(n);
  auto a_keys   = guarded_copy<K>(keys, n);
  auto a_values = guarded_copy<V>(values, n);
  const auto np = static_cast<std::ptrdiff_t>(n);
  const auto e  = thrust::unique_by_key_copy(thrust::device, keys, keys + np, values, e_keys.begin(), e_values.begin(), pred...);
  const auto a  = thrust::unique_by_key(policy, a_keys.begin(), a_keys.begin() + np, a_values.begin(), pred...);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO("unique_by_key " << what << ", seed = " << test_seed());
  const std::size_t count = static_cast<std::size_t>(e.first - e_keys.begin());
  REQUIRE(static_cast<std::size_t>(e.second - e_values.begin()) == count);
  REQUIRE(static_cast<std::size_t>(a.first - a_keys.begin()) == count);
  REQUIRE(static_cast<std::size_t>(a.second - a_values.begin()) == count);
  require_bitwise_equal(e_keys, a_keys, count, "unique_by_key keys " + what);
  require_bitwise_equal(e_values, a_values, count, "unique_by_key values " + what);
  require_poison_intact(a_keys, n, "unique_by_key keys (guard) " + what);
  require_poison_intact(a_values, n, "unique_by_key values (guard) " + what);
}

} // namespace sweep_test
