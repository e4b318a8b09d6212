// remove, remove_copy and remove_if of float and double with NaN, signed zeros and infinities on
// sweep::par against thrust::device, bitwise: removing 0.0 removes both zeros (they compare equal),
// -0.0 the same, NaN nothing (it equals nothing), an infinity and an ordinary value; and remove_if of
// 12- and 24-byte structs by a hash of their bytes, at 0, 5, 50, 95 and 100% removed; at the edge
// sizes of the copy_if tile.
#include "remove_test.cuh"

#include <limits>

using namespace sweep_test;

namespace
{

template <class T>
void remove_specials(const char* name)
{
  const auto sizes = compaction_sizes<T>();
  const auto data  = items_of_runs<T>(run_ids(sizes.back(), run_shape::short_runs, test_seed() + 52),
                                     float_run_value<T>{test_seed() + 53});
  const T values[] = {T(0), -T(0), std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(), T(1.5)};
  const char* value_names[] = {"0.0", "-0.0", "NaN", "inf", "1.5"};
  for (std::size_t n : sizes)
  {
    for (int v = 0; v < 5; ++v)
    {
      const std::string what = std::string(name) + " value " + value_names[v] + ", n=" + std::to_string(n);
      check_remove<T>(sweep::par, data.begin(), n, values[v], what);
      check_remove_copy<T>(sweep::par, data.begin(), n, values[v], what);
    }
    for (unsigned pct : {0u, 50u, 100u})
    {
      check_remove_if<T>(sweep::par, data.begin(), n, no_stencil{}, keep_percent<T>{pct}, remove_label(name, n, pct));
    }
  }
}

template <class T>
void remove_structs(const char* name)
{
  const auto sizes = compaction_sizes<T>();
  const auto data  = random_vector<T>(sizes.back(), test_seed() + 54);
  for (std::size_t n : sizes)
  {
    for (unsigned pct : {0u, 5u, 50u, 95u, 100u})
    {
      check_remove_if<T>(sweep::par, data.begin(), n, no_stencil{}, keep_percent<T>{pct}, remove_label(name, n, pct));
    }
  }
}

} // namespace

TEST_CASE("remove of floats: both zeros for 0.0 and -0.0, nothing for NaN, as thrust does", "[remove][float]")
{
  remove_specials<float>("float");
}

TEST_CASE("remove of doubles: both zeros for 0.0 and -0.0, nothing for NaN, as thrust does", "[remove][float]")
{
  remove_specials<double>("double");
}

TEST_CASE("remove_if of 12- and 24-byte structs matches thrust at every removed share", "[remove][struct]")
{
  remove_structs<s12>("s12");
  remove_structs<s24>("s24");
}

TEST_CASE("remove of a literal float sequence gives the sequential answer", "[remove][float][small]")
{
  const float nan  = std::numeric_limits<float>::quiet_NaN();
  const thrust::host_vector<float> input    = {-0.0f, 1.0f, 0.0f, nan, 2.0f, -0.0f, nan};
  const thrust::host_vector<float> expected = {1.0f, nan, 2.0f, nan};
  thrust::device_vector<float> data(input.size() + 4);
  thrust::copy(input.begin(), input.end(), data.begin());
  poison_from(data, input.size());
  const auto end = thrust::remove(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(input.size()), 0.0f);
  REQUIRE(static_cast<std::size_t>(end - data.begin()) == expected.size());
  const thrust::host_vector<float> got(data.begin(), end);
  require_bitwise_equal(expected, got, expected.size(), "remove 0.0f of a literal sequence");
  require_poison_intact(data, input.size(), "remove 0.0f of a literal sequence (guard)");
  thrust::copy(input.begin(), input.end(), data.begin());
  CHECK(thrust::remove(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(input.size()), nan)
        == data.begin() + static_cast<std::ptrdiff_t>(input.size()));
}
