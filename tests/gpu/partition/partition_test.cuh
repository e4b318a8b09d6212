// Shared checks of the partition GPU tests. Each runs one of stable_partition_copy, stable_partition
// (in place), partition_copy, partition (in place), with or without a stencil, on a sweep policy, and
// thrust::stable_partition_copy on thrust::device over the same input (partition_reference: one
// reference for all four forms), and requires the same returned ends. The stable forms must give
// bitwise the same outputs (in place: the reference's two sides one after the other); the others
// (whose order Thrust does not promise) the same items on each side in any order, every item of the
// first side satisfying the predicate and none of the second (where the predicate applies to the
// items: without a stencil). Nothing may be written after either returned end (in place: after the
// range).
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

//! Selects (int, float) items (zip ranges) by their int: about pct% of distinct ints.
struct int_part_selected
{
  unsigned pct;
  __host__ __device__ bool operator()(const thrust::tuple<std::int32_t, float>& t) const
  {
    return mix64(static_cast<std::uint32_t>(thrust::get<0>(t))) % 100 < pct;
  }
};

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

//! The expected result of every partition form of [first, first + n): thrust::stable_partition_copy
//! on thrust::device into `selected` and `rejected` (n items each). partition_copy and
//! stable_partition_copy run the same Thrust code, and the in-place forms' result is the two sides one
//! after the other, so one reference call a type, predicate and input serves all four forms: it halves
//! the reference kernels the tests compile (each Thrust form is a kernel set of its own).
template <class T>
struct partition_reference
{
  thrust::device_vector<T> selected, rejected;
  std::size_t count = 0; //!< the number selected

  template <class It, class StencilIt, class Pred>
  partition_reference(It first, std::size_t n, StencilIt stencil, Pred pred)
      : selected(n)
      , rejected(n)
  {
    const auto last = first + static_cast<std::ptrdiff_t>(n);
    const auto e    = stable_partition_copy_form(thrust::device, first, last, stencil, selected.begin(), rejected.begin(), pred);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    count = static_cast<std::size_t>(e.first - selected.begin());
    REQUIRE(static_cast<std::size_t>(e.second - rejected.begin()) == n - count);
  }

  //! The two sides one after the other: what stable_partition leaves in place.
  thrust::host_vector<T> in_place(std::size_t n) const
  {
    thrust::host_vector<T> all(selected.begin(), selected.begin() + static_cast<std::ptrdiff_t>(count));
    all.insert(all.end(), rejected.begin(), rejected.begin() + static_cast<std::ptrdiff_t>(n - count));
    return all;
  }
};

//! stable_partition_copy (Stable) or partition_copy on `policy` against the reference, into poisoned
//! outputs of n + 4 items each.
template <bool Stable, class T, class Policy, class It, class StencilIt, class Pred>
void check_partition_copy(Policy policy, It first, std::size_t n, StencilIt stencil, Pred pred, const std::string& what)
{
  const partition_reference<T> e(first, n, stencil, pred);
  thrust::device_vector<T> a_true(n + 4), a_false(n + 4);
  poison(a_true);
  poison(a_false);
  const auto last = first + static_cast<std::ptrdiff_t>(n);
  const std::string name = (Stable ? "stable_partition_copy " : "partition_copy ") + what;
  const auto a = [&] {
    if constexpr (Stable)
    {
      return stable_partition_copy_form(policy, first, last, stencil, a_true.begin(), a_false.begin(), pred);
    }
    else
    {
      return partition_copy_form(policy, first, last, stencil, a_true.begin(), a_false.begin(), pred);
    }
  }();
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(name << ", seed = " << test_seed());
  const std::size_t selected = e.count;
  REQUIRE(static_cast<std::size_t>(a.first - a_true.begin()) == selected);
  REQUIRE(static_cast<std::size_t>(a.second - a_false.begin()) == n - selected);
  if constexpr (Stable)
  {
    require_bitwise_equal(e.selected, a_true, selected, name + " selected");
    require_bitwise_equal(e.rejected, a_false, n - selected, name + " rejected");
  }
  else
  {
    require_same_items<T>(e.selected.begin(), a_true.begin(), selected, name + " selected");
    require_same_items<T>(e.rejected.begin(), a_false.begin(), n - selected, name + " rejected");
    if constexpr (std::is_same<StencilIt, no_stencil>::value)
    {
      require_sides(a_true.begin(), selected, a_false.begin(), n - selected, pred, name);
    }
  }
  require_poison_intact(a_true, selected, name + " selected");
  require_poison_intact(a_false, n - selected, name + " rejected");
}

//! stable_partition (Stable) or partition in place on a copy of [first, first + n) against the
//! reference: the same partition point; stable: the same items in the same order; else the same items
//! on each side, the sides as the predicate says; the guard untouched.
template <bool Stable, class T, class Policy, class It, class StencilIt, class Pred>
void check_partition_in_place(Policy policy, It first, std::size_t n, StencilIt stencil, Pred pred, const std::string& what)
{
  const partition_reference<T> e(first, n, stencil, pred);
  auto actual   = guarded_copy<T>(first, n);
  const auto np = static_cast<std::ptrdiff_t>(n);
  const std::string name = (Stable ? "stable_partition " : "partition ") + what;
  const auto a = [&] {
    if constexpr (Stable)
    {
      return stable_partition_form(policy, actual.begin(), actual.begin() + np, stencil, pred);
    }
    else
    {
      return partition_form(policy, actual.begin(), actual.begin() + np, stencil, pred);
    }
  }();
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(name << ", seed = " << test_seed());
  const std::size_t selected = e.count;
  REQUIRE(static_cast<std::size_t>(a - actual.begin()) == selected);
  if constexpr (Stable)
  {
    const thrust::host_vector<T> got(actual.begin(), actual.begin() + np);
    require_bitwise_equal(e.in_place(n), got, n, name);
  }
  else
  {
    require_same_items<T>(e.selected.begin(), actual.begin(), selected, name + " selected");
    require_same_items<T>(e.rejected.begin(), a, n - selected, name + " rejected");
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
