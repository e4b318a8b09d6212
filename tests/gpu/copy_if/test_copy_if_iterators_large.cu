// copy_if through every kind of iterator, past 2^31 items, in graphs, and its tuning.
#include "copy_if_test.cuh"
#include "common/policy_forms.cuh"

#include <sweep/detail/copy_if/plan.hpp>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/remove.h>
#include <thrust/tuple.h>
#include <cuda_runtime_api.h>
#include <sweep/detail/util/device_info.hpp>
#include <atomic>
#include <cstring>
#include <iterator>
#include <thread>
#include <vector>
#include <thrust/equal.h>
#include <thrust/host_vector.h>
#include <sweep/copy_if.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <common/test_utils.cuh>
#include <string>
#include <sweep/detail/copy_if/kernels.cuh>
#include <sweep/detail/copy_if/tuning.hpp>
#include <sweep/detail/util/arch.hpp>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// copy_if / remove_copy_if on sweep policies against thrust::device: every overload, policy form
// and iterator kind (pointers, device_vector, counting, transform, zip, permutation, discard).

namespace
{

struct positive
{
  __host__ __device__ bool operator()(float x) const
  {
    return x > 0.0f;
  }
};

struct odd_byte
{
  __host__ __device__ bool operator()(std::uint8_t s) const
  {
    return (s & 1) != 0;
  }
};

struct square
{
  __host__ __device__ float operator()(float x) const
  {
    return x * x - 1.0f;
  }
};

struct first_positive
{
  __host__ __device__ bool operator()(const thrust::tuple<int, float>& t) const
  {
    return thrust::get<0>(t) > 0;
  }
};

struct below
{
  std::size_t bound;
  __host__ __device__ int operator()(int x) const
  {
    return static_cast<int>(static_cast<unsigned>(x) % bound);
  }
};

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data = sweep_test::random_vector<float>(n, sweep_test::test_seed() + n);
    check_against_thrust<float>(policy, data.begin(), n, positive{}, label(name, n, 50));
  }
}

} // namespace

TEST_CASE("copy_if works with every sweep policy form", "[copy_if][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
  // The allocator forms: sweep takes its temporary storage from the allocator and gives it all back.
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("copy_if works on raw pointers and device_vector iterators", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 3);
    const float* raw = thrust::raw_pointer_cast(data.data());
    check_against_thrust<float>(sweep::par, raw, n, positive{}, label("raw pointer input", n, 50));

    // Raw pointer output, device_vector input.
    thrust::device_vector<float> expected(n + 4), actual(n + 4);
    sweep_test::poison(expected);
    sweep_test::poison(actual);
    float* e_out        = thrust::raw_pointer_cast(expected.data());
    float* a_out        = thrust::raw_pointer_cast(actual.data());
    const float* e_end  = thrust::copy_if(thrust::device, data.begin(), data.end(), e_out, positive{});
    const float* a_end  = thrust::copy_if(sweep::par, data.begin(), data.end(), a_out, positive{});
    const std::size_t c = static_cast<std::size_t>(e_end - e_out);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == c);
    sweep_test::require_bitwise_equal(expected, actual, c, label("raw pointer output", n, 50));
    sweep_test::require_poison_intact(actual, c, label("raw pointer output", n, 50));
  }
}

TEST_CASE("copy_if works on counting, transform and permutation iterators", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    thrust::counting_iterator<int> count(-static_cast<int>(n / 3));
    check_against_thrust<int>(sweep::par, count, n, keep_percent<int>{50}, label("counting_iterator", n, 50));

    const auto data = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 4);
    auto squares    = thrust::make_transform_iterator(data.begin(), square{});
    check_against_thrust<float>(sweep::par, squares, n, positive{}, label("transform_iterator", n, 50));

    if (n > 0)
    {
      auto indices = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 5);
      thrust::device_vector<int> bounded(n);
      thrust::transform(indices.begin(), indices.end(), bounded.begin(), below{n});
      auto permuted = thrust::make_permutation_iterator(data.begin(), bounded.begin());
      check_against_thrust<float>(sweep::par, permuted, n, positive{}, label("permutation_iterator", n, 50));
    }
  }
}

