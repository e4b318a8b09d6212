// Shared pieces of the reduce_by_key GPU tests: the check that runs reduce_by_key on a sweep policy
// and on thrust::device over the same input into poisoned outputs (the same ends, bitwise keys and
// values, nothing after either end); a host reference of the sequential definition for inputs on
// which stock Thrust is wrong (float keys with NaN); the accuracy and reproducibility checks of
// floating-point values; and associative operators that do not commute.
//
// Which key of a segment: Thrust's CUDA backend writes the LAST key of each segment (its reduce-by-key
// agent scatters each head's predecessor key, thrust/system/cuda/detail/reduce_by_key.h,
// zip_keys_and_values(pred_keys, ...) and finalize_last_tile), though Thrust documents the first (and
// its sequential backend writes the first). Keys equal under the predicate but bitwise different
// (-0.0 and +0.0, keys equal by their tens) show which; the tests require Thrust's CUDA behaviour.
#pragma once

#include <common/compaction_test.cuh>
#include <scan/scan_test.cuh> // exact_prefix, classify, fp_class

#include <thrust/host_vector.h>
#include <thrust/reduce.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace sweep_test
{

inline std::string rbk_label(const std::string& what, run_shape shape, std::size_t n)
{
  return what + ", " + run_name(shape) + ", n=" + std::to_string(n);
}

//! A new run at item i unless a hash of i is 0 mod 4: runs of one item, with some of two or more, so
//! that in a row of a tile some lanes' items all end segments (run_output::store_rows stores those
//! as vectors) and the lanes beside them hold segments that start in another lane.
struct mostly_distinct_head
{
  std::uint64_t seed;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const
  {
    return i != 0 && mix64(i ^ mix64(seed)) % 4 != 0 ? 1 : 0;
  }
};

//! ids[i]: the run item i is in, runs as mostly_distinct_head says.
inline thrust::device_vector<std::uint64_t> mostly_distinct_run_ids(std::size_t n, std::uint64_t seed)
{
  auto ids = generated_vector<std::uint64_t>(n, mostly_distinct_head{seed});
  thrust::inclusive_scan(thrust::device, ids.begin(), ids.end(), ids.begin());
  return ids;
}

//! reduce_by_key(policy, keys, keys + n, values, keys_out, values_out, eq_op...) against
//! thrust::device into poisoned outputs of n + 4 keys of KOut and values of VOut. eq_op: nothing,
//! the key equality, or the key equality and the value operator.
template <class KOut, class VOut, class Policy, class KeyIt, class ValueIt, class... EqOp>
void check_reduce_by_key(Policy policy, KeyIt keys, ValueIt values, std::size_t n, const std::string& what, EqOp... eq_op)
{
  thrust::device_vector<KOut> ek(n + 4), ak(n + 4);
  thrust::device_vector<VOut> ev(n + 4), av(n + 4);
  poison(ek);
  poison(ak);
  poison(ev);
  poison(av);
  const auto last = keys + static_cast<std::ptrdiff_t>(n);
  const auto e    = thrust::reduce_by_key(thrust::device, keys, last, values, ek.begin(), ev.begin(), eq_op...);
  const auto a    = thrust::reduce_by_key(policy, keys, last, values, ak.begin(), av.begin(), eq_op...);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO("reduce_by_key " << what << ", seed = " << test_seed());
  const std::size_t segments = static_cast<std::size_t>(e.first - ek.begin());
  REQUIRE(static_cast<std::size_t>(e.second - ev.begin()) == segments);
  REQUIRE(static_cast<std::size_t>(a.first - ak.begin()) == segments);
  REQUIRE(static_cast<std::size_t>(a.second - av.begin()) == segments);
  require_bitwise_equal(ek, ak, segments, "reduce_by_key keys " + what);
  require_bitwise_equal(ev, av, segments, "reduce_by_key values " + what);
  require_poison_intact(ak, segments, "reduce_by_key keys " + what);
  require_poison_intact(av, segments, "reduce_by_key values " + what);
}

//! The three call forms (default; key equality; key equality and value operator) on sweep::par.
template <class KOut, class VOut, class KeyIt, class ValueIt, class Eq, class Op>
void check_reduce_by_key_forms(KeyIt keys, ValueIt values, std::size_t n, Eq eq, Op op, const std::string& what)
{
  check_reduce_by_key<KOut, VOut>(sweep::par, keys, values, n, what + " (default)");
  check_reduce_by_key<KOut, VOut>(sweep::par, keys, values, n, what + " (key equality)", eq);
  check_reduce_by_key<KOut, VOut>(sweep::par, keys, values, n, what + " (key equality, value operator)", eq, op);
}

//! The sequential definition, on the host: a new segment wherever !eq(previous key, key); each
//! segment's values folded left to right with op; the key written is the segment's last (Thrust's
//! CUDA backend, see the top of this file).
template <class K, class V, class Eq, class Op>
void reference_reduce_by_key(const thrust::host_vector<K>& keys, const thrust::host_vector<V>& values, std::size_t n,
                             Eq eq, Op op, thrust::host_vector<K>& out_keys, thrust::host_vector<V>& out_values)
{
  out_keys.clear();
  out_values.clear();
  for (std::size_t i = 0; i < n; ++i)
  {
    if (i == 0 || !eq(keys[i - 1], keys[i]))
    {
      out_keys.push_back(keys[i]);
      out_values.push_back(values[i]);
    }
    else
    {
      out_keys.back()   = keys[i];
      out_values.back() = op(out_values.back(), values[i]);
    }
  }
}

//! reduce_by_key(policy, ...) of the first n keys and values against the host reference (for inputs
//! on which stock Thrust is no reference), into poisoned outputs: the same segment count, keys and
//! values bitwise, nothing after either end. PassOp: the form with the key equality and the value
//! operator; else the default form (eq and op must then be equal_to's and plus's equivalents).
template <bool PassOp, class K, class V, class Policy, class Eq, class Op>
void check_against_reference(Policy policy, const thrust::device_vector<K>& keys, const thrust::device_vector<V>& values,
                             std::size_t n, Eq eq, Op op, const std::string& what)
{
  const thrust::host_vector<K> h_keys(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n));
  const thrust::host_vector<V> h_values(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
  thrust::host_vector<K> r_keys;
  thrust::host_vector<V> r_values;
  reference_reduce_by_key(h_keys, h_values, n, eq, op, r_keys, r_values);
  thrust::device_vector<K> ak(n + 4);
  thrust::device_vector<V> av(n + 4);
  poison(ak);
  poison(av);
  const auto np = static_cast<std::ptrdiff_t>(n);
  const auto a  = [&] {
    if constexpr (PassOp)
    {
      return thrust::reduce_by_key(policy, keys.begin(), keys.begin() + np, values.begin(), ak.begin(), av.begin(), eq, op);
    }
    else
    {
      return thrust::reduce_by_key(policy, keys.begin(), keys.begin() + np, values.begin(), ak.begin(), av.begin());
    }
  }();
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO("reduce_by_key " << what << ", seed = " << test_seed());
  const std::size_t segments = r_keys.size();
  REQUIRE(static_cast<std::size_t>(a.first - ak.begin()) == segments);
  REQUIRE(static_cast<std::size_t>(a.second - av.begin()) == segments);
  const thrust::host_vector<K> got_keys(ak.begin(), ak.begin() + static_cast<std::ptrdiff_t>(segments));
  const thrust::host_vector<V> got_values(av.begin(), av.begin() + static_cast<std::ptrdiff_t>(segments));
  require_bitwise_equal(r_keys, got_keys, segments, "reduce_by_key keys (reference) " + what);
  require_bitwise_equal(r_values, got_values, segments, "reduce_by_key values (reference) " + what);
  require_poison_intact(ak, segments, "reduce_by_key keys (reference) " + what);
  require_poison_intact(av, segments, "reduce_by_key values (reference) " + what);
}

//! Checks floating-point segment sums (host copies of the output) against a long double reference of
//! the host input, segments as `eq` says on the keys: each segment NaN / +inf / -inf where its exact
//! sum is, else within (segment length + 64) * eps * (sum of the segment's |x|) of it.
template <class V, class K, class Eq>
void require_segment_sums_within_bound(const thrust::host_vector<K>& keys, const thrust::host_vector<V>& values,
                                       std::size_t n, const thrust::host_vector<V>& sums, Eq eq, const std::string& what)
{
  INFO(what << ", n = " << n << ", seed = " << test_seed());
  std::size_t segment = 0;
  std::size_t i       = 0;
  while (i < n)
  {
    exact_prefix exact;
    std::size_t length = 0;
    do
    {
      exact.add(static_cast<long double>(values[i]));
      ++length;
      ++i;
    } while (i < n && eq(keys[i - 1], keys[i]));
    REQUIRE(segment < sums.size());
    const V got = sums[segment];
    if (classify(got) != exact.kind())
    {
      FAIL("segment " << segment << " (ending at item " << i - 1 << "): expected a " << fp_class_name(exact.kind())
                      << " sum, got " << describe(got));
    }
    if (exact.kind() == fp_class::finite)
    {
      const long double bound = static_cast<long double>(length + 64)
                              * static_cast<long double>(std::numeric_limits<V>::epsilon()) * exact.magnitude;
      const long double error = std::fabs(static_cast<long double>(got) - exact.exact);
      if (!(error <= bound))
      {
        FAIL("segment " << segment << " of " << length << " items (ending at item " << i - 1 << "): " << static_cast<double>(got)
                        << " is " << static_cast<double>(error) << " from the exact sum "
                        << static_cast<double>(exact.exact) << ", more than the bound " << static_cast<double>(bound));
      }
    }
    ++segment;
  }
  REQUIRE(segment == sums.size());
  SUCCEED();
}

// Associative operators that do not commute, over integers (exact: bitwise comparable).

//! x -> a * x + b over uint32 (mod 2^32).
struct affine
{
  std::uint32_t a, b;
};
//! f then g: x -> g.a * (f.a * x + f.b) + g.b.
struct compose
{
  __host__ __device__ affine operator()(const affine& f, const affine& g) const
  {
    return {f.a * g.a, g.a * f.b + g.b};
  }
};
struct random_affine
{
  std::uint64_t seed;
  __host__ __device__ affine operator()(std::uint64_t i) const
  {
    const std::uint64_t h = mix64(i ^ mix64(seed));
    return {static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32)};
  }
};

