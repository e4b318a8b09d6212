// The scans through every kind of iterator, under every sweep policy form, on each schedule, and
// past 2^31 items.
#include "scan_test.cuh"
#include "common/counting_allocator.cuh"

#include <thrust/copy.h>
#include <thrust/equal.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>
#include <thrust/system_error.h>
#include <cuda_runtime_api.h>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <string>
#include <thread>
#include <sweep/detail/scan/dispatch.cuh>
#include <sweep/detail/util/device_info.hpp>
#include <thrust/mismatch.h>
#include <utility>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// Scans on sweep::par against thrust::device over every kind of iterator: counting, transform,
// constant, zip (a tuple operator), reverse in and out, discard, permutation out, raw and device
// pointers (misaligned starts: the vector load and store paths' heads and tails), in place, and an
// output of another value type than the input (Thrust's accumulator type decides the result).

#if CCCL_VERSION >= 3004000
#  include <cuda/iterator>
#endif

#include <cstdint>


namespace
{

// Thrust's constant_iterator; from CCCL 3.4 on it is deprecated for libcu++'s, which the test then uses.
#if CCCL_VERSION >= 3004000
using constant_int = ::cuda::constant_iterator<int>;
#else
using constant_int = thrust::constant_iterator<int>;
#endif

//! Sizes around the u32 tile of the kernels over fancy iterators, and of the contiguous inputs'
//! kernel (a function: listing the tests must not touch the GPU).
std::vector<std::size_t> iterator_sizes()
{
  const std::size_t tile       = scan_tile<std::uint32_t, false>();
  const std::size_t contiguous = scan_tile<std::uint32_t, true>();
  return {0, 1, 33, tile - 1, tile + 1, contiguous - 1, contiguous + 1, 37 * tile + 11, 1000003};
}

struct mod_1000
{
  __host__ __device__ int operator()(std::uint32_t x) const
  {
    return static_cast<int>(x % 1000u);
  }
};

//! (sum of the ints, maximum of the floats): exact, so Thrust's bits are the reference.
struct sum_and_max
{
  __host__ __device__ thrust::tuple<int, float> operator()(const thrust::tuple<int, float>& a,
                                                           const thrust::tuple<int, float>& b) const
  {
    const float fa = thrust::get<1>(a), fb = thrust::get<1>(b);
    return thrust::make_tuple(thrust::get<0>(a) + thrust::get<0>(b), fa > fb ? fa : fb);
  }
};

} // namespace

TEST_CASE("scan of counting, transform and constant iterators", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const thrust::counting_iterator<std::uint32_t> count(7u);
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, count, count + static_cast<std::ptrdiff_t>(n), o);
    }, scan_label("counting_iterator inclusive", n));

    const auto data   = random_vector<std::uint32_t>(n, test_seed() + 1);
    const auto mapped = thrust::make_transform_iterator(data.begin(), mod_1000{});
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, mapped, mapped + static_cast<std::ptrdiff_t>(n), o, -5);
    }, scan_label("transform_iterator exclusive", n));

    const constant_int three(3);
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, three, three + static_cast<std::ptrdiff_t>(n), o);
    }, scan_label("constant_iterator inclusive", n));
  }
  // The constant's scan is known: 3, 6, 9, ...
  const std::size_t n = iterator_sizes().back();
  thrust::device_vector<int> out(n);
  const constant_int three(3);
  thrust::inclusive_scan(sweep::par, three, three + static_cast<std::ptrdiff_t>(n), out.begin());
  REQUIRE(thrust::equal(thrust::device, out.begin(), out.end(),
                        thrust::make_transform_iterator(thrust::counting_iterator<int>(1), thrust::placeholders::_1 * 3)));
}

TEST_CASE("scan of a zip iterator of (int, float) under a tuple operator, into a zip iterator", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto ints   = random_vector<int>(n, test_seed() + 2);
    const auto floats = random_vector<float>(n, test_seed() + 3);
    thrust::device_vector<int> ei(n + 4), ai(n + 4);
    thrust::device_vector<float> ef(n + 4), af(n + 4);
    poison(ei);
    poison(ai);
    poison(ef);
    poison(af);
    const auto in    = thrust::make_zip_iterator(ints.begin(), floats.begin());
    const auto e_out = thrust::make_zip_iterator(ei.begin(), ef.begin());
    const auto a_out = thrust::make_zip_iterator(ai.begin(), af.begin());
    const auto e_end = thrust::inclusive_scan(thrust::device, in, in + static_cast<std::ptrdiff_t>(n), e_out, sum_and_max{});
    const auto a_end = thrust::inclusive_scan(sweep::par, in, in + static_cast<std::ptrdiff_t>(n), a_out, sum_and_max{});
    REQUIRE(static_cast<std::size_t>(e_end - e_out) == n);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
    require_bitwise_equal(ei, ai, n, scan_label("zip ints", n));
    require_bitwise_equal(ef, af, n, scan_label("zip floats", n));
    require_poison_intact(ai, n, scan_label("zip ints", n));
    require_poison_intact(af, n, scan_label("zip floats", n));
  }
}

TEST_CASE("scan through reverse iterators in and out", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 4);
    const auto rin  = thrust::make_reverse_iterator(data.end());
    // Reverse input, forward output.
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, rin, rin + static_cast<std::ptrdiff_t>(n), o);
    }, scan_label("reverse input inclusive", n));
    // Forward input, reverse output (a suffix scan read backwards): the returned iterator is rout + n.
    thrust::device_vector<std::uint32_t> expected(n + 4), actual(n + 4);
    poison(expected);
    poison(actual);
    auto e_rout = thrust::make_reverse_iterator(expected.begin() + static_cast<std::ptrdiff_t>(n));
    auto a_rout = thrust::make_reverse_iterator(actual.begin() + static_cast<std::ptrdiff_t>(n));
    const auto e_end = thrust::exclusive_scan(thrust::device, rin, rin + static_cast<std::ptrdiff_t>(n), e_rout, 9u);
    const auto a_end = thrust::exclusive_scan(sweep::par, rin, rin + static_cast<std::ptrdiff_t>(n), a_rout, 9u);
    REQUIRE(static_cast<std::size_t>(e_end - e_rout) == n);
    REQUIRE(static_cast<std::size_t>(a_end - a_rout) == n);
    require_bitwise_equal(expected, actual, n, scan_label("reverse in and out exclusive", n));
    require_poison_intact(actual, n, scan_label("reverse in and out exclusive", n));
  }
}

