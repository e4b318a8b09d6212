// The partition forms with stencils, and under every sweep policy form.
#include "partition_test.cuh"
#include "common/policy_forms.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sequence.h>
#include <thrust/count.h>

using namespace sweep_test;

// --------------------------------------------------------------------------------------------------
// The four partition forms with a stencil, on sweep::par against thrust::device: stencils of another
// type than the items (double items with a uint8 stencil, 12-byte items with a float stencil with NaN
// and signed zeros, uint8 items with an int32 stencil), a fancy stencil (a transform of a counting
// iterator), 0, 5, 50, 95 and 100% selected at the edge sizes of the copy_if tile; and items that are
// their own index, so that each side of the non-stable forms can be checked against the stencil.

namespace
{

template <class T, class S>
void partition_with_stencil(const char* name)
{
  const auto sizes   = compaction_sizes<T>();
  const auto data    = random_vector<T>(sizes.back(), test_seed() + 26);
  const auto stencil = items_of_runs<S>(run_ids(sizes.back(), run_shape::distinct, 0), run_value<S>{test_seed() + 27});
  for (std::size_t n : sizes)
  {
    for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
    {
      check_partition_forms(data, n, stencil.begin(), keep_percent<S>{pct}, partition_label(name, n, pct));
    }
  }
}

struct positive
{
  __host__ __device__ bool operator()(float x) const
  {
    return x > 0.0f;
  }
};

struct third
{
  __host__ __device__ bool operator()(std::uint64_t i) const
  {
    return mix64(i) % 3 == 0;
  }
};

} // namespace

TEST_CASE("partition of doubles with a uint8 stencil matches thrust", "[partition][stencil]")
{
  partition_with_stencil<double, std::uint8_t>("double items, uint8 stencil");
}

TEST_CASE("partition of uint8 items with an int32 stencil matches thrust", "[partition][stencil]")
{
  partition_with_stencil<std::uint8_t, std::int32_t>("uint8 items, int32 stencil");
}

TEST_CASE("partition of 12-byte items with a float stencil (NaN, signed zeros) matches thrust", "[partition][stencil]")
{
  const auto sizes   = compaction_sizes<s12>();
  const auto data    = random_vector<s12>(sizes.back(), test_seed() + 28);
  const auto stencil = items_of_runs<float>(run_ids(sizes.back(), run_shape::distinct, 0), float_run_value<float>{test_seed() + 29});
  for (std::size_t n : sizes)
  {
    check_partition_forms(data, n, stencil.begin(), positive{}, "s12 items, float stencil x > 0, n=" + std::to_string(n));
  }
}

TEST_CASE("partition with a transform-iterator stencil matches thrust", "[partition][stencil][iterators]")
{
  const auto sizes   = compaction_sizes<std::int32_t>();
  const auto data    = random_vector<std::int32_t>(sizes.back(), test_seed() + 30);
  const auto stencil = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), third{});
  for (std::size_t n : sizes)
  {
    check_partition_forms(data, n, stencil, is_true{}, "int32 items, transform stencil, n=" + std::to_string(n));
  }
}

TEST_CASE("partition of items that are their own index puts each on the side its stencil says",
          "[partition][stencil]")
{
  for (std::size_t n : {std::size_t(1), std::size_t(1000), copy_if_tile<std::uint32_t>() + 1, std::size_t(1) << 20})
  {
    for (unsigned pct : {5u, 50u, 95u})
    {
      thrust::device_vector<std::uint32_t> index(n);
      thrust::sequence(thrust::device, index.begin(), index.end());
      const auto stencil     = random_vector<std::uint16_t>(n, test_seed() + 31);
      const auto pred        = keep_percent<std::uint16_t>{pct};
      const std::string what = partition_label("index items, uint16 stencil", n, pct);
      INFO(what << ", seed = " << test_seed());
      // partition_copy: every item of the first output has its stencil selected, none of the second.
      thrust::device_vector<std::uint32_t> selected(n), rejected(n);
      const auto ends = thrust::partition_copy(sweep::par, index.begin(), index.end(), stencil.begin(), selected.begin(),
                                               rejected.begin(), pred);
      const std::size_t count = static_cast<std::size_t>(ends.first - selected.begin());
      REQUIRE(static_cast<std::size_t>(ends.second - rejected.begin()) == n - count);
      require_sides(thrust::make_permutation_iterator(stencil.begin(), selected.begin()), count,
                    thrust::make_permutation_iterator(stencil.begin(), rejected.begin()), n - count, pred,
                    "partition_copy " + what);
      // partition in place: the same for the two sides of the returned point.
      auto items       = index;
      const auto point = thrust::partition(sweep::par, items.begin(), items.end(), stencil.begin(), pred);
      REQUIRE(static_cast<std::size_t>(point - items.begin()) == count);
      require_sides(thrust::make_permutation_iterator(stencil.begin(), items.begin()), count,
                    thrust::make_permutation_iterator(stencil.begin(), point), n - count, pred, "partition " + what);
      check_partition_forms(index, n, stencil.begin(), pred, what);
    }
  }
}

// --------------------------------------------------------------------------------------------------
// The partition forms under every sweep policy form (par, par_nosync, .on(stream), the allocator
// forms) against thrust::device; the call runs after earlier work on its stream; temporary storage
// comes from the policy's allocator and is all given back; n = 0 returns at once; and inside a CUDA
// graph capture (these algorithms return a count to the host) a call is refused before it enqueues
// anything, leaving the capture valid.

