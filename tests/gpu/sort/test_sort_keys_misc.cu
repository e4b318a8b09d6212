// Sorts of integer and floating-point keys; the sort's other cases, and its tuning.
#include "histogram_checks.cuh"
#include "sort_test_common.cuh"

#include <cuda/std/functional>
#include <cuda/version>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <limits>
#include <common/counting_allocator.cuh>
#include <sweep/detail/sort/dispatch.cuh>
#include <thrust/equal.h>
#include <thrust/sequence.h>
#include <new>
#include <sweep/detail/sort/kernels.cuh>
#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/sort/tuning.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// sweep::par sort of integer keys (1, 2, 4, 8 bytes, signed and unsigned, bool) against thrust::device.

namespace
{

template <class Key, class Compare>
void check_all_sizes(Compare comp, const char* name)
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : sweep_test::sizes())
  {
    sweep_test::check_keys(sweep_test::random_vector<Key>(n, seed + n), comp, std::string(name) + " random");
    sweep_test::check_keys(sweep_test::few_valued_vector<Key>(n, 3, seed ^ n), comp,
                                std::string(name) + " three values");
  }
}

} // namespace

TEST_CASE("sort uint32 keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::uint32_t>(thrust::less<std::uint32_t>(), "uint32 less");
  check_all_sizes<std::uint32_t>(thrust::greater<std::uint32_t>(), "uint32 greater");
}

TEST_CASE("sort int32 keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::int32_t>(thrust::less<std::int32_t>(), "int32 less");
  check_all_sizes<std::int32_t>(cuda::std::greater<void>(), "int32 greater<void>");
}

TEST_CASE("sort 64-bit keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::uint64_t>(thrust::less<std::uint64_t>(), "uint64 less");
  check_all_sizes<std::int64_t>(thrust::greater<std::int64_t>(), "int64 greater");
}

TEST_CASE("sort 8- and 16-bit keys matches thrust", "[sort][keys]")
{
  check_all_sizes<std::uint8_t>(thrust::less<std::uint8_t>(), "uint8 less");
  check_all_sizes<std::int8_t>(thrust::greater<std::int8_t>(), "int8 greater");
  check_all_sizes<std::uint16_t>(cuda::std::less<void>(), "uint16 less<void>");
  check_all_sizes<std::int16_t>(thrust::less<std::int16_t>(), "int16 less");
}

TEST_CASE("sort bool keys matches thrust", "[sort][keys]")
{
  check_all_sizes<bool>(thrust::less<bool>(), "bool less");
  check_all_sizes<bool>(thrust::greater<bool>(), "bool greater");
}

TEST_CASE("upfront histogram: integer keys not 16-byte aligned", "[sort][histogram]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::check_offsets<std::uint8_t>(thrust::less<std::uint8_t>(), seed);
  sweep_test::check_offsets<std::int8_t>(thrust::greater<std::int8_t>(), seed);
  sweep_test::check_offsets<std::uint16_t>(cuda::std::less<void>(), seed);
  sweep_test::check_offsets<std::uint32_t>(thrust::greater<std::uint32_t>(), seed);
  sweep_test::check_offsets<std::uint64_t>(thrust::less<std::uint64_t>(), seed);
  sweep_test::check_offsets<std::int64_t>(thrust::greater<std::int64_t>(), seed);
}

