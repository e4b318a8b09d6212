// The scans of integers, floating-point values and user types, and the transform scans.
#include "scan_test.cuh"

#include <thrust/scan.h>
#include <cstdint>
#include <limits>
#include <thrust/copy.h>
#include <thrust/fill.h>
#include <cmath>
#include <cstring>
#include <thrust/transform_scan.h>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// inclusive_scan / exclusive_scan of integers on sweep::par against thrust::device, bitwise, at every
// edge size: 1, 2, 4 and 8-byte types, signed and unsigned, under plus, maximum, minimum and bit_xor,
// in every call form (no operator, operator, initial value, an initial value of a wider type).
// Each type takes a few of the forms and operators, not all of them: every kernel instantiated is
// compile time, and each form and operator is covered on more than one width.

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

// --------------------------------------------------------------------------------------------------
// inclusive_scan / exclusive_scan of float and double on sweep::par: within the documented error bound
// of a long double reference at every edge size, NaN and infinities where the reference has them,
// signed zeros as Thrust gives them, and the same bits on every call, also while another stream keeps
// the GPU busy (the association order must not depend on how tiles are scheduled).

namespace
{

//! Scans the first n items of `data` with `form` on sweep::par into a poisoned output of n + 4;
//! requires the returned end and the poison; returns the n outputs on the host.
template <class OutT, class T, class Form>
thrust::host_vector<OutT> sweep_scan(const thrust::device_vector<T>& data, std::size_t n, Form form, const std::string& what)
{
  thrust::device_vector<OutT> out(n + 4);
  poison(out);
  const auto end = form(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n), out.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(what);
  REQUIRE(static_cast<std::size_t>(end - out.begin()) == n);
  require_poison_intact(out, n, what);
  return thrust::host_vector<OutT>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
}

//! At every edge size of AccT's tile: sweep's outputs within the bound, and a second call bitwise
//! equal to the first.
template <class AccT, class T, class Form>
void bound_at_every_size(Form form, bool inclusive, bool has_init, AccT init, const std::string& name)
{
  const auto sizes = edge_sizes(scan_tile<AccT>());
  const auto data  = random_vector<T>(sizes.back(), test_seed() + sizeof(T) + 7 * sizeof(AccT) + (inclusive ? 1 : 0));
  const thrust::host_vector<T> host(data);
  for (std::size_t n : sizes)
  {
    const std::string what = scan_label(name, n);
    const auto first       = sweep_scan<AccT>(data, n, form, what);
    require_within_bound<AccT>(host, first, n, inclusive, has_init, init, what);
    const auto again = sweep_scan<AccT>(data, n, form, what + " (again)");
    require_bitwise_equal(first, again, n, what + ": two calls on the same input");
  }
}

} // namespace

TEST_CASE("float and double scans are within the documented error bound at every edge size", "[scan][float]")
{
  bound_at_every_size<float, float>([](auto p, auto f, auto l, auto o) { return thrust::inclusive_scan(p, f, l, o); },
                                    true, false, 0.0f, "float inclusive");
  bound_at_every_size<float, float>(
    [](auto p, auto f, auto l, auto o) { return thrust::exclusive_scan(p, f, l, o, 1.5f); }, false, true, 1.5f,
    "float exclusive init 1.5");
  bound_at_every_size<double, double>([](auto p, auto f, auto l, auto o) { return thrust::inclusive_scan(p, f, l, o); },
                                      true, false, 0.0, "double inclusive");
  bound_at_every_size<double, double>(
    [](auto p, auto f, auto l, auto o) { return thrust::exclusive_scan(p, f, l, o, -3.25); }, false, true, -3.25,
    "double exclusive init -3.25");
  // A double initial value: Thrust's exclusive scan accumulates in double, so float input sums as double.
  bound_at_every_size<double, float>(
    [](auto p, auto f, auto l, auto o) { return thrust::exclusive_scan(p, f, l, o, 0.0); }, false, true, 0.0,
    "float exclusive into double, double init");
}

namespace
{

template <class T>
void signed_zeros(const char* name)
{
  // Every sum below is exact, so Thrust's bits are the reference: -0 + -0 is -0, +0 + -0 is +0.
  const std::size_t tile = scan_tile<T>();
  for (std::size_t n : {std::size_t(1), std::size_t(33), tile + 1, 7 * tile + 5})
  {
    const thrust::device_vector<T> zeros(n, -T(0));
    const std::string what = scan_label(std::string(name) + " all -0.0", n);
    check_scan_against_thrust<T>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, zeros.begin(), zeros.end(), o);
    }, what + " inclusive (all -0.0)");
    check_scan_against_thrust<T>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, zeros.begin(), zeros.end(), o, T(0));
    }, what + " exclusive init +0.0 (all +0.0)");
    check_scan_against_thrust<T>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, zeros.begin(), zeros.end(), o, -T(0));
    }, what + " exclusive init -0.0 (all -0.0)");
    const thrust::host_vector<T> inclusive = sweep_scan<T>(zeros, n, [](auto p, auto f, auto l, auto o) {
      return thrust::inclusive_scan(p, f, l, o);
    }, what);
    REQUIRE(std::signbit(inclusive[n - 1]));
  }
}

