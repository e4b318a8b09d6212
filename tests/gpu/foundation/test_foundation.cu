// The pieces under every algorithm: sweep's policies, the look-back scan and its fold.
#include "common/counting_allocator.cuh"
#include "common/test_utils.cuh"
#include "lookback_scan.cuh"
#include "common/compaction_test.cuh"

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
#include <cuda_runtime_api.h>
#include <new>
#include <thrust/logical.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <cstdint>
#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/value_tile_state.cuh>
#include <sweep/detail/scan/reduce_by_key.cuh>
#include <thrust/host_vector.h>
#include <cuda/std/functional>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// GPU tests of sweep's execution policies: Thrust fallbacks run on the policy's stream and allocator,
// temporary storage, and errors.

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

// --------------------------------------------------------------------------------------------------
// The single-pass exclusive sum on the look-back core, against thrust::exclusive_scan.

namespace
{
struct to_u64
{
  template <class T>
  __host__ __device__ unsigned long long operator()(T x) const
  {
    return static_cast<unsigned long long>(x);
  }
};

template <class In>
void check_scan(std::size_t n, std::uint64_t seed)
{
  INFO("n = " << n << ", seed = " << seed);
  auto input = sweep_test::random_vector<In>(n, seed);
  thrust::device_vector<unsigned long long> expected(n), actual(n);
  thrust::exclusive_scan(thrust::device,
                         thrust::make_transform_iterator(input.begin(), to_u64{}),
                         thrust::make_transform_iterator(input.end(), to_u64{}),
                         expected.begin());
  sweep_test::poison(actual);
  sweep_test::exclusive_sum(sweep::par, input.begin(), n, thrust::raw_pointer_cast(actual.data()));
  REQUIRE(thrust::equal(thrust::device, expected.begin(), expected.end(), actual.begin()));
}
} // namespace

TEST_CASE("exclusive_sum matches thrust::exclusive_scan at the edge sizes", "[scan]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t n : sweep_test::edge_sizes(sweep_test::scan_tuning::tile_items))
  {
    check_scan<std::uint32_t>(n, seed + n);
  }
}

TEST_CASE("exclusive_sum over many tile counts and input types", "[scan]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (std::size_t tiles : {2, 3, 31, 32, 33, 63, 64, 65, 1000, 4097})
  {
    const std::size_t n = tiles * sweep_test::scan_tuning::tile_items - tiles / 2;
    check_scan<std::uint8_t>(n, seed ^ tiles);
    check_scan<std::uint16_t>(n, seed + tiles);
  }
  check_scan<std::uint32_t>(std::size_t(1) << 24, seed);
}

