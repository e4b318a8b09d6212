// Scans of user types under user operators on sweep::par against thrust::device, bitwise (integer
// arithmetic, so exact): associative operators that do not commute (affine maps composed in order,
// 2x2 matrix products), component-wise operators on 24 and 32-byte structs, and operators without an
// identity (left and right projection), whose results show any reordering or any padding value.
#include "scan_test.cuh"

#include <thrust/scan.h>

#include <cstdint>

using namespace sweep_test;

namespace
{

//! x -> a * x + b over uint32 (mod 2^32).
struct affine32
{
  std::uint32_t a, b;
};
//! f then g: x -> g.a * (f.a * x + f.b) + g.b.
struct compose32
{
  __host__ __device__ affine32 operator()(const affine32& f, const affine32& g) const
  {
    return {f.a * g.a, g.a * f.b + g.b};
  }
};

//! x -> a * x + b over uint64 (mod 2^64).
struct affine64
{
  std::uint64_t a, b;
};
struct compose64
{
  __host__ __device__ affine64 operator()(const affine64& f, const affine64& g) const
  {
    return {f.a * g.a, g.a * f.b + g.b};
  }
};

//! A 2x2 matrix over uint32, row-major.
struct mat2
{
  std::uint32_t m00, m01, m10, m11;
};
//! The product l * r (mod 2^32): associative, not commutative.
struct mat2_product
{
  __host__ __device__ mat2 operator()(const mat2& l, const mat2& r) const
  {
    return {l.m00 * r.m00 + l.m01 * r.m10, l.m00 * r.m01 + l.m01 * r.m11, l.m10 * r.m00 + l.m11 * r.m10,
            l.m10 * r.m01 + l.m11 * r.m11};
  }
};

struct s24
{
  std::uint64_t sum;
  std::uint32_t max;
  std::uint32_t bits;
  std::int64_t min;
};
//! sum, maximum, xor, minimum, one a component.
struct s24_op
{
  __host__ __device__ s24 operator()(const s24& l, const s24& r) const
  {
    return {l.sum + r.sum, l.max > r.max ? l.max : r.max, l.bits ^ r.bits, l.min < r.min ? l.min : r.min};
  }
};

struct s32
{
  std::uint64_t w[4];
};
//! Component-wise wrapping sums.
struct s32_op
{
  __host__ __device__ s32 operator()(const s32& l, const s32& r) const
  {
    return {{l.w[0] + r.w[0], l.w[1] + r.w[1], l.w[2] + r.w[2], l.w[3] + r.w[3]}};
  }
};

//! Past sweep's largest accumulator (scan_impl::max_item_bytes): Thrust's scan runs it.
struct s80
{
  std::uint64_t w[10];
};
struct s80_op
{
  __host__ __device__ s80 operator()(const s80& l, const s80& r) const
  {
    s80 out;
    for (int k = 0; k < 10; ++k)
    {
      out.w[k] = k % 2 == 0 ? l.w[k] + r.w[k] : l.w[k] ^ r.w[k];
    }
    return out;
  }
};

static_assert(sizeof(s80) > sweep::detail::scan_impl::max_item_bytes, "s80 must take Thrust's scan");
static_assert(sizeof(affine32) == 8 && sizeof(affine64) == 16 && sizeof(mat2) == 16 && sizeof(s24) == 24
                && sizeof(s32) == 32,
              "test types");

//! Random maps and matrices that stay invertible (odd multipliers, odd determinants), so that prefixes
//! never collapse to a constant and every output depends on every item before it.
struct random_invertible
{
  std::uint64_t seed;
  __host__ __device__ std::uint64_t bits(std::uint64_t i, int k) const
  {
    return mix64(mix64(i ^ mix64(seed)) + static_cast<std::uint64_t>(k));
  }
};
struct random_affine32 : random_invertible
{
  __host__ __device__ affine32 operator()(std::uint64_t i) const
  {
    return {static_cast<std::uint32_t>(bits(i, 0)) | 1u, static_cast<std::uint32_t>(bits(i, 1))};
  }
};
struct random_affine64 : random_invertible
{
  __host__ __device__ affine64 operator()(std::uint64_t i) const
  {
    return {bits(i, 0) | 1u, bits(i, 1)};
  }
};
struct random_mat2 : random_invertible
{
  //! Odd diagonal and an even m01: the determinant m00 * m11 - m01 * m10 is odd.
  __host__ __device__ mat2 operator()(std::uint64_t i) const
  {
    const std::uint64_t x = bits(i, 0), y = bits(i, 1);
    return {static_cast<std::uint32_t>(x) | 1u, static_cast<std::uint32_t>(x >> 32) & ~1u, static_cast<std::uint32_t>(y),
            static_cast<std::uint32_t>(y >> 32) | 1u};
  }
};

//! op(a, b) = a: associative, not commutative, no identity. Inclusive: x0 everywhere; exclusive:
//! the initial value everywhere.
struct take_left
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t) const
  {
    return a;
  }
};
//! op(a, b) = b: inclusive gives the input back; exclusive the input shifted by one after init.
struct take_right
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t, std::uint32_t b) const
  {
    return b;
  }
};

} // namespace

