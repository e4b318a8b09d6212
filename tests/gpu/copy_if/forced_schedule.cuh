// copy_if under a forced tile schedule (tuning.hpp, tile_schedule) against stock Thrust: the check
// shared by the test files that run sweep's dispatcher with each schedule.
#pragma once

#include "copy_if_test.cuh"

#include <sweep/detail/copy_if/dispatch.cuh>

#include <cstdint>
#include <string>

namespace sweep_test
{

inline const char* schedule_name(sweep::detail::copy_if_impl::schedule_choice s)
{
  using sweep::detail::copy_if_impl::schedule_choice;
  return s == schedule_choice::in_order    ? "in_order"
       : s == schedule_choice::pipelined ? "pipelined"
       : s == schedule_choice::bulk      ? "bulk"
                                         : "specialized";
}

//! Stock Thrust's copy_if and sweep's dispatcher under schedule S on [first, first + n) (raw
//! pointers take the vector load path), into poisoned outputs at `out_offset`: equal counts,
//! bitwise-equal items, poison intact at and after the end.
template <class T, sweep::detail::copy_if_impl::schedule_choice S, class InputIt, class Pred>
void check_schedule(InputIt first, std::size_t n, Pred pred, const std::string& what, std::size_t out_offset = 0)
{
  namespace ci = sweep::detail::copy_if_impl;
  thrust::device_vector<T> expected(n + out_offset + 4), actual(n + out_offset + 4);
  sweep_test::poison(expected);
  sweep_test::poison(actual);
  const auto e_end = thrust::copy_if(thrust::device, first, first + n, expected.begin() + out_offset, pred);
  auto policy      = sweep::par;
  T* out           = thrust::raw_pointer_cast(actual.data()) + out_offset;
  const std::uint64_t count = ci::dispatch<T, false, S>(policy, first, n, ci::no_stencil{}, out, pred);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::size_t e_count = static_cast<std::size_t>(e_end - expected.begin()) - out_offset;
  INFO(what << ", schedule " << schedule_name(S) << ", seed = " << sweep_test::test_seed());
  REQUIRE(count == e_count);
  sweep_test::require_bitwise_equal(expected, actual, out_offset + e_count, what);
  sweep_test::require_poison_intact(actual, out_offset + e_count, what);
}

} // namespace sweep_test
