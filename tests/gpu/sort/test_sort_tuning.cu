// The sort's tuning, host against device: kernels templated and bounded like the digit pass and the
// one-block sort write the tiles their code took from tuning_for<compiled_arch>; they must equal what
// the host chose for them from their PTX versions. The real kernels of the same types must get the
// same tiles from the host (pass_launch_for, single_block_launch_for), carry their block sizes in
// their launch bounds, hold their compiled blocks per SM and stay within the shared memory bound the
// tuning's limit checks were made with.
#include "sort_test_common.cuh"

#include <sweep/detail/sort/dispatch.cuh>
#include <sweep/detail/sort/kernels.cuh>
#include <sweep/detail/sort/plan.hpp>
#include <sweep/detail/sort/tuning.hpp>
#include <sweep/detail/util/arch.hpp>
#include <sweep/detail/util/device_info.hpp>
#include <sweep/detail/util/kernel_tuning.cuh>

namespace
{
namespace so = sweep::detail::sort_impl;
using sweep::detail::compiled_arch;

//! What device code chose. (The three algorithms' tuning tests have the same layout on purpose; each
//! reports the fields of its own tuning struct.)
struct device_choice
{
  int arch;
  int threads;
  int items;
  int min_blocks;
  int persistent;
};

//! Templated like onesweep_pass_kernel (key, moved value, small shape) and bounded the same way.
template <class Key, class Value, bool HasValues, bool Small>
__global__ void __launch_bounds__(so::compiled_pass_shape<Key, Value, HasValues, Small>::threads,
                                  so::compiled_pass_shape<Key, Value, HasValues, Small>::min_blocks)
  report_pass(device_choice* out)
{
  using shape = so::compiled_pass_shape<Key, Value, HasValues, Small>;
  if (threadIdx.x == 0)
  {
    out->arch       = compiled_arch;
    out->threads    = shape::threads;
    out->items      = shape::items;
    out->min_blocks = shape::min_blocks;
    out->persistent = shape::persistent ? 1 : 0;
  }
}

//! Templated like single_block_sort_kernel (key, moved value bytes) and bounded the same way.
template <class Key, std::size_t ValueBytes>
__global__ void __launch_bounds__(so::single_block_shape<so::tuning_for<compiled_arch>, sizeof(Key), ValueBytes>::threads)
  report_single_block(device_choice* out)
{
  using shape = so::single_block_shape<so::tuning_for<compiled_arch>, sizeof(Key), ValueBytes>;
  if (threadIdx.x == 0)
  {
    out->arch    = compiled_arch;
    out->threads = shape::threads;
    out->items   = shape::items;
  }
}

//! The driver's shared memory reserve per block. ptxas counts it in the static shared size of sm_90
//! and newer code (cuobjdump shows 1 KiB more than the storage declared); whether
//! cudaFuncGetAttributes does is not documented, so the bound below allows it.
std::size_t reserved_shared()
{
  int device = 0, reserved = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) == cudaSuccess);
  return static_cast<std::size_t>(reserved);
}

template <auto Probe>
device_choice run_probe(int threads)
{
  thrust::device_vector<device_choice> out(1);
  Probe<<<1, threads>>>(thrust::raw_pointer_cast(out.data()));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  return out[0];
}

//! One real pass kernel against what device code chose for its types.
template <auto Kernel, class Key, class Value, bool HasValues, bool Small>
void check_real_pass(const device_choice& device)
{
  constexpr std::size_t vbytes = HasValues ? sizeof(Value) : 0;
  const sweep::detail::kernel_launch<so::pass_tile>& real = so::pass_launch_for<Kernel, sizeof(Key), vbytes, Small>();
  CHECK(real.arch == device.arch);
  CHECK(real.tile.threads == device.threads);
  CHECK(real.tile.items == device.items);
  CHECK(real.tile.min_blocks == device.min_blocks);
  CHECK((real.tile.persistent ? 1 : 0) == device.persistent);
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, Kernel) == cudaSuccess);
  CHECK(sweep::detail::tuning_arch(attributes.ptxVersion * 10) == real.arch);
  CHECK(attributes.maxThreadsPerBlock == real.tile.threads);
  const std::size_t wide = sizeof(Key) > vbytes ? sizeof(Key) : vbytes;
  CHECK(attributes.sharedSizeBytes <= so::pass_shared_bytes(real.tile, wide) + reserved_shared());
  int per_sm = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, real.tile.threads, 0) == cudaSuccess);
  CHECK(per_sm >= device.min_blocks);
  // Resident blocks are looked up for persistent tiles only (the most such a pass launches).
  const unsigned resident = real.tile.persistent ? static_cast<unsigned>(per_sm * sweep::detail::current_device_info().sm_count) : 0u;
  CHECK(real.resident_blocks == resident);
}

