// stable_partition_copy, stable_partition, partition_copy and partition (in place) of float and double
// (with NaN, signed zeros and infinities; selected by a hash of their bits, and by x > 0, which NaN and
// both zeros fail) and of 12- and 24-byte structs, without a stencil, on sweep::par against
// thrust::device at the edge sizes of the copy_if tile.
#include "partition_test.cuh"

using namespace sweep_test;

namespace
{

template <class T, class Gen>
void partition_of(const char* name, Gen gen)
{
  const auto sizes = compaction_sizes<T>();
  check_partition_shares(items_of_runs<T>(run_ids(sizes.back(), run_shape::distinct, 0), gen), sizes, name);
}

template <class T>
struct positive
{
  __host__ __device__ bool operator()(T x) const
  {
    return x > T(0);
  }
};

} // namespace

TEST_CASE("partition of floats with NaN and signed zeros matches thrust", "[partition][float]")
{
  partition_of<float>("float", float_run_value<float>{test_seed() + 21});
  const auto sizes = compaction_sizes<float>();
  const auto data  = items_of_runs<float>(run_ids(sizes.back(), run_shape::distinct, 0), float_run_value<float>{test_seed() + 22});
  for (std::size_t n : sizes)
  {
    check_partition_forms(data, n, no_stencil{}, positive<float>{}, "float x > 0, n=" + std::to_string(n));
  }
}

TEST_CASE("partition of doubles with NaN and signed zeros matches thrust", "[partition][float]")
{
  partition_of<double>("double", float_run_value<double>{test_seed() + 23});
}

TEST_CASE("partition of 12- and 24-byte structs matches thrust", "[partition][struct]")
{
  partition_of<s12>("s12", run_value<s12>{test_seed() + 24});
  partition_of<s24>("s24", run_value<s24>{test_seed() + 25});
}