TEST_CASE("copy_if works on zip iterators in and out", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto keys   = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 6);
    const auto values = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 7);
    thrust::device_vector<int> ek(n + 4), ak(n + 4);
    thrust::device_vector<float> ev(n + 4), av(n + 4);
    sweep_test::poison(ek);
    sweep_test::poison(ak);
    sweep_test::poison(ev);
    sweep_test::poison(av);
    auto in    = thrust::make_zip_iterator(keys.begin(), values.begin());
    auto e_out = thrust::make_zip_iterator(ek.begin(), ev.begin());
    auto a_out = thrust::make_zip_iterator(ak.begin(), av.begin());
    auto e_end = thrust::copy_if(thrust::device, in, in + n, e_out, first_positive{});
    auto a_end = thrust::copy_if(sweep::par, in, in + n, a_out, first_positive{});
    const std::size_t c = static_cast<std::size_t>(e_end - e_out);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == c);
    sweep_test::require_bitwise_equal(ek, ak, c, label("zip keys", n, 50));
    sweep_test::require_bitwise_equal(ev, av, c, label("zip values", n, 50));
    sweep_test::require_poison_intact(ak, c, label("zip keys", n, 50));
    sweep_test::require_poison_intact(av, c, label("zip values", n, 50));
  }
}

TEST_CASE("copy_if with a stencil of another type, and remove_copy_if (both forms)", "[copy_if][stencil]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data    = sweep_test::random_vector<double>(n, sweep_test::test_seed() + 8);
    const auto stencil = sweep_test::random_vector<std::uint8_t>(n, sweep_test::test_seed() + 9);
    for (int form = 0; form < 3; ++form)
    {
      thrust::device_vector<double> expected(n + 4), actual(n + 4);
      sweep_test::poison(expected);
      sweep_test::poison(actual);
      thrust::device_vector<double>::iterator e_end, a_end;
      const char* what = "";
      if (form == 0)
      {
        what  = "copy_if stencil";
        e_end = thrust::copy_if(thrust::device, data.begin(), data.end(), stencil.begin(), expected.begin(), odd_byte{});
        a_end = thrust::copy_if(sweep::par, data.begin(), data.end(), stencil.begin(), actual.begin(), odd_byte{});
      }
      else if (form == 1)
      {
        what  = "remove_copy_if stencil";
        e_end = thrust::remove_copy_if(
          thrust::device, data.begin(), data.end(), stencil.begin(), expected.begin(), odd_byte{});
        a_end = thrust::remove_copy_if(sweep::par, data.begin(), data.end(), stencil.begin(), actual.begin(), odd_byte{});
      }
      else
      {
        what  = "remove_copy_if";
        e_end = thrust::remove_copy_if(thrust::device, data.begin(), data.end(), expected.begin(), keep_percent<double>{30});
        a_end = thrust::remove_copy_if(sweep::par, data.begin(), data.end(), actual.begin(), keep_percent<double>{30});
      }
      const std::size_t c = static_cast<std::size_t>(e_end - expected.begin());
      INFO(what << " n=" << n);
      REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == c);
      sweep_test::require_bitwise_equal(expected, actual, c, label(what, n, 50));
      sweep_test::require_poison_intact(actual, c, label(what, n, 50));
    }
  }
}

TEST_CASE("copy_if into a discard_iterator returns the count", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data    = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 10);
    const auto stencil = sweep_test::random_vector<std::uint8_t>(n, sweep_test::test_seed() + 11);
    thrust::discard_iterator<> out;
    const auto expected = thrust::copy_if(thrust::device, data.begin(), data.end(), out, positive{}) - out;
    const auto actual   = thrust::copy_if(sweep::par, data.begin(), data.end(), out, positive{}) - out;
    CHECK(actual == expected);
    const auto expected_s =
      thrust::copy_if(thrust::device, data.begin(), data.end(), stencil.begin(), out, odd_byte{}) - out;
    const auto actual_s = thrust::copy_if(sweep::par, data.begin(), data.end(), stencil.begin(), out, odd_byte{}) - out;
    CHECK(actual_s == expected_s);
  }
}