TEST_CASE("scan into a discard_iterator returns its end", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 5);
    thrust::discard_iterator<> out;
    CHECK(static_cast<std::size_t>(thrust::inclusive_scan(sweep::par, data.begin(), data.end(), out) - out) == n);
    CHECK(static_cast<std::size_t>(thrust::exclusive_scan(sweep::par, data.begin(), data.end(), out, 1u) - out) == n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
}

TEST_CASE("scan into a permutation_iterator", "[scan][iterators]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 6);
    // A random permutation: 0..n-1 sorted by random keys.
    auto keys = random_vector<std::uint64_t>(n, test_seed() + 7);
    thrust::device_vector<std::uint32_t> perm(n);
    thrust::sequence(thrust::device, perm.begin(), perm.end());
    thrust::sort_by_key(thrust::device, keys.begin(), keys.end(), perm.begin());
    thrust::device_vector<std::uint32_t> expected(n + 4), actual(n + 4);
    poison(expected);
    poison(actual);
    auto e_out = thrust::make_permutation_iterator(expected.begin(), perm.begin());
    auto a_out = thrust::make_permutation_iterator(actual.begin(), perm.begin());
    const auto e_end = thrust::inclusive_scan(thrust::device, data.begin(), data.end(), e_out, op_maximum<std::uint32_t>());
    const auto a_end = thrust::inclusive_scan(sweep::par, data.begin(), data.end(), a_out, op_maximum<std::uint32_t>());
    REQUIRE(static_cast<std::size_t>(e_end - e_out) == n);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
    require_bitwise_equal(expected, actual, n, scan_label("permutation output", n));
    require_poison_intact(actual, n, scan_label("permutation output", n));
  }
}

TEST_CASE("scan on raw pointers and device_ptr, and raw pointers of misaligned starts", "[scan][iterators][alignment]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto data     = random_vector<std::uint32_t>(n, test_seed() + 8);
    const std::uint32_t* raw = thrust::raw_pointer_cast(data.data());
    const thrust::device_ptr<const std::uint32_t> dptr = data.data();
    // The returned pointers, as offsets from the output's start, become iterators of the output.
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      std::uint32_t* out = thrust::raw_pointer_cast(&*o);
      return o + (thrust::inclusive_scan(p, raw, raw + n, out) - out);
    }, scan_label("raw pointers inclusive", n));
    check_scan_against_thrust<std::uint32_t>(sweep::par, n, [&](auto p, auto o) {
      const thrust::device_ptr<std::uint32_t> out = &*o;
      return o + (thrust::exclusive_scan(p, dptr, dptr + static_cast<std::ptrdiff_t>(n), out, 3u) - out);
    }, scan_label("device_ptr exclusive", n));
  }
}

namespace
{

//! Raw pointers at offsets from a 256-byte aligned allocation, in and out: sizes around a tile, both
//! scan kinds.
template <class T>
void misaligned(const char* name)
{
  const std::size_t tile = scan_tile<T>();
  // Integers up to latency_end items run a latency tile (plan.hpp, pick_latency_tile); past it the
  // tuned tile, in order while its tiles are fewer than the device's blocks, and at 600 tiles blocks
  // looping over tiles.
  const std::size_t past = latency_end<T>() + 5;
  const auto data        = random_vector<T>(600 * tile + 64, test_seed() + 9 + sizeof(T));
  for (std::size_t in_offset : {1u, 3u})
  {
    for (std::size_t out_offset : {0u, 1u, 3u})
    {
      for (std::size_t n : {std::size_t(1), std::size_t(17), tile - in_offset, 3 * tile - 9, past, 600 * tile + 5})
      {
        const std::string what = scan_label(std::string(name) + " in+" + std::to_string(in_offset) + " out+"
                                              + std::to_string(out_offset), n);
        const T* first = thrust::raw_pointer_cast(data.data()) + in_offset;
        thrust::device_vector<T> expected(n + out_offset + 4), actual(n + out_offset + 4);
        poison(expected);
        poison(actual);
        T* e_out          = thrust::raw_pointer_cast(expected.data()) + out_offset;
        T* a_out          = thrust::raw_pointer_cast(actual.data()) + out_offset;
        const T* e_end    = thrust::inclusive_scan(thrust::device, first, first + n, e_out);
        const T* a_end    = thrust::inclusive_scan(sweep::par, first, first + n, a_out);
        REQUIRE(static_cast<std::size_t>(e_end - e_out) == n);
        REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
        require_bitwise_equal(expected, actual, n + out_offset, what + " inclusive");
        require_poison_intact(actual, n + out_offset, what + " inclusive");
        poison(actual);
        thrust::exclusive_scan(thrust::device, first, first + n, e_out, T(5));
        a_end = thrust::exclusive_scan(sweep::par, first, first + n, a_out, T(5));
        REQUIRE(static_cast<std::size_t>(a_end - a_out) == n);
        require_bitwise_equal(expected, actual, n + out_offset, what + " exclusive");
        require_poison_intact(actual, n + out_offset, what + " exclusive");
      }
    }
  }
}

} // namespace

TEST_CASE("scan of misaligned 1 and 2-byte raw pointers (vector paths' heads and tails)", "[scan][iterators][alignment]")
{
  misaligned<std::uint8_t>("u8");
  misaligned<std::uint16_t>("u16");
}

TEST_CASE("scan in place (output == input), inclusive and exclusive, up to many tiles", "[scan][iterators]")
{
  const std::size_t tile = scan_tile<std::uint32_t>();
  for (std::size_t n : {std::size_t(1), std::size_t(1000), tile, tile + 1, 37 * tile + 11, 400 * tile + 3})
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 10);
    for (bool inclusive : {true, false})
    {
      const std::string what = scan_label(inclusive ? "in place inclusive" : "in place exclusive", n);
      thrust::device_vector<std::uint32_t> expected(n), actual = data;
      std::uint32_t* a   = thrust::raw_pointer_cast(actual.data());
      const auto a_end   = inclusive ? thrust::inclusive_scan(sweep::par, actual.begin(), actual.end(), actual.begin())
                                     : thrust::exclusive_scan(sweep::par, actual.begin(), actual.end(), actual.begin(), 11u);
      if (inclusive)
      {
        thrust::inclusive_scan(thrust::device, data.begin(), data.end(), expected.begin());
      }
      else
      {
        thrust::exclusive_scan(thrust::device, data.begin(), data.end(), expected.begin(), 11u);
      }
      REQUIRE(a_end == actual.end());
      require_bitwise_equal(expected, actual, n, what);
      // Raw pointers, in place, the other kind.
      thrust::copy(thrust::device, data.begin(), data.end(), actual.begin());
      const std::uint32_t* r_end = inclusive ? thrust::exclusive_scan(sweep::par, a, a + n, a, 11u)
                                             : thrust::inclusive_scan(sweep::par, a, a + n, a);
      REQUIRE(r_end == a + n);
      if (inclusive)
      {
        thrust::exclusive_scan(thrust::device, data.begin(), data.end(), expected.begin(), 11u);
      }
      else
      {
        thrust::inclusive_scan(thrust::device, data.begin(), data.end(), expected.begin());
      }
      require_bitwise_equal(expected, actual, n, what + " (raw pointers, other kind)");
    }
  }
}

