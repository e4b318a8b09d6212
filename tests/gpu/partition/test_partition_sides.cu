// In-place partition's choice of sides (copy_if_impl::partition_sides, plan.hpp): the rotated form
// (the rejected items over the input, the selected ones through temporary storage) forced, against
// the exact layout it promises, at every selected share, at the copy_if tile's edge sizes, with a
// stencil, on a zip range, under an allocator policy and on a stream; and partition's sampled choice
// at and below 64 MiB, where the layout says which form ran.
#include "partition_test.cuh"

#include <common/counting_allocator.cuh>
#include <common/policy_forms.cuh>

#include <thrust/sequence.h>

#include <algorithm>

using namespace sweep_test;

namespace
{

namespace ci = sweep::detail::copy_if_impl;

//! What an in-place partition of [0, n) must leave, from the reference (stable_partition_copy on
//! thrust::device): the selected items in input order, then the rejected ones r_0 .. r_{R-1}, in
//! input order (forward) or rotated (r_m .. r_{R-1}, r_0 .. r_{m-1}, m = min(S, R)).
template <class T>
thrust::host_vector<T> expected_layout(const partition_reference<T>& e, std::size_t n, bool rotated)
{
  const std::size_t s = e.count;
  const std::size_t r = n - s;
  const std::size_t m = rotated ? std::min(s, r) : 0;
  const thrust::host_vector<T> rejected(e.rejected.begin(), e.rejected.begin() + static_cast<std::ptrdiff_t>(r));
  thrust::host_vector<T> all(e.selected.begin(), e.selected.begin() + static_cast<std::ptrdiff_t>(s));
  all.insert(all.end(), rejected.begin() + static_cast<std::ptrdiff_t>(m), rejected.end());
  all.insert(all.end(), rejected.begin(), rejected.begin() + static_cast<std::ptrdiff_t>(m));
  return all;
}

//! partition_body<Sides> on a guarded copy of data[0, n) (with `stencil`, or no_stencil) under
//! `policy`: the reference's partition point, exactly `expected_layout(rotated)`, the guard intact.
template <ci::partition_sides Sides, class T, class Policy, class StencilIt, class Pred>
void check_sides(Policy policy,
                 const thrust::device_vector<T>& data,
                 std::size_t n,
                 StencilIt stencil,
                 Pred pred,
                 bool rotated,
                 const std::string& what)
{
  const partition_reference<T> e(data.begin(), n, stencil, pred);
  auto actual      = guarded_copy<T>(data.begin(), n);
  const auto first = actual.begin();
  const auto last  = first + static_cast<std::ptrdiff_t>(n);
  const auto unused_fallback = [&](auto&) { return first; }; // T is a type sweep's kernel takes
  const auto point = [&] {
    if constexpr (std::is_same<StencilIt, no_stencil>::value)
    {
      return sweep::detail::partition_body<Sides>(policy, first, last, first, pred, std::false_type{}, unused_fallback);
    }
    else
    {
      return sweep::detail::partition_body<Sides>(policy, first, last, stencil, pred, std::true_type{}, unused_fallback);
    }
  }();
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(what << (rotated ? ", rotated" : ", forward") << ", seed = " << test_seed());
  REQUIRE(static_cast<std::size_t>(point - first) == e.count);
  const thrust::host_vector<T> got(first, last);
  require_bitwise_equal(expected_layout(e, n, rotated), got, n, what);
  require_poison_intact(actual, n, what + " (guard)");
}

//! Selected where the stencil item is odd (the stencil forms).
struct odd_stencil
{
  __host__ __device__ bool operator()(std::int32_t s) const { return (s & 1) != 0; }
};

//! Selected where the stencil item is not a multiple of 4.
struct not_multiple_of_4
{
  __host__ __device__ bool operator()(std::int32_t s) const { return (s & 3) != 0; }
};

} // namespace

TEST_CASE("partition forced rotated leaves the selected items in order and the rejected ones rotated",
          "[partition][sides]")
{
  for (std::size_t n : compaction_sizes<std::uint32_t>())
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 60);
    for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
    {
      check_sides<ci::partition_sides::rotated>(sweep::par, data, n, no_stencil{}, keep_percent<std::uint32_t>{pct}, true,
                                                partition_label("uint32 rotated", n, pct));
    }
  }
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(1) << 20, (std::size_t(1) << 20) + 3})
  {
    const auto bytes = random_vector<std::uint8_t>(n, test_seed() + 61);
    const auto wide  = random_vector<s24>(n, test_seed() + 62);
    for (unsigned pct : {5u, 50u, 95u})
    {
      check_sides<ci::partition_sides::rotated>(sweep::par, bytes, n, no_stencil{}, keep_percent<std::uint8_t>{pct}, true,
                                                partition_label("uint8 rotated", n, pct));
      check_sides<ci::partition_sides::rotated>(sweep::par, wide, n, no_stencil{}, keep_percent<s24>{pct}, true,
                                                partition_label("24-byte rotated", n, pct));
    }
  }
}

