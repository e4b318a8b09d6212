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
#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/value_tile_state.cuh>
#include <sweep/detail/scan/reduce_by_key.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "common/compaction_test.cuh"
#include "common/test_utils.cuh"

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
