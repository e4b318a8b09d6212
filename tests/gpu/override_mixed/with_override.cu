// Translation unit WITH sweep/thrust_override.cuh: its calls run sweep.
#include <sweep/thrust_override.cuh>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#define SUFFIX with
#include "calls.inl"

namespace mixed
{
unsigned long long routed_total()
{
  unsigned long long total = 0;
  for (int i = 0; i < static_cast<int>(sweep::routed_algorithm::count); ++i)
  {
    total += sweep::routed_calls(static_cast<sweep::routed_algorithm>(i));
  }
  return total;
}
} // namespace mixed
