// sweep::par sort of floating-point keys (float, double, __half, __nv_bfloat16) against
// thrust::device, with -0.0/+0.0, NaNs of both signs and infinities mixed in.
#include "histogram_checks.cuh"
#include "sort_test_common.cuh"

#include <cuda/std/functional>
#include <cuda/version>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <limits>

namespace
{

// Random finite values with every 8th element replaced by a special value (both zeros, both NaN
// signs, both infinities, denormals), so ties between -0.0 and +0.0 show their order.
template <class Key, class Bits>
struct special_values
{
  std::uint64_t seed;
  __host__ __device__ Key operator()(std::uint64_t i) const
  {
    const std::uint64_t r = sweep_test::mix64(i ^ sweep_test::mix64(seed));
    constexpr int bits    = static_cast<int>(sizeof(Bits) * 8);
    const Bits sign       = static_cast<Bits>(Bits(1) << (bits - 1));
    Bits b;
    if (r % 8 != 0)
    {
      return static_cast<Key>(sweep_test::from_bits<double>{}(r));
    }
    const Bits exponent_all = sizeof(Bits) == 8 ? Bits(0x7ff0000000000000ull)
                            : sizeof(Bits) == 4 ? Bits(0x7f800000u)
                                                : Bits(0x7c00u);
    switch ((r >> 8) % 8)
    {
      case 0: b = 0; break;                                 // +0.0
      case 1: b = sign; break;                              // -0.0
      case 2: b = exponent_all; break;                      // +inf
      case 3: b = static_cast<Bits>(exponent_all | sign); break; // -inf
      case 4: b = static_cast<Bits>(exponent_all | 1 | (r >> 20 & 0xff)); break; // +NaN
      case 5: b = static_cast<Bits>(exponent_all | sign | 3); break;            // -NaN
      case 6: b = 1; break;                                 // smallest denormal
      default: b = static_cast<Bits>(sign | 1); break;
    }
    Key k;
    memcpy(&k, &b, sizeof(Key));
    return k;
  }
};

template <class Key, class Bits>
thrust::device_vector<Key> special_vector(std::size_t n, std::uint64_t seed)
{
  return sweep_test::generated_vector<Key>(n, special_values<Key, Bits>{seed});
}

template <class Key, class Bits, class Compare>
void check_all_sizes(Compare comp, const char* name)
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : sweep_test::sizes())
  {
    sweep_test::check_keys(special_vector<Key, Bits>(n, seed + n), comp, std::string(name) + " specials");
  }
}

} // namespace

TEST_CASE("sort float keys with special values matches thrust", "[sort][keys][float]")
{
  check_all_sizes<float, std::uint32_t>(thrust::less<float>(), "float less");
  check_all_sizes<float, std::uint32_t>(thrust::greater<float>(), "float greater");
#if CCCL_VERSION >= 2006000
  // Before CCCL 2.6 Thrust merge-sorts under cuda::std comparators (sweep then runs Thrust's sort), and
  // CUB 2.5's merge sort built by nvcc 13 faults on keys with NaNs (compute-sanitizer on the H200).
  check_all_sizes<float, std::uint32_t>(cuda::std::less<void>(), "float less<void>");
#endif
}

TEST_CASE("sort double keys with special values matches thrust", "[sort][keys][float]")
{
  check_all_sizes<double, std::uint64_t>(thrust::less<double>(), "double less");
#if CCCL_VERSION >= 2006000 // as above
  check_all_sizes<double, std::uint64_t>(cuda::std::greater<double>(), "double greater");
#else
  check_all_sizes<double, std::uint64_t>(thrust::greater<double>(), "double greater");
#endif
}

TEST_CASE("sort __half and __nv_bfloat16 keys matches thrust", "[sort][keys][float]")
{
#if CCCL_VERSION < 2007000
  // Thrust before CCCL 2.7 merge-sorts 16-bit floats (and so does sweep, which radix-sorts only
  // where Thrust does); built by nvcc 13 for sm_90, CUB 2.5's merge kernel reads shared memory out of
  // bounds on these keys, which hold NaNs (compute-sanitizer on the H200): no reference to compare with.
  WARN("skipped: CCCL " << CCCL_MAJOR_VERSION << "." << CCCL_MINOR_VERSION
                        << " merge-sorts __half; its kernel faults when built by nvcc 13");
  return;
#endif
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : sweep_test::sizes())
  {
    // Random bit patterns cover every class of 16-bit value, including both zeros and NaNs.
    thrust::device_vector<std::uint16_t> bits = sweep_test::random_vector<std::uint16_t>(n, seed + n);
    thrust::device_vector<__half> h(n);
    thrust::device_vector<__nv_bfloat16> b(n);
    if (n > 0)
    {
      REQUIRE(cudaMemcpy(thrust::raw_pointer_cast(h.data()), thrust::raw_pointer_cast(bits.data()), n * 2,
                         cudaMemcpyDeviceToDevice) == cudaSuccess);
      REQUIRE(cudaMemcpy(thrust::raw_pointer_cast(b.data()), thrust::raw_pointer_cast(bits.data()), n * 2,
                         cudaMemcpyDeviceToDevice) == cudaSuccess);
    }
    sweep_test::check_keys(h, thrust::less<__half>(), "half less");
    sweep_test::check_keys(h, thrust::greater<__half>(), "half greater");
    sweep_test::check_keys(b, thrust::less<__nv_bfloat16>(), "bfloat16 less");
  }
}

TEST_CASE("upfront histogram: floating-point keys not 16-byte aligned, and in chunks of 8 columns", "[sort][histogram]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::check_offsets<float>(thrust::greater<float>(), seed);
  sweep_test::check_offsets<double>(thrust::less<double>(), seed);
  const sweep_test::narrow_histogram narrow;
  sweep_test::check_chunks<float>((std::size_t(1) << 20) + 1, 4, thrust::less<float>(), seed + 5);
  sweep_test::check_chunks<double>((std::size_t(1) << 21) + 3, 1, cuda::std::greater<double>(), seed + 6);
}
