// copy_if / remove_copy_if on sweep policies against thrust::device: every overload, policy form
// and iterator kind (pointers, device_vector, counting, transform, zip, permutation, discard).
#include "copy_if_test.cuh"
#include "common/policy_forms.cuh"

#include <sweep/detail/copy_if/plan.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/remove.h>
#include <thrust/tuple.h>

#include <cuda_runtime_api.h>

using namespace sweep_test;

namespace
{

struct positive
{
  __host__ __device__ bool operator()(float x) const
  {
    return x > 0.0f;
  }
};

struct odd_byte
{
  __host__ __device__ bool operator()(std::uint8_t s) const
  {
    return (s & 1) != 0;
  }
};

struct square
{
  __host__ __device__ float operator()(float x) const
  {
    return x * x - 1.0f;
  }
};

struct first_positive
{
  __host__ __device__ bool operator()(const thrust::tuple<int, float>& t) const
  {
    return thrust::get<0>(t) > 0;
  }
};

struct below
{
  std::size_t bound;
  __host__ __device__ int operator()(int x) const
  {
    return static_cast<int>(static_cast<unsigned>(x) % bound);
  }
};

template <class Policy>
void check_policy(Policy policy, const char* name)
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data = sweep_test::random_vector<float>(n, sweep_test::test_seed() + n);
    check_against_thrust<float>(policy, data.begin(), n, positive{}, label(name, n, 50));
  }
}

} // namespace

TEST_CASE("copy_if works with every sweep policy form", "[copy_if][policy]")
{
  check_under_stream_policies([](auto policy, const char* name) { check_policy(policy, name); });
  // The allocator forms: sweep takes its temporary storage from the allocator and gives it all back.
  check_under_allocator_policies([](auto policy, const char* name) { check_policy(policy, name); });
}

TEST_CASE("copy_if works on raw pointers and device_vector iterators", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 3);
    const float* raw = thrust::raw_pointer_cast(data.data());
    check_against_thrust<float>(sweep::par, raw, n, positive{}, label("raw pointer input", n, 50));

    // Raw pointer output, device_vector input.
    thrust::device_vector<float> expected(n + 4), actual(n + 4);
    sweep_test::poison(expected);
    sweep_test::poison(actual);
    float* e_out        = thrust::raw_pointer_cast(expected.data());
    float* a_out        = thrust::raw_pointer_cast(actual.data());
    const float* e_end  = thrust::copy_if(thrust::device, data.begin(), data.end(), e_out, positive{});
    const float* a_end  = thrust::copy_if(sweep::par, data.begin(), data.end(), a_out, positive{});
    const std::size_t c = static_cast<std::size_t>(e_end - e_out);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == c);
    sweep_test::require_bitwise_equal(expected, actual, c, label("raw pointer output", n, 50));
    sweep_test::require_poison_intact(actual, c, label("raw pointer output", n, 50));
  }
}

TEST_CASE("copy_if works on counting, transform and permutation iterators", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    thrust::counting_iterator<int> count(-static_cast<int>(n / 3));
    check_against_thrust<int>(sweep::par, count, n, keep_percent<int>{50}, label("counting_iterator", n, 50));

    const auto data = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 4);
    auto squares    = thrust::make_transform_iterator(data.begin(), square{});
    check_against_thrust<float>(sweep::par, squares, n, positive{}, label("transform_iterator", n, 50));

    if (n > 0)
    {
      auto indices = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 5);
      thrust::device_vector<int> bounded(n);
      thrust::transform(indices.begin(), indices.end(), bounded.begin(), below{n});
      auto permuted = thrust::make_permutation_iterator(data.begin(), bounded.begin());
      check_against_thrust<float>(sweep::par, permuted, n, positive{}, label("permutation_iterator", n, 50));
    }
  }
}

TEST_CASE("copy_if works on zip iterators in and out", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto keys   = sweep_test::random_vector<int>(n, sweep_test::test_seed() + 6);
    const auto values = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 7);
    thrust::device_vector<int> ek(n + 4), ak(n + 4);
    thrust::device_vector<float> ev(n + 4), av(n + 4);
    sweep_test::poison(ek);
    sweep_test::poison(ak);
    sweep_test::poison(ev);
    sweep_test::poison(av);
    auto in    = thrust::make_zip_iterator(keys.begin(), values.begin());
    auto e_out = thrust::make_zip_iterator(ek.begin(), ev.begin());
    auto a_out = thrust::make_zip_iterator(ak.begin(), av.begin());
    auto e_end = thrust::copy_if(thrust::device, in, in + n, e_out, first_positive{});
    auto a_end = thrust::copy_if(sweep::par, in, in + n, a_out, first_positive{});
    const std::size_t c = static_cast<std::size_t>(e_end - e_out);
    REQUIRE(static_cast<std::size_t>(a_end - a_out) == c);
    sweep_test::require_bitwise_equal(ek, ak, c, label("zip keys", n, 50));
    sweep_test::require_bitwise_equal(ev, av, c, label("zip values", n, 50));
    sweep_test::require_poison_intact(ak, c, label("zip keys", n, 50));
    sweep_test::require_poison_intact(av, c, label("zip values", n, 50));
  }
}

