// sweep::block_histogram in a user-style kernel (partial tiles by count and by mask, both tail
// designs), and a > 2^32-sample histogram whose one bin passes 2^32 in 64-bit counters.
#include <sweep/block_histogram.cuh>

#include "histogram_test_common.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace
{

constexpr int threads = 128;
constexpr int items   = 4;
constexpr int bins    = 64;
constexpr int tile    = threads * items;

//! One block per tile of bin indices; tile b's histogram goes to out[b * bins ...]. The last tile
//! is partial (by count), or (mask) only even-ranked items are valid.
template <sweep::block_histogram_tail Tail, bool Mask>
__global__ void user_kernel(const int* bin_indices, int n, unsigned* out)
{
  using block_hist = sweep::block_histogram<int, threads, items, bins, unsigned, Tail>;
  __shared__ typename block_hist::temp_storage storage;
  __shared__ unsigned histogram[bins];
  const int base  = blockIdx.x * tile;
  const int valid = min(tile, n - base);
  int values[items];
  bool flags[items];
  for (int k = 0; k < items; ++k)
  {
    const int rank = threadIdx.x * items + k; // blocked arrangement
    // Invalid slots hold garbage bin numbers that must never be counted or dereferenced.
    values[k] = rank < valid ? bin_indices[base + rank] : 0x7fff0000 + rank;
    flags[k]  = rank < valid && (rank % 2 == 0);
  }
  block_hist h(storage);
  h.init_histogram(histogram);
  if constexpr (Mask)
  {
    h.composite(values, histogram, flags);
  }
  else
  {
    h.composite(values, histogram, valid);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += threads)
  {
    out[blockIdx.x * bins + b] = histogram[b];
  }
}

template <sweep::block_histogram_tail Tail, bool Mask>
void check_block(int n)
{
  INFO("n = " << n << ", mask = " << Mask << ", seed = " << sweep_test::test_seed());
  const auto samples = sweep_test::make_samples<int>(static_cast<std::size_t>(n), 0, bins, false, sweep_test::test_seed());
  thrust::host_vector<int> h = samples;
  for (int& v : h)
  {
    v = ((v % bins) + bins) % bins; // the primitive takes in-range bin indices
  }
  thrust::device_vector<int> d = h;
  const int blocks = (n + tile - 1) / tile;
  thrust::device_vector<unsigned> out(static_cast<std::size_t>(blocks) * bins);
  user_kernel<Tail, Mask><<<blocks, threads>>>(thrust::raw_pointer_cast(d.data()), n, thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  thrust::host_vector<unsigned> expected(out.size(), 0);
  for (int i = 0; i < n; ++i)
  {
    if (!Mask || (i % tile) % 2 == 0)
    {
      ++expected[static_cast<std::size_t>(i / tile) * bins + h[i]];
    }
  }
  thrust::host_vector<unsigned> got = out;
  sweep_test::require_bitwise_equal(expected, got, expected.size(), "block_histogram");
}

} // namespace

TEST_CASE("block_histogram in a user kernel with partial tiles", "[histogram][block]")
{
  for (int n : {1, tile - 1, tile, tile + 1, 7 * tile + 77})
  {
    check_block<sweep::block_histogram_tail::guard_bin, false>(n);
    check_block<sweep::block_histogram_tail::guard_bin, true>(n);
    check_block<sweep::block_histogram_tail::subtract_padding, false>(n);
    check_block<sweep::block_histogram_tail::subtract_padding, true>(n);
  }
}

namespace
{
// 2^32 + 2^23 + 4097 samples through an iterator: one in every 1000 is 200, the others are 7, so
// bin 7 passes 2^32 (the H200 run of commit 51c68cc had n = 2^32 + 4097 with one in five at 200:
// bin 7 then held 4/5 of n = 3435977114 < 2^32, correct, and the test's expectation was wrong).
constexpr std::uint64_t large_n       = (std::uint64_t(1) << 32) + (std::uint64_t(1) << 23) + 4097;
constexpr std::uint64_t large_stride  = 1000;
constexpr std::uint64_t large_count_200 = (large_n + large_stride - 1) / large_stride; // i % 1000 == 0 in [0, n)
constexpr std::uint64_t large_count_7   = large_n - large_count_200;
static_assert(large_count_7 > (std::uint64_t(1) << 32), "the input must put more than 2^32 samples in bin 7");
static_assert(large_count_7 == 4299056640ull, "n = 4303360001, 4303361 samples at 200");

struct byte_of_index
{
  __host__ __device__ std::uint8_t operator()(std::uint64_t i) const
  {
    return (i % large_stride == 0) ? std::uint8_t(200) : std::uint8_t(7);
  }
};
} // namespace

TEST_CASE("histogram of more than 2^32 samples: a 64-bit bin passes 2^32", "[histogram][large]")
{
  const std::uint64_t n = large_n;
  // Through an iterator (no memory needed).
  auto it = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), byte_of_index{});
  thrust::device_vector<unsigned long long> counts(256 + 8);
  sweep_test::poison(counts);
  sweep::histogram_even(sweep::par, it, it + n, counts.begin(), 256, 0, 256);
  thrust::host_vector<unsigned long long> h(counts.begin(), counts.begin() + 256);
  CHECK(h[200] == large_count_200);
  CHECK(h[7] == large_count_7);
  CHECK(h[7] > (std::uint64_t(1) << 32));
  std::uint64_t others = 0;
  for (int b = 0; b < 256; ++b)
  {
    others += (b == 7 || b == 200) ? 0 : h[b];
  }
  CHECK(others == 0);
  sweep_test::require_poison_intact(counts, 256, "large histogram");

  // From memory (the vector-load path), when the device has room: all samples one value.
  if (sweep_test::device_has_memory(n))
  {
    thrust::device_vector<std::uint8_t> bytes(n);
    REQUIRE(cudaMemset(thrust::raw_pointer_cast(bytes.data()), 42, n) == cudaSuccess);
    thrust::device_vector<unsigned long long> c2(256);
    sweep::histogram(sweep::par, bytes.begin(), bytes.end(), c2.begin(), 256);
    thrust::host_vector<unsigned long long> h2 = c2;
    CHECK(h2[42] == n);
    CHECK(h2[41] == 0);
  }
}
