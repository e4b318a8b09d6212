// A program mixing translation units with and without sweep/thrust_override.cuh (issue 15): the
// calls of the first run sweep, those of the second stock Thrust, both correct, whatever the link
// order. Built twice, linking the two units in both orders, at host -O0 so that no inlining hides
// which body of a shared instantiation the linker kept (tests/CMakeLists.txt).
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <common/test_utils.cuh>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace mixed
{
void sort_with(thrust::device_vector<int>&);
void sort_no_policy_with(thrust::device_vector<int>&);
void sort_by_key_with(thrust::device_vector<int>&, thrust::device_vector<int>&);
void sort_policy_variable_with(thrust::device_vector<int>&);
void sort_generic_with(thrust::device_vector<int>&);
std::ptrdiff_t copy_if_with(const thrust::device_vector<int>&, thrust::device_vector<int>&);
void sort_without(thrust::device_vector<int>&);
void sort_no_policy_without(thrust::device_vector<int>&);
void sort_by_key_without(thrust::device_vector<int>&, thrust::device_vector<int>&);
void sort_policy_variable_without(thrust::device_vector<int>&);
void sort_generic_without(thrust::device_vector<int>&);
std::ptrdiff_t copy_if_without(const thrust::device_vector<int>&, thrust::device_vector<int>&);
unsigned long long routed_total();
} // namespace mixed

TEST_CASE("translation units with and without the override: each keeps its own backend", "[override][mixed]")
{
  const std::size_t n = 100003;
  const thrust::device_vector<int> input = sweep_test::random_vector<int>(n, sweep_test::test_seed());
  thrust::host_vector<int> host          = input;
  std::vector<int> sorted(host.begin(), host.end());
  std::sort(sorted.begin(), sorted.end());
  const auto odd = std::count_if(host.begin(), host.end(), [](int x) { return (x & 1) != 0; });

  auto check_sorted = [&](const thrust::device_vector<int>& v) {
    thrust::host_vector<int> h = v;
    REQUIRE(std::vector<int>(h.begin(), h.end()) == sorted);
  };
  thrust::device_vector<int> out(n);

  // With the override: every call is routed.
  unsigned long long before = mixed::routed_total();
  thrust::device_vector<int> v = input;
  mixed::sort_with(v);
  check_sorted(v);
  v = input;
  mixed::sort_no_policy_with(v);
  check_sorted(v);
  thrust::device_vector<int> k = input, values = input;
  mixed::sort_by_key_with(k, values);
  REQUIRE(mixed::copy_if_with(input, out) == odd);
  v = input;
  mixed::sort_policy_variable_with(v);
  check_sorted(v);
  REQUIRE(mixed::routed_total() - before == 5);
  // Through Thrust's own entry point (generic code taking execution_policy_base): stock Thrust in
  // both kinds of unit, so that the one instantiation has one body.
  before = mixed::routed_total();
  v      = input;
  mixed::sort_generic_with(v);
  check_sorted(v);
  v = input;
  mixed::sort_generic_without(v);
  check_sorted(v);
  REQUIRE(mixed::routed_total() - before == 0);

  // Without: none is.
  before = mixed::routed_total();
  v      = input;
  mixed::sort_without(v);
  check_sorted(v);
  v = input;
  mixed::sort_no_policy_without(v);
  check_sorted(v);
  thrust::device_vector<int> k2 = input, values2 = input;
  mixed::sort_by_key_without(k2, values2);
  REQUIRE(mixed::copy_if_without(input, out) == odd);
  v = input;
  mixed::sort_policy_variable_without(v);
  check_sorted(v);
  REQUIRE(mixed::routed_total() - before == 0);

  // Both backends agree (sort_by_key: the keys; the values of equal keys may differ in order).
  sweep_test::require_bitwise_equal(k2, k, n, "sort_by_key keys, sweep against Thrust");
}