TEST_CASE("scan into another value type: Thrust's accumulator type decides the result", "[scan][iterators][types]")
{
  for (std::size_t n : iterator_sizes())
  {
    const auto ints  = random_vector<int>(n, test_seed() + 11);
    const auto bytes = random_vector<std::uint8_t>(n, test_seed() + 12);
    // int input into float and double: Thrust accumulates in int (the input's value type), so the sums
    // are exact integers, converted at the store.
    check_scan_against_thrust<float>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, ints.begin(), ints.end(), o);
    }, scan_label("int into float inclusive", n));
    check_scan_against_thrust<double>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, ints.begin(), ints.end(), o);
    }, scan_label("int into double exclusive", n));
    // uint8 input into int: without an initial value Thrust accumulates in uint8 (wrapping at 256);
    // with an int initial value, in int.
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, bytes.begin(), bytes.end(), o);
    }, scan_label("u8 into int inclusive", n));
    check_scan_against_thrust<int>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, bytes.begin(), bytes.end(), o, 0);
    }, scan_label("u8 into int exclusive, int init", n));
  }
}

// --------------------------------------------------------------------------------------------------
// Scans under every sweep policy form: .on(stream), the allocator form (temporary storage from the
// allocator), par_nosync not blocking the host, CUDA graph capture under par_nosync (also the first
// call of a kernel, on a fresh thread), n = 0 launching nothing, and an error left pending by an
// earlier unrelated call.

namespace
{

//! Inclusive and exclusive u32 sums of `data` on `policy` and its stream, against thrust::device:
//! the results are checked after synchronizing that stream only.
template <class Policy>
void check_on_stream(Policy policy, cudaStream_t stream, const thrust::device_vector<std::uint32_t>& data,
                     const std::string& what)
{
  const std::size_t n = data.size();
  thrust::device_vector<std::uint32_t> expected(n), inclusive(n + 4), exclusive(n + 4);
  poison(inclusive);
  poison(exclusive);
  const auto i_end = thrust::inclusive_scan(policy, data.begin(), data.end(), inclusive.begin());
  const auto e_end = thrust::exclusive_scan(policy, data.begin(), data.end(), exclusive.begin(), 5u);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  REQUIRE(static_cast<std::size_t>(i_end - inclusive.begin()) == n);
  REQUIRE(static_cast<std::size_t>(e_end - exclusive.begin()) == n);
  thrust::inclusive_scan(thrust::device, data.begin(), data.end(), expected.begin());
  require_bitwise_equal(expected, inclusive, n, scan_label(what + " inclusive", n));
  require_poison_intact(inclusive, n, scan_label(what + " inclusive", n));
  thrust::exclusive_scan(thrust::device, data.begin(), data.end(), expected.begin(), 5u);
  require_bitwise_equal(expected, exclusive, n, scan_label(what + " exclusive", n));
  require_poison_intact(exclusive, n, scan_label(what + " exclusive", n));
}

std::vector<std::size_t> policy_sizes()
{
  const std::size_t tile = scan_tile<std::uint32_t>();
  return {1, 1000, tile + 1, 300 * tile + 7};
}

} // namespace

TEST_CASE("scan runs on the policy's stream: par.on, par_nosync.on, par, par_nosync", "[scan][policy]")
{
  stream_guard s;
  for (std::size_t n : policy_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + n);
    check_on_stream(sweep::par.on(s.stream), s.stream, data, "par.on(stream)");
    check_on_stream(sweep::par_nosync.on(s.stream), s.stream, data, "par_nosync.on(stream)");
    check_on_stream(sweep::par, cudaStream_t{}, data, "par");
    check_on_stream(sweep::par_nosync, cudaStream_t{}, data, "par_nosync");
  }
}

TEST_CASE("scan takes its temporary storage from the policy's allocator", "[scan][policy][allocator]")
{
  stream_guard s;
  allocation_counts counts;
  counting_allocator<char> alloc(&counts);
  for (std::size_t n : policy_sizes())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 2 * n);
    const long before = counts.allocations.load();
    check_on_stream(sweep::par(alloc), cudaStream_t{}, data, "par(alloc)");
    check_on_stream(sweep::par(alloc).on(s.stream), s.stream, data, "par(alloc).on(stream)");
    check_on_stream(sweep::par_nosync(alloc).on(s.stream), s.stream, data, "par_nosync(alloc).on(stream)");
    INFO("n = " << n);
    if (n > scan_tile<std::uint32_t>())
    {
      CHECK(counts.allocations.load() > before); // many tiles: the tile state comes from the allocator
    }
    CHECK(counts.allocations.load() == counts.deallocations.load());
    CHECK(counts.live_bytes.load() == 0);
  }
}