TEST_CASE("upfront histogram: blocks that count integer keys in several chunks", "[sort][histogram]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  // One block of 1024 threads, 32 columns: a chunk is 510 rounds of 16-byte vectors of 4-byte keys
  // (2^23 keys: five chunks), 126 of 1-byte keys (2^22: three), 1022 of 8-byte keys (2^22: three);
  // two blocks, 254 rounds of 2-byte keys (2^23: three); one key a round from a misaligned start,
  // 2046 rounds (2^21 + 5: two).
  sweep_test::check_chunks<std::uint32_t>(std::size_t(1) << 23, 1, thrust::less<std::uint32_t>(), seed);
  sweep_test::check_chunks<std::uint32_t>(std::size_t(1) << 23, 1, thrust::greater<std::uint32_t>(), seed + 9);
  sweep_test::check_chunks<std::uint8_t>(std::size_t(1) << 22, 1, thrust::less<std::uint8_t>(), seed);
  sweep_test::check_chunks<std::int8_t>(std::size_t(1) << 22, 1, thrust::greater<std::int8_t>(), seed);
  sweep_test::check_chunks<std::uint16_t>(std::size_t(1) << 23, 2, cuda::std::less<void>(), seed);
  sweep_test::check_chunks<std::uint64_t>((std::size_t(1) << 22) + 17, 1, thrust::less<std::uint64_t>(), seed);
  {
    const sweep_test::hook_setting<unsigned> held(sweep::detail::sort_impl::histogram_grid_limit(), 1);
    sweep_test::check_offset<std::uint32_t>((std::size_t(1) << 21) + 5, 1, thrust::less<std::uint32_t>(), seed);
  }
  // 8 columns: 254 rounds of 8-byte keys (2^22 + 17: nine chunks), 30 of 1-byte keys (2^22: nine).
  const sweep_test::narrow_histogram narrow;
  sweep_test::check_chunks<std::int64_t>((std::size_t(1) << 22) + 17, 1, thrust::greater<std::int64_t>(), seed + 3);
  sweep_test::check_chunks<std::uint8_t>(std::size_t(1) << 22, 1, thrust::less<std::uint8_t>(), seed + 4);
}

TEST_CASE("upfront histogram, small enough for compute-sanitizer: both column counts, a misaligned start, "
          "chunks",
          "[sort][histogram][san]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::check_offset<std::uint32_t>(5000, 1, thrust::less<std::uint32_t>(), seed); // 8 columns, one key a round
  sweep_test::check_offset<std::uint64_t>(sweep_test::small_shape_max + 1, 2, thrust::less<std::uint64_t>(),
                                          seed); // 32 columns
  const sweep_test::narrow_histogram narrow;
  const sweep_test::hook_setting<unsigned> held(sweep::detail::sort_impl::histogram_grid_limit(), 1);
  // 8 columns, one block: 30 rounds of 16 one-byte keys a chunk, so 2^20 + 3 keys take three.
  sweep_test::check_keys(sweep_test::random_vector<std::uint8_t>((std::size_t(1) << 20) + 3, seed),
                         thrust::less<std::uint8_t>(), "one block, 8 columns");
}

// --------------------------------------------------------------------------------------------------
// sweep::par sort of floating-point keys (float, double, __half, __nv_bfloat16) against
// thrust::device, with -0.0/+0.0, NaNs of both signs and infinities mixed in.

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

// --------------------------------------------------------------------------------------------------
// sweep::par sort: policy forms, patterns (sorted, reverse, all equal, skewed), pass skipping on and
// off, repeatability, Thrust fallbacks, allocation failure, and one input past 2^31 keys.

namespace
{

struct by_low_byte // a custom comparator: Thrust's merge sort
{
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const
  {
    return (a & 0xff) < (b & 0xff);
  }
};

struct custom_key
{
  int major, minor;
};
struct custom_less
{
  __host__ __device__ bool operator()(const custom_key& a, const custom_key& b) const
  {
    return a.major < b.major;
  }
};

struct half_one_value
{
  std::uint64_t seed;
  __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
  {
    const std::uint64_t r = sweep_test::mix64(i ^ sweep_test::mix64(seed));
    return (r & 1) ? 12345u : static_cast<std::uint32_t>(r >> 32);
  }
};

struct refuse_allocator : thrust::device_allocator<char>
{
  using pointer    = thrust::device_allocator<char>::pointer;
  using size_type  = std::size_t;
  using value_type = char;
  pointer allocate(size_type)
  {
    throw std::bad_alloc();
  }
  void deallocate(pointer, size_type) {}
};

} // namespace

TEST_CASE("sort patterns: sorted, reverse, all equal, skewed, small range", "[sort][patterns]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : {std::size_t(5000), std::size_t(200000), std::size_t(3) << 20})
  {
    thrust::device_vector<std::uint32_t> v(n);
    thrust::sequence(thrust::device, v.begin(), v.end());
    sweep_test::check_keys(v, thrust::less<std::uint32_t>(), "sorted");
    sweep_test::check_keys(v, thrust::greater<std::uint32_t>(), "reverse sorted");
    thrust::fill(thrust::device, v.begin(), v.end(), 7u);
    sweep_test::check_keys(v, thrust::less<std::uint32_t>(), "all equal");
    thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed);
    sweep_test::check_pairs(v, values, thrust::less<std::uint32_t>(), "all equal pairs");
    v = sweep_test::generated_vector<std::uint32_t>(n, half_one_value{seed});
    sweep_test::check_pairs(v, values, thrust::less<std::uint32_t>(), "half one value");
    sweep_test::check_keys(sweep_test::few_valued_vector<std::uint32_t>(n, 4, seed), thrust::less<std::uint32_t>(),
                                "four values");
    thrust::device_vector<std::uint32_t> small = sweep_test::random_vector<std::uint16_t>(n, seed + 1);
    sweep_test::check_pairs(small, values, thrust::less<std::uint32_t>(), "keys below 2^16");
  }
}

