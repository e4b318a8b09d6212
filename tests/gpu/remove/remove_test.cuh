// Shared checks of the remove GPU tests: each runs one of remove, remove_if (with or without a
// stencil) in place, or remove_copy, on a sweep policy and on thrust::device over the same input
// (in-place forms on a copy, against Thrust's copying form on thrust::device: remove_copy,
// remove_copy_if) and requires the same returned end, bitwise equal kept items in order, and nothing
// written after the returned end (in place: after the range).
// remove_copy_if (both forms) is tested with copy_if (tests/gpu/copy_if).
#pragma once

#include <common/compaction_test.cuh>

#include <thrust/remove.h>

#include <cstdint>
#include <string>

namespace sweep_test
{

inline std::string remove_label(const std::string& what, std::size_t n, unsigned pct)
{
  return what + ", n=" + std::to_string(n) + ", " + std::to_string(pct) + "% removed";
}

//! Items equal to `value` with probability pct%, others random (equal to it by chance only).
template <class T>
struct value_share
{
  std::uint64_t seed;
  unsigned pct;
  T value;
  __host__ __device__ T operator()(std::uint64_t i) const
  {
    return mix64(i ^ mix64(seed + 100)) % 100 < pct ? value : random_element<T>{seed}(i);
  }
};

//! The stencil argument of remove_if without one.
struct no_stencil
{};

template <class Policy, class It, class Pred>
It remove_if_form(Policy policy, It first, It last, no_stencil, Pred pred)
{
  return thrust::remove_if(policy, first, last, pred);
}
template <class Policy, class It, class StencilIt, class Pred>
It remove_if_form(Policy policy, It first, It last, StencilIt stencil, Pred pred)
{
  return thrust::remove_if(policy, first, last, stencil, pred);
}

template <class Policy, class It, class OutIt, class Pred>
OutIt remove_copy_if_form(Policy policy, It first, It last, no_stencil, OutIt out, Pred pred)
{
  return thrust::remove_copy_if(policy, first, last, out, pred);
}
template <class Policy, class It, class StencilIt, class OutIt, class Pred>
OutIt remove_copy_if_form(Policy policy, It first, It last, StencilIt stencil, OutIt out, Pred pred)
{
  return thrust::remove_copy_if(policy, first, last, stencil, out, pred);
}

//! Runs call(policy, first, last) in place on a copy of [first, first + n) for `policy`, against
//! reference(thrust::device, first, last, out), Thrust's copying form of the same removal (the same
//! kept items; fewer reference kernels to compile than Thrust's in-place forms, which are a kernel
//! set of their own): the same end, the same kept items, the guard after the range untouched.
template <class T, class Policy, class It, class Call, class Reference>
void check_in_place(Policy policy, It from, std::size_t n, Call call, Reference reference, const std::string& what)
{
  thrust::device_vector<T> expected(n);
  auto actual   = guarded_copy<T>(from, n);
  const auto np = static_cast<std::ptrdiff_t>(n);
  const auto e  = reference(thrust::device, from, from + np, expected.begin());
  const auto a  = call(policy, actual.begin(), actual.begin() + np);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(what << ", seed = " << test_seed());
  const std::size_t kept = static_cast<std::size_t>(e - expected.begin());
  REQUIRE(static_cast<std::size_t>(a - actual.begin()) == kept);
  require_bitwise_equal(expected, actual, kept, what);
  require_poison_intact(actual, n, what + " (guard)");
}

//! remove(policy, ...) in place, against remove_copy.
template <class T, class Policy, class It, class V>
void check_remove(Policy policy, It from, std::size_t n, const V& value, const std::string& what)
{
  check_in_place<T>(
    policy, from, n, [&](auto p, auto first, auto last) { return thrust::remove(p, first, last, value); },
    [&](auto p, auto first, auto last, auto out) { return thrust::remove_copy(p, first, last, out, value); },
    "remove " + what);
}

//! remove_if(policy, ...) in place, with `stencil` or without (no_stencil), against remove_copy_if.
template <class T, class Policy, class It, class StencilIt, class Pred>
void check_remove_if(Policy policy, It from, std::size_t n, StencilIt stencil, Pred pred, const std::string& what)
{
  check_in_place<T>(
    policy, from, n, [&](auto p, auto first, auto last) { return remove_if_form(p, first, last, stencil, pred); },
    [&](auto p, auto first, auto last, auto out) { return remove_copy_if_form(p, first, last, stencil, out, pred); },
    (std::is_same<StencilIt, no_stencil>::value ? "remove_if " : "remove_if with stencil ") + what);
}

//! remove_copy(policy, first, first + n, out, value) into poisoned outputs of n + 4 items of OutT.
template <class OutT, class Policy, class It, class V>
void check_remove_copy(Policy policy, It first, std::size_t n, const V& value, const std::string& what)
{
  thrust::device_vector<OutT> expected(n + 4), actual(n + 4);
  poison(expected);
  poison(actual);
  const auto last  = first + static_cast<std::ptrdiff_t>(n);
  const auto e_end = thrust::remove_copy(thrust::device, first, last, expected.begin(), value);
  const auto a_end = thrust::remove_copy(policy, first, last, actual.begin(), value);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO("remove_copy " << what << ", seed = " << test_seed());
  const std::size_t kept = static_cast<std::size_t>(e_end - expected.begin());
  REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == kept);
  require_bitwise_equal(expected, actual, kept, "remove_copy " + what);
  require_poison_intact(actual, kept, "remove_copy " + what);
}

} // namespace sweep_test
