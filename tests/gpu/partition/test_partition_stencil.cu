// The four partition forms with a stencil, on sweep::par against thrust::device: stencils of another
// type than the items (double items with a uint8 stencil, 12-byte items with a float stencil with NaN
// and signed zeros, uint8 items with an int32 stencil), a fancy stencil (a transform of a counting
// iterator), 0, 5, 50, 95 and 100% selected at the edge sizes of the copy_if tile; and items that are
// their own index, so that each side of the non-stable forms can be checked against the stencil.
#include "partition_test.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sequence.h>

using namespace sweep_test;

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
