// The histograms inside CUDA graphs (issue 15): histogram_even, histogram_range and histogram
// (bin indices) with device-resident samples, captured with sweep::par_nosync on a stream in
// global capture mode, give the uncaptured call's counts on every launch of the graph, for bin
// counts that take each kernel path (shared counters within 48 KB, opted-in shared memory beyond
// it, global counters).
#include "histogram_test_common.cuh"

#include <thrust/sequence.h>

namespace
{

//! Captures body(policy) into a graph, launches it `launches` times, poisoning `counts` before each.
template <class Counter, class Body>
void run_captured(cudaStream_t stream, thrust::device_vector<Counter>& counts, Body body, int launches)
{
  cudaGraph_t graph{};
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  body(sweep::par_nosync.on(stream));
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  cudaGraphExec_t exec{};
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int launch = 0; launch < launches; ++launch)
  {
    sweep_test::poison(counts);
    REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  }
  REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
}

} // namespace

TEST_CASE("histograms are captured into CUDA graphs and give the uncaptured counts", "[histogram][graph]")
{
  sweep_test::stream_guard s;
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : {std::size_t(1000), (std::size_t(1) << 20) + 7})
  {
    const thrust::device_vector<float> samples     = sweep_test::make_samples<float>(n, 0.0, 1.0, false, seed + n);
    const thrust::device_vector<std::uint8_t> bytes = sweep_test::random_vector<std::uint8_t>(n, seed ^ n);
    const thrust::device_vector<std::uint32_t> indices = sweep_test::random_vector<std::uint16_t>(n, seed + 3 * n);
    for (int bins : {1, 256, 20000, sweep_test::bins_above_shared_limit()})
    {
      INFO("n = " << n << ", bins = " << bins);
      thrust::device_vector<unsigned> expected(bins), actual(bins);

      sweep::histogram_even(sweep::par, samples.begin(), samples.end(), expected.begin(), bins, 0.0f, 1.0f);
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram_even(policy, samples.begin(), samples.end(), actual.begin(), bins, 0.0f, 1.0f);
      }, 3);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram_even float");

      sweep::histogram_even(sweep::par, bytes.begin(), bytes.end(), expected.begin(), bins, 0, 256);
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram_even(policy, bytes.begin(), bytes.end(), actual.begin(), bins, 0, 256);
      }, 2);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram_even bytes");

      // Levels 0, 1/bins, ..., 1: device-resident, not read back inside the capture.
      thrust::host_vector<float> host_levels(static_cast<std::size_t>(bins) + 1);
      for (int i = 0; i <= bins; ++i)
      {
        host_levels[static_cast<std::size_t>(i)] = static_cast<float>(i) / static_cast<float>(bins);
      }
      const thrust::device_vector<float> levels = host_levels;
      sweep::histogram_range(sweep::par, samples.begin(), samples.end(), levels.begin(), levels.end(), expected.begin());
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram_range(policy, samples.begin(), samples.end(), levels.begin(), levels.end(), actual.begin());
      }, 2);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram_range float");

      sweep::histogram(sweep::par, indices.begin(), indices.end(), expected.begin(), bins);
      run_captured(s.stream, actual, [&](auto policy) {
        sweep::histogram(policy, indices.begin(), indices.end(), actual.begin(), bins);
      }, 2);
      sweep_test::require_bitwise_equal(expected, actual, static_cast<std::size_t>(bins), "histogram indices");
    }
  }
}