namespace
{
// Thrust's own tests use predicates like this one: operator() is not const.
struct mutable_is_odd
{
  __host__ __device__ bool operator()(int x)
  {
    return (x & 1) != 0;
  }
};
} // namespace

TEST_CASE("copy_if and remove_copy_if accept predicates whose operator() is not const", "[copy_if][iterators]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 100003;
  auto input               = sweep_test::random_vector<int>(n, seed);
  thrust::device_vector<int> expected(n), actual(n);
  for (bool remove : {false, true})
  {
    INFO("remove_copy_if = " << remove << ", seed = " << seed);
    sweep_test::poison(expected);
    sweep_test::poison(actual);
    auto e = remove ? thrust::remove_copy_if(thrust::device, input.begin(), input.end(), expected.begin(), mutable_is_odd{})
                    : thrust::copy_if(thrust::device, input.begin(), input.end(), expected.begin(), mutable_is_odd{});
    auto a = remove ? thrust::remove_copy_if(sweep::par, input.begin(), input.end(), actual.begin(), mutable_is_odd{})
                    : thrust::copy_if(sweep::par, input.begin(), input.end(), actual.begin(), mutable_is_odd{});
    const std::size_t count = static_cast<std::size_t>(e - expected.begin());
    REQUIRE(static_cast<std::size_t>(a - actual.begin()) == count);
    sweep_test::require_bitwise_equal(expected, actual, count, "mutable predicate");
    sweep_test::require_poison_intact(actual, count, "mutable predicate");
  }
}

// --------------------------------------------------------------------------------------------------
// copy_if past 2^31 items (64-bit offsets and counts) and run-to-run determinism.

namespace
{

//! Byte i of the large input: a hash of i.
struct byte_of
{
  __host__ __device__ std::uint8_t operator()(std::uint64_t i) const
  {
    return static_cast<std::uint8_t>(sweep_test::mix64(i) >> 17);
  }
};

//! Keeps index i unless i % 4 == 3; output k then comes from input (k / 3) * 4 + k % 3.
struct keep_three_of_four
{
  __host__ __device__ bool operator()(std::uint64_t i) const
  {
    return i % 4 != 3;
  }
};

struct expected_byte
{
  __host__ __device__ std::uint8_t operator()(std::uint64_t k) const
  {
    return byte_of{}((k / 3) * 4 + k % 3);
  }
};

struct low_bit_set
{
  template <class T>
  __host__ __device__ bool operator()(T x) const
  {
    return (x & 1) != 0;
  }
};

} // namespace

TEST_CASE("copy_if past 2^31 items with a stencil (counts and offsets need 64 bits)", "[copy_if][large]")
{
  const std::uint64_t n        = (std::uint64_t(1) << 31) + 12345;
  const std::uint64_t selected = n - n / 4; // indices i % 4 == 3 are dropped
  if (!sweep_test::device_has_memory(2 * selected))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  thrust::counting_iterator<std::uint64_t> index(0);
  auto bytes = thrust::make_transform_iterator(index, byte_of{});
  thrust::device_vector<std::uint8_t> out(selected + 64);
  sweep_test::poison(out);
  auto end = thrust::copy_if(sweep::par, bytes, bytes + n, index, out.begin(), keep_three_of_four{});
  REQUIRE(static_cast<std::uint64_t>(end - out.begin()) == selected);
  auto expected = thrust::make_transform_iterator(index, expected_byte{});
  CHECK(thrust::equal(thrust::device, out.begin(), out.begin() + selected, expected));
  sweep_test::require_poison_intact(out, selected, "large stencil copy_if");

  thrust::discard_iterator<> discard;
  CHECK(static_cast<std::uint64_t>(thrust::copy_if(sweep::par, index, index + n, discard, keep_three_of_four{}) - discard)
        == selected);
}

