// The scan's two schedules of the single-pass pipeline (lookback/pipeline.cuh), each forced on inputs
// where the tuning would pick the other: the specialised one (producer warp, bulk copies into slots,
// look-back warp) at edge sizes of one and a few tiles and the in-order one where blocks loop over
// many tiles, against stock Thrust bitwise for exact types (integers, a non-commutative operator on
// 16-byte values) and, for floating point, against the tuned kernel (the same tile, so the same
// association: bitwise equal) and the long double bound. Both run on more tiles than blocks, in place,
// inclusive and exclusive, with and without an initial value.
#include "scan_test.cuh"

#include <sweep/detail/scan/dispatch.cuh>
#include <sweep/detail/util/device_info.hpp>

#include <thrust/scan.h>

#include <cstdint>
#include <string>

using namespace sweep_test;

namespace
{
namespace sc = sweep::detail::scan_impl;
using sc::schedule_choice;

const char* schedule_name(schedule_choice s)
{
  return s == schedule_choice::in_order ? "in_order" : s == schedule_choice::specialized ? "specialized" : "tuned";
}

//! A 16-byte affine map x -> a * x + b (mod 2^64), composed left to right: associative, not
//! commutative, and it loads as one 16-byte vector.
struct alignas(16) affine16
{
  std::uint64_t a, b;
};
struct compose16
{
  __host__ __device__ affine16 operator()(const affine16& f, const affine16& g) const
  {
    return {f.a * g.a, g.a * f.b + g.b};
  }
};

//! sweep's dispatcher under schedule S over [in, in + n) into out (Mode: inclusive without an initial
//! value, with one, or exclusive).
template <class T, schedule_choice S, class Mode, class Op>
void sweep_scan_forced(const T* in, std::size_t n, T* out, Op op, T init)
{
  auto policy = sweep::par;
  sc::dispatch<T, Mode, sc::tuned, S>(policy, in, static_cast<std::uint64_t>(n), out, op, init, "test");
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
}

//! Thrust's scan of the same form.
template <class Mode, class T, class Op>
void thrust_scan(const T* in, std::size_t n, T* out, Op op, T init)
{
  if constexpr (Mode::exclusive)
  {
    thrust::exclusive_scan(thrust::device, in, in + n, out, init, op);
  }
  else if constexpr (Mode::has_init)
  {
    thrust::inclusive_scan(thrust::device, in, in + n, out, init, op);
  }
  else
  {
    thrust::inclusive_scan(thrust::device, in, in + n, out, op);
  }
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
}

using inclusive = sc::scan_mode<false, false>;
using inclusive_init = sc::scan_mode<false, true>;
using exclusive = sc::scan_mode<true, true>;

//! Schedule S against Thrust on data[0, n), into a poisoned output and in place.
template <class T, schedule_choice S, class Mode, class Op>
void exact_case(const thrust::device_vector<T>& data, std::size_t n, Op op, T init, const std::string& what)
{
  const std::string label = what + " n=" + std::to_string(n) + " " + schedule_name(S);
  INFO(label << ", seed = " << test_seed());
  thrust::device_vector<T> expected(n + 4), actual(n + 4);
  poison(expected);
  poison(actual);
  const T* in = thrust::raw_pointer_cast(data.data());
  thrust_scan<Mode>(in, n, thrust::raw_pointer_cast(expected.data()), op, init);
  sweep_scan_forced<T, S, Mode>(in, n, thrust::raw_pointer_cast(actual.data()), op, init);
  require_bitwise_equal(expected, actual, n, label);
  require_poison_intact(actual, n, label);
  // In place: the output is the input.
  thrust::device_vector<T> in_place(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n));
  T* raw = thrust::raw_pointer_cast(in_place.data());
  sweep_scan_forced<T, S, Mode>(raw, n, raw, op, init);
  require_bitwise_equal(expected, in_place, n, label + " in place");
}

//! Sizes where the schedule is forced: edge sizes of one tile and a few (specialised, which the tuning
//! runs only where blocks loop), or many tiles a block (in order).
std::vector<std::size_t> forced_sizes(std::size_t tile, schedule_choice s)
{
  if (s == schedule_choice::specialized)
  {
    return {1, 31, 33, tile - 1, tile, tile + 1, 2 * tile + 7, 3 * tile, 7 * tile + 5, 40 * tile + 3};
  }
  const std::size_t sms = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  return {9 * sms * tile + 11};
}

//! The tile of the kernel over a T pointer with schedule S (forcing the specialised schedule gives 1-
//! and 2-byte items its tile too).
template <class T, schedule_choice S>
std::size_t forced_tile()
{
  return static_cast<std::size_t>(sc::tile_dims_for<T, sc::tuned, true, S>(tuned_arch()).tile_items);
}