TEST_CASE("pass skipping on and off give the same result", "[sort][skip]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  // Past pass_skip_min_keys, so that "on" really skips the six trivial passes.
  const std::size_t n      = (std::size_t(1) << 22) + 12345;
  thrust::device_vector<std::uint64_t> keys = sweep_test::random_vector<std::uint16_t>(n, seed);
  thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed + 1);
  {
    const sweep_test::hook_setting<bool> off(sweep::detail::sort_impl::pass_skipping_enabled(), false);
    sweep_test::check_pairs(keys, values, thrust::less<std::uint64_t>(), "skipping off");
  }
  sweep_test::check_pairs(keys, values, thrust::less<std::uint64_t>(), "skipping on");
  sweep_test::check_pairs(keys, values, thrust::greater<std::uint64_t>(), "skipping on, greater");
}

TEST_CASE("sort gives identical output 100 times", "[sort][repeat]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = (std::size_t(1) << 22) + 77;
  const thrust::device_vector<std::uint32_t> keys = sweep_test::few_valued_vector<std::uint32_t>(n, 1000, seed);
  thrust::device_vector<std::uint32_t> positions(n);
  thrust::sequence(thrust::device, positions.begin(), positions.end());
  thrust::device_vector<std::uint32_t> first_keys = keys, first_positions = positions;
  thrust::sort_by_key(sweep::par, first_keys.begin(), first_keys.end(), first_positions.begin());
  thrust::host_vector<std::uint32_t> hk = first_keys, hp = first_positions;
  for (int r = 0; r < 100; ++r)
  {
    thrust::device_vector<std::uint32_t> k = keys, p = positions;
    thrust::sort_by_key(sweep::par, k.begin(), k.end(), p.begin());
    thrust::host_vector<std::uint32_t> rk = k, rp = p;
    INFO("repeat " << r);
    REQUIRE(rk == hk);
    REQUIRE(rp == hp);
  }
}

