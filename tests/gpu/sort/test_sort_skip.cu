// Pass skipping, decided on the device (plan.hpp, pass_route): for every pattern of constant key
// bytes, keys only, values moved with the keys and values gathered through positions, the sort
// equals stock Thrust's under sweep::par, par_nosync and inside a CUDA graph (launched repeatedly).
#include "sort_test_common.cuh"

#include <thrust/copy.h>

#include <cstring>

namespace
{

struct value16
{
  std::uint64_t a, b;
};

//! Random bits in the key bytes that `varying` selects (bit b: byte b), a fixed byte elsewhere:
//! the passes of the fixed bytes are trivial and skipped.
template <class Key>
struct masked_key
{
  unsigned varying;
  std::uint64_t seed;
  __host__ __device__ Key operator()(std::uint64_t i) const
  {
    const std::uint64_t r = sweep_test::mix64(i ^ sweep_test::mix64(seed));
    std::uint64_t mask    = 0;
    for (unsigned b = 0; b < sizeof(Key); ++b)
    {
      mask |= ((varying >> b) & 1u) ? std::uint64_t(0xff) << (8 * b) : 0;
    }
    return static_cast<Key>((r & mask) | (0xa35a5aa35a5aa35aull & ~mask));
  }
};

enum class how
{
  par,
  nosync,
  graph,
};

const char* name_of(how h)
{
  return h == how::par ? "par" : h == how::nosync ? "par_nosync" : "graph";
}

//! Sorts (keys, values) in place with sweep as `h` says: values == nullptr sorts keys only.
template <class Key, class Value, class Compare>
void sweep_sort(how h, thrust::device_vector<Key>& keys, thrust::device_vector<Value>* values, Compare comp,
                cudaStream_t stream)
{
  auto sort_on = [&](auto policy) {
    if (values != nullptr)
    {
      thrust::sort_by_key(policy, keys.begin(), keys.end(), values->begin(), comp);
    }
    else
    {
      thrust::sort(policy, keys.begin(), keys.end(), comp);
    }
  };
  if (h == how::par)
  {
    sort_on(sweep::par.on(stream));
    return;
  }
  if (h == how::nosync)
  {
    sort_on(sweep::par_nosync.on(stream));
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    return;
  }
  // The graph restores the input first, so that each launch sorts the same data.
  const thrust::device_vector<Key> input_keys = keys;
  thrust::device_vector<Value> input_values;
  if (values != nullptr)
  {
    input_values = *values;
  }
  cudaGraph_t graph{};
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  // cudaMemcpyAsync, not thrust::copy: Thrust before CCCL 3.0 synchronizes after a device copy even
  // under par_nosync, which a capture forbids.
  REQUIRE(cudaMemcpyAsync(thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(input_keys.data()),
                          keys.size() * sizeof(Key), cudaMemcpyDeviceToDevice, stream)
          == cudaSuccess);
  if (values != nullptr)
  {
    REQUIRE(cudaMemcpyAsync(thrust::raw_pointer_cast(values->data()), thrust::raw_pointer_cast(input_values.data()),
                            values->size() * sizeof(Value), cudaMemcpyDeviceToDevice, stream)
            == cudaSuccess);
  }
  sort_on(sweep::par_nosync.on(stream));
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  cudaGraphExec_t exec{};
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  // Launched twice, each checked: the second must give the first's result (the caller checks that
  // one against Thrust).
  thrust::device_vector<Key> first_keys;
  thrust::device_vector<Value> first_values;
  for (int launch = 0; launch < 2; ++launch)
  {
    sweep_test::poison(keys);
    if (values != nullptr)
    {
      sweep_test::poison(*values);
    }
    REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    if (launch == 0)
    {
      first_keys = keys;
      if (values != nullptr)
      {
        first_values = *values;
      }
    }
  }
  sweep_test::require_bitwise_equal(first_keys, keys, keys.size(), "second launch of the graph (keys)");
  if (values != nullptr)
  {
    sweep_test::require_bitwise_equal(first_values, *values, keys.size(), "second launch of the graph (values)");
  }
  REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
  REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
}

//! Keys only, 4- and 8-byte values (moved with the keys; the 8-byte shape runs persistent blocks for
//! 4-byte keys) and 16-byte values (gathered through positions), each under every `how`, against
//! thrust::device.
template <class Key, class Compare>
void check_pattern(std::size_t n, unsigned varying, Compare comp, std::uint64_t seed, cudaStream_t stream)
{
  const thrust::device_vector<Key> keys = sweep_test::generated_vector<Key>(n, masked_key<Key>{varying, seed});
  const thrust::device_vector<std::uint32_t> values4 = sweep_test::random_vector<std::uint32_t>(n, seed + 1);
  const thrust::device_vector<value16> values16      = sweep_test::random_vector<value16>(n, seed + 2);
  const thrust::device_vector<std::uint64_t> values8 = sweep_test::random_vector<std::uint64_t>(n, seed + 3);

  thrust::device_vector<Key> expected_keys = keys;
  thrust::device_vector<std::uint32_t> expected4 = values4;
  thrust::stable_sort_by_key(thrust::device, expected_keys.begin(), expected_keys.end(), expected4.begin(), comp);
  thrust::device_vector<Key> expected_keys8 = keys;
  thrust::device_vector<std::uint64_t> expected8 = values8;
  thrust::stable_sort_by_key(thrust::device, expected_keys8.begin(), expected_keys8.end(), expected8.begin(), comp);
  thrust::device_vector<Key> expected_keys16 = keys;
  thrust::device_vector<value16> expected16  = values16;
  thrust::stable_sort_by_key(thrust::device, expected_keys16.begin(), expected_keys16.end(), expected16.begin(), comp);

  for (how h : {how::par, how::nosync, how::graph})
  {
    INFO("n = " << n << ", varying key bytes 0x" << std::hex << varying << std::dec << ", " << name_of(h));
    thrust::device_vector<Key> k = keys;
    sweep_sort<Key, std::uint32_t>(h, k, nullptr, comp, stream);
    sweep_test::require_bitwise_equal(expected_keys, k, n, "keys only");

    k                                    = keys;
    thrust::device_vector<std::uint32_t> v4 = values4;
    sweep_sort(h, k, &v4, comp, stream);
    sweep_test::require_bitwise_equal(expected_keys, k, n, "4-byte pairs (keys)");
    sweep_test::require_bitwise_equal(expected4, v4, n, "4-byte pairs (values)");

    k                                       = keys;
    thrust::device_vector<std::uint64_t> v8 = values8;
    sweep_sort(h, k, &v8, comp, stream);
    sweep_test::require_bitwise_equal(expected_keys8, k, n, "8-byte pairs (keys)");
    sweep_test::require_bitwise_equal(expected8, v8, n, "8-byte pairs (values)");

    k                                 = keys;
    thrust::device_vector<value16> v16 = values16;
    sweep_sort(h, k, &v16, comp, stream);
    sweep_test::require_bitwise_equal(expected_keys16, k, n, "16-byte pairs (keys)");
    sweep_test::require_bitwise_equal(expected16, v16, n, "16-byte pairs (values)");
  }
}

//! Holds the persistent passes' grid to `blocks` blocks while in scope.
struct grid_limit : sweep_test::hook_setting<unsigned>
{
  explicit grid_limit(unsigned blocks)
      : hook_setting<unsigned>(sweep::detail::sort_impl::persistent_grid_limit(), blocks)
  {}
};

//! Holds the per-pass tile-state limit (state_upfront_limit) to `bytes` while in scope.
struct upfront_limit : sweep_test::hook_setting<std::size_t>
{
  explicit upfront_limit(std::size_t bytes)
      : hook_setting<std::size_t>(sweep::detail::sort_impl::state_upfront_limit(), bytes)
  {}
};

} // namespace

