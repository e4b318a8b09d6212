// GPU tests of sweep's execution policies: Thrust fallbacks run on the policy's stream and allocator,
// temporary storage, and errors.
#include <sweep/sweep.cuh>
#include <sweep/detail/util/temp_storage.cuh>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/fill.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include "common/counting_allocator.cuh"
#include "common/test_utils.cuh"
#include "lookback_scan.cuh"

#include <cuda_runtime_api.h>

#include <new>

namespace
{
using sweep_test::stream_guard;

// A host+device entry point, as users write them: the sweep overloads are host-only, and this
// must still launch correctly from the host (the NV_IF_TARGET emission pitfall).
template <class Policy>
__host__ __device__ long long reduce_anywhere(Policy policy, const int* first, const int* last)
{
  return thrust::reduce(policy, first, last, 0ll);
}
} // namespace

TEST_CASE("fallback algorithms run through sweep::par forms", "[policy]")
{
  stream_guard s;
  thrust::device_vector<int> v(10007);
  thrust::sequence(sweep::par, v.begin(), v.end());
  const long long expected = 10006ll * 10007ll / 2;
  CHECK(thrust::reduce(sweep::par, v.begin(), v.end(), 0ll) == expected);
  CHECK(thrust::reduce(sweep::par.on(s.stream), v.begin(), v.end(), 0ll) == expected);
  CHECK(thrust::reduce(sweep::par_nosync.on(s.stream), v.begin(), v.end(), 0ll) == expected);
  sweep_test::allocation_counts counts;
  sweep_test::counting_allocator<char> alloc(&counts);
  CHECK(thrust::reduce(sweep::par(alloc).on(s.stream), v.begin(), v.end(), 0ll) == expected);
  CHECK(reduce_anywhere(sweep::par, thrust::raw_pointer_cast(v.data()), thrust::raw_pointer_cast(v.data()) + v.size())
        == expected);
}

TEST_CASE("fallback algorithms use the policy's allocator", "[policy]")
{
  sweep_test::allocation_counts counts;
  sweep_test::counting_allocator<char> alloc(&counts);
  // a merge sort with a custom comparator needs temporary storage in Thrust's CUDA backend
  auto keys = sweep_test::random_vector<int>(100000, sweep_test::test_seed());
  thrust::sort(sweep::par(alloc), keys.begin(), keys.end(), [] __device__(int a, int b) { return a > b; });
  CHECK(counts.allocations.load() > 0);
  CHECK(counts.allocations.load() == counts.deallocations.load());
  CHECK(counts.live_bytes.load() == 0);
  CHECK(thrust::is_sorted(thrust::device, keys.begin(), keys.end(), thrust::greater<int>()));
}