TEST_CASE("every policy form sorts", "[sort][policy]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 300001;
  const thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<std::uint32_t> expected    = input;
  thrust::sort(thrust::device, expected.begin(), expected.end());
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  sweep_test::allocation_counts counts;
  sweep_test::counting_allocator<char> alloc(&counts);
  auto run = [&](auto policy, const char* name, bool needs_sync) {
    thrust::device_vector<std::uint32_t> v = input;
    thrust::sort(policy, v.begin(), v.end());
    if (needs_sync)
    {
      REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    }
    sweep_test::require_bitwise_equal(expected, v, n, name);
    thrust::device_vector<std::uint32_t> s = input;
    thrust::stable_sort(policy, s.begin(), s.end(), thrust::less<std::uint32_t>());
    if (needs_sync)
    {
      REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    }
    sweep_test::require_bitwise_equal(expected, s, n, std::string(name) + " stable_sort");
  };
  run(sweep::par, "par", false);
  run(sweep::par.on(stream), "par.on", false);
  run(sweep::par_nosync, "par_nosync", true);
  run(sweep::par_nosync.on(stream), "par_nosync.on", true);
  run(sweep::par(alloc), "par(alloc)", false);
  run(sweep::par(alloc).on(stream), "par(alloc).on", false);
  REQUIRE(counts.allocations > 0);
  REQUIRE(counts.allocations == counts.deallocations);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("stable_sort_by_key equals sort_by_key", "[sort][stable]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 500000;
  thrust::device_vector<float> keys          = sweep_test::few_valued_vector<float>(n, 9, seed);
  thrust::device_vector<std::uint32_t> values = sweep_test::random_vector<std::uint32_t>(n, seed + 1);
  thrust::device_vector<float> k1 = keys, k2 = keys;
  thrust::device_vector<std::uint32_t> v1 = values, v2 = values;
  thrust::stable_sort_by_key(thrust::device, k1.begin(), k1.end(), v1.begin(), thrust::greater<float>());
  thrust::stable_sort_by_key(sweep::par, k2.begin(), k2.end(), v2.begin(), thrust::greater<float>());
  sweep_test::require_bitwise_equal(k1, k2, n, "stable keys");
  sweep_test::require_bitwise_equal(v1, v2, n, "stable values");
}

TEST_CASE("custom comparators and key types fall back to Thrust's sort", "[sort][fallback]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 100000;
  thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<std::uint32_t> e = input, a = input;
  thrust::stable_sort(thrust::device, e.begin(), e.end(), by_low_byte());
  thrust::stable_sort(sweep::par, a.begin(), a.end(), by_low_byte());
  sweep_test::require_bitwise_equal(e, a, n, "custom comparator");

  thrust::host_vector<custom_key> host(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    host[i] = custom_key{static_cast<int>(sweep_test::mix64(seed + i) % 100), static_cast<int>(i)};
  }
  thrust::device_vector<custom_key> ce = host, ca = host;
  thrust::sort(thrust::device, ce.begin(), ce.end(), custom_less());
  thrust::sort(sweep::par, ca.begin(), ca.end(), custom_less());
  sweep_test::require_bitwise_equal(ce, ca, n, "custom key type");
}

TEST_CASE("allocation failure throws bad_alloc and leaves the input untouched", "[sort][errors]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 1 << 20;
  const thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<std::uint32_t> v           = input;
  refuse_allocator alloc;
  REQUIRE_THROWS_AS(thrust::sort(sweep::par(alloc), v.begin(), v.end()), std::bad_alloc);
  sweep_test::require_bitwise_equal(input, v, n, "input after bad_alloc");
}

TEST_CASE("sort past 2^31 keys", "[sort][large]")
{
  if (!sweep_test::stock_sorts_past_int_max)
  {
    WARN("skipped: CCCL " << CCCL_MAJOR_VERSION << "." << CCCL_MINOR_VERSION << " sorts at most 2^31 - 1 keys");
    return;
  }
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  if (!sweep_test::device_has_memory(n * 2 * 4))
  {
    WARN("not enough device memory; skipped");
    return;
  }
  const std::uint64_t seed = sweep_test::test_seed();
  thrust::device_vector<std::uint16_t> keys = sweep_test::random_vector<std::uint16_t>(n, seed);
  thrust::device_vector<std::uint16_t> expected = keys;
  thrust::sort(thrust::device, expected.begin(), expected.end());
  {
    const sweep_test::hook_setting<bool> off(sweep::detail::sort_impl::pass_skipping_enabled(), false);
    thrust::sort(sweep::par, keys.begin(), keys.end());
  }
  REQUIRE(thrust::is_sorted(thrust::device, keys.begin(), keys.end()));
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));
}

TEST_CASE("sort_by_key past 2^32 keys (64-bit global positions)", "[sort][large]")
{
  // Past 2^32 - 1 keys the passes address the output with 64-bit positions (below it, 32-bit);
  // 1-byte keys and values keep the test within ~40 GB of device memory. Few distinct keys: every
  // value's place depends on stability across portions and tiles.
  if (!sweep_test::stock_sorts_past_int_max)
  {
    WARN("skipped: CCCL " << CCCL_MAJOR_VERSION << "." << CCCL_MINOR_VERSION << " sorts at most 2^31 - 1 keys");
    return;
  }
  const std::size_t n = (std::size_t(1) << 32) + 4099;
  if (!sweep_test::device_has_memory(n * 10))
  {
    WARN("not enough device memory; skipped");
    return;
  }
  const std::uint64_t seed = sweep_test::test_seed();
  thrust::device_vector<std::uint8_t> keys   = sweep_test::random_vector<std::uint8_t>(n, seed);
  thrust::device_vector<std::uint8_t> values = sweep_test::random_vector<std::uint8_t>(n, seed + 1);
  thrust::device_vector<std::uint8_t> expected_keys   = keys;
  thrust::device_vector<std::uint8_t> expected_values = values;
  thrust::sort_by_key(thrust::device, expected_keys.begin(), expected_keys.end(), expected_values.begin(),
                      thrust::greater<std::uint8_t>());
  thrust::sort_by_key(sweep::par, keys.begin(), keys.end(), values.begin(), thrust::greater<std::uint8_t>());
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected_keys.begin()));
  REQUIRE(thrust::equal(thrust::device, values.begin(), values.end(), expected_values.begin()));
}

