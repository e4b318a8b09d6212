// Runs one check under each form of sweep's policies, for the algorithms' policy tests:
// check(policy, name) with name the form as written ("par.on(stream)").
#pragma once

#include "common/counting_allocator.cuh"
#include "common/test_utils.cuh"

#include <sweep/execution_policy.cuh>

namespace sweep_test
{

//! check under par, par_nosync, par.on(stream) and par_nosync.on(stream) (a non-blocking stream).
template <class Check>
void check_under_stream_policies(Check check)
{
  stream_guard s;
  check(sweep::par, "par");
  check(sweep::par_nosync, "par_nosync");
  check(sweep::par.on(s.stream), "par.on(stream)");
  check(sweep::par_nosync.on(s.stream), "par_nosync.on(stream)");
}

//! check under par(alloc), par(alloc).on(stream) and par_nosync(alloc).on(stream) with a counting
//! allocator: every form takes temporary storage from it, and all of it is given back.
template <class Check>
void check_under_allocator_policies(Check check)
{
  stream_guard s;
  allocation_counts counts;
  counting_allocator<char> alloc(&counts);
  check(sweep::par(alloc), "par(alloc)");
  CHECK(counts.allocations.load() > 0);
  CHECK(counts.allocations.load() == counts.deallocations.load());
  CHECK(counts.live_bytes.load() == 0);
  long before = counts.allocations.load();
  check(sweep::par(alloc).on(s.stream), "par(alloc).on(stream)");
  CHECK(counts.allocations.load() > before);
  before = counts.allocations.load();
  check(sweep::par_nosync(alloc).on(s.stream), "par_nosync(alloc).on(stream)");
  CHECK(counts.allocations.load() > before);
  CHECK(counts.allocations.load() == counts.deallocations.load());
  CHECK(counts.live_bytes.load() == 0);
}

} // namespace sweep_test