TEST_CASE("exclusive_sum is deterministic over 100 repeats", "[scan]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = (std::size_t(1) << 24) + 12345;
  INFO("seed = " << seed);
  auto input = sweep_test::random_vector<std::uint32_t>(n, seed);
  thrust::device_vector<unsigned long long> first(n), again(n);
  sweep_test::exclusive_sum(sweep::par, input.begin(), n, thrust::raw_pointer_cast(first.data()));
  int mismatches = 0;
  for (int repeat = 0; repeat < 100; ++repeat)
  {
    sweep_test::poison(again);
    sweep_test::exclusive_sum(sweep::par, input.begin(), n, thrust::raw_pointer_cast(again.data()));
    if (!thrust::equal(thrust::device, first.begin(), first.end(), again.begin()))
    {
      ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("exclusive_sum past 2^31 items", "[scan][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  if (!sweep_test::device_has_memory(n * (1 + 2 * sizeof(unsigned long long))))
  {
    WARN("not enough device memory for the > 2^31 test; skipped");
    return;
  }
  check_scan<std::uint8_t>(n, sweep_test::test_seed());
}

// --------------------------------------------------------------------------------------------------
// warp_lookback_fold (lookback.cuh), the scans' and reduce_by_key's look-back, gives every tile the
// same bits whichever path its look-back takes: the inclusive prefix of the tile just before it, or
// the fold of many predecessors' aggregates from an older inclusive prefix, or any mix. The tiles'
// states are published by hand and each look-back is its own one-warp launch, so each path is forced,
// not left to scheduling: ascending tile order (each finds its predecessor's inclusive prefix),
// descending (each folds every aggregate back to tile 0) and random orders (mixes). Values: floats,
// doubles and reduce_by_key's (double, head count) items, full of NaN of both signs and payloads and
// infinities, where an operator inlined with its operands in another order at another place gives
// another NaN (the reason the fold calls op at one place); finite values against the same fold on
// the host.

namespace
{

using sweep::detail::tile_status;
using sweep::detail::value_tile_state;

//! Two windows of 32 tiles: a look-back of up to 64 tiles always reaches tile 0's inclusive prefix.
constexpr int fold_capacity = 2;
constexpr std::size_t tiles = 61;

template <class T>
__global__ void publish_kernel(value_tile_state<T> state, std::size_t tile, tile_status status, T value)
{
  state.publish(tile, status, value);
}

//! One warp: tile `tile`'s look-back (publishes its inclusive prefix op(exclusive, aggregate)); lane 0
//! writes the exclusive prefix.
template <class T, class Op>
__global__ void __launch_bounds__(32) fold_kernel(value_tile_state<T> state, std::size_t tile, T aggregate, T* exclusive)
{
  __shared__ T window[fold_capacity * 32];
  Op op{};
  const T e = sweep::detail::warp_lookback_fold<false, fold_capacity>(state, tile, op, aggregate, window);
  if (threadIdx.x == 0)
  {
    *exclusive = e;
  }
}

//! The exclusive prefixes of tiles 1 .. tiles - 1 (index t - 1) after the look-backs ran in `order`
//! (a permutation of 1 .. tiles - 1) on a fresh state: tile 0 inclusive `a[0]`, every other tile
//! its aggregate a[t] until its own look-back replaces it with its inclusive prefix.
template <class T, class Op>
std::vector<T> prefixes(const std::vector<T>& a, const std::vector<std::size_t>& order)
{
  using state_t          = value_tile_state<T>;
  const std::size_t size = state_t::bytes(tiles, 1);
  void* raw              = nullptr;
  REQUIRE(cudaMalloc(&raw, size) == cudaSuccess);
  REQUIRE(cudaMemset(raw, 0, size) == cudaSuccess);
  const state_t state = state_t::at(raw, tiles, 1);
  thrust::device_vector<T> out(tiles - 1);
  publish_kernel<T><<<1, 1>>>(state, 0, tile_status::inclusive, a[0]);
  for (std::size_t t = 1; t < tiles; ++t)
  {
    publish_kernel<T><<<1, 1>>>(state, t, tile_status::aggregate, a[t]);
  }
  for (std::size_t t : order)
  {
    fold_kernel<T, Op><<<1, 32>>>(state, t, a[t], thrust::raw_pointer_cast(out.data()) + (t - 1));
  }
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(cudaFree(raw) == cudaSuccess);
  const thrust::host_vector<T> h(out);
  return std::vector<T>(h.begin(), h.end());
}

//! Every order's prefixes bitwise equal to the ascending order's.
template <class T, class Op>
std::vector<T> same_bits_on_every_path(const std::vector<T>& a, std::uint64_t seed, const std::string& what)
{
  std::vector<std::size_t> ascending(tiles - 1);
  std::iota(ascending.begin(), ascending.end(), std::size_t(1));
  std::vector<std::size_t> descending(ascending.rbegin(), ascending.rend());
  const std::vector<T> reference = prefixes<T, Op>(a, ascending);
  auto check = [&](const std::vector<std::size_t>& order, const std::string& path) {
    const std::vector<T> got = prefixes<T, Op>(a, order);
    for (std::size_t t = 1; t < tiles; ++t)
    {
      INFO(what << ", " << path << ", tile " << t << ", seed = " << seed);
      INFO("ascending: " << sweep_test::describe(reference[t - 1]) << ", this path: " << sweep_test::describe(got[t - 1]));
      REQUIRE(sweep_test::bitwise_equal(reference[t - 1], got[t - 1]));
    }
  };
  check(descending, "descending (aggregates folded back to tile 0)");
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 4; ++k)
  {
    std::vector<std::size_t> order = ascending;
    std::shuffle(order.begin(), order.end(), rng);
    check(order, "random order " + std::to_string(k));
  }
  return reference;
}

//! Tile aggregates: with specials, NaN of both signs and with payloads, infinities and finite values
//! mixed so that many folds meet two NaNs; else finite values only.
template <class V>
std::vector<V> tile_values(std::uint64_t seed, bool specials)
{
  using bits = sweep_test::float_bits<V>;
  std::mt19937_64 rng(seed);
  std::vector<V> v(tiles);
  for (auto& x : v)
  {
    const std::uint64_t r = rng();
    switch (specials ? r % 8 : 7)
    {
    case 0: x = sweep_test::from_raw<V>(bits::quiet_nan); break;
    case 1: x = sweep_test::from_raw<V>(bits::sign | bits::quiet_nan); break;
    case 2: x = sweep_test::from_raw<V>(bits::quiet_nan | ((r >> 8) & bits::payload)); break;
    case 3: x = sweep_test::from_raw<V>(bits::sign | bits::quiet_nan | ((r >> 8) & bits::payload)); break;
    case 4: x = sweep_test::from_raw<V>(bits::inf); break;
    case 5: x = sweep_test::from_raw<V>(bits::sign | bits::inf); break;
    default: x = static_cast<V>(static_cast<double>(static_cast<std::int64_t>(r >> 40) - (std::int64_t(1) << 23)) / 1024.0);
    }
  }
  return v;
}

template <class V>
void floats(const char* name)
{
  const std::uint64_t seed = sweep_test::test_seed();
  for (int round = 0; round < 4; ++round)
  {
    const auto a = tile_values<V>(seed + 17 * round, true);
    same_bits_on_every_path<V, ::cuda::std::plus<V>>(a, seed + round, std::string(name) + " with NaN and inf, round " + std::to_string(round));
  }
  // Finite values: also the same bits as the fold on the host (exact operands, one rounding a step).
  const auto a         = tile_values<V>(seed + 99, false);
  const auto reference = same_bits_on_every_path<V, ::cuda::std::plus<V>>(a, seed, std::string(name) + " finite");
  V acc                = a[0];
  for (std::size_t t = 1; t < tiles; ++t)
  {
    INFO(name << " finite, tile " << t << ", seed = " << seed);
    REQUIRE(sweep_test::bitwise_equal(acc, reference[t - 1]));
    acc = acc + a[t];
  }
}

} // namespace

TEST_CASE("the value look-back gives float prefixes the same bits on every path", "[lookback][fold][float]")
{
  floats<float>("float");
}

TEST_CASE("the value look-back gives double prefixes the same bits on every path", "[lookback][fold][float]")
{
  floats<double>("double");
}

TEST_CASE("the value look-back gives reduce_by_key's double items the same bits on every path", "[lookback][fold][float]")
{
  using item = sweep::detail::scan_impl::run_item<double, unsigned long long>;
  using op   = sweep::detail::scan_impl::run_op<double, unsigned long long, ::cuda::std::plus<double>>;
  const std::uint64_t seed = sweep_test::test_seed();
  for (int round = 0; round < 4; ++round)
  {
    const auto v = tile_values<double>(seed + 31 * round, true);
    std::mt19937_64 rng(seed + round);
    std::vector<item> a(tiles);
    for (std::size_t t = 0; t < tiles; ++t)
    {
      // Mostly tiles inside one long segment (no head: their sums fold), some with a head.
      const unsigned long long heads = rng() % 8 == 0 ? 1 + rng() % 3 : 0;
      a[t]                           = item{v[t], heads};
    }
    same_bits_on_every_path<item, op>(a, seed + round, "reduce_by_key items, round " + std::to_string(round));
  }
}