namespace
{

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : policy_sizes_of_copy_if())
  {
    const auto data    = random_vector<std::uint32_t>(n, test_seed() + n);
    const auto stencil = random_vector<std::uint8_t>(n, test_seed() + n + 1);
    const auto pred    = keep_percent<std::uint32_t>{40};
    const auto spred   = keep_percent<std::uint8_t>{60};
    const std::string what = partition_label(name, n, 40);
    check_partition_copy<true, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_copy<false, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_in_place<true, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_in_place<false, std::uint32_t>(policy, data.begin(), n, no_stencil{}, pred, what);
    check_partition_copy<true, std::uint32_t>(policy, data.begin(), n, stencil.begin(), spred, what + ", stencil");
    check_partition_in_place<false, std::uint32_t>(policy, data.begin(), n, stencil.begin(), spred, what + ", stencil");
  }
}

} // namespace

TEST_CASE("partition forms under par, par_nosync, par.on(stream) and par_nosync.on(stream)", "[partition][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("partition forms take their temporary storage from the policy's allocator and give it all back",
          "[partition][policy][allocator]")
{
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("stable_partition and stable_partition_copy on a stream wait for the work before them on that stream",
          "[partition][policy][stream]")
{
  stream_guard s;
  const std::size_t n = 40 * copy_if_tile<std::uint32_t>() + 7;
  const auto fresh    = random_vector<std::uint32_t>(n, test_seed() + 40);
  const auto pred     = keep_percent<std::uint32_t>{50};
  auto expected       = fresh;
  const std::size_t count =
    static_cast<std::size_t>(thrust::stable_partition(thrust::device, expected.begin(), expected.end(), pred) - expected.begin());
  thrust::device_vector<std::uint32_t> data(n), selected(n), rejected(n);
  for (bool nosync : {false, true})
  {
    INFO((nosync ? "par_nosync.on(stream)" : "par.on(stream)") << ", seed = " << test_seed());
    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    const auto mid = nosync ? thrust::stable_partition(sweep::par_nosync.on(s.stream), data.begin(), data.end(), pred)
                            : thrust::stable_partition(sweep::par.on(s.stream), data.begin(), data.end(), pred);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(mid - data.begin()) == count);
    require_bitwise_equal(expected, data, n, "stable_partition after earlier work on its stream");

    thrust::fill(thrust::device, data.begin(), data.end(), 5u);
    overwrite_later(s.stream, fresh, data);
    const auto ends =
      nosync ? thrust::stable_partition_copy(sweep::par_nosync.on(s.stream), data.begin(), data.end(), selected.begin(), rejected.begin(), pred)
             : thrust::stable_partition_copy(sweep::par.on(s.stream), data.begin(), data.end(), selected.begin(), rejected.begin(), pred);
    REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
    REQUIRE(static_cast<std::size_t>(ends.first - selected.begin()) == count);
    require_bitwise_equal(expected, selected, count, "stable_partition_copy after earlier work on its stream");
  }
}

TEST_CASE("partition forms of n = 0 return their first outputs and write nothing", "[partition][policy][small]")
{
  thrust::device_vector<std::uint32_t> in(16, 1u), t(16), f(16);
  poison(t);
  poison(f);
  const auto pred = keep_percent<std::uint32_t>{50};
  const auto e1   = thrust::stable_partition_copy(sweep::par, in.begin(), in.begin(), t.begin(), f.begin(), pred);
  CHECK(e1.first == t.begin());
  CHECK(e1.second == f.begin());
  const auto e2 = thrust::partition_copy(sweep::par, in.begin(), in.begin(), in.begin(), t.begin(), f.begin(), pred);
  CHECK(e2.first == t.begin());
  CHECK(e2.second == f.begin());
  CHECK(thrust::partition(sweep::par, in.begin(), in.begin(), pred) == in.begin());
  CHECK(thrust::stable_partition(sweep::par_nosync, in.begin(), in.begin(), in.begin(), pred) == in.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  require_poison_intact(t, 0, "n = 0");
  require_poison_intact(f, 0, "n = 0");
}

TEST_CASE("stable_partition_copy and partition inside a graph capture are refused and leave the capture valid",
          "[partition][policy][graph]")
{
  const std::size_t n = 100000;
  const auto data     = random_vector<std::uint32_t>(n, test_seed() + 41);
  const auto pred     = keep_percent<std::uint32_t>{50};
  thrust::device_vector<std::uint32_t> selected(n), rejected(n), scratch(data);
  const auto count = thrust::count_if(thrust::device, data.begin(), data.end(), pred);
  require_capture_refused(
    [&](auto policy) {
      const auto ends = thrust::stable_partition_copy(policy, data.begin(), data.end(), selected.begin(), rejected.begin(), pred);
      REQUIRE(ends.first - selected.begin() == count); // reached outside a capture only
    },
    "stable_partition_copy");
  require_capture_refused(
    [&](auto policy) {
      const auto mid = thrust::partition(policy, scratch.begin(), scratch.end(), pred);
      REQUIRE(mid - scratch.begin() == count);
    },
    "partition");
}
