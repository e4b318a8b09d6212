// transform_inclusive_scan and transform_exclusive_scan on sweep::par against thrust::device, with
// unary operators that change the type: int -> its square as long long (bitwise), float -> double
// (within the documented bound of a long double reference, and the same bits on every call).
#include "scan_test.cuh"

#include <thrust/transform_scan.h>

#include <cstdint>

using namespace sweep_test;

namespace
{

struct square_wide
{
  __host__ __device__ long long operator()(int x) const
  {
    return static_cast<long long>(x) * x;
  }
};

struct low_byte
{
  __host__ __device__ std::uint8_t operator()(std::uint32_t x) const
  {
    return static_cast<std::uint8_t>(x);
  }
};

struct to_double
{
  __host__ __device__ double operator()(float x) const
  {
    return static_cast<double>(x);
  }
};

} // namespace

TEST_CASE("transform_inclusive_scan and transform_exclusive_scan of integers match thrust", "[scan][transform]")
{
  const auto sizes = edge_sizes(scan_tile<long long, false>());
  const auto ints  = random_vector<int>(sizes.back(), test_seed() + 1);
  check_scan_sizes<long long>(ints, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::transform_inclusive_scan(p, f, l, o, square_wide{}, op_plus<long long>());
  }, "int squared as long long, transform_inclusive_scan");
  check_scan_sizes<long long>(ints, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::transform_exclusive_scan(p, f, l, o, square_wide{}, -1ll, op_maximum<long long>());
  }, "int squared as long long, transform_exclusive_scan maximum");

  // The unary operator's result type (uint8) is the accumulator of the inclusive form: sums wrap at
  // 256 even into a wider output. The exclusive form accumulates in the initial value's type.
  const auto words = random_vector<std::uint32_t>(sizes.back(), test_seed() + 2);
  check_scan_sizes<std::uint32_t>(words, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::transform_inclusive_scan(p, f, l, o, low_byte{}, op_plus<>());
  }, "u32 low byte, transform_inclusive_scan into u32");
  check_scan_sizes<std::uint32_t>(words, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::transform_exclusive_scan(p, f, l, o, low_byte{}, 100u, op_plus<>());
  }, "u32 low byte, transform_exclusive_scan, u32 init");
#if CCCL_VERSION >= 2008000 // transform_inclusive_scan with an initial value: Thrust 2.8 on
  check_scan_sizes<long long>(ints, sizes, [](auto p, auto f, auto l, auto o) {
    return thrust::transform_inclusive_scan(p, f, l, o, square_wide{}, 1ll << 40, op_plus<long long>());
  }, "int squared as long long, transform_inclusive_scan init 2^40");
#endif
}

TEST_CASE("transform scans of float into double are within the bound and reproducible", "[scan][transform][float]")
{
  const auto sizes = edge_sizes(scan_tile<double, false>());
  const auto data  = random_vector<float>(sizes.back(), test_seed() + 3);
  const thrust::host_vector<float> host(data);
  for (std::size_t n : sizes)
  {
    for (bool inclusive : {true, false})
    {
      const std::string what = scan_label(inclusive ? "float -> double transform_inclusive_scan"
                                                    : "float -> double transform_exclusive_scan init 0.5",
                                          n);
      thrust::host_vector<double> results[2];
      for (auto& result : results)
      {
        thrust::device_vector<double> out(n + 4);
        poison(out);
        const auto first = data.begin();
        const auto last  = data.begin() + static_cast<std::ptrdiff_t>(n);
        const auto end   = inclusive
                           ? thrust::transform_inclusive_scan(sweep::par, first, last, out.begin(), to_double{}, op_plus<double>())
                           : thrust::transform_exclusive_scan(sweep::par, first, last, out.begin(), to_double{}, 0.5,
                                                              op_plus<double>());
        REQUIRE(static_cast<std::size_t>(end - out.begin()) == n);
        require_poison_intact(out, n, what);
        result = thrust::host_vector<double>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
      }
      require_within_bound<double>(host, results[0], n, inclusive, !inclusive, inclusive ? 0.0 : 0.5, what);
      require_bitwise_equal(results[0], results[1], n, what + ": two calls on the same input");
    }
  }
}
