// copy_if's tuning, host against device: a kernel templated and bounded like select_kernel writes
// the values its code took from tuning_for<compiled_arch>; they must equal what the host chose for
// it from its PTX version (launch_for). The real kernels of the same types must get the same tile
// from the host, carry its block size in their launch bounds, hold their compiled blocks per SM and
// stay within the shared memory bound the tuning's limit checks were made with.
#include "copy_if_test.cuh"

#include <sweep/detail/copy_if/kernels.cuh>
#include <sweep/detail/copy_if/plan.hpp>
#include <sweep/detail/copy_if/tuning.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/device_info.hpp>

using namespace sweep_test;

namespace
{
namespace ci = sweep::detail::copy_if_impl;
using sweep::detail::compiled_arch;

//! What device code chose. (The three algorithms' tuning tests have the same layout on purpose; each
//! reports the fields of its own tuning struct.)
struct device_choice
{
  int arch;
  int block_threads;
  unsigned long long tile_items;
  int min_blocks;
  int word_stride;
};

//! Templated like select_kernel (value type, paths) and bounded the same way.
template <class T, class Paths>
__global__ void __launch_bounds__((ci::launch_threads<T, ci::tuning_for<compiled_arch>, Paths::load_vectors, Paths::schedule>()),
                                  (ci::min_blocks<T, Paths, ci::tuning_for<compiled_arch>>()))
  report_tuning(device_choice* out)
{
  using tuning = ci::tuning_for<compiled_arch>;
  using shape  = ci::tile_shape<T, tuning>;
  if (threadIdx.x == 0)
  {
    out->arch          = compiled_arch;
    out->block_threads = shape::block_threads;
    out->tile_items    = shape::tile_items;
    out->min_blocks    = ci::min_blocks<T, Paths, tuning>();
    out->word_stride   = tuning::tile_word_stride;
  }
}

//! The driver's shared memory reserve per block. ptxas counts it in the static shared size of sm_90
//! and newer code (cuobjdump shows 1 KiB more than the storage declared); whether
//! cudaFuncGetAttributes does is not documented, so the bounds below allow it.
std::size_t reserved_shared()
{
  int device = 0, reserved = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) == cudaSuccess);
  return static_cast<std::size_t>(reserved);
}

template <class T, class Paths>
void check_tuning(const char* name)
{
  INFO(name);
  constexpr auto probe          = &report_tuning<T, Paths>;
  const sweep::detail::kernel_launch<ci::tile_dims>& host = ci::launch_for<T, probe>();
  thrust::device_vector<device_choice> out(1);
  probe<<<1, host.tile.block_threads>>>(thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const device_choice device = out[0];
  CHECK(device.arch == host.arch);
  CHECK(device.block_threads == host.tile.block_threads);
  CHECK(device.tile_items == host.tile.tile_items);
  CHECK(device.word_stride == host.tile.word_stride);

  // The real kernel of these types, compiled in this binary like every copy_if kernel.
  constexpr auto kernel         = &ci::select_kernel<T, Paths, T*, ci::no_stencil, T*, keep_percent<T>>;
  const sweep::detail::kernel_launch<ci::tile_dims>& real = ci::launch_for<T, kernel, Paths>();
  CHECK(real.arch == device.arch);
  CHECK(real.tile.block_threads == device.block_threads);
  CHECK(real.tile.tile_items == device.tile_items);
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess);
  CHECK(sweep::detail::tuning_arch(attributes.ptxVersion * 10) == real.arch);
  // The bulk and specialised schedules' kernels: their dynamic shared memory (launch_for raised the
  // kernel's limit) and, specialised, the producer and look-back warps, with which the compiled blocks
  // per SM still fit.
  const ci::tile_schedule schedule = sweep::detail::with_tuning_arch(real.arch, [](auto a) {
    return ci::schedule_of<T, ci::tuning_for<decltype(a)::value>, Paths::load_vectors, Paths::schedule>();
  });
  const std::size_t dynamic = sweep::detail::with_tuning_arch(real.arch, [schedule](auto a) {
    using tuning = ci::tuning_for<decltype(a)::value>;
    return schedule == ci::tile_schedule::bulk        ? ci::bulk_dynamic_bytes<T, tuning>()
         : schedule == ci::tile_schedule::specialized ? ci::specialized_dynamic_bytes<T, tuning>()
                                                      : std::size_t(0);
  });
  const int extra = schedule == ci::tile_schedule::specialized ? sweep::detail::pipeline_extra_threads : 0;
  CHECK(real.tile.bulk_shared == dynamic);
  CHECK(real.tile.extra_threads == extra);
  CHECK(attributes.maxThreadsPerBlock == real.tile.block_threads + extra);
  int per_sm = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, real.tile.block_threads + extra, dynamic)
          == cudaSuccess);
  CHECK(per_sm >= device.min_blocks);
  CHECK(real.resident_blocks == static_cast<unsigned>(per_sm * sweep::detail::current_device_info().sm_count));
  if constexpr (Paths::load_vectors)
  {
    const std::size_t bound = sweep::detail::with_tuning_arch(real.arch, [](auto a) {
      return ci::vector_block_shared_bytes<ci::tuning_for<decltype(a)::value>>();
    });
    CHECK(attributes.sharedSizeBytes <= bound + reserved_shared());
  }
}
} // namespace

TEST_CASE("copy_if: the host launches each kernel with the tuning its code was compiled with", "[copy_if][tuning]")
{
  INFO("device code's architecture for this binary: " << sweep_test::tuned_arch());
  check_tuning<float, ci::kernel_paths<true, true, false>>("float, vector paths");
  check_tuning<double, ci::kernel_paths<true, true, false>>("double, vector paths");
  check_tuning<std::uint8_t, ci::kernel_paths<true, true, false>>("uint8, vector paths");
  check_tuning<std::uint16_t, ci::kernel_paths<true, true, false>>("uint16, vector paths");
  check_tuning<s16, ci::kernel_paths<true, true, false>>("16-byte struct, vector paths");
  check_tuning<float, ci::kernel_paths<true, true, false, ci::schedule_choice::bulk>>("float, vector paths, bulk");
  check_tuning<float, ci::kernel_paths<true, true, false, ci::schedule_choice::specialized>>(
    "float, vector paths, specialised");
  check_tuning<std::uint8_t, ci::kernel_paths<true, true, false, ci::schedule_choice::specialized>>(
    "uint8, vector paths, specialised");
  check_tuning<float, ci::kernel_paths<false, false, false>>("float, item paths");
  check_tuning<s12, ci::kernel_paths<false, false, false>>("12-byte struct");
  check_tuning<s32, ci::kernel_paths<false, false, false>>("32-byte struct");
}
