// Scans past 2^31 items (64-bit tile indices, offsets and counts) against thrust::device, compared on
// the device (thrust::mismatch names the first difference; nothing of that size goes to the host).
#include "scan_test.cuh"

#include <thrust/mismatch.h>
#include <thrust/scan.h>

#include <cstdint>
#include <utility>

using namespace sweep_test;

namespace
{

//! Runs form(thrust::device, ...) and form(sweep::par, ...) over n random T into outputs of n + 64
//! (the sweep one poisoned) and requires the same end, the same n outputs and the poison after them.
template <class T, class Form>
void past_2_31(std::size_t n, std::uint64_t seed, Form form, const char* what)
{
  if (!device_has_memory(3 * n * sizeof(T) + 256))
  {
    WARN("skipped " << what << ": not enough device memory");
    return;
  }
  INFO(what << ", n = " << n << ", seed = " << test_seed());
  thrust::device_vector<T> expected(n + 64), actual(n + 64);
  {
    const auto data = random_vector<T>(n, seed);
    poison(actual);
    const auto e_end = form(thrust::device, data.begin(), data.end(), expected.begin());
    const auto a_end = form(sweep::par, data.begin(), data.end(), actual.begin());
    REQUIRE(static_cast<std::size_t>(e_end - expected.begin()) == n);
    REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == n);
  }
  const auto first_difference = thrust::mismatch(thrust::device, expected.begin(),
                                                 expected.begin() + static_cast<std::ptrdiff_t>(n), actual.begin());
  if (first_difference.first != expected.begin() + static_cast<std::ptrdiff_t>(n))
  {
    const std::size_t i = static_cast<std::size_t>(first_difference.first - expected.begin());
    FAIL("first mismatch at index " << i << ": expected " << describe(static_cast<T>(expected[i])) << ", got "
                                    << describe(static_cast<T>(actual[i])));
  }
  require_poison_intact(actual, n, what);
}

} // namespace

TEST_CASE("scan past 2^31 items matches thrust (u8 inclusive, u32 exclusive)", "[scan][large]")
{
  past_2_31<std::uint8_t>((std::size_t(1) << 31) + 12345, test_seed() + 1, [](auto p, auto f, auto l, auto o) {
    return thrust::inclusive_scan(p, f, l, o); // wraps mod 256, in both
  }, "u8 inclusive plus");
  past_2_31<std::uint32_t>((std::size_t(1) << 31) + 77, test_seed() + 2, [](auto p, auto f, auto l, auto o) {
    return thrust::exclusive_scan(p, f, l, o);
  }, "u32 exclusive plus");
}