//! Random finite values with NaN, infinities and signed zeros placed in several tiles.
template <class T>
void special_values(const char* name)
{
  const std::size_t tile = scan_tile<T>();
  const std::size_t n    = 9 * tile + 5;
  const T inf            = std::numeric_limits<T>::infinity();
  const T nan            = std::numeric_limits<T>::quiet_NaN();
  struct placed
  {
    std::size_t index;
    T value;
  };
  // 1: +inf in tile 2, then -inf in tile 5: the prefixes turn +inf, then NaN.
  // 2: one NaN at index 1: NaN from there on. 3: -inf in the last item only.
  const std::vector<std::vector<placed>> layouts = {
    {{2 * tile + 17, inf}, {5 * tile + 3, -inf}, {tile, -T(0)}, {tile + 1, T(0)}},
    {{1, nan}, {4 * tile, inf}},
    {{n - 1, -inf}, {0, -T(0)}, {3 * tile - 1, -T(0)}},
  };
  int layout_index = 0;
  for (const auto& layout : layouts)
  {
    thrust::device_vector<T> data = random_vector<T>(n, test_seed() + 60 + static_cast<std::uint64_t>(layout_index));
    for (const placed& p : layout)
    {
      data[p.index] = p.value;
    }
    const thrust::host_vector<T> host(data);
    const std::string what = std::string(name) + " specials layout " + std::to_string(layout_index++);
    const auto inclusive   = sweep_scan<T>(data, n, [](auto p, auto f, auto l, auto o) {
      return thrust::inclusive_scan(p, f, l, o);
    }, what + " inclusive");
    require_within_bound<T>(host, inclusive, n, true, false, T(0), what + " inclusive");
    const auto exclusive = sweep_scan<T>(data, n, [](auto p, auto f, auto l, auto o) {
      return thrust::exclusive_scan(p, f, l, o, T(0));
    }, what + " exclusive");
    require_within_bound<T>(host, exclusive, n, false, true, T(0), what + " exclusive");
  }
}

} // namespace

TEST_CASE("float and double scans keep signed zeros as Thrust does", "[scan][float]")
{
  signed_zeros<float>("float");
  signed_zeros<double>("double");
}

TEST_CASE("float and double scans give NaN and infinities where the exact prefix has them", "[scan][float]")
{
  special_values<float>("float");
  special_values<double>("double");
}

namespace
{

//! Keeps the GPU busy: many short blocks, each thread rewriting its item of a large buffer after a
//! long dependent chain of arithmetic, so that blocks retire and start all the time.
__global__ void busy_kernel(float* data, int rounds)
{
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float x             = data[i];
  for (int r = 0; r < rounds; ++r)
  {
    x = x * 0.999f + 1.0f;
  }
  data[i] = x;
}

//! A non-blocking stream of the given priority (lower numbers run first), destroyed with its scope.
struct priority_stream
{
  cudaStream_t stream{};
  explicit priority_stream(int priority)
  {
    REQUIRE(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority) == cudaSuccess);
  }
  ~priority_stream()
  {
    cudaStreamDestroy(stream);
  }
};

} // namespace

TEST_CASE("float scans give the same bits on every call, also while another stream runs", "[scan][float][determinism]")
{
  const std::size_t tile = scan_tile<float>();
  const std::size_t n    = 301 * tile + 77; // more tiles than the grid holds at once on any GPU
  const auto data        = random_vector<float>(n, test_seed() + 70);
  auto inclusive         = [](auto p, auto f, auto l, auto o) { return thrust::inclusive_scan(p, f, l, o); };
  const auto first       = sweep_scan<float>(data, n, inclusive, "float inclusive, first call");
  for (int run = 0; run < 2; ++run)
  {
    const auto again = sweep_scan<float>(data, n, inclusive, "float inclusive, run " + std::to_string(run));
    require_bitwise_equal(first, again, n, "float inclusive, call " + std::to_string(run + 2) + " against the first");
  }

  // A kernel of 2^16 short blocks runs on a second non-blocking stream, launched just before the scan
  // on a third: the scan's blocks start late, between the busy kernel's, and in another order. Run 0
  // gives the scan's stream the higher priority (its blocks take every slot that frees), run 1 the
  // busy stream's (the scan's blocks wait behind it). The result must not change.
  int least = 0, greatest = 0;
  REQUIRE(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  thrust::device_vector<float> busy(std::size_t(1) << 24, 1.0f);
  for (int run = 0; run < 2; ++run)
  {
    priority_stream busy_stream(run == 0 ? least : greatest);
    priority_stream scan_stream(run == 0 ? greatest : least);
    thrust::device_vector<float> out(n + 4);
    poison(out);
    busy_kernel<<<static_cast<unsigned>(busy.size() / 256), 256, 0, busy_stream.stream>>>(
      thrust::raw_pointer_cast(busy.data()), 2000);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    auto end = run == 0 ? thrust::inclusive_scan(sweep::par.on(scan_stream.stream), data.begin(), data.end(), out.begin())
                        : thrust::inclusive_scan(sweep::par_nosync.on(scan_stream.stream), data.begin(), data.end(),
                                                 out.begin());
    REQUIRE(cudaStreamSynchronize(scan_stream.stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(busy_stream.stream) == cudaSuccess);
    INFO("run " << run);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == n);
    require_poison_intact(out, n, "float inclusive beside a busy kernel");
    const thrust::host_vector<float> got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
    require_bitwise_equal(first, got, n, "float inclusive beside a busy kernel, run " + std::to_string(run));
  }
}

// --------------------------------------------------------------------------------------------------
// transform_inclusive_scan and transform_exclusive_scan on sweep::par against thrust::device, with
// unary operators that change the type: int -> its square as long long (bitwise), float -> double
// (within the documented bound of a long double reference, and the same bits on every call).

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

// --------------------------------------------------------------------------------------------------
// Scans of user types under user operators on sweep::par against thrust::device, bitwise (integer
// arithmetic, so exact): associative operators that do not commute (affine maps composed in order,
// 2x2 matrix products), component-wise operators on 24 and 32-byte structs, and operators without an
// identity (left and right projection), whose results show any reordering or any padding value.

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