namespace
{
//! Temporary storage from one preallocated device buffer (no CUDA call in allocate or deallocate):
//! what a graph needs, since its nodes keep using the memory at every launch.
struct arena_allocator : thrust::device_allocator<char>
{
  using pointer    = thrust::device_allocator<char>::pointer;
  using size_type  = std::size_t;
  using value_type = char;
  char* base       = nullptr;
  std::size_t size = 0;
  pointer allocate(size_type n)
  {
    if (n > size)
    {
      throw std::bad_alloc();
    }
    return pointer(base);
  }
  void deallocate(pointer, size_type) {}
};

//! Spins until *flag is set or about `limit` clock cycles have passed (so a test that fails cannot hang).
__global__ void spin_until(const volatile int* flag, long long limit)
{
  const long long start = clock64();
  while (*flag == 0 && clock64() - start < limit)
  {
  }
}
} // namespace

TEST_CASE("sort and sort_by_key are captured into a CUDA graph at every size", "[sort][graph]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  thrust::device_vector<char> arena(std::size_t(256) << 20);
  arena_allocator alloc;
  alloc.base = thrust::raw_pointer_cast(arena.data());
  alloc.size = arena.size();
  // Both sides of pass_skip_min_keys (past it the device decides which passes run), and large.
  for (std::size_t n : {std::size_t(3000), sweep::detail::sort_impl::pass_skip_min_keys - 1,
                        sweep::detail::sort_impl::pass_skip_min_keys + 77, (std::size_t(1) << 22) + 77})
  {
    INFO("n = " << n);
    // Keys below 2^16: two of the four passes are trivial (skipped inside the graph past
    // pass_skip_min_keys).
    thrust::device_vector<std::uint32_t> input = sweep_test::random_vector<std::uint16_t>(n, seed + n);
    thrust::device_vector<std::uint32_t> input_values = sweep_test::random_vector<std::uint32_t>(n, seed ^ n);
    thrust::device_vector<std::uint32_t> expected = input, expected_values = input_values;
    thrust::sort_by_key(thrust::device, expected.begin(), expected.end(), expected_values.begin());
    thrust::device_vector<std::uint32_t> keys(n), values(n);

    for (int with_allocator = 0; with_allocator < 2; ++with_allocator)
    {
      cudaGraph_t graph{};
      REQUIRE(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
      // The graph restores the input first, so that every launch sorts the same unsorted data.
      // cudaMemcpyAsync, not thrust::copy: Thrust before CCCL 3.0 synchronizes after a device copy
      // even under par_nosync, which a capture forbids.
      REQUIRE(cudaMemcpyAsync(thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(input.data()),
                              n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, s.stream)
              == cudaSuccess);
      REQUIRE(cudaMemcpyAsync(thrust::raw_pointer_cast(values.data()), thrust::raw_pointer_cast(input_values.data()),
                              n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, s.stream)
              == cudaSuccess);
      if (with_allocator)
      {
        thrust::sort_by_key(sweep::par_nosync(alloc).on(s.stream), keys.begin(), keys.end(), values.begin());
      }
      else
      {
        thrust::sort_by_key(sweep::par_nosync.on(s.stream), keys.begin(), keys.end(), values.begin());
      }
      REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
      cudaGraphExec_t exec{};
      REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
      for (int launch = 0; launch < 3; ++launch)
      {
        sweep_test::poison(keys);
        sweep_test::poison(values);
        REQUIRE(cudaGraphLaunch(exec, s.stream) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
        REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));
        REQUIRE(thrust::equal(thrust::device, values.begin(), values.end(), expected_values.begin()));
      }
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
    }
  }
}