template <class Key, class Value, bool HasValues, bool Small>
void check_pass(const char* name)
{
  INFO(name << (Small ? ", small shape" : ", large shape"));
  constexpr std::size_t vbytes = HasValues ? sizeof(Value) : 0;
  constexpr auto probe         = &report_pass<Key, Value, HasValues, Small>;
  const int arch               = sweep::detail::kernel_arch<probe>();
  const so::pass_tile host     = so::pass_tile_for<sizeof(Key), vbytes, Small>(arch);
  const device_choice device   = run_probe<probe>(host.threads);
  CHECK(device.arch == arch);
  CHECK(device.threads == host.threads);
  CHECK(device.items == host.items);
  CHECK(device.min_blocks == host.min_blocks);
  CHECK(device.persistent == (host.persistent ? 1 : 0));
  // Both global-position widths, ascending and descending.
  check_real_pass<&so::onesweep_pass_kernel<Key, Value, HasValues, false, Small, std::uint32_t>, Key, Value, HasValues, Small>(device);
  check_real_pass<&so::onesweep_pass_kernel<Key, Value, HasValues, true, Small, unsigned long long>, Key, Value, HasValues, Small>(device);
}

template <class Key, class ValueIt, bool HasValues, std::size_t ValueBytes>
void check_single_block(const char* name)
{
  INFO(name);
  constexpr auto probe       = &report_single_block<Key, ValueBytes>;
  const int arch             = sweep::detail::kernel_arch<probe>();
  const so::single_block_dims host = so::single_block_dims_for<sizeof(Key), ValueBytes>(arch);
  const device_choice device = run_probe<probe>(host.threads);
  CHECK(device.arch == arch);
  CHECK(device.threads == host.threads);
  CHECK(device.threads * device.items == host.tile_items);
  constexpr auto kernel = &so::single_block_sort_kernel<Key, ValueIt, HasValues, false, ValueBytes>;
  const so::single_block_dims& real = so::single_block_launch_for<kernel, sizeof(Key), ValueBytes>();
  CHECK(real.threads == device.threads);
  CHECK(real.tile_items == device.threads * device.items);
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess);
  CHECK(sweep::detail::tuning_arch(attributes.ptxVersion * 10) == arch);
  CHECK(attributes.maxThreadsPerBlock == real.threads);
}
} // namespace

TEST_CASE("sort: the host launches each pass kernel with the tile its code was compiled with", "[sort][tuning]")
{
  INFO("device code's architecture for this binary: " << sweep_test::tuned_arch());
  check_pass<std::uint32_t, so::no_value, false, false>("u32 keys");
  check_pass<std::uint32_t, so::no_value, false, true>("u32 keys");
  check_pass<std::uint8_t, so::no_value, false, false>("u8 keys");
  check_pass<double, so::no_value, false, false>("double keys");
  check_pass<std::uint32_t, std::uint32_t, true, false>("u32/u32 pairs");
  check_pass<std::uint32_t, std::uint64_t, true, false>("u32/u64 pairs");
  check_pass<std::uint64_t, std::uint64_t, true, true>("u64/u64 pairs");
}

TEST_CASE("sort: the host launches the one-block sort with the tile its code was compiled with", "[sort][tuning]")
{
  check_single_block<std::uint32_t, so::no_value*, false, 0>("u32 keys");
  check_single_block<std::uint64_t, so::no_value*, false, 0>("u64 keys");
  check_single_block<std::uint32_t, std::uint32_t*, true, 4>("u32/u32 pairs");
  check_single_block<std::uint16_t, std::uint64_t*, true, 8>("u16/u64 pairs");
}
