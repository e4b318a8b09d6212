// inclusive_scan / exclusive_scan of integers on sweep::par against thrust::device, bitwise, at every
// edge size: 1, 2, 4 and 8-byte types, signed and unsigned, under plus, maximum, minimum and bit_xor,
// in every call form (no operator, operator, initial value, an initial value of a wider type).
// Each type takes a few of the forms and operators, not all of them: every kernel instantiated is
// compile time, and each form and operator is covered on more than one width.
#include "scan_test.cuh"

#include <thrust/scan.h>

#include <cstdint>
#include <limits>

using namespace sweep_test;

namespace
{

//! Random data for the largest edge size of AccT's tile, and those sizes.
template <class T, class AccT = T>
struct int_case
{
  std::vector<std::size_t> sizes = edge_sizes(scan_tile<AccT>());
  thrust::device_vector<T> data  = random_vector<T>(sizes.back(), test_seed() + sizeof(T) * 101 + sizeof(AccT));
};

} // namespace

TEST_CASE("scan of uint8 matches thrust (plus, maximum, bit_xor, an int initial value)", "[scan][int]")
{
  int_case<std::uint8_t> c;
  check_scan_sizes<std::uint8_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o);
  }, "u8 inclusive");
  check_scan_sizes<std::uint8_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, op_maximum<std::uint8_t>());
  }, "u8 inclusive maximum");
  check_scan_sizes<std::uint8_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, std::uint8_t(0x5a), op_bit_xor<std::uint8_t>());
  }, "u8 exclusive bit_xor init 0x5a");

  // An int initial value: Thrust accumulates in int (the initial value's type), so the sums do not
  // wrap at 256 and the int outputs show it.
  int_case<std::uint8_t, int> wide;
  check_scan_sizes<int>(wide.data, wide.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, 1000);
  }, "u8 exclusive into int, int init 1000");
}

TEST_CASE("scan of int16 matches thrust (minimum, bit_xor, the default exclusive form)", "[scan][int]")
{
  int_case<std::int16_t> c;
  check_scan_sizes<std::int16_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, op_minimum<std::int16_t>());
  }, "i16 inclusive minimum");
  check_scan_sizes<std::int16_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o);
  }, "i16 exclusive");
#if CCCL_VERSION >= 2007000 // inclusive_scan with an initial value: not in Thrust before 2.7 (not in 2.5)
  check_scan_sizes<std::int16_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, std::int16_t(-5), op_bit_xor<std::int16_t>());
  }, "i16 inclusive bit_xor init -5");
#else
  check_scan_sizes<std::int16_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, op_bit_xor<std::int16_t>());
  }, "i16 inclusive bit_xor");
#endif
}

TEST_CASE("scan of uint16 matches thrust (plus, minimum with an initial value)", "[scan][int]")
{
  int_case<std::uint16_t> c;
  check_scan_sizes<std::uint16_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, op_plus<std::uint16_t>());
  }, "u16 inclusive plus<u16>");
  check_scan_sizes<std::uint16_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, std::uint16_t(40000), op_minimum<std::uint16_t>());
  }, "u16 exclusive minimum init 40000");
}

TEST_CASE("scan of uint32 matches thrust (plus, bit_xor, minimum, initial values)", "[scan][int]")
{
  int_case<std::uint32_t> c;
  check_scan_sizes<std::uint32_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, op_plus<std::uint32_t>());
  }, "u32 inclusive plus<u32>");
  check_scan_sizes<std::uint32_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, op_bit_xor<std::uint32_t>());
  }, "u32 inclusive bit_xor");
  check_scan_sizes<std::uint32_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, 12345u);
  }, "u32 exclusive init 12345");
  check_scan_sizes<std::uint32_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, std::numeric_limits<std::uint32_t>::max(), op_minimum<std::uint32_t>());
  }, "u32 exclusive minimum init max");
}

TEST_CASE("scan of int64 matches thrust (plus, maximum, minimum with an initial value)", "[scan][int]")
{
  int_case<std::int64_t> c;
  check_scan_sizes<std::int64_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o);
  }, "i64 inclusive");
  check_scan_sizes<std::int64_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, op_maximum<std::int64_t>());
  }, "i64 inclusive maximum");
  check_scan_sizes<std::int64_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, std::numeric_limits<std::int64_t>::min(), op_maximum<std::int64_t>());
  }, "i64 exclusive maximum init min");
#if CCCL_VERSION >= 2007000 // inclusive_scan with an initial value
  check_scan_sizes<std::int64_t>(c.data, c.sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, std::int64_t(1) << 40, op_minimum<std::int64_t>());
  }, "i64 inclusive minimum init 2^40");
#endif
}