namespace
{

//! Past 2^31 items of T in memory (the vector load path: 1-byte items run the pipelined schedule,
//! 2-byte items the bulk one on sm_90), public call against stock Thrust.
template <class T>
void past_2_31_in_memory(const char* name)
{
  const std::size_t n = (std::size_t(1) << 31) + 77;
  if (!sweep_test::device_has_memory(sizeof(T) * (3 * n + (n >> 1))))
  {
    WARN("skipped: not enough device memory");
    return;
  }
  const auto data = sweep_test::random_vector<T>(n, sweep_test::test_seed() + 20);
  thrust::device_vector<T> expected(n), actual(n);
  const auto e_end = thrust::copy_if(thrust::device, data.begin(), data.end(), expected.begin(), low_bit_set{});
  const auto a_end = thrust::copy_if(sweep::par, data.begin(), data.end(), actual.begin(), low_bit_set{});
  const auto count = e_end - expected.begin();
  INFO(name);
  REQUIRE(a_end - actual.begin() == count);
  CHECK(thrust::equal(thrust::device, expected.begin(), e_end, actual.begin()));
}

} // namespace

TEST_CASE("copy_if past 2^31 materialized items matches thrust", "[copy_if][large]")
{
  past_2_31_in_memory<std::uint8_t>("uint8");
  past_2_31_in_memory<std::uint16_t>("uint16");
}

TEST_CASE("copy_if with many tiles per block: looping blocks and the delayed look-back", "[copy_if][many_tiles]")
{
  // More tiles than the resident grid holds (about 4 blocks of 512 threads an SM), so blocks loop
  // over several tiles and every tile sleeps before its first poll, on a GPU of any SM count.
  const std::size_t sms     = static_cast<std::size_t>(sweep::detail::current_device_info().sm_count);
  const std::size_t float_n = 40 * sweep_test::copy_if_tile<float>() * sms + 3;
  const auto floats         = sweep_test::random_vector<float>(float_n, sweep_test::test_seed() + 31);
  for (unsigned pct : {0u, 50u, 100u})
  {
    check_against_thrust<float>(sweep::par, floats.begin() + 1, float_n - 1, keep_percent<float>{pct},
                                "float, many tiles, keep " + std::to_string(pct) + "%", 3);
  }
  const std::size_t byte_n = 12 * sweep_test::copy_if_tile<std::uint8_t>() * sms + 5;
  const auto bytes         = sweep_test::random_vector<std::uint8_t>(byte_n, sweep_test::test_seed() + 32);
  check_against_thrust<std::uint8_t>(sweep::par, bytes.begin(), byte_n, keep_percent<std::uint8_t>{50},
                                     "uint8, many tiles, keep 50%");
  const std::size_t u64_n = 20 * sweep_test::copy_if_tile<std::uint64_t>() * sms;
  const auto u64s         = sweep_test::random_vector<std::uint64_t>(u64_n, sweep_test::test_seed() + 33);
  check_against_thrust<std::uint64_t>(sweep::par, u64s.begin(), u64_n, keep_percent<std::uint64_t>{95},
                                      "uint64, many tiles, keep 95%");
}

TEST_CASE("copy_if is deterministic over 100 runs", "[copy_if][determinism]")
{
  const std::size_t n = 3000017;
  const auto data     = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 30);
  thrust::device_vector<float> first(n), again(n);
  auto pred         = keep_percent<float>{50};
  const auto f_end  = thrust::copy_if(sweep::par, data.begin(), data.end(), first.begin(), pred);
  const auto count  = f_end - first.begin();
  for (int run = 0; run < 100; ++run)
  {
    sweep_test::poison(again);
    const auto end = thrust::copy_if(sweep::par, data.begin(), data.end(), again.begin(), pred);
    INFO("run " << run);
    REQUIRE(end - again.begin() == count);
    REQUIRE(thrust::equal(thrust::device, first.begin(), f_end, again.begin()));
  }
  check_against_thrust<float>(sweep::par, data.begin(), n, pred, "determinism reference");
}