TEST_CASE("pass skipping: every pattern of constant bytes of 4-byte keys", "[sort][skip]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  // Past pass_skip_min_keys (skipping on), with a partial last tile.
  const std::size_t n = sweep::detail::sort_impl::pass_skip_min_keys + 3001;
  for (unsigned varying = 0; varying < 16; ++varying)
  {
    check_pattern<std::uint32_t>(n, varying, thrust::less<std::uint32_t>(), seed + varying, s.stream);
  }
  for (unsigned varying : {0x1u, 0x6u, 0x8u, 0xeu})
  {
    check_pattern<std::int32_t>(n, varying, thrust::greater<std::int32_t>(), seed ^ varying, s.stream);
  }
}

TEST_CASE("pass skipping: patterns of constant bytes of 8-byte keys, and skipping switched off", "[sort][skip]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  const std::size_t n = sweep::detail::sort_impl::pass_skip_min_keys + 77;
  for (unsigned varying : {0x00u, 0x01u, 0x80u, 0x81u, 0x55u, 0xaau, 0x7eu, 0xfeu, 0xffu})
  {
    check_pattern<std::uint64_t>(n, varying, thrust::less<std::uint64_t>(), seed + varying, s.stream);
  }
  check_pattern<double>(n, 0xc0u, thrust::greater<double>(), seed, s.stream);
  // With skipping off every pass runs (the route is all "runs"): same results.
  const sweep_test::hook_setting<bool> off(sweep::detail::sort_impl::pass_skipping_enabled(), false);
  check_pattern<std::uint64_t>(n, 0x81u, thrust::less<std::uint64_t>(), seed, s.stream);
  check_pattern<std::uint32_t>(n, 0x7u, thrust::less<std::uint32_t>(), seed, s.stream);
}

