// Scans under every sweep policy form: .on(stream), the allocator form (temporary storage from the
// allocator), par_nosync not blocking the host, CUDA graph capture under par_nosync (also the first
// call of a kernel, on a fresh thread), n = 0 launching nothing, and an error left pending by an
// earlier unrelated call.
#include "scan_test.cuh"
#include "common/counting_allocator.cuh"

#include <thrust/copy.h>
#include <thrust/scan.h>
#include <thrust/system_error.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <exception>
#include <string>
#include <thread>

using namespace sweep_test;

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
    for (std::size_t n : {std::size_t(1), std::size_t(1000), 50 * tile + 3})
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