TEST_CASE("copy_if from several host threads at once: each thread's count word and buffer are its own",
          "[copy_if][threads]")
{
  // Small calls reuse per-thread storage (call_scratch.hpp): a pinned count word and a device buffer
  // for the tile state. Four threads on four streams run lone-tile, few-tile and many-tile calls at
  // the same time; every count and every output must be the one stock Thrust gives.
  const std::size_t tile = sweep_test::copy_if_tile<float>();
  const std::size_t sizes[]  = {1, 777, tile - 1, 3 * tile + 5, 37 * tile + 11, 400 * tile + 1};
  constexpr int threads      = 4;
  constexpr int rounds       = 5;
  std::vector<thrust::device_vector<float>> inputs;
  std::vector<thrust::host_vector<float>> expected;
  for (std::size_t i = 0; i < std::size(sizes); ++i)
  {
    inputs.push_back(sweep_test::random_vector<float>(sizes[i], sweep_test::test_seed() + 40 + i));
    thrust::device_vector<float> out(sizes[i]);
    const auto end = thrust::copy_if(thrust::device, inputs[i].begin(), inputs[i].end(), out.begin(), keep_percent<float>{50});
    expected.emplace_back(out.begin(), end);
  }
  std::atomic<int> mismatches{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
  {
    pool.emplace_back([&, t] {
      try
      {
        cudaStream_t stream{};
        if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess)
        {
          ++errors;
          return;
        }
        for (int r = 0; r < rounds; ++r)
        {
          for (std::size_t k = 0; k < std::size(sizes); ++k)
          {
            const std::size_t i = (k + static_cast<std::size_t>(t + r)) % std::size(sizes); // threads interleave sizes
            thrust::device_vector<float> out(sizes[i] + 4, -1.0f);
            const auto end = thrust::copy_if(sweep::par.on(stream), inputs[i].begin(), inputs[i].end(), out.begin(),
                                             keep_percent<float>{50});
            const thrust::host_vector<float> got(out.begin(), out.end());
            const std::size_t count = static_cast<std::size_t>(end - out.begin());
            bool same = count == expected[i].size();
            for (std::size_t j = 0; same && j < count; ++j)
            {
              same = std::memcmp(&got[j], &expected[i][j], sizeof(float)) == 0;
            }
            for (std::size_t j = count; same && j < got.size(); ++j)
            {
              same = got[j] == -1.0f; // nothing written at or after the returned end
            }
            if (!same)
            {
              ++mismatches;
            }
          }
        }
        (void) cudaStreamDestroy(stream);
      }
      catch (...)
      {
        ++errors;
      }
    });
  }
  for (auto& th : pool)
  {
    th.join();
  }
  CHECK(errors.load() == 0);
  CHECK(mismatches.load() == 0);
}

TEST_CASE("copy_if still works after cudaDeviceReset (its per-thread storage is made anew)", "[copy_if][reset]")
{
  // A reset frees every allocation of the old context, including the thread's count word and
  // buffer, which sweep must then not use. Every test case makes its own device data, so the cases
  // that Catch2 happens to run after this one do not mind the reset.
  const std::size_t tile = sweep_test::copy_if_tile<float>();
  for (int generation = 0; generation < 3; ++generation)
  {
    for (std::size_t n : {std::size_t(100), 5 * tile + 7})
    {
      const auto data = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 50 + n);
      check_against_thrust<float>(sweep::par, data.begin(), n, keep_percent<float>{50},
                                  label("after reset", n, 50) + " generation " + std::to_string(generation));
    }
    REQUIRE(cudaDeviceReset() == cudaSuccess);
  }
}

// --------------------------------------------------------------------------------------------------
// copy_if returns its count to the host, so it cannot run inside a CUDA graph capture (stock
// Thrust's cannot either): sweep refuses it with a clear error before enqueuing anything, so the
// capture stays valid and the rest of the graph still works.

namespace
{
struct is_odd
{
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};
} // namespace