TEST_CASE("pass skipping past the per-pass tile-state limit", "[sort][skip]")
{
  // Past the limit of per-pass tile state (state_upfront_max_bytes; held here to 4 MiB, which
  // 4-byte keys pass at about 11M keys), the passes share one tile-state array cleared before each
  // pass: odd and even numbers of running passes, with the first pass skipped or not. The same
  // sizes under the default limit, where each pass has its own state. 8-byte keys past a limit of
  // 64 KiB (eight passes of about 50 tiles, 1 KiB each) with runs and skips interleaved.
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  const std::size_t n = (std::size_t(12) << 20) + 1;
  for (const std::size_t limit : {std::size_t(4) << 20, sweep::detail::sort_impl::state_upfront_max_bytes})
  {
    const upfront_limit held(limit);
    INFO("per-pass tile state up to " << limit << " bytes");
    for (unsigned varying : {0x7u, 0xeu, 0xdu, 0x8u, 0xfu})
    {
      check_pattern<std::uint32_t>(n, varying, thrust::less<std::uint32_t>(), seed + varying, s.stream);
    }
  }
  const upfront_limit held(std::size_t(64) << 10);
  for (unsigned varying : {0x5au, 0x81u})
  {
    check_pattern<std::uint64_t>(sweep::detail::sort_impl::pass_skip_min_keys + 77, varying,
                                 thrust::less<std::uint64_t>(), seed + varying, s.stream);
  }
}

TEST_CASE("persistent passes: a few blocks loop over every tile", "[sort][skip][persistent]")
{
  // The persistent shape of sm_90 (4-byte keys alone) with the grid held to 1-3 blocks: each
  // block takes many tiles in turn, and a tile's look-back waits on tiles of the other blocks (or,
  // with one block, on its own earlier tiles). Skipped and running passes, every `how`.
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  for (unsigned blocks : {1u, 2u, 3u})
  {
    const grid_limit held(blocks);
    INFO("grid held to " << blocks << " blocks");
    const std::size_t n = sweep::detail::sort_impl::pass_skip_min_keys + 12345;
    for (unsigned varying : {0xfu, 0x3u, 0x7u})
    {
      check_pattern<std::uint32_t>(n, varying, thrust::less<std::uint32_t>(), seed + varying + blocks, s.stream);
    }
    check_pattern<float>(n, 0xfu, thrust::greater<float>(), seed + blocks, s.stream);
  }
}

TEST_CASE("persistent passes, small enough for compute-sanitizer: two blocks, two passes skipped", "[sort][persistent][san]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  const grid_limit held(2);
  check_pattern<std::uint32_t>(sweep::detail::sort_impl::pass_skip_min_keys + 12345, 0x3u, thrust::less<std::uint32_t>(),
                               seed, s.stream);
}

TEST_CASE("below pass_skip_min_keys every pass runs, with an odd pass count too", "[sort][skip]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  sweep_test::stream_guard s;
  for (std::size_t n : {sweep::detail::sort_impl::pass_skip_min_keys - 1, std::size_t(100000)})
  {
    check_pattern<std::uint8_t>(n, 0x1u, thrust::less<std::uint8_t>(), seed, s.stream);
    check_pattern<std::uint16_t>(n, 0x2u, thrust::greater<std::uint16_t>(), seed, s.stream);
    check_pattern<std::uint32_t>(n, 0x5u, thrust::less<std::uint32_t>(), seed, s.stream);
  }
  // Past it, one-byte keys: one pass, the result is copied back by the device-side check.
  check_pattern<std::uint8_t>(sweep::detail::sort_impl::pass_skip_min_keys + 5, 0x1u, thrust::less<std::uint8_t>(), seed,
                              s.stream);
  check_pattern<std::uint8_t>(sweep::detail::sort_impl::pass_skip_min_keys + 5, 0x0u, thrust::less<std::uint8_t>(), seed,
                              s.stream);
}