TEST_CASE("partition forced rotated with a stencil, on a stream and under an allocator policy", "[partition][sides][policy]")
{
  const std::size_t n = 7 * copy_if_tile<double>() + 5;
  const auto data     = random_vector<double>(n, test_seed() + 63);
  for (unsigned share : {0u, 1u, 2u}) // stencil: all even, random, all odd
  {
    thrust::device_vector<std::int32_t> stencil = random_vector<std::int32_t>(n, test_seed() + 64);
    if (share != 1)
    {
      thrust::fill(stencil.begin(), stencil.end(), share == 0 ? 2 : 3);
    }
    const std::string what = "doubles with an int32 stencil (" + std::string(share == 0 ? "none" : share == 1 ? "half" : "all")
                           + " selected)";
    check_sides<ci::partition_sides::rotated>(sweep::par, data, n, stencil.begin(), odd_stencil{}, true, what);
    check_sides<ci::partition_sides::forward>(sweep::par, data, n, stencil.begin(), odd_stencil{}, false, what);
  }
  stream_guard s;
  check_sides<ci::partition_sides::rotated>(sweep::par_nosync.on(s.stream), data, n, no_stencil{}, keep_percent<double>{20},
                                            true, "doubles, par_nosync.on(stream)");
  allocation_counts counts;
  counting_allocator<char> alloc(&counts);
  check_sides<ci::partition_sides::rotated>(sweep::par(alloc).on(s.stream), data, n, no_stencil{}, keep_percent<double>{20},
                                            true, "doubles, par(alloc).on(stream)");
  CHECK(counts.allocations.load() > 0);
  CHECK(counts.allocations.load() == counts.deallocations.load());
  CHECK(counts.live_bytes.load() == 0);
}

TEST_CASE("partition forced rotated on a zip range in place", "[partition][sides][iterators][zip]")
{
  for (std::size_t n : {std::size_t(33), 7 * copy_if_tile<std::int32_t>() + 5})
  {
    for (unsigned pct : {5u, 50u, 95u})
    {
      const auto ints   = random_vector<std::int32_t>(n, test_seed() + 65);
      const auto floats = random_vector<float>(n, test_seed() + 66);
      const auto np     = static_cast<std::ptrdiff_t>(n);
      const std::string what = partition_label("zip (int, float) rotated", n, pct);
      INFO(what << ", seed = " << test_seed());
      // The reference: Thrust's stable_partition, then the rotation on the host.
      auto ei = guarded_copy<std::int32_t>(ints.begin(), n), ai = guarded_copy<std::int32_t>(ints.begin(), n);
      auto ef = guarded_copy<float>(floats.begin(), n), af = guarded_copy<float>(floats.begin(), n);
      const auto e_first = thrust::make_zip_iterator(ei.begin(), ef.begin());
      const auto a_first = thrust::make_zip_iterator(ai.begin(), af.begin());
      const auto e       = thrust::stable_partition(thrust::device, e_first, e_first + np, int_part_selected{pct});
      auto policy        = sweep::par;
      const auto a       = sweep::detail::partition_body<ci::partition_sides::rotated>(
        policy, a_first, a_first + np, a_first, int_part_selected{pct}, std::false_type{}, [&](auto&) { return a_first; });
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
      const std::size_t c = static_cast<std::size_t>(e - e_first);
      REQUIRE(static_cast<std::size_t>(a - a_first) == c);
      thrust::host_vector<std::int32_t> xi(ei.begin(), ei.begin() + np);
      thrust::host_vector<float> xf(ef.begin(), ef.begin() + np);
      const std::size_t m = std::min(c, n - c);
      std::rotate(xi.begin() + static_cast<std::ptrdiff_t>(c), xi.begin() + static_cast<std::ptrdiff_t>(c + m), xi.end());
      std::rotate(xf.begin() + static_cast<std::ptrdiff_t>(c), xf.begin() + static_cast<std::ptrdiff_t>(c + m), xf.end());
      require_bitwise_equal(xi, thrust::host_vector<std::int32_t>(ai.begin(), ai.begin() + np), n, what + " ints");
      require_bitwise_equal(xf, thrust::host_vector<float>(af.begin(), af.begin() + np), n, what + " floats");
      require_poison_intact(ai, n, what + " ints (guard)");
      require_poison_intact(af, n, what + " floats (guard)");
    }
  }
}