TEST_CASE("copy_if inside a graph capture throws a clear error and leaves the capture valid", "[copy_if][graph]")
{
  sweep_test::stream_guard s;
  thrust::device_vector<int> in(100000, 3), out(100000), marker(16, 0);
  for (auto mode : {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed})
  {
    INFO("capture mode " << static_cast<int>(mode));
    REQUIRE(cudaStreamBeginCapture(s.stream, mode) == cudaSuccess);
    std::string message;
    try
    {
      thrust::copy_if(sweep::par_nosync.on(s.stream), in.begin(), in.end(), out.begin(), is_odd{});
    }
    catch (const thrust::system_error& e)
    {
      message = e.what();
    }
    INFO(message);
    REQUIRE(message.find("cannot be captured into a CUDA graph") != std::string::npos);
    REQUIRE(cudaPeekAtLastError() == cudaSuccess);
    // The capture goes on: other work is recorded and runs when the graph is launched.
    thrust::fill(thrust::cuda::par_nosync.on(s.stream), marker.begin(), marker.end(), 7);
    cudaGraph_t graph{};
    REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
    cudaGraphExec_t exec{};
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    thrust::fill(thrust::device, marker.begin(), marker.end(), 0);
    REQUIRE(cudaGraphLaunch(exec, s.stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(marker[15] == 7);
    REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
    REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
  }
  // And outside a capture it works again on the same stream.
  auto end = thrust::copy_if(sweep::par.on(s.stream), in.begin(), in.end(), out.begin(), is_odd{});
  REQUIRE(end - out.begin() == 100000);
}

// --------------------------------------------------------------------------------------------------
// copy_if's tuning, host against device: a kernel templated and bounded like select_kernel writes
// the values its code took from tuning_for<compiled_arch>; they must equal what the host chose for
// it from its PTX version (launch_for). The real kernels of the same types must get the same tile
// from the host, carry its block size in their launch bounds, hold their compiled blocks per SM and
// stay within the shared memory bound the tuning's limit checks were made with.

namespace
{
namespace ci = sweep::detail::copy_if_impl;
using sweep::detail::compiled_arch;

//! What device code chose. (The three algorithms' tuning tests have the same layout on purpose; each
//! reports the fields of its own tuning struct.)
struct device_choice
{
  int arch;
  int block_threads;
  unsigned long long tile_items;
  int min_blocks;
  int word_stride;
};

//! Templated like select_kernel (value type, paths) and bounded the same way.
template <class T, class Paths>
__global__ void __launch_bounds__((ci::launch_threads<T, ci::tuning_for<compiled_arch>, Paths::load_vectors, Paths::schedule>()),
                                  (ci::min_blocks<T, Paths, ci::tuning_for<compiled_arch>>()))
  report_tuning(device_choice* out)
{
  using tuning = ci::tuning_for<compiled_arch>;
  using shape  = ci::tile_shape<T, tuning>;
  if (threadIdx.x == 0)
  {
    out->arch          = compiled_arch;
    out->block_threads = shape::block_threads;
    out->tile_items    = shape::tile_items;
    out->min_blocks    = ci::min_blocks<T, Paths, tuning>();
    out->word_stride   = tuning::tile_word_stride;
  }
}

//! The driver's shared memory reserve per block. ptxas counts it in the static shared size of sm_90
//! and newer code (cuobjdump shows 1 KiB more than the storage declared); whether
//! cudaFuncGetAttributes does is not documented, so the bounds below allow it.
std::size_t reserved_shared()
{
  int device = 0, reserved = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) == cudaSuccess);
  return static_cast<std::size_t>(reserved);
}

template <class T, class Paths>
void check_tuning(const char* name)
{
  INFO(name);
  constexpr auto probe          = &report_tuning<T, Paths>;
  const sweep::detail::kernel_launch<ci::tile_dims>& host = ci::launch_for<T, probe>();
  thrust::device_vector<device_choice> out(1);
  probe<<<1, host.tile.block_threads>>>(thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const device_choice device = out[0];
  CHECK(device.arch == host.arch);
  CHECK(device.block_threads == host.tile.block_threads);
  CHECK(device.tile_items == host.tile.tile_items);
  CHECK(device.word_stride == host.tile.word_stride);

  // The real kernel of these types, compiled in this binary like every copy_if kernel.
  constexpr auto kernel         = &ci::select_kernel<T, Paths, T*, ci::no_stencil, T*, keep_percent<T>>;
  const sweep::detail::kernel_launch<ci::tile_dims>& real = ci::launch_for<T, kernel, Paths>();
  CHECK(real.arch == device.arch);
  CHECK(real.tile.block_threads == device.block_threads);
  CHECK(real.tile.tile_items == device.tile_items);
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess);
  CHECK(sweep::detail::tuning_arch(attributes.ptxVersion * 10) == real.arch);
  // The bulk and specialised schedules' kernels: their dynamic shared memory (launch_for raised the
  // kernel's limit) and, specialised, the producer and look-back warps, with which the compiled blocks
  // per SM still fit.
  const ci::tile_schedule schedule = sweep::detail::with_tuning_arch(real.arch, [](auto a) {
    return ci::schedule_of<T, ci::tuning_for<decltype(a)::value>, Paths::load_vectors, Paths::schedule>();
  });
  const std::size_t dynamic = sweep::detail::with_tuning_arch(real.arch, [schedule](auto a) {
    using tuning = ci::tuning_for<decltype(a)::value>;
    return schedule == ci::tile_schedule::bulk        ? ci::bulk_dynamic_bytes<T, tuning>()
         : schedule == ci::tile_schedule::specialized ? ci::specialized_dynamic_bytes<T, tuning>()
                                                      : std::size_t(0);
  });
  const int extra = schedule == ci::tile_schedule::specialized ? sweep::detail::pipeline_extra_threads : 0;
  CHECK(real.tile.bulk_shared == dynamic);
  CHECK(real.tile.extra_threads == extra);
  CHECK(attributes.maxThreadsPerBlock == real.tile.block_threads + extra);
  int per_sm = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, real.tile.block_threads + extra, dynamic)
          == cudaSuccess);
  CHECK(per_sm >= device.min_blocks);
  CHECK(real.resident_blocks == static_cast<unsigned>(per_sm * sweep::detail::current_device_info().sm_count));
  if constexpr (Paths::load_vectors)
  {
    const std::size_t bound = sweep::detail::with_tuning_arch(real.arch, [](auto a) {
      return ci::vector_block_shared_bytes<ci::tuning_for<decltype(a)::value>>();
    });
    CHECK(attributes.sharedSizeBytes <= bound + reserved_shared());
  }
}
} // namespace