TEST_CASE("scan of affine maps (8 and 16 bytes) keeps the order of composition", "[scan][custom]")
{
  const auto sizes32 = edge_sizes(scan_tile<affine32>());
  const auto maps32  = generated_vector<affine32>(sizes32.back(), random_affine32{{test_seed() + 1}});
  check_scan_sizes<affine32>(maps32, sizes32, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, compose32{});
  }, "affine32 inclusive");
  check_scan_sizes<affine32>(maps32, sizes32, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, affine32{3u, 7u}, compose32{});
  }, "affine32 exclusive init 3x+7");

  const auto sizes64 = edge_sizes(scan_tile<affine64>());
  const auto maps64  = generated_vector<affine64>(sizes64.back(), random_affine64{{test_seed() + 2}});
  check_scan_sizes<affine64>(maps64, sizes64, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, compose64{});
  }, "affine64 inclusive");
}

TEST_CASE("scan of 2x2 matrices keeps the order of the products", "[scan][custom]")
{
  const auto sizes = edge_sizes(scan_tile<mat2>());
  const auto data  = generated_vector<mat2>(sizes.back(), random_mat2{{test_seed() + 3}});
  check_scan_sizes<mat2>(data, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, mat2_product{});
  }, "mat2 inclusive");
  check_scan_sizes<mat2>(data, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, mat2{1u, 2u, 0u, 1u}, mat2_product{});
  }, "mat2 exclusive init [[1 2][0 1]]");
}

TEST_CASE("scan of 24 and 32-byte structs under component-wise operators", "[scan][custom]")
{
  const auto sizes24 = edge_sizes(scan_tile<s24>());
  const auto data24  = random_vector<s24>(sizes24.back(), test_seed() + 4);
  check_scan_sizes<s24>(data24, sizes24, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, s24_op{});
  }, "s24 inclusive");

  const auto sizes32 = edge_sizes(scan_tile<s32>());
  const auto data32  = random_vector<s32>(sizes32.back(), test_seed() + 5);
  check_scan_sizes<s32>(data32, sizes32, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, s32{{1u, 2u, 3u, 4u}}, s32_op{});
  }, "s32 exclusive init {1,2,3,4}");
}

TEST_CASE("scan of an 80-byte struct (past sweep's largest accumulator: Thrust's scan) matches", "[scan][custom]")
{
  const std::vector<std::size_t> sizes = {0, 1, 1000, 100003};
  const auto data = random_vector<s80>(sizes.back(), test_seed() + 7);
  check_scan_sizes<s80>(data, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, s80_op{});
  }, "s80 inclusive");
}

TEST_CASE("scan under operators without an identity (left and right projection)", "[scan][custom]")
{
  const std::size_t tile = scan_tile<std::uint32_t>();
  const std::vector<std::size_t> sizes = {1, 2, 33, tile - 1, tile, tile + 1, 7 * tile + 5, 131 * tile + 17};
  const auto data = random_vector<std::uint32_t>(sizes.back(), test_seed() + 6);
  check_scan_sizes<std::uint32_t>(data, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, take_left{});
  }, "take_left inclusive");
  check_scan_sizes<std::uint32_t>(data, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, 0xdeadbeefu, take_left{});
  }, "take_left exclusive");
  check_scan_sizes<std::uint32_t>(data, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o, take_right{});
  }, "take_right inclusive");
  check_scan_sizes<std::uint32_t>(data, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o, 0xdeadbeefu, take_right{});
  }, "take_right exclusive");

  // And the results themselves (Thrust could share a bug): x0 everywhere, init everywhere, the input
  // back, and the input shifted by one.
  const std::size_t n = sizes.back();
  const thrust::host_vector<std::uint32_t> in(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n));
  thrust::device_vector<std::uint32_t> out(n);
  thrust::inclusive_scan(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n), out.begin(), take_left{});
  thrust::host_vector<std::uint32_t> got(out);
  thrust::host_vector<std::uint32_t> expected(n, in[0]);
  require_bitwise_equal(expected, got, n, "take_left inclusive: x0 everywhere");
  thrust::exclusive_scan(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n), out.begin(), 0xdeadbeefu,
                         take_left{});
  got = out;
  expected.assign(n, 0xdeadbeefu);
  require_bitwise_equal(expected, got, n, "take_left exclusive: init everywhere");
  thrust::inclusive_scan(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n), out.begin(), take_right{});
  got = out;
  require_bitwise_equal(in, got, n, "take_right inclusive: the input back");
  thrust::exclusive_scan(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n), out.begin(), 0xdeadbeefu,
                         take_right{});
  got = out;
  expected[0] = 0xdeadbeefu;
  for (std::size_t i = 1; i < n; ++i)
  {
    expected[i] = in[i - 1];
  }
  require_bitwise_equal(expected, got, n, "take_right exclusive: the input shifted by one");
}