TEST_CASE("fallback algorithms are enqueued on the policy's stream", "[policy]")
{
  // Capture the stream into a graph: work that really goes to that stream is recorded, not run.
  stream_guard s;
  thrust::device_vector<int> v(4096, 1);
  cudaGraph_t graph{};
  REQUIRE(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  thrust::fill(sweep::par_nosync.on(s.stream), v.begin(), v.end(), 7);
  REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
  std::size_t nodes = 0;
  REQUIRE(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
  CHECK(nodes >= 1);
  CHECK(v[0] == 1); // captured, not executed
  cudaGraphExec_t exec{};
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, s.stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
  CHECK(v[0] == 7);
  CHECK(v[4095] == 7);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

TEST_CASE("sweep's temporary storage comes from the allocator or the stream", "[policy][temp]")
{
  stream_guard s;
  thrust::device_vector<unsigned> in(100000, 3u);
  thrust::device_vector<unsigned long long> out(in.size());
  sweep_test::allocation_counts counts;
  sweep_test::counting_allocator<char> alloc(&counts);
  auto policy = sweep::par(alloc).on(s.stream);
  sweep_test::exclusive_sum(policy, in.begin(), in.size(), thrust::raw_pointer_cast(out.data()));
  CHECK(counts.allocations.load() == 1);
  CHECK(counts.deallocations.load() == 1);
  CHECK(out[99999] == 3ull * 99999);

  // stream-ordered path: inside a capture the allocation becomes a graph node on that stream
  auto nosync = sweep::par_nosync.on(s.stream);
  cudaGraph_t graph{};
  REQUIRE(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  sweep_test::exclusive_sum(nosync, in.begin(), in.size(), thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
  std::size_t nodes = 0;
  REQUIRE(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
  CHECK(nodes >= 3); // alloc, memset, kernel, free
  cudaGraphDestroy(graph);
}

TEST_CASE("allocation failures raise std::bad_alloc and leave the device usable", "[policy][errors]")
{
  sweep::par_t policy = sweep::par;
  CHECK_THROWS_AS(sweep::detail::allocate_temporary(policy, std::size_t(1) << 60), std::bad_alloc);
  sweep_test::allocation_counts counts;
  sweep_test::counting_allocator<char> alloc(&counts);
  auto with_alloc = sweep::par(alloc);
  CHECK_THROWS_AS(sweep::detail::allocate_temporary(with_alloc, std::size_t(1) << 60), std::bad_alloc);
  // later work still runs
  thrust::device_vector<int> v(100, 2);
  CHECK(thrust::reduce(sweep::par, v.begin(), v.end()) == 200);
}

TEST_CASE("CUDA errors surface as thrust::system_error", "[errors]")
{
  // Synchronizing a stream that is being captured is an error CUDA reports; sweep's synchronizing
  // policy must turn it into thrust::system_error carrying that cudaError_t.
  stream_guard s;
  thrust::device_vector<unsigned> in(1000, 1u);
  thrust::device_vector<unsigned long long> out(1000);
  REQUIRE(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  auto policy = sweep::par.on(s.stream);
  bool threw  = false;
  try
  {
    sweep_test::exclusive_sum(policy, in.begin(), in.size(), thrust::raw_pointer_cast(out.data()));
  }
  catch (const thrust::system_error& e)
  {
    threw = true;
    CHECK(e.code().value() != cudaSuccess);
  }
  cudaGraph_t graph{};
  (void) cudaStreamEndCapture(s.stream, &graph);
  if (graph)
  {
    cudaGraphDestroy(graph);
  }
  (void) cudaGetLastError();
  CHECK(threw);
  // the device is still usable afterwards
  thrust::device_vector<int> v(100, 2);
  CHECK(thrust::reduce(sweep::par, v.begin(), v.end()) == 200);
}

namespace
{
//! A user arena that hands out 4-byte aligned blocks (what a bump allocator over a byte array does).
struct misaligning_allocator : thrust::device_allocator<char>
{
  using base       = thrust::device_allocator<char>;
  using pointer    = base::pointer;
  using size_type  = std::size_t;
  using value_type = char;
  pointer allocate(size_type n)
  {
    return base::allocate(n + 8) + 4;
  }
  void deallocate(pointer p, size_type n)
  {
    base::deallocate(p - 4, n + 8);
  }
};
} // namespace

TEST_CASE("temporary storage works with allocators that return misaligned blocks", "[policy][alignment]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  misaligning_allocator alloc;
  auto policy = sweep::par(alloc);

  // sort: 64-bit keys (histogram words and tile state in the temp storage), then pairs.
  auto keys                               = sweep_test::random_vector<std::uint64_t>(300000, seed);
  thrust::device_vector<std::uint64_t> expected = keys;
  thrust::sort(thrust::device, expected.begin(), expected.end());
  thrust::sort(policy, keys.begin(), keys.end());
  REQUIRE(thrust::equal(thrust::device, keys.begin(), keys.end(), expected.begin()));

  auto pair_keys                                 = sweep_test::random_vector<std::uint32_t>(300000, seed + 1);
  auto values                                    = sweep_test::random_vector<std::uint64_t>(300000, seed + 2);
  thrust::device_vector<std::uint32_t> exp_keys   = pair_keys;
  thrust::device_vector<std::uint64_t> exp_values = values;
  thrust::sort_by_key(thrust::device, exp_keys.begin(), exp_keys.end(), exp_values.begin());
  thrust::sort_by_key(policy, pair_keys.begin(), pair_keys.end(), values.begin());
  REQUIRE(thrust::equal(thrust::device, pair_keys.begin(), pair_keys.end(), exp_keys.begin()));
  REQUIRE(thrust::equal(thrust::device, values.begin(), values.end(), exp_values.begin()));

  // copy_if: its tile state comes from the allocator.
  auto in = sweep_test::random_vector<int>(1 << 21, seed + 3);
  thrust::device_vector<int> out(in.size()), expected_out(in.size());
  auto positive      = [] __device__(int x) { return x > 0; };
  const auto got_end = thrust::copy_if(policy, in.begin(), in.end(), out.begin(), positive);
  const auto exp_end = thrust::copy_if(thrust::device, in.begin(), in.end(), expected_out.begin(), positive);
  REQUIRE(got_end - out.begin() == exp_end - expected_out.begin());
  REQUIRE(thrust::equal(thrust::device, out.begin(), got_end, expected_out.begin()));
}