TEST_CASE("copy_if: the host launches each kernel with the tuning its code was compiled with", "[copy_if][tuning]")
{
  INFO("device code's architecture for this binary: " << sweep_test::tuned_arch());
  check_tuning<float, ci::kernel_paths<true, true, false>>("float, vector paths");
  check_tuning<double, ci::kernel_paths<true, true, false>>("double, vector paths");
  check_tuning<std::uint8_t, ci::kernel_paths<true, true, false>>("uint8, vector paths");
  check_tuning<std::uint16_t, ci::kernel_paths<true, true, false>>("uint16, vector paths");
  check_tuning<s16, ci::kernel_paths<true, true, false>>("16-byte struct, vector paths");
  check_tuning<float, ci::kernel_paths<true, true, false, ci::schedule_choice::bulk>>("float, vector paths, bulk");
  check_tuning<float, ci::kernel_paths<true, true, false, ci::schedule_choice::specialized>>(
    "float, vector paths, specialised");
  check_tuning<std::uint8_t, ci::kernel_paths<true, true, false, ci::schedule_choice::specialized>>(
    "uint8, vector paths, specialised");
  check_tuning<float, ci::kernel_paths<false, false, false>>("float, item paths");
  check_tuning<s12, ci::kernel_paths<false, false, false>>("12-byte struct");
  check_tuning<s32, ci::kernel_paths<false, false, false>>("32-byte struct");
}
