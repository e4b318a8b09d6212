// Host-only checks that CUDA errors become the exceptions Thrust users expect, and of policy traits.
#include <sweep/execution_policy.cuh>

#include <thrust/device_allocator.h>

#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

TEST_CASE("throw_on_error maps CUDA errors to thrust::system_error", "[errors]")
{
  CHECK_NOTHROW(sweep::detail::throw_on_error(cudaSuccess, "ok"));
  try
  {
    sweep::detail::throw_on_error(cudaErrorInvalidValue, "sweep test");
    FAIL("no exception");
  }
  catch (const thrust::system_error& e)
  {
    CHECK(e.code().value() == cudaErrorInvalidValue);
    CHECK(std::string(e.what()).find("sweep test") != std::string::npos);
  }
  CHECK_THROWS_AS(sweep::detail::throw_on_error(cudaErrorMemoryAllocation, "alloc"), std::bad_alloc);
}

TEST_CASE("throw_invalid_argument names the argument", "[errors]")
{
  try
  {
    sweep::detail::throw_invalid_argument("sweep::f", "num_bins", "must be positive");
    FAIL("no exception");
  }
  catch (const std::invalid_argument& e)
  {
    CHECK(std::string(e.what()) == "sweep::f: argument 'num_bins' must be positive");
  }
}

namespace
{
struct my_alloc : thrust::device_allocator<char>
{};
} // namespace

TEST_CASE("policy types: every form is a sweep policy and a Thrust CUDA policy", "[policy]")
{
  using on_stream  = decltype(sweep::par.on(cudaStream_t{}));
  using nosync     = decltype(sweep::par_nosync.on(cudaStream_t{}));
  my_alloc alloc;
  using with_alloc = decltype(sweep::par(alloc));
  using with_both  = decltype(sweep::par(alloc).on(cudaStream_t{}));
  using nosync_alloc = decltype(sweep::par_nosync(alloc).on(cudaStream_t{}));
  STATIC_REQUIRE(std::is_base_of<sweep::detail::execution_policy<sweep::par_t>, sweep::par_t>::value);
  STATIC_REQUIRE(std::is_base_of<sweep::detail::execution_policy<on_stream>, on_stream>::value);
  STATIC_REQUIRE(std::is_base_of<sweep::detail::execution_policy<nosync>, nosync>::value);
  STATIC_REQUIRE(std::is_base_of<sweep::detail::execution_policy<with_alloc>, with_alloc>::value);
  STATIC_REQUIRE(std::is_same<with_both, with_alloc>::value);
  STATIC_REQUIRE(std::is_base_of<thrust::cuda_cub::execution_policy<with_both>, with_both>::value);
  STATIC_REQUIRE(sweep::detail::has_allocator<with_alloc>::value);
  STATIC_REQUIRE(sweep::detail::has_allocator<nosync_alloc>::value);
  STATIC_REQUIRE_FALSE(sweep::detail::has_allocator<sweep::par_t>::value);
  STATIC_REQUIRE_FALSE(sweep::detail::has_allocator<on_stream>::value);
}

TEST_CASE("policy streams and synchronization flags", "[policy]")
{
  auto s = reinterpret_cast<cudaStream_t>(0x1234);
  auto p = sweep::par.on(s);
  CHECK(sweep::detail::stream_of(p) == s);
  auto q = sweep::par_nosync.on(s);
  CHECK(sweep::detail::stream_of(q) == s);
  CHECK(thrust::cuda_cub::must_perform_optional_synchronization(p));
  CHECK_FALSE(thrust::cuda_cub::must_perform_optional_synchronization(q));
  sweep::par_nosync_t nosync = sweep::par_nosync;
  CHECK_FALSE(thrust::cuda_cub::must_perform_optional_synchronization(nosync));
  sweep::par_t par = sweep::par;
  CHECK(sweep::detail::stream_of(par) == thrust::cuda_cub::default_stream());
  my_alloc alloc;
  auto pa = sweep::par(alloc).on(s);
  CHECK(sweep::detail::stream_of(pa) == s);
  auto na = sweep::par_nosync(alloc).on(s);
  CHECK_FALSE(thrust::cuda_cub::must_perform_optional_synchronization(na));
}