template <class T, schedule_choice S, class Op>
void exact_all_modes(Op op, T init, const std::string& what)
{
  const std::size_t tile = forced_tile<T, S>();
  const auto sizes       = forced_sizes(tile, S);
  const auto data        = random_vector<T>(sizes.back(), test_seed() + 300 + sizeof(T));
  for (std::size_t n : sizes)
  {
    exact_case<T, S, inclusive>(data, n, op, init, what + " inclusive");
#if CCCL_VERSION >= 2007000 // inclusive_scan with an initial value: not in Thrust before 2.7
    exact_case<T, S, inclusive_init>(data, n, op, init, what + " inclusive with init");
#endif
    exact_case<T, S, exclusive>(data, n, op, init, what + " exclusive");
  }
}

//! Blocks loop over tiles in the specialised schedule too: several tiles a block, so each block's
//! slots are reused; u32 and u64 against Thrust.
template <class T>
void specialized_many_tiles(const std::string& what)
{
  const std::size_t sms = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  const std::size_t n   = 9 * sms * forced_tile<T, schedule_choice::specialized>() + 5;
  const auto data       = random_vector<T>(n, test_seed() + 320 + sizeof(T));
  exact_case<T, schedule_choice::specialized, exclusive>(data, n, op_plus<>{}, T(3), what + " exclusive, many tiles");
}

//! Floating point: the forced schedule against the tuned kernel (the same tile shape, so the same
//! association: bitwise), each within the bound of the exact prefix.
template <class T, schedule_choice S>
void float_case(std::size_t n, const std::string& what)
{
  const auto data = random_vector<T>(n, test_seed() + 340 + sizeof(T));
  const T* in     = thrust::raw_pointer_cast(data.data());
  thrust::device_vector<T> forced(n + 4), tuned(n + 4);
  poison(forced);
  poison(tuned);
  sweep_scan_forced<T, S, exclusive>(in, n, thrust::raw_pointer_cast(forced.data()), op_plus<>{}, T(0.5));
  sweep_scan_forced<T, schedule_choice::tuned, exclusive>(in, n, thrust::raw_pointer_cast(tuned.data()), op_plus<>{},
                                                          T(0.5));
  const std::string label = what + " n=" + std::to_string(n) + " " + schedule_name(S);
  require_bitwise_equal(tuned, forced, n, label + " against the tuned kernel");
  require_poison_intact(forced, n, label);
  const thrust::host_vector<T> host_in(data.begin(), data.end());
  const thrust::host_vector<T> host_out(forced.begin(), forced.begin() + static_cast<std::ptrdiff_t>(n));
  require_within_bound<T>(host_in, host_out, n, false, true, T(0.5), label);
}

} // namespace

TEST_CASE("scan, specialised schedule forced: integers and a non-commutative 16-byte operator match thrust",
          "[scan][schedule]")
{
  exact_all_modes<std::uint32_t, schedule_choice::specialized>(op_plus<>{}, 7u, "u32 plus");
  exact_all_modes<std::int64_t, schedule_choice::specialized>(op_maximum<>{}, std::int64_t(-5), "i64 maximum");
  exact_all_modes<std::uint16_t, schedule_choice::specialized>(op_plus<>{}, std::uint16_t(1), "u16 plus");
  exact_all_modes<std::uint8_t, schedule_choice::specialized>(op_bit_xor<>{}, std::uint8_t(3), "u8 bit_xor");
  exact_all_modes<affine16, schedule_choice::specialized>(compose16{}, affine16{3, 1}, "affine16 compose");
  specialized_many_tiles<std::uint32_t>("u32 plus");
  specialized_many_tiles<std::uint64_t>("u64 plus");
}

TEST_CASE("scan, in-order schedule forced where blocks loop over many tiles: matches thrust", "[scan][schedule]")
{
  exact_all_modes<std::uint32_t, schedule_choice::in_order>(op_plus<>{}, 7u, "u32 plus");
  exact_all_modes<affine16, schedule_choice::in_order>(compose16{}, affine16{3, 1}, "affine16 compose");
}

TEST_CASE("float and double scans, specialised schedule forced: the tuned kernel's bits, within the bound",
          "[scan][schedule][float]")
{
  const std::size_t sms = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  for (std::size_t n : {std::size_t(1), scan_tile<float>() + 1, 5 * scan_tile<float>() - 3, 9 * sms * scan_tile<float>() + 5})
  {
    float_case<float, schedule_choice::specialized>(n, "float exclusive");
  }
  for (std::size_t n : {std::size_t(33), 3 * scan_tile<double>() + 1, 9 * sms * scan_tile<double>() + 5})
  {
    float_case<double, schedule_choice::specialized>(n, "double exclusive");
  }
}
