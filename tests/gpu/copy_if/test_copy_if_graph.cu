// copy_if returns its count to the host, so it cannot run inside a CUDA graph capture (stock
// Thrust's cannot either): sweep refuses it with a clear error before enqueuing anything, so the
// capture stays valid and the rest of the graph still works.
#include <sweep/copy_if.cuh>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>

#include <common/test_utils.cuh>

#include <string>

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
