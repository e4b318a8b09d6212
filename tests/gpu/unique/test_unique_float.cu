// unique_copy, unique (in place) and unique_count of float and double under equal_to on sweep::par
// against thrust::device, bitwise: runs of NaN (never equal to itself: every NaN is kept), of -0.0 and
// +0.0 mixed (equal: a run's first is kept, with its sign), infinities, denormals and finite values,
// in every run shape at the edge sizes of the copy_if tile; and a literal case with its answer.
#include "unique_test.cuh"

#include <cmath>
#include <limits>

using namespace sweep_test;

namespace
{

template <class T>
void unique_of_specials(const char* name, const std::vector<std::size_t>& sizes)
{
  for (run_shape shape : all_run_shapes)
  {
    const auto ids  = run_ids(sizes.back(), shape, test_seed() + 2);
    const auto data = items_of_runs<T>(ids, float_run_value<T>{test_seed() + 3});
    for (std::size_t n : sizes)
    {
      check_unique_forms(data, n, unique_label(name, shape, n));
    }
  }
}

template <class T>
void literal_case(const char* name)
{
  const T nan  = std::numeric_limits<T>::quiet_NaN();
  const T zero = T(0);
  const T neg  = -zero;
  const thrust::host_vector<T> input    = {neg, zero, zero, nan, nan, T(1), T(1), neg, zero, nan, T(2)};
  const thrust::host_vector<T> expected = {neg, nan, nan, T(1), neg, nan, T(2)};
  const thrust::device_vector<T> data   = input;
  thrust::device_vector<T> out(input.size() + 4);
  poison(out);
  const auto end = thrust::unique_copy(sweep::par, data.begin(), data.end(), out.begin());
  INFO(name);
  REQUIRE(static_cast<std::size_t>(end - out.begin()) == expected.size());
  const thrust::host_vector<T> got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(expected.size()));
  require_bitwise_equal(expected, got, expected.size(), std::string(name) + " literal unique_copy");
  require_poison_intact(out, expected.size(), std::string(name) + " literal unique_copy");
  CHECK(thrust::unique_count(sweep::par, data.begin(), data.end()) == static_cast<std::ptrdiff_t>(expected.size()));
  check_unique_forms(data, data.size(), std::string(name) + " literal");
}

} // namespace

TEST_CASE("unique of floats keeps every NaN and the first of mixed signed zeros, as thrust does", "[unique][float]")
{
  unique_of_specials<float>("float", compaction_sizes<float>());
}

TEST_CASE("unique of doubles keeps every NaN and the first of mixed signed zeros, as thrust does", "[unique][float]")
{
  unique_of_specials<double>("double", compaction_sizes<double>());
}

TEST_CASE("unique of a literal float and double sequence gives the sequential answer", "[unique][float][small]")
{
  literal_case<float>("float");
  literal_case<double>("double");
}

TEST_CASE("unique of float specials over more than 300 tiles matches thrust", "[unique][float][many_tiles][slow]")
{
  unique_of_specials<float>("float", {many_tiles<float>()});
}
