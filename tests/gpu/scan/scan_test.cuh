// Shared pieces of the scan GPU tests: the scan tile of an accumulator type, the check that runs stock
// Thrust and sweep on the same input into poisoned outputs and compares them bitwise, and the
// floating-point checks (the documented error bound against a long double reference, NaN and inf
// where the reference has them, and bitwise equality of repeated sweep calls).
#pragma once

#include <sweep/scan.cuh>
#include <sweep/detail/scan/plan.hpp>
#include <sweep/detail/util/device_info.hpp>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>

#include <cuda/std/functional>
#if CCCL_VERSION >= 3001000
#  include <cuda/functional>
#endif

#include <common/test_utils.cuh>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace sweep_test
{

// The operators the tests pass: Thrust's function objects, which users write. From CCCL 3.1 on those
// are deprecated aliases of libcu++'s (the same types), which the tests then name directly so that
// they build without warnings.
#if CCCL_VERSION >= 3001000
template <class T = void>
using op_plus = ::cuda::std::plus<T>;
template <class T = void>
using op_maximum = ::cuda::maximum<T>;
template <class T = void>
using op_minimum = ::cuda::minimum<T>;
template <class T = void>
using op_bit_xor = ::cuda::std::bit_xor<T>;
#else
template <class T = void>
using op_plus = thrust::plus<T>;
template <class T = void>
using op_maximum = thrust::maximum<T>;
template <class T = void>
using op_minimum = thrust::minimum<T>;
template <class T = void>
using op_bit_xor = thrust::bit_xor<T>;
#endif

//! The scan tile (items) of accumulator type AccT that sweep's kernel in this binary uses on the
//! current device, over a contiguous input of AccT (VectorInput: the kernel with the specialised
//! schedule where the tuning has one) or another iterator.
template <class AccT, bool VectorInput = true>
std::size_t scan_tile()
{
  return sweep::detail::scan_impl::tile_items_for<AccT, VectorInput>(tuned_arch());
}

//! The latency tiles (items) of accumulator type AccT over a pointer to AccT (plan.hpp,
//! tuned_latency and, where Wide, tuned_latency_wide), and for an integral AccT the most items a call
//! runs in the small one (latency_switch: one tile an SM on the current device) and in either
//! (latency_end: one wide tile an SM where the wide tile is smaller than the tuned one, else
//! latency_switch); one item more takes the wide tile (latency_switch) or the tuned one (latency_end).
//! plan.hpp, pick_latency_tile.
template <class AccT, bool Wide = false>
std::size_t latency_tile()
{
  namespace sc = sweep::detail::scan_impl;
  using choice = std::conditional_t<Wide, sc::tuned_latency_wide, sc::tuned_latency>;
  return sc::tile_items_for<AccT, true, choice>(tuned_arch());
}
template <class AccT>
std::size_t latency_switch()
{
  return latency_tile<AccT>() * static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
}
template <class AccT>
std::size_t latency_end()
{
  const bool wide = latency_tile<AccT, true>() < scan_tile<AccT>();
  return (wide ? latency_tile<AccT, true>() : latency_tile<AccT>())
       * static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
}

//! n that end a partial tile of `tile` items, starting at item `base`, at each place within a
//! thread's 16-byte row of `vec` items (1 to vec + 1 items into the tile), on a row's and a warp's
//! row's (32 rows of vec) ends and just past them, and in the tile's last rows.
inline std::vector<std::size_t> row_cut_sizes(std::size_t base, std::size_t tile, std::size_t vec)
{
  std::vector<std::size_t> offsets;
  for (std::size_t r = 1; r <= vec + 1; ++r)
  {
    offsets.push_back(r);
  }
  for (std::size_t r : {2 * vec - 1, 32 * vec - 1, 32 * vec, 32 * vec + vec / 2 + 1, tile / 2 + 1, tile - vec - 1,
                        tile - vec, tile - 1})
  {
    offsets.push_back(r);
  }
  std::vector<std::size_t> sizes;
  for (std::size_t r : offsets)
  {
    if (r >= 1 && r < tile)
    {
      sizes.push_back(base + r);
    }
  }
  return sizes;
}

inline std::string scan_label(const std::string& what, std::size_t n)
{
  return what + " n=" + std::to_string(n);
}

//! Runs call(thrust::device, out) and call(policy, out), where `out` is the begin of a poisoned
//! device_vector<OutT> of n + 4 elements and `call` runs one scan of n items into it and returns the
//! scan's result. Requires both to return out + n, the first n outputs to be bitwise equal and the
//! poison after them untouched.
template <class OutT, class Policy, class Call>
void check_scan_against_thrust(Policy policy, std::size_t n, Call call, const std::string& what)
{
  thrust::device_vector<OutT> expected(n + 4), actual(n + 4);
  sweep_test::poison(expected);
  sweep_test::poison(actual);
  const auto e_end = call(thrust::device, expected.begin());
  const auto a_end = call(policy, actual.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(what << ", seed = " << sweep_test::test_seed());
  REQUIRE(static_cast<std::size_t>(e_end - expected.begin()) == n);
  REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == n);
  sweep_test::require_bitwise_equal(expected, actual, n, what);
  sweep_test::require_poison_intact(actual, n, what);
}

//! Runs form(policy, first, first + n, out) on sweep::par against thrust::device at every size in
//! `sizes`, each on the first n items of `data`.
template <class OutT, class T, class Form>
void check_scan_sizes(const thrust::device_vector<T>& data, const std::vector<std::size_t>& sizes, Form form,
                      const std::string& what)
{
  for (std::size_t n : sizes)
  {
    const auto first = data.begin();
    const auto last  = data.begin() + static_cast<std::ptrdiff_t>(n);
    check_scan_against_thrust<OutT>(sweep::par, n, [&](auto policy, auto out) { return form(policy, first, last, out); },
                                    scan_label(what, n));
  }
}

//! What a floating-point prefix is, whatever the order in which it was summed (finite addends never
//! overflow in these tests): NaN if it holds a NaN or both infinities, else the infinity it holds,
//! else finite.
enum class fp_class
{
  finite,
  plus_inf,
  minus_inf,
  nan,
};

inline const char* fp_class_name(fp_class c)
{
  return c == fp_class::finite ? "finite" : c == fp_class::plus_inf ? "+inf" : c == fp_class::minus_inf ? "-inf" : "NaN";
}

template <class T>
fp_class classify(T x)
{
  return std::isnan(x) ? fp_class::nan : std::isinf(x) ? (x > 0 ? fp_class::plus_inf : fp_class::minus_inf) : fp_class::finite;
}

//! The documented accuracy of sweep's floating-point scans with accumulator AccT over n items: each
//! output is within factor * (running sum of |x_j|) of the exact prefix, where
//! factor = (tiles + tile_items + 64) * eps and tiles = ceil(n / tile_items), for the larger of the
//! tiles of contiguous and other inputs (the bound grows with the tile).
template <class AccT>
long double scan_error_factor(std::size_t n)
{
  const std::size_t tile  = std::max(scan_tile<AccT, true>(), scan_tile<AccT, false>());
  const std::size_t tiles = (n + tile - 1) / tile;
  return static_cast<long double>(tiles + tile + 64) * static_cast<long double>(std::numeric_limits<AccT>::epsilon());
}

//! A prefix summed in order in long double: its finite part, the running sum of the finite |x_j|,
//! and which NaN and infinities it has met. (A struct, not a lambda: with --expt-relaxed-constexpr a
//! lambda is also compiled for the device, where long double is double.)
struct exact_prefix
{
  long double exact     = 0;
  long double magnitude = 0;
  bool nan = false, plus_inf = false, minus_inf = false;

  void add(long double x)
  {
    if (std::isnan(x))
    {
      nan = true;
    }
    else if (std::isinf(x))
    {
      (x > 0 ? plus_inf : minus_inf) = true;
    }
    else
    {
      exact += x;
      magnitude += std::fabs(x);
    }
  }

  fp_class kind() const
  {
    return nan || (plus_inf && minus_inf) ? fp_class::nan
         : plus_inf                       ? fp_class::plus_inf
         : minus_inf                      ? fp_class::minus_inf
                                          : fp_class::finite;
  }
};

//! Checks a floating-point plus-scan's outputs (host copies) against a long double reference of the
//! host input, summed in order: the same NaN / +inf / -inf positions, and every finite output within
//! the documented bound (with accumulator AccT). Exclusive scans start from `init`; inclusive scans
//! with has_init add it first, as Thrust's inclusive scan with an initial value does.
template <class AccT, class T, class OutT>
void require_within_bound(const thrust::host_vector<T>& input,
                          const thrust::host_vector<OutT>& output,
                          std::size_t n,
                          bool inclusive,
                          bool has_init,
                          AccT init,
                          const std::string& what)
{
  INFO(what << ", n = " << n << ", seed = " << sweep_test::test_seed());
  REQUIRE(input.size() >= n);
  REQUIRE(output.size() >= n);
  const long double factor = scan_error_factor<AccT>(n);
  exact_prefix prefix;
  if (has_init || !inclusive)
  {
    prefix.add(static_cast<long double>(init));
  }
  for (std::size_t i = 0; i < n; ++i)
  {
    if (inclusive)
    {
      prefix.add(static_cast<long double>(input[i]));
    }
    const fp_class expected = prefix.kind();
    const OutT got          = output[i];
    if (classify(got) != expected)
    {
      FAIL("index " << i << ": expected a " << fp_class_name(expected) << " prefix, got " << describe(got));
    }
    if (expected == fp_class::finite)
    {
      const long double error = std::fabs(static_cast<long double>(got) - prefix.exact);
      if (error > factor * prefix.magnitude)
      {
        FAIL("index " << i << ": " << static_cast<double>(got) << " is " << static_cast<double>(error)
                      << " from the exact prefix " << static_cast<double>(prefix.exact) << ", more than the bound "
                      << static_cast<double>(factor * prefix.magnitude));
      }
    }
    if (!inclusive)
    {
      prefix.add(static_cast<long double>(input[i]));
    }
  }
  SUCCEED();
}

} // namespace sweep_test