TEST_CASE("copy_if with a stencil of another type, and remove_copy_if (both forms)", "[copy_if][stencil]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data    = sweep_test::random_vector<double>(n, sweep_test::test_seed() + 8);
    const auto stencil = sweep_test::random_vector<std::uint8_t>(n, sweep_test::test_seed() + 9);
    for (int form = 0; form < 3; ++form)
    {
      thrust::device_vector<double> expected(n + 4), actual(n + 4);
      sweep_test::poison(expected);
      sweep_test::poison(actual);
      thrust::device_vector<double>::iterator e_end, a_end;
      const char* what = "";
      if (form == 0)
      {
        what  = "copy_if stencil";
        e_end = thrust::copy_if(thrust::device, data.begin(), data.end(), stencil.begin(), expected.begin(), odd_byte{});
        a_end = thrust::copy_if(sweep::par, data.begin(), data.end(), stencil.begin(), actual.begin(), odd_byte{});
      }
      else if (form == 1)
      {
        what  = "remove_copy_if stencil";
        e_end = thrust::remove_copy_if(
          thrust::device, data.begin(), data.end(), stencil.begin(), expected.begin(), odd_byte{});
        a_end = thrust::remove_copy_if(sweep::par, data.begin(), data.end(), stencil.begin(), actual.begin(), odd_byte{});
      }
      else
      {
        what  = "remove_copy_if";
        e_end = thrust::remove_copy_if(thrust::device, data.begin(), data.end(), expected.begin(), keep_percent<double>{30});
        a_end = thrust::remove_copy_if(sweep::par, data.begin(), data.end(), actual.begin(), keep_percent<double>{30});
      }
      const std::size_t c = static_cast<std::size_t>(e_end - expected.begin());
      INFO(what << " n=" << n);
      REQUIRE(static_cast<std::size_t>(a_end - actual.begin()) == c);
      sweep_test::require_bitwise_equal(expected, actual, c, label(what, n, 50));
      sweep_test::require_poison_intact(actual, c, label(what, n, 50));
    }
  }
}

TEST_CASE("copy_if into a discard_iterator returns the count", "[copy_if][iterators]")
{
  for (std::size_t n : iterator_sizes_of_copy_if())
  {
    const auto data    = sweep_test::random_vector<float>(n, sweep_test::test_seed() + 10);
    const auto stencil = sweep_test::random_vector<std::uint8_t>(n, sweep_test::test_seed() + 11);
    thrust::discard_iterator<> out;
    const auto expected = thrust::copy_if(thrust::device, data.begin(), data.end(), out, positive{}) - out;
    const auto actual   = thrust::copy_if(sweep::par, data.begin(), data.end(), out, positive{}) - out;
    CHECK(actual == expected);
    const auto expected_s =
      thrust::copy_if(thrust::device, data.begin(), data.end(), stencil.begin(), out, odd_byte{}) - out;
    const auto actual_s = thrust::copy_if(sweep::par, data.begin(), data.end(), stencil.begin(), out, odd_byte{}) - out;
    CHECK(actual_s == expected_s);
  }
}

namespace
{
// Thrust's own tests use predicates like this one: operator() is not const.
struct mutable_is_odd
{
  __host__ __device__ bool operator()(int x)
  {
    return (x & 1) != 0;
  }
};
} // namespace

TEST_CASE("copy_if and remove_copy_if accept predicates whose operator() is not const", "[copy_if][iterators]")
{
  const std::uint64_t seed = sweep_test::test_seed();
  const std::size_t n      = 100003;
  auto input               = sweep_test::random_vector<int>(n, seed);
  thrust::device_vector<int> expected(n), actual(n);
  for (bool remove : {false, true})
  {
    INFO("remove_copy_if = " << remove << ", seed = " << seed);
    sweep_test::poison(expected);
    sweep_test::poison(actual);
    auto e = remove ? thrust::remove_copy_if(thrust::device, input.begin(), input.end(), expected.begin(), mutable_is_odd{})
                    : thrust::copy_if(thrust::device, input.begin(), input.end(), expected.begin(), mutable_is_odd{});
    auto a = remove ? thrust::remove_copy_if(sweep::par, input.begin(), input.end(), actual.begin(), mutable_is_odd{})
                    : thrust::copy_if(sweep::par, input.begin(), input.end(), actual.begin(), mutable_is_odd{});
    const std::size_t count = static_cast<std::size_t>(e - expected.begin());
    REQUIRE(static_cast<std::size_t>(a - actual.begin()) == count);
    sweep_test::require_bitwise_equal(expected, actual, count, "mutable predicate");
    sweep_test::require_poison_intact(actual, count, "mutable predicate");
  }
}