TEST_CASE("partition samples inputs of 64 MiB and more: rotated where few are selected", "[partition][sides][large]")
{
  // 2^24 + 5 four-byte items: just over partition_sample_min_bytes; 2^24 - 1: just under it.
  const std::size_t big   = (std::size_t(1) << 24) + 5;
  const std::size_t small = (std::size_t(1) << 24) - 1;
  REQUIRE(big * sizeof(std::uint32_t) >= ci::partition_sample_min_bytes);
  REQUIRE(small * sizeof(std::uint32_t) < ci::partition_sample_min_bytes);
  const auto data = random_vector<std::uint32_t>(big, test_seed() + 67);
  // keep_percent hashes the item: on random data the 4096 samples' share is within a few points of
  // pct, so 5% and 20% rotate and 30%, 50% and 95% do not (a quarter is the bound).
  for (unsigned pct : {0u, 5u, 20u, 30u, 50u, 95u, 100u})
  {
    const bool rotated = pct < 25;
    check_sides<ci::partition_sides::sampled>(sweep::par, data, big, no_stencil{}, keep_percent<std::uint32_t>{pct}, rotated,
                                              partition_label("uint32 sampled", big, pct));
    check_sides<ci::partition_sides::sampled>(sweep::par, data, small, no_stencil{}, keep_percent<std::uint32_t>{pct}, false,
                                              partition_label("uint32 sampled, under 64 MiB", small, pct));
  }
  // The public entry point takes the same path: thrust::partition on sweep::par at 5%.
  const partition_reference<std::uint32_t> e(data.begin(), big, no_stencil{}, keep_percent<std::uint32_t>{5});
  auto actual = guarded_copy<std::uint32_t>(data.begin(), big);
  const auto point =
    thrust::partition(sweep::par, actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(big), keep_percent<std::uint32_t>{5});
  REQUIRE(static_cast<std::size_t>(point - actual.begin()) == e.count);
  const thrust::host_vector<std::uint32_t> got(actual.begin(), actual.begin() + static_cast<std::ptrdiff_t>(big));
  require_bitwise_equal(expected_layout(e, big, true), got, big, "thrust::partition on sweep::par, 5%");
  require_poison_intact(actual, big, "thrust::partition on sweep::par, 5% (guard)");
  // A sample that misjudges: each stencil item is its index, and the items whose index is not a
  // multiple of 4 are selected (three quarters). The sampled indices floor(k n / 4096) are k * 4100
  // for n = 4096 * 4100, all multiples of 4: the sample sees none selected and rotates, while S > R
  // (the rotation's other branch: all R rejected items move behind the selected ones).
  const std::size_t n = std::size_t(4096) * 4100;
  thrust::device_vector<std::int32_t> index(n);
  thrust::sequence(index.begin(), index.end());
  const auto items = random_vector<double>(n, test_seed() + 68);
  check_sides<ci::partition_sides::sampled>(sweep::par, items, n, index.begin(), not_multiple_of_4{}, true,
                                            "doubles with a stencil the sample misjudges");
}

TEST_CASE("in-place partitions wait once up to partition_one_wait_max_bytes and twice above: the same layout",
          "[partition][sides][one_wait]")
{
  // The forward form below and above the bound (partition_copy_back_kernel reads the count on the
  // device; above, cudaMemcpyAsync after the host has it), for 1-, 4- and 24-byte items, with and
  // without a stencil, on the default stream and on another, under par and par_nosync; an allocator
  // policy always waits twice.
  constexpr std::uint64_t bound = ci::partition_one_wait_max_bytes;
  stream_guard s;
  const auto sizes_of = [&](std::size_t item) {
    const std::size_t at = static_cast<std::size_t>(bound / item);
    return std::vector<std::size_t>{at - 1, at, at + 1, 3 * 256 * 1024 + 17};
  };
  for (std::size_t n : sizes_of(1))
  {
    const auto bytes = random_vector<std::uint8_t>(n, test_seed() + 90);
    for (unsigned pct : {0u, 5u, 50u, 100u})
    {
      check_sides<ci::partition_sides::forward>(sweep::par, bytes, n, no_stencil{}, keep_percent<std::uint8_t>{pct}, false,
                                                partition_label("uint8 stable", n, pct));
      check_sides<ci::partition_sides::sampled>(sweep::par_nosync.on(s.stream), bytes, n, no_stencil{},
                                                keep_percent<std::uint8_t>{pct}, false,
                                                partition_label("uint8 partition, par_nosync.on(stream)", n, pct));
    }
  }
  for (std::size_t n : sizes_of(sizeof(std::uint32_t)))
  {
    const auto data = random_vector<std::uint32_t>(n, test_seed() + 91);
    const thrust::device_vector<std::int32_t> stencil = random_vector<std::int32_t>(n, test_seed() + 92);
    check_sides<ci::partition_sides::sampled>(sweep::par.on(s.stream), data, n, no_stencil{}, keep_percent<std::uint32_t>{50},
                                              false, partition_label("uint32 partition, par.on(stream)", n, 50));
    check_sides<ci::partition_sides::forward>(sweep::par, data, n, stencil.begin(), odd_stencil{}, false,
                                              "uint32 stable with an int32 stencil, n = " + std::to_string(n));
    allocation_counts counts;
    counting_allocator<char> alloc(&counts);
    check_sides<ci::partition_sides::forward>(sweep::par(alloc), data, n, no_stencil{}, keep_percent<std::uint32_t>{50}, false,
                                              partition_label("uint32 stable, par(alloc)", n, 50));
    CHECK(counts.allocations.load() == counts.deallocations.load());
  }
  for (std::size_t n : sizes_of(sizeof(s24)))
  {
    const auto wide = random_vector<s24>(n, test_seed() + 93);
    for (unsigned pct : {5u, 95u})
    {
      check_sides<ci::partition_sides::sampled>(sweep::par, wide, n, no_stencil{}, keep_percent<s24>{pct}, false,
                                                partition_label("24-byte partition", n, pct));
    }
  }
}