//! A 2x2 matrix over uint32, row-major.
struct mat2
{
  std::uint32_t m00, m01, m10, m11;
};
//! l * r (mod 2^32).
struct mat2_product
{
  __host__ __device__ mat2 operator()(const mat2& l, const mat2& r) const
  {
    return {l.m00 * r.m00 + l.m01 * r.m10, l.m00 * r.m01 + l.m01 * r.m11, l.m10 * r.m00 + l.m11 * r.m10,
            l.m10 * r.m01 + l.m11 * r.m11};
  }
};
struct random_mat2
{
  std::uint64_t seed;
  __host__ __device__ mat2 operator()(std::uint64_t i) const
  {
    const std::uint64_t h = mix64(i ^ mix64(seed));
    const std::uint64_t g = mix64(h);
    return {static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32), static_cast<std::uint32_t>(g),
            static_cast<std::uint32_t>(g >> 32) | 1u};
  }
};

//! 12-byte values: sum, xor, maximum (commutative, but the wrap of the sum and the max show a lost
//! or doubled item).
struct s12_op
{
  __host__ __device__ s12 operator()(const s12& l, const s12& r) const
  {
    return {static_cast<std::int32_t>(static_cast<std::uint32_t>(l.a) + static_cast<std::uint32_t>(r.a)), l.b ^ r.b,
            l.c > r.c ? l.c : r.c};
  }
};

//! 24-byte values: a sum, a xor, and two projections (the left's c, the right's d): associative, not
//! commutative, and the projections show the order and the ends of each segment.
struct s24_op
{
  __host__ __device__ s24 operator()(const s24& l, const s24& r) const
  {
    return {static_cast<std::int64_t>(static_cast<std::uint64_t>(l.a) + static_cast<std::uint64_t>(r.a)), l.b ^ r.b, l.c,
            r.d};
  }
};

} // namespace sweep_test