namespace
{

//! Spins for `ns` nanoseconds of the GPU's global timer.
__global__ void spin_kernel(unsigned long long ns)
{
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do
  {
    __nanosleep(10000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

} // namespace

TEST_CASE("par_nosync scans do not block the host; par scans do", "[scan][policy][nosync]")
{
  stream_guard s;
  const std::size_t n = std::size_t(1) << 24;
  const auto data     = random_vector<std::uint32_t>(n, test_seed() + 3);
  thrust::device_vector<std::uint32_t> expected(n), out(n);
  thrust::inclusive_scan(thrust::device, data.begin(), data.end(), expected.begin());
  // Warm-up: the kernel is loaded and the stream's memory pool holds the call's storage.
  thrust::inclusive_scan(sweep::par_nosync.on(s.stream), data.begin(), data.end(), out.begin());
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  poison(out);

  spin_kernel<<<1, 1, 0, s.stream>>>(100ull * 1000 * 1000); // 100 ms
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const auto end = thrust::inclusive_scan(sweep::par_nosync.on(s.stream), data.begin(), data.end(), out.begin());
  CHECK(cudaStreamQuery(s.stream) == cudaErrorNotReady); // the spin is still running: the call did not wait
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  REQUIRE(end == out.end());
  require_bitwise_equal(expected, out, n, "par_nosync after a spinning kernel");

  // sweep::par synchronizes as thrust::cuda::par does: the stream is idle when the call returns.
  poison(out);
  spin_kernel<<<1, 1, 0, s.stream>>>(20ull * 1000 * 1000);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  thrust::inclusive_scan(sweep::par.on(s.stream), data.begin(), data.end(), out.begin());
  CHECK(cudaStreamQuery(s.stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  require_bitwise_equal(expected, out, n, "par after a spinning kernel");
}

namespace
{

//! Operators of the graph tests only: their kernels run nowhere else in this binary, so the first
//! capture is also the first call of these kernels.
struct graph_plus
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a + b;
  }
};
struct graph_xor
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a ^ b;
  }
};

//! What a capture on another thread left: the graph, or why there is none.
struct captured
{
  cudaGraph_t graph{};
  std::string error;
};

//! Captures an inclusive (graph_plus) and an exclusive (graph_xor, init 0x55) scan of in[0, n) into
//! inc and exc on `stream` in `mode`, on a fresh host thread (its per-thread state made anew, as on a
//! user's first call). Catch2's assertions are not thread-safe: the thread only records.
captured capture_scans(cudaStream_t stream, cudaStreamCaptureMode mode, const std::uint32_t* in, std::size_t n,
                       std::uint32_t* inc, std::uint32_t* exc)
{
  captured result;
  std::thread worker([&] {
    if (cudaStreamBeginCapture(stream, mode) != cudaSuccess)
    {
      result.error = "cudaStreamBeginCapture failed";
      return;
    }
    try
    {
      std::uint32_t* i_end = thrust::inclusive_scan(sweep::par_nosync.on(stream), in, in + n, inc, graph_plus{});
      std::uint32_t* e_end = thrust::exclusive_scan(sweep::par_nosync.on(stream), in, in + n, exc, 0x55u, graph_xor{});
      if (i_end != inc + n || e_end != exc + n)
      {
        result.error = "a captured scan returned the wrong end";
      }
    }
    catch (const std::exception& e)
    {
      result.error = std::string("a captured scan threw: ") + e.what();
    }
    cudaGraph_t graph{};
    const cudaError_t status = cudaStreamEndCapture(stream, &graph);
    if (status != cudaSuccess)
    {
      result.error += std::string(" cudaStreamEndCapture: ") + cudaGetErrorString(status);
    }
    result.graph = graph;
    (void) cudaGetLastError();
  });
  worker.join();
  return result;
}

} // namespace

TEST_CASE("par_nosync scans can be captured into a CUDA graph and relaunched on new input", "[scan][policy][graph]")
{
  stream_guard s;
  const std::size_t tile = scan_tile<std::uint32_t>();
  for (auto mode : {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal})
  {
    // Up to latency_end items a latency tile (plan.hpp, pick_latency_tile): the small one, then the
    // wide one; past it the tuned tile, at 300 tiles blocks looping over tiles.
    const std::size_t to  = latency_switch<std::uint32_t>();
    const std::size_t end = latency_end<std::uint32_t>();
    for (std::size_t n : {std::size_t(1), std::size_t(1000), to - 3, end - 3, end + 3, 300 * tile + 3})
    {
      INFO("capture mode " << static_cast<int>(mode) << ", n = " << n);
      thrust::device_vector<std::uint32_t> in(n, 1u), inc(n + 4), exc(n + 4), expected(n);
      captured c = capture_scans(s.stream, mode, thrust::raw_pointer_cast(in.data()), n,
                                 thrust::raw_pointer_cast(inc.data()), thrust::raw_pointer_cast(exc.data()));
      INFO(c.error);
      REQUIRE(c.error.empty());
      REQUIRE(c.graph != nullptr);
      cudaGraphExec_t exec{};
      REQUIRE(cudaGraphInstantiate(&exec, c.graph, 0) == cudaSuccess);
      for (int launch = 0; launch < 3; ++launch)
      {
        INFO("launch " << launch);
        // New values in the same input buffer before each launch.
        const auto fresh = random_vector<std::uint32_t>(n, test_seed() + 100 * n + static_cast<std::uint64_t>(launch));
        thrust::copy(thrust::device, fresh.begin(), fresh.end(), in.begin());
        poison(inc);
        poison(exc);
        REQUIRE(cudaGraphLaunch(exec, s.stream) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
        thrust::inclusive_scan(thrust::device, in.begin(), in.end(), expected.begin(), graph_plus{});
        require_bitwise_equal(expected, inc, n, scan_label("graph inclusive", n));
        require_poison_intact(inc, n, scan_label("graph inclusive", n));
        thrust::exclusive_scan(thrust::device, in.begin(), in.end(), expected.begin(), 0x55u, graph_xor{});
        require_bitwise_equal(expected, exc, n, scan_label("graph exclusive", n));
        require_poison_intact(exc, n, scan_label("graph exclusive", n));
      }
      REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
      REQUIRE(cudaGraphDestroy(c.graph) == cudaSuccess);
    }
  }
}

TEST_CASE("scan of n = 0 returns the output iterator and launches nothing", "[scan][policy]")
{
  stream_guard s;
  thrust::device_vector<std::uint32_t> in(16, 1u), out(16);
  poison(out);
  std::uint32_t* first = thrust::raw_pointer_cast(in.data());
  std::uint32_t* result = thrust::raw_pointer_cast(out.data());
  REQUIRE(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  std::uint32_t* i_end = thrust::inclusive_scan(sweep::par_nosync.on(s.stream), first, first, result);
  std::uint32_t* e_end = thrust::exclusive_scan(sweep::par_nosync.on(s.stream), first, first, result, 3u);
  cudaGraph_t graph{};
  REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
  std::size_t nodes = 1;
  REQUIRE(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
  CHECK(nodes == 0);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(i_end == result);
  CHECK(e_end == result);
  CHECK(thrust::inclusive_scan(sweep::par, in.begin(), in.begin(), out.begin()) == out.begin());
  CHECK(thrust::exclusive_scan(sweep::par, in.begin(), in.begin(), out.begin()) == out.begin());
  require_poison_intact(out, 0, "n = 0");
}

namespace
{

__global__ void empty_kernel() {}

//! Leaves a non-sticky error pending in the calling thread: a launch with too many threads a block.
void leave_stale_error()
{
  empty_kernel<<<1, 4096>>>();
  REQUIRE(cudaPeekAtLastError() != cudaSuccess);
}

} // namespace

TEST_CASE("an error left pending by an earlier call is reported before the scan enqueues anything", "[scan][policy][errors]")
{
  const std::size_t tile = scan_tile<std::uint32_t>();
  for (std::size_t n : {std::size_t(1000), 50 * tile + 3})
  {
    INFO("n = " << n);
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 4);
    thrust::device_vector<std::uint32_t> out(n), expected(n);
    poison(out);
    leave_stale_error();
    REQUIRE_THROWS_AS(thrust::inclusive_scan(sweep::par, data.begin(), data.end(), out.begin()), thrust::system_error);
    REQUIRE(cudaPeekAtLastError() == cudaSuccess); // taken by the throw
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    require_poison_intact(out, 0, "the refused scan wrote nothing");
    leave_stale_error();
    REQUIRE_THROWS_AS(thrust::exclusive_scan(sweep::par_nosync, data.begin(), data.end(), out.begin(), 1u),
                      thrust::system_error);
    REQUIRE(cudaPeekAtLastError() == cudaSuccess);
    // The next scan runs.
    thrust::inclusive_scan(sweep::par, data.begin(), data.end(), out.begin());
    thrust::inclusive_scan(thrust::device, data.begin(), data.end(), expected.begin());
    require_bitwise_equal(expected, out, n, "scan after the stale error");
  }
}

// --------------------------------------------------------------------------------------------------
// The scan's two schedules of the single-pass pipeline (lookback/pipeline.cuh), each forced on inputs
// where the tuning would pick the other: the specialised one (producer warp, bulk copies into slots,
// look-back warp) at edge sizes of one and a few tiles and the in-order one where blocks loop over
// many tiles, against stock Thrust bitwise for exact types (integers, a non-commutative operator on
// 16-byte values) and, for floating point, against the tuned kernel (the same tile, so the same
// association: bitwise equal) and the long double bound. Both run on more tiles than blocks, in place,
// inclusive and exclusive, with and without an initial value.

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

//! Schedule S against Thrust on data[offset, offset + n), into a poisoned output and in place (at the
//! same offset from an aligned allocation).
template <class T, schedule_choice S, class Mode, class Op>
void exact_case(const thrust::device_vector<T>& data, std::size_t n, Op op, T init, const std::string& what,
                std::size_t offset = 0)
{
  const std::string label =
    what + " n=" + std::to_string(n) + " " + schedule_name(S) + (offset ? " input+" + std::to_string(offset) : "");
  INFO(label << ", seed = " << test_seed());
  thrust::device_vector<T> expected(n + 4), actual(n + 4);
  poison(expected);
  poison(actual);
  const T* in = thrust::raw_pointer_cast(data.data()) + offset;
  thrust_scan<Mode>(in, n, thrust::raw_pointer_cast(expected.data()), op, init);
  sweep_scan_forced<T, S, Mode>(in, n, thrust::raw_pointer_cast(actual.data()), op, init);
  require_bitwise_equal(expected, actual, n, label);
  require_poison_intact(actual, n, label);
  // In place: the output is the input.
  thrust::device_vector<T> in_place(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(offset + n));
  T* raw = thrust::raw_pointer_cast(in_place.data()) + offset;
  sweep_scan_forced<T, S, Mode>(raw, n, raw, op, init);
  const thrust::device_vector<T> in_place_result(in_place.begin() + static_cast<std::ptrdiff_t>(offset),
                                                 in_place.end());
  require_bitwise_equal(expected, in_place_result, n, label + " in place");
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

// --------------------------------------------------------------------------------------------------
// The latency tiles (plan.hpp, tuned_latency, tuned_latency_wide and pick_latency_tile; dispatch.cuh):
// scans of integers where a call is one tile's latency run smaller in-order tiles. Their edges and the
// sizes around the switches, against Thrust; which kernel a call launches, read from a captured graph.

namespace
{

//! A few latency tiles (`around_switch` false: small enough for the sanitizers: one item, the lone
//! small and wide tiles' edges, a few small tiles, and one tuned tile and one item), or around the
//! switches: the most items that run the small tile (one an SM: latency_switch) and one more (the
//! wide tile where it is smaller than the tuned one), the most that run a latency tile (latency_end)
//! and one item and one small tile more (the tuned tile).
template <class T, class Op>
void latency_all_modes(Op op, T init, const std::string& what, bool around_switch)
{
  const std::size_t small = latency_tile<T>();
  const std::size_t wide  = latency_tile<T, true>();
  const std::size_t tuned = scan_tile<T>();
  const std::size_t to    = latency_switch<T>();
  const std::size_t end   = latency_end<T>();
  REQUIRE(small < wide);
  REQUIRE(small < tuned);
  REQUIRE(tuned + 1 < to);
  const std::vector<std::size_t> sizes =
    around_switch ? std::vector<std::size_t>{to - 1, to, to + 1, end, end + 1, end + small + 1}
                  : std::vector<std::size_t>{1, small - 1, small, small + 1, wide, wide + 1, 3 * small - 5, tuned + 1};
  const auto data = random_vector<T>(*std::max_element(sizes.begin(), sizes.end()), test_seed() + 360 + sizeof(T));
  for (std::size_t n : sizes)
  {
    exact_case<T, schedule_choice::tuned, inclusive>(data, n, op, init, what + " inclusive");
#if CCCL_VERSION >= 2007000 // inclusive_scan with an initial value: not in Thrust before 2.7
    exact_case<T, schedule_choice::tuned, inclusive_init>(data, n, op, init, what + " inclusive with init");
#endif
    exact_case<T, schedule_choice::tuned, exclusive>(data, n, op, init, what + " exclusive");
  }
}

} // namespace

TEST_CASE("scan of integers at a few tiles runs the latency tiles: their edges match thrust", "[scan][latency]")
{
  latency_all_modes<std::uint32_t>(op_plus<>{}, 7u, "u32 plus", false);
  latency_all_modes<std::int64_t>(op_maximum<>{}, std::int64_t(-5), "i64 maximum", false);
  latency_all_modes<std::uint8_t>(op_bit_xor<>{}, std::uint8_t(3), "u8 bit_xor", false);
}

namespace
{

struct captured_kernel
{
  const void* func = nullptr;
  unsigned grid    = 0;
  unsigned block   = 0;
};

//! The kernel, grid and block of the one kernel node of a graph captured (relaxed) around a u32 plus
//! scan of n items through dispatch under par_nosync on `stream` (after one uncaptured call, which
//! finds the kernels' launch data).
captured_kernel captured_scan_launch(cudaStream_t stream, const std::uint32_t* in, std::size_t n, std::uint32_t* out)
{
  auto policy = sweep::par_nosync.on(stream);
  sc::dispatch<std::uint32_t, inclusive, sc::tuned, schedule_choice::tuned>(policy, in, n, out, op_plus<>{}, 0u, "test");
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) == cudaSuccess);
  sc::dispatch<std::uint32_t, inclusive, sc::tuned, schedule_choice::tuned>(policy, in, n, out, op_plus<>{}, 0u, "test");
  cudaGraph_t graph{};
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  std::size_t count = 0;
  REQUIRE(cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess);
  std::vector<cudaGraphNode_t> nodes(count);
  REQUIRE(cudaGraphGetNodes(graph, nodes.data(), &count) == cudaSuccess);
  std::vector<captured_kernel> kernels;
  for (cudaGraphNode_t node : nodes)
  {
    cudaGraphNodeType type{};
    REQUIRE(cudaGraphNodeGetType(node, &type) == cudaSuccess);
    if (type == cudaGraphNodeTypeKernel)
    {
      cudaKernelNodeParams params{};
      REQUIRE(cudaGraphKernelNodeGetParams(node, &params) == cudaSuccess);
      kernels.push_back({params.func, params.gridDim.x, params.blockDim.x});
    }
  }
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
  REQUIRE(kernels.size() == 1);
  return kernels.front();
}

} // namespace

TEST_CASE("a scan of integers launches the small latency tile, then the wide one, then the tuned tile",
          "[scan][latency]")
{
  stream_guard s;
  using T  = std::uint32_t;
  using Op = op_plus<>;
  const void* small_kernel =
    reinterpret_cast<const void*>(&sc::scan_kernel<T, inclusive, sc::tuned_latency, schedule_choice::tuned, const T*, T*, Op>);
  const void* wide_kernel = reinterpret_cast<const void*>(
    &sc::scan_kernel<T, inclusive, sc::tuned_latency_wide, schedule_choice::tuned, const T*, T*, Op>);
  const void* tuned_kernel =
    reinterpret_cast<const void*>(&sc::scan_kernel<T, inclusive, sc::tuned, schedule_choice::tuned, const T*, T*, Op>);
  REQUIRE(small_kernel != tuned_kernel);
  REQUIRE(wide_kernel != tuned_kernel);
  REQUIRE(small_kernel != wide_kernel);
  const sc::tile_dims small_dims = sc::tile_dims_for<T, sc::tuned_latency, true>(tuned_arch());
  const sc::tile_dims wide_dims  = sc::tile_dims_for<T, sc::tuned_latency_wide, true>(tuned_arch());
  const sc::tile_dims tuned_dims = sc::tile_dims_for<T, sc::tuned, true>(tuned_arch());
  const std::size_t small        = small_dims.tile_items;
  const std::size_t wide         = wide_dims.tile_items;
  const std::size_t tuned        = tuned_dims.tile_items;
  const std::size_t to           = latency_switch<T>();
  const std::size_t end          = latency_end<T>();
  REQUIRE(small < wide);
  REQUIRE(wide < tuned);
  REQUIRE(end == wide * (to / small));
  const auto data = random_vector<T>(end + 1, test_seed() + 380);
  thrust::device_vector<T> out(end + 1);
  const T* in = thrust::raw_pointer_cast(data.data());
  T* o        = thrust::raw_pointer_cast(out.data());
  struct expect
  {
    std::size_t n;
    const void* func;
    std::size_t tile;
    int block;
  };
  // A lone small tile, a lone wide one; past the wide tile small tiles up to one an SM; wide ones up
  // to one an SM; past that the tuned kernel (its tiles fewer than its blocks: in order, a block a
  // tile).
  for (const expect& e : {expect{1, small_kernel, small, small_dims.block_threads},
                          expect{small, small_kernel, small, small_dims.block_threads},
                          expect{small + 1, wide_kernel, wide, wide_dims.block_threads},
                          expect{wide, wide_kernel, wide, wide_dims.block_threads},
                          expect{wide + 1, small_kernel, small, small_dims.block_threads},
                          expect{tuned + 1, small_kernel, small, small_dims.block_threads},
                          expect{to, small_kernel, small, small_dims.block_threads},
                          expect{to + 1, wide_kernel, wide, wide_dims.block_threads},
                          expect{end, wide_kernel, wide, wide_dims.block_threads},
                          expect{end + 1, tuned_kernel, tuned, tuned_dims.block_threads}})
  {
    INFO("n = " << e.n);
    const captured_kernel k = captured_scan_launch(s.stream, in, e.n, o);
    CHECK(k.func == e.func);
    CHECK(k.grid == static_cast<unsigned>((e.n + e.tile - 1) / e.tile));
    CHECK(k.block == static_cast<unsigned>(e.block));
  }
}

TEST_CASE("scan of integers around the switches between the latency tiles and the tuned tile matches thrust",
          "[scan][latency][large]")
{
  latency_all_modes<std::uint32_t>(op_plus<>{}, 7u, "u32 plus", true);
  latency_all_modes<std::int64_t>(op_maximum<>{}, std::int64_t(-5), "i64 maximum", true);
  latency_all_modes<std::uint8_t>(op_bit_xor<>{}, std::uint8_t(3), "u8 bit_xor", true);
}

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

namespace
{

//! A misaligned contiguous input on the specialised schedule (input+1, +2, +3 items: 4, 8 and 12 bytes
//! past a 16-byte boundary for 4-byte items, 8 for 8-byte ones): its tiles are copied with the chunks
//! around them, tile 0 and a last full tile whose chunks pass the input's end are loaded by the tile
//! threads. Forced at a few tiles (the sizes put the end at a tile's end, one, three and five items
//! past it), tuned where blocks loop over many tiles (the schedule the tuning then takes), against
//! Thrust into a poisoned output and in place.
template <class T, class Op>
void misaligned_specialized(std::initializer_list<std::size_t> offsets, bool many_tiles, Op op, T init,
                            const std::string& what)
{
  const std::size_t tile = forced_tile<T, schedule_choice::specialized>();
  const std::size_t sms  = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  const std::size_t many = 9 * sms * tile;
  const auto data        = random_vector<T>((many_tiles ? many : 7 * tile) + 16, test_seed() + 360 + sizeof(T));
  for (std::size_t offset : offsets)
  {
    if (!many_tiles)
    {
      for (std::size_t n : {tile, tile + 1, 2 * tile, 3 * tile + 1, 3 * tile + 3, 4 * tile + 5, 7 * tile})
      {
        exact_case<T, schedule_choice::specialized, exclusive>(data, n, op, init, what + " exclusive", offset);
        exact_case<T, schedule_choice::specialized, inclusive>(data, n, op, init, what + " inclusive", offset);
      }
      continue;
    }
    for (std::size_t n : {many, many + 3})
    {
      exact_case<T, schedule_choice::tuned, exclusive>(data, n, op, init, what + " exclusive", offset);
      exact_case<T, schedule_choice::tuned, inclusive>(data, n, op, init, what + " inclusive", offset);
    }
  }
}

//! Floats from a misaligned input give the bits of the same items from an aligned one: the tiles stay
//! where they were (item t * tile_items on), whatever the input's alignment, so every result's
//! association does too.
template <class T>
void misaligned_float(std::initializer_list<std::size_t> offsets, const std::string& what)
{
  const std::size_t tile = forced_tile<T, schedule_choice::specialized>();
  const std::size_t sms  = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  const std::size_t n    = 9 * sms * tile + 7;
  const auto data        = random_vector<T>(n + 16, test_seed() + 380 + sizeof(T));
  for (std::size_t offset : offsets)
  {
    const std::string label = what + " n=" + std::to_string(n) + " input+" + std::to_string(offset);
    INFO(label << ", seed = " << test_seed());
    const thrust::device_vector<T> aligned(data.begin() + static_cast<std::ptrdiff_t>(offset), data.end());
    thrust::device_vector<T> from_aligned(n + 4), from_misaligned(n + 4);
    poison(from_aligned);
    poison(from_misaligned);
    const T* a_in = thrust::raw_pointer_cast(aligned.data());
    const T* m_in = thrust::raw_pointer_cast(data.data()) + offset;
    REQUIRE(reinterpret_cast<std::uintptr_t>(a_in) % 16 == 0);
    REQUIRE(reinterpret_cast<std::uintptr_t>(m_in) % 16 != 0);
    thrust::exclusive_scan(sweep::par, a_in, a_in + n, thrust::raw_pointer_cast(from_aligned.data()), T(0.5));
    thrust::exclusive_scan(sweep::par, m_in, m_in + n, thrust::raw_pointer_cast(from_misaligned.data()), T(0.5));
    require_bitwise_equal(from_aligned, from_misaligned, n, label + " against the aligned input");
    require_poison_intact(from_misaligned, n, label);
    const thrust::host_vector<T> host_in(aligned.begin(), aligned.begin() + static_cast<std::ptrdiff_t>(n));
    const thrust::host_vector<T> host_out(from_misaligned.begin(),
                                          from_misaligned.begin() + static_cast<std::ptrdiff_t>(n));
    require_within_bound<T>(host_in, host_out, n, false, true, T(0.5), label);
  }
}

} // namespace

TEST_CASE("scan of misaligned 4- and 8-byte raw pointers, specialised schedule forced at a few tiles: matches thrust",
          "[scan][schedule][alignment]")
{
  misaligned_specialized<std::uint32_t>({1, 2, 3}, false, op_plus<>{}, 7u, "u32 plus");
  misaligned_specialized<std::int64_t>({1}, false, op_maximum<>{}, std::int64_t(-5), "i64 maximum");
}

TEST_CASE("scan of misaligned 4- and 8-byte raw pointers over many tiles a block: matches thrust, and floats give "
          "the aligned input's bits",
          "[scan][schedule][alignment][slow]")
{
  misaligned_specialized<std::uint32_t>({1, 2, 3}, true, op_plus<>{}, 7u, "u32 plus");
  misaligned_specialized<std::int64_t>({1}, true, op_maximum<>{}, std::int64_t(-5), "i64 maximum");
  misaligned_float<float>({1, 2, 3}, "float exclusive");
  misaligned_float<double>({1}, "double exclusive");
}

TEST_CASE("scan, in-order schedule forced where blocks loop over many tiles: matches thrust", "[scan][schedule]")
{
  exact_all_modes<std::uint32_t, schedule_choice::in_order>(op_plus<>{}, 7u, "u32 plus");
  exact_all_modes<affine16, schedule_choice::in_order>(compose16{}, affine16{3, 1}, "affine16 compose");
}

// A partial tile (the last) ends at every place within a thread's 16-byte row: the sizes end the
// items at each item of a row, at a row's and a warp's row's ends and just past them, in a lone
// partial tile and in one after a full tile; each schedule with its own tile (the tuned choice runs
// the small latency tile there), and the in-order tiles of 1-, 2- and 8-byte items. agent.cuh's
// partial path loads the rows wholly before n as vectors and patches the row that n cuts
// (docs/design/scan.md, variants, "The partial tile's rows").

namespace
{

//! row_cut_sizes (scan_test.cuh) of a lone partial tile and of one after a full tile, in order.
std::vector<std::size_t> first_tiles_row_cuts(std::size_t tile, std::size_t vec)
{
  std::vector<std::size_t> sizes = row_cut_sizes(0, tile, vec);
  const std::vector<std::size_t> second = row_cut_sizes(tile, tile, vec);
  sizes.insert(sizes.end(), second.begin(), second.end());
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

template <class T, schedule_choice S, class Op>
void row_cuts(std::size_t tile, Op op, T init, const std::string& what)
{
  const std::size_t vec = 16 / sizeof(T) > 0 ? 16 / sizeof(T) : 1;
  const auto sizes      = first_tiles_row_cuts(tile, vec);
  const auto data       = random_vector<T>(2 * tile, test_seed() + 390 + sizeof(T));
  for (std::size_t n : sizes)
  {
    exact_case<T, S, inclusive>(data, n, op, init, what + " inclusive");
    exact_case<T, S, exclusive>(data, n, op, init, what + " exclusive");
  }
}

//! Floats: the first n results of a scan of n items are the bits of the first n results of a scan of
//! the same items and a tile more (the association depends on the tile shape alone), so a partial
//! tile's path gives the full tile's bits.
template <class T>
void row_cuts_float(const std::string& what)
{
  const std::size_t tile = scan_tile<T>();
  const auto sizes       = first_tiles_row_cuts(tile, 16 / sizeof(T));
  const auto data        = random_vector<T>(3 * tile, test_seed() + 395 + sizeof(T));
  const T* in            = thrust::raw_pointer_cast(data.data());
  thrust::device_vector<T> longer(3 * tile);
  for (bool exclusive_form : {false, true})
  {
    if (exclusive_form)
    {
      thrust::exclusive_scan(sweep::par, in, in + 3 * tile, thrust::raw_pointer_cast(longer.data()), T(0.5));
    }
    else
    {
      thrust::inclusive_scan(sweep::par, in, in + 3 * tile, thrust::raw_pointer_cast(longer.data()));
    }
    for (std::size_t n : sizes)
    {
      const std::string label = what + (exclusive_form ? " exclusive" : " inclusive") + " n=" + std::to_string(n);
      INFO(label << ", seed = " << test_seed());
      thrust::device_vector<T> out(n + 4);
      poison(out);
      if (exclusive_form)
      {
        thrust::exclusive_scan(sweep::par, in, in + n, thrust::raw_pointer_cast(out.data()), T(0.5));
      }
      else
      {
        thrust::inclusive_scan(sweep::par, in, in + n, thrust::raw_pointer_cast(out.data()));
      }
      require_bitwise_equal(longer, out, n, label + " against the first n of a longer scan");
      require_poison_intact(out, n, label);
    }
  }
}

} // namespace

TEST_CASE("a partial tile that ends at every place within a row matches thrust (each schedule, in place)",
          "[scan][partial]")
{
  row_cuts<std::uint32_t, schedule_choice::in_order>(forced_tile<std::uint32_t, schedule_choice::in_order>(),
                                                     op_plus<>{}, 7u, "u32 plus in order");
  row_cuts<std::uint32_t, schedule_choice::specialized>(forced_tile<std::uint32_t, schedule_choice::specialized>(),
                                                        op_plus<>{}, 7u, "u32 plus specialised");
  row_cuts<std::uint32_t, schedule_choice::tuned>(latency_tile<std::uint32_t>(), op_plus<>{}, 7u,
                                                  "u32 plus latency tile");
  row_cuts<std::int64_t, schedule_choice::specialized>(forced_tile<std::int64_t, schedule_choice::specialized>(),
                                                       op_maximum<>{}, std::int64_t(-5), "i64 maximum specialised");
  row_cuts<std::int64_t, schedule_choice::tuned>(latency_tile<std::int64_t>(), op_maximum<>{}, std::int64_t(-5),
                                                 "i64 maximum latency tile");
  row_cuts<std::uint8_t, schedule_choice::tuned>(latency_tile<std::uint8_t>(), op_bit_xor<>{}, std::uint8_t(3),
                                                 "u8 bit_xor latency tile");
  row_cuts<std::uint8_t, schedule_choice::in_order>(forced_tile<std::uint8_t, schedule_choice::in_order>(), op_plus<>{},
                                                    std::uint8_t(9), "u8 plus in order");
  row_cuts<std::uint16_t, schedule_choice::in_order>(forced_tile<std::uint16_t, schedule_choice::in_order>(),
                                                     op_plus<>{}, std::uint16_t(9), "u16 plus in order");
  row_cuts<std::uint64_t, schedule_choice::in_order>(forced_tile<std::uint64_t, schedule_choice::in_order>(),
                                                     op_plus<>{}, std::uint64_t(9), "u64 plus in order");
  row_cuts<affine16, schedule_choice::in_order>(forced_tile<affine16, schedule_choice::in_order>(), compose16{},
                                                affine16{3, 1}, "affine16 compose in order");
  row_cuts_float<float>("float");
  row_cuts_float<double>("double");
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

// --------------------------------------------------------------------------------------------------
// Scans past 2^31 items (64-bit tile indices, offsets and counts) against thrust::device, compared on
// the device (thrust::mismatch names the first difference; nothing of that size goes to the host).

namespace
{

//! Runs form(thrust::device, ...) and form(sweep::par, ...) over n random T into outputs of n + 64
//! (the sweep one poisoned) and requires the same end, the same n outputs and the poison after them.
template <class T, class Form>
void past_2_31(std::size_t n, std::uint64_t seed, Form form, const char* what)
{
  if (!device_has_memory(3 * n * sizeof(T) + 256))
  {
    WARN("skipped " << what << ": not enough device memory");
    return;
  }
  INFO(what << ", n = " << n << ", seed = " << test_seed());
  thrust::device_vector<T> expected(n + 64), actual(n + 64);
  {
    const auto data = random_vector<T>(n, seed);
    poison(actual);
    const auto e_end = form(thrust::device, data.begin(), data.end(), expected.begin());
    const auto a_end = form(sweep::par, data.begin(), data.end(), actual.begin());
    REQUIRE(static_cast<std::size_t>(e_end - expected.begin()) == n);
    REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == n);
  }
  const auto first_difference = thrust::mismatch(thrust::device, expected.begin(),
                                                 expected.begin() + static_cast<std::ptrdiff_t>(n), actual.begin());
  if (first_difference.first != expected.begin() + static_cast<std::ptrdiff_t>(n))
  {
    const std::size_t i = static_cast<std::size_t>(first_difference.first - expected.begin());
    FAIL("first mismatch at index " << i << ": expected " << describe(static_cast<T>(expected[i])) << ", got "
                                    << describe(static_cast<T>(actual[i])));
  }
  require_poison_intact(actual, n, what);
}

} // namespace

TEST_CASE("scan past 2^31 items matches thrust (u8 inclusive, u32 exclusive)", "[scan][large]")
{
  past_2_31<std::uint8_t>((std::size_t(1) << 31) + 12345, test_seed() + 1, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o); // wraps mod 256, in both
  }, "u8 inclusive plus");
  past_2_31<std::uint32_t>((std::size_t(1) << 31) + 77, test_seed() + 2, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o);
  }, "u32 exclusive plus");
}
