// The histograms' tuning, host against device: a kernel templated and bounded like the histogram
// kernels writes the values its code took from tuning_for<compiled_arch>; the plan the host makes
// for the real kernels (make_plan, from their PTX versions) must use the same block size, samples a
// thread, copies budget and grid cap, and the real kernels must carry that block size in their
// launch bounds.
#include "histogram_test_common.cuh"

#include <sweep/detail/histogram/agent.cuh>
#include <sweep/detail/histogram/dispatch.cuh>
#include <sweep/detail/histogram/kernels.cuh>
#include <sweep/detail/histogram/tuning.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>

namespace
{
namespace hi = sweep::detail::histogram_impl;
using sweep::detail::compiled_arch;

//! What device code chose. (The three algorithms' tuning tests have the same layout on purpose; each
//! reports the fields of its own tuning struct.)
struct device_choice
{
  int arch;
  int block_threads;
  int items_per_thread;
  unsigned long long copies_budget_bytes;
  int max_copies;
  int max_blocks_per_sm;
};

//! Templated like the histogram kernels (a mapping) and bounded the same way.
template <class Mapping>
__global__ void __launch_bounds__(hi::tuning_for<compiled_arch>::block_threads) report_tuning(device_choice* out)
{
  using tuning = hi::tuning_for<compiled_arch>;
  if (threadIdx.x == 0)
  {
    out->arch                = compiled_arch;
    out->block_threads       = tuning::block_threads;
    out->items_per_thread    = hi::items_per_thread<tuning, typename Mapping::sample_type>;
    out->copies_budget_bytes = tuning::copies_budget_bytes;
    out->max_copies          = tuning::max_copies;
    out->max_blocks_per_sm   = tuning::max_blocks_per_sm;
  }
}

//! The copies plan_shared_memory keeps for priv_bins bins under a budget and a cap.
int expected_copies(int priv_bins, unsigned long long budget, int max_copies)
{
  int copies = 1;
  while (copies * 2 <= max_copies && static_cast<unsigned long long>(priv_bins) * 4 * copies * 2 <= budget)
  {
    copies *= 2;
  }
  return copies;
}

template <class Mapping, class SampleIt, class Accum>
void check_plan(const char* name, int priv_bins)
{
  INFO(name << ", " << priv_bins << " privatized bins");
  constexpr auto probe = &report_tuning<Mapping>;
  const int arch       = sweep::detail::kernel_arch<probe>();
  thrust::device_vector<device_choice> out(1);
  const int threads = sweep::detail::with_tuning_arch(arch, [](auto a) {
    return hi::tuning_for<decltype(a)::value>::block_threads;
  });
  probe<<<1, threads>>>(thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const device_choice device = out[0];
  CHECK(device.arch == arch);

  const hi::launch_plan plan = hi::make_plan<Mapping, SampleIt, Accum>(priv_bins, 0);
  CHECK(plan.block_threads == device.block_threads);
  CHECK(plan.items_per_thread == device.items_per_thread);
  const int sm_count = sweep::detail::current_device_info().sm_count;
  CHECK(plan.grid <= sm_count * device.max_blocks_per_sm);
  constexpr auto shared_kernel = &hi::shared_histogram_kernel<Mapping, SampleIt, Accum>;
  constexpr auto global_kernel = &hi::global_histogram_kernel<Mapping, SampleIt, Accum>;
  cudaFuncAttributes attributes{};
  if (plan.use_shared)
  {
    CHECK(plan.copies == expected_copies(priv_bins, device.copies_budget_bytes, device.max_copies));
    CHECK(sweep::detail::kernel_arch<shared_kernel>() == device.arch);
    REQUIRE(cudaFuncGetAttributes(&attributes, shared_kernel) == cudaSuccess);
  }
  else
  {
    CHECK(sweep::detail::kernel_arch<global_kernel>() == device.arch);
    REQUIRE(cudaFuncGetAttributes(&attributes, global_kernel) == cudaSuccess);
  }
  CHECK(attributes.maxThreadsPerBlock == plan.block_threads);
}
} // namespace

TEST_CASE("histograms: the host plans each kernel with the tuning its code was compiled with", "[histogram][tuning]")
{
  INFO("device code's architecture for this binary: " << sweep_test::tuned_arch());
  using byte_mapping  = hi::raw_byte_mapping<std::uint8_t, hi::even_transform<std::uint8_t, float>>;
  using float_mapping = hi::direct_mapping<float, hi::even_transform<float, float>>;
  using index_mapping = hi::direct_mapping<int, hi::index_transform<int>>;
  check_plan<byte_mapping, const std::uint8_t*, unsigned int>("uint8 samples", 256);
  check_plan<float_mapping, const float*, unsigned int>("float samples", 256);
  check_plan<float_mapping, const float*, unsigned long long>("float samples", 384);
  check_plan<float_mapping, const float*, unsigned long long>("float samples", 4096);
  check_plan<index_mapping, const int*, unsigned int>("int samples", 1000);
  // More bins than one copy fits in a block's shared memory: the global-atomics kernel's plan.
  const int beyond = sweep::detail::current_device_info().max_shared_per_block_optin / 4 + 1;
  check_plan<index_mapping, const int*, unsigned int>("int samples", beyond);
}
