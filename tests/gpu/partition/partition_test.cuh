// Shared checks of the partition GPU tests. Each runs one of stable_partition_copy, stable_partition
// (in place), partition_copy, partition (in place), with or without a stencil, on a sweep policy and
// on thrust::device over the same input (in-place forms: each on its own copy) and requires the same
// returned ends. The stable forms must give bitwise the same outputs; the others (whose order Thrust
// does not promise) the same items on each side in any order, every item of the first side
// satisfying the predicate and none of the second (where the predicate applies to the items: without
// a stencil). Nothing may be written after either returned end (in place: after the range).
#pragma once

#include <common/compaction_test.cuh>

#include <thrust/logical.h>
#include <thrust/partition.h>

#include <cstdint>
#include <string>

namespace sweep_test
{

//! The stencil argument of the forms without one.
struct no_stencil
{};

inline std::string partition_label(const std::string& what, std::size_t n, unsigned pct)
{
  return what + ", n=" + std::to_string(n) + ", " + std::to_string(pct) + "% selected";
}

// Each Thrust call, with the stencil argument or without (no_stencil).
template <class Policy, class It, class TrueIt, class FalseIt, class Pred>
auto stable_partition_copy_form(Policy policy, It first, It last, no_stencil, TrueIt t, FalseIt f, Pred pred)
{
  return thrust::stable_partition_copy(policy, first, last, t, f, pred);
}
template <class Policy, class It, class StencilIt, class TrueIt, class FalseIt, class Pred>
auto stable_partition_copy_form(Policy policy, It first, It last, StencilIt stencil, TrueIt t, FalseIt f, Pred pred)
{
  return thrust::stable_partition_copy(policy, first, last, stencil, t, f, pred);
}
template <class Policy, class It, class TrueIt, class FalseIt, class Pred>
auto partition_copy_form(Policy policy, It first, It last, no_stencil, TrueIt t, FalseIt f, Pred pred)
{
  return thrust::partition_copy(policy, first, last, t, f, pred);
}
template <class Policy, class It, class StencilIt, class TrueIt, class FalseIt, class Pred>
auto partition_copy_form(Policy policy, It first, It last, StencilIt stencil, TrueIt t, FalseIt f, Pred pred)
{
  return thrust::partition_copy(policy, first, last, stencil, t, f, pred);
}
template <class Policy, class It, class Pred>
It stable_partition_form(Policy policy, It first, It last, no_stencil, Pred pred)
{
  return thrust::stable_partition(policy, first, last, pred);
}
template <class Policy, class It, class StencilIt, class Pred>
It stable_partition_form(Policy policy, It first, It last, StencilIt stencil, Pred pred)
{
  return thrust::stable_partition(policy, first, last, stencil, pred);
}
template <class Policy, class It, class Pred>
It partition_form(Policy policy, It first, It last, no_stencil, Pred pred)
{
  return thrust::partition(policy, first, last, pred);
}
template <class Policy, class It, class StencilIt, class Pred>
It partition_form(Policy policy, It first, It last, StencilIt stencil, Pred pred)
{
  return thrust::partition(policy, first, last, stencil, pred);
}

//! Requires pred to hold for every item of [first, first + count) and (without a stencil) for none of
//! [rest, rest + rest_count).
template <class ItemIt, class RestIt, class Pred>
void require_sides(ItemIt first, std::size_t count, RestIt rest, std::size_t rest_count, Pred pred, const std::string& what)
{
  INFO(what << ", seed = " << test_seed());
  CHECK(thrust::all_of(thrust::device, first, first + static_cast<std::ptrdiff_t>(count), pred));
  CHECK(thrust::none_of(thrust::device, rest, rest + static_cast<std::ptrdiff_t>(rest_count), pred));
}

//! stable_partition_copy (Stable) or partition_copy on `policy` against thrust::device, into poisoned
//! outputs of n + 4 items each.
template <bool Stable, class T, class Policy, class It, class StencilIt, class Pred>
void check_partition_copy(Policy policy, It first, std::size_t n, StencilIt stencil, Pred pred, const std::string& what)
{
  thrust::device_vector<T> e_true(n + 4), e_false(n + 4), a_true(n + 4), a_false(n + 4);
  poison(e_true);
  poison(e_false);
  poison(a_true);
  poison(a_false);
  const auto last = first + static_cast<std::ptrdiff_t>(n);
  const std::string name = (Stable ? "stable_partition_copy " : "partition_copy ") + what;
  auto call = [&](auto p, thrust::device_vector<T>& t, thrust::device_vector<T>& f) {
    if constexpr (Stable)
    {
      return stable_partition_copy_form(p, first, last, stencil, t.begin(), f.begin(), pred);
    }
    else
    {
      return partition_copy_form(p, first, last, stencil, t.begin(), f.begin(), pred);
    }
  };
  const auto e = call(thrust::device, e_true, e_false);
  const auto a = call(policy, a_true, a_false);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(name << ", seed = " << test_seed());
  const std::size_t selected = static_cast<std::size_t>(e.first - e_true.begin());
  REQUIRE(static_cast<std::size_t>(e.second - e_false.begin()) == n - selected);
  REQUIRE(static_cast<std::size_t>(a.first - a_true.begin()) == selected);
  REQUIRE(static_cast<std::size_t>(a.second - a_false.begin()) == n - selected);
  if constexpr (Stable)
  {
    require_bitwise_equal(e_true, a_true, selected, name + " selected");
    require_bitwise_equal(e_false, a_false, n - selected, name + " rejected");
  }
  else
  {
    require_same_items<T>(e_true.begin(), a_true.begin(), selected, name + " selected");
    require_same_items<T>(e_false.begin(), a_false.begin(), n - selected, name + " rejected");
    if constexpr (std::is_same<StencilIt, no_stencil>::value)
    {
      require_sides(a_true.begin(), selected, a_false.begin(), n - selected, pred, name);
    }
  }
  require_poison_intact(a_true, selected, name + " selected");
  require_poison_intact(a_false, n - selected, name + " rejected");
}

//! stable_partition (Stable) or partition in place on a copy of [first, first + n) against
//! thrust::device on another copy: the same partition point; stable: the same items in the same
//! order; else the same items on each side, the sides as the predicate says; the guard untouched.
template <bool Stable, class T, class Policy, class It, class StencilIt, class Pred>
void check_partition_in_place(Policy policy, It first, std::size_t n, StencilIt stencil, Pred pred, const std::string& what)
{
  auto expected = guarded_copy<T>(first, n);
  auto actual   = guarded_copy<T>(first, n);
  const auto np = static_cast<std::ptrdiff_t>(n);
  const std::string name = (Stable ? "stable_partition " : "partition ") + what;
  auto call = [&](auto p, thrust::device_vector<T>& v) {
    if constexpr (Stable)
    {
      return stable_partition_form(p, v.begin(), v.begin() + np, stencil, pred);
    }
    else
    {
      return partition_form(p, v.begin(), v.begin() + np, stencil, pred);
    }
  };
  const auto e = call(thrust::device, expected);
  const auto a = call(policy, actual);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(name << ", seed = " << test_seed());
  const std::size_t selected = static_cast<std::size_t>(e - expected.begin());
  REQUIRE(static_cast<std::size_t>(a - actual.begin()) == selected);
  if constexpr (Stable)
  {
    require_bitwise_equal(expected, actual, n, name);
  }
  else
  {
    require_same_items<T>(expected.begin(), actual.begin(), selected, name + " selected");
    require_same_items<T>(e, a, n - selected, name + " rejected");
    if constexpr (std::is_same<StencilIt, no_stencil>::value)
    {
      require_sides(actual.begin(), selected, a, n - selected, pred, name);
    }
  }
  require_poison_intact(actual, n, name + " (guard)");
}

//! The four forms (stable_partition_copy, stable_partition, partition_copy, partition) of the first n
//! items of `data`, with `stencil` (or no_stencil), on sweep::par.
template <class T, class StencilIt, class Pred>
void check_partition_forms(const thrust::device_vector<T>& data, std::size_t n, StencilIt stencil, Pred pred,
                           const std::string& what)
{
  check_partition_copy<true, T>(sweep::par, data.begin(), n, stencil, pred, what);
  check_partition_in_place<true, T>(sweep::par, data.begin(), n, stencil, pred, what);
  check_partition_copy<false, T>(sweep::par, data.begin(), n, stencil, pred, what);
  check_partition_in_place<false, T>(sweep::par, data.begin(), n, stencil, pred, what);
}

//! The four forms of the first n items of `data` for each n in `sizes`, with 0, 5, 50, 95 and 100% of
//! the items selected (keep_percent).
template <class T>
void check_partition_shares(const thrust::device_vector<T>& data, const std::vector<std::size_t>& sizes, const char* name)
{
  for (std::size_t n : sizes)
  {
    for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
    {
      check_partition_forms(data, n, no_stencil{}, keep_percent<T>{pct}, partition_label(name, n, pct));
    }
  }
}

} // namespace sweep_test