TEST_CASE("a par_nosync sort does not wait for its stream", "[sort][nosync]")
{
  sweep_test::stream_guard s;
  int* flag = nullptr;
  REQUIRE(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  *flag = 0;
  int* device_flag = nullptr;
  REQUIRE(cudaHostGetDevicePointer(&device_flag, flag, 0) == cudaSuccess);
  // Large, with trivial passes that are skipped (decided on the device, nothing read back).
  const std::size_t n = std::size_t(1) << 22;
  thrust::device_vector<std::uint32_t> keys = sweep_test::random_vector<std::uint16_t>(n, sweep_test::test_seed());
  thrust::device_vector<std::uint32_t> expected = keys;
  thrust::sort(thrust::device, expected.begin(), expected.end());
  // About 10 s at 2 GHz: the sort must return long before the kernel queued ahead of it ends.
  spin_until<<<1, 1, 0, s.stream>>>(device_flag, 20000000000ll);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  thrust::sort(sweep::par_nosync.on(s.stream), keys.begin(), keys.end());
  const cudaError_t still_running = cudaStreamQuery(s.stream);
  *flag                           = 1;
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(still_running == cudaErrorNotReady);
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));
  cudaFreeHost(flag);
}

// --------------------------------------------------------------------------------------------------
// The sort's tuning, host against device: kernels templated and bounded like the digit pass and the
// one-block sort write the tiles their code took from tuning_for<compiled_arch>; they must equal what
// the host chose for them from their PTX versions. The real kernels of the same types must get the
// same tiles from the host (pass_launch_for, single_block_launch_for), carry their block sizes in
// their launch bounds, hold their compiled blocks per SM and stay within the shared memory bound the
// tuning's limit checks were made with.

namespace
{
namespace so = sweep::detail::sort_impl;
using sweep::detail::compiled_arch;

//! What device code chose. (The three algorithms' tuning tests have the same layout on purpose; each
//! reports the fields of its own tuning struct.)
struct device_choice
{
  int arch;
  int threads;
  int items;
  int min_blocks;
  int persistent;
};

//! Templated like onesweep_pass_kernel (key, moved value, small shape) and bounded the same way.
template <class Key, class Value, bool HasValues, bool Small>
__global__ void __launch_bounds__(so::compiled_pass_shape<Key, Value, HasValues, Small>::threads,
                                  so::compiled_pass_shape<Key, Value, HasValues, Small>::min_blocks)
  report_pass(device_choice* out)
{
  using shape = so::compiled_pass_shape<Key, Value, HasValues, Small>;
  if (threadIdx.x == 0)
  {
    out->arch       = compiled_arch;
    out->threads    = shape::threads;
    out->items      = shape::items;
    out->min_blocks = shape::min_blocks;
    out->persistent = shape::persistent ? 1 : 0;
  }
}

//! Templated like single_block_sort_kernel (key, moved value bytes) and bounded the same way.
template <class Key, std::size_t ValueBytes>
__global__ void __launch_bounds__(so::single_block_shape<so::tuning_for<compiled_arch>, sizeof(Key), ValueBytes>::threads)
  report_single_block(device_choice* out)
{
  using shape = so::single_block_shape<so::tuning_for<compiled_arch>, sizeof(Key), ValueBytes>;
  if (threadIdx.x == 0)
  {
    out->arch    = compiled_arch;
    out->threads = shape::threads;
    out->items   = shape::items;
  }
}

//! The driver's shared memory reserve per block. ptxas counts it in the static shared size of sm_90
//! and newer code (cuobjdump shows 1 KiB more than the storage declared); whether
//! cudaFuncGetAttributes does is not documented, so the bound below allows it.
std::size_t reserved_shared()
{
  int device = 0, reserved = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) == cudaSuccess);
  return static_cast<std::size_t>(reserved);
}

template <auto Probe>
device_choice run_probe(int threads)
{
  thrust::device_vector<device_choice> out(1);
  Probe<<<1, threads>>>(thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  return out[0];
}

//! One real pass kernel against what device code chose for its types.
template <auto Kernel, class Key, class Value, bool HasValues, bool Small>
void check_real_pass(const device_choice& device)
{
  constexpr std::size_t vbytes = HasValues ? sizeof(Value) : 0;
  const sweep::detail::kernel_launch<so::pass_tile>& real = so::pass_launch_for<Kernel, sizeof(Key), vbytes, Small>();
  CHECK(real.arch == device.arch);
  CHECK(real.tile.threads == device.threads);
  CHECK(real.tile.items == device.items);
  CHECK(real.tile.min_blocks == device.min_blocks);
  CHECK((real.tile.persistent ? 1 : 0) == device.persistent);
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, Kernel) == cudaSuccess);
  CHECK(sweep::detail::tuning_arch(attributes.ptxVersion * 10) == real.arch);
  CHECK(attributes.maxThreadsPerBlock == real.tile.threads);
  const std::size_t wide = sizeof(Key) > vbytes ? sizeof(Key) : vbytes;
  CHECK(attributes.sharedSizeBytes <= so::pass_shared_bytes(real.tile, wide) + reserved_shared());
  int per_sm = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, real.tile.threads, 0) == cudaSuccess);
  CHECK(per_sm >= device.min_blocks);
  // Resident blocks are looked up for persistent tiles only (the most such a pass launches).
  const unsigned resident = real.tile.persistent ? static_cast<unsigned>(per_sm * sweep::detail::current_device_info().sm_count) : 0u;
  CHECK(real.resident_blocks == resident);
}

