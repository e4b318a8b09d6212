// copy_if past 2^31 items (64-bit offsets and counts) and run-to-run determinism.
#include "copy_if_test.cuh"

#include <sweep/detail/util/device_info.hpp>

#include <atomic>
#include <cstring>
#include <iterator>
#include <thread>
#include <vector>

#include <thrust/equal.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

using namespace sweep_test;

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