template <class Key, class Value, bool HasValues, bool Small>
void check_pass(const char* name)
{
  INFO(name << (Small ? ", small shape" : ", large shape"));
  constexpr std::size_t vbytes = HasValues ? sizeof(Value) : 0;
  constexpr auto probe         = &report_pass<Key, Value, HasValues, Small>;
  const int arch               = sweep::detail::kernel_arch<probe>();
  const so::pass_tile host     = so::pass_tile_for<sizeof(Key), vbytes, Small>(arch);
  const device_choice device   = run_probe<probe>(host.threads);
  CHECK(device.arch == arch);
  CHECK(device.threads == host.threads);
  CHECK(device.items == host.items);
  CHECK(device.min_blocks == host.min_blocks);
  CHECK(device.persistent == (host.persistent ? 1 : 0));
  // Both global-position widths, ascending and descending.
  check_real_pass<&so::onesweep_pass_kernel<Key, Value, HasValues, false, Small, std::uint32_t>, Key, Value, HasValues, Small>(device);
  check_real_pass<&so::onesweep_pass_kernel<Key, Value, HasValues, true, Small, unsigned long long>, Key, Value, HasValues, Small>(device);
}

template <class Key, class ValueIt, bool HasValues, std::size_t ValueBytes>
void check_single_block(const char* name)
{
  INFO(name);
  constexpr auto probe       = &report_single_block<Key, ValueBytes>;
  const int arch             = sweep::detail::kernel_arch<probe>();
  const so::single_block_dims host = so::single_block_dims_for<sizeof(Key), ValueBytes>(arch);
  const device_choice device = run_probe<probe>(host.threads);
  CHECK(device.arch == arch);
  CHECK(device.threads == host.threads);
  CHECK(device.threads * device.items == host.tile_items);
  constexpr auto kernel = &so::single_block_sort_kernel<Key, ValueIt, HasValues, false, ValueBytes>;
  const so::single_block_dims& real = so::single_block_launch_for<kernel, sizeof(Key), ValueBytes>();
  CHECK(real.threads == device.threads);
  CHECK(real.tile_items == device.threads * device.items);
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess);
  CHECK(sweep::detail::tuning_arch(attributes.ptxVersion * 10) == arch);
  CHECK(attributes.maxThreadsPerBlock == real.threads);
}
} // namespace

TEST_CASE("sort: the host launches each pass kernel with the tile its code was compiled with", "[sort][tuning]")
{
  INFO("device code's architecture for this binary: " << sweep_test::tuned_arch());
  check_pass<std::uint32_t, so::no_value, false, false>("u32 keys");
  check_pass<std::uint32_t, so::no_value, false, true>("u32 keys");
  check_pass<std::uint8_t, so::no_value, false, false>("u8 keys");
  check_pass<double, so::no_value, false, false>("double keys");
  check_pass<std::uint32_t, std::uint32_t, true, false>("u32/u32 pairs");
  check_pass<std::uint32_t, std::uint64_t, true, false>("u32/u64 pairs");
  check_pass<std::uint64_t, std::uint64_t, true, true>("u64/u64 pairs");
}

TEST_CASE("sort: the host launches the one-block sort with the tile its code was compiled with", "[sort][tuning]")
{
  check_single_block<std::uint32_t, so::no_value*, false, 0>("u32 keys");
  check_single_block<std::uint64_t, so::no_value*, false, 0>("u64 keys");
  check_single_block<std::uint32_t, std::uint32_t*, true, 4>("u32/u32 pairs");
  check_single_block<std::uint16_t, std::uint64_t*, true, 8>("u16/u64 pairs");
}
