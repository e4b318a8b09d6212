// Launch parameters of sweep's histogram kernels: one named struct per architecture, and tuning_for,
// the one place that chooses among them by the architectures of util/arch.hpp. Plain C++ (host-only
// unit tests check the plan built on it).
#pragma once

#include <cstddef>
#include <type_traits>

#include <sweep/detail/util/arch.hpp>

namespace sweep
{
namespace detail
{
namespace histogram_impl
{

//! sm_90 (H200: 132 SMs, 228 KB shared per SM, 227 KB per block opt-in), measured. 32 copies of 256
//! bins are 32 KB, so six blocks of 256 threads share an SM; 64 bytes per thread per tile keeps four
//! 16-byte loads in flight per thread for byte samples.
struct tuning_sm90
{
  //! Threads per block of every histogram kernel.
  static constexpr int block_threads = 256;
  //! Sample bytes each thread loads per tile, 1- and 2-byte samples.
  static constexpr int bytes_per_thread_narrow = 64;
  //! The same for 4- and 8-byte samples.
  static constexpr int bytes_per_thread_wide = 32;
  //! Shared bytes a block may spend on privatized copies. With a full budget (and its reserve) four
  //! blocks, half of the SM's 2048 threads, stay resident.
  static constexpr std::size_t copies_budget_bytes = 48 * 1024;
  //! Privatized copies per block; 32 puts copy `lane` in bank `lane`.
  static constexpr int max_copies = 32;
  //! Cap on the persistent grid's resident blocks per SM.
  static constexpr int max_blocks_per_sm = 8;
};

//! sm_80 (2048 threads and 164 KB of shared memory an SM): sized from those documented limits, not
//! measured (only an H200 was at hand). A 40 KiB budget keeps four blocks with full budgets, half of
//! the SM's threads, resident as on sm_90; with 48 KiB three would be.
struct tuning_sm80 : tuning_sm90
{
  static constexpr std::size_t copies_budget_bytes = 40 * 1024;
};

//! sm_86, sm_89 and sm_120 (1536 threads and 100 KB of shared memory an SM): sized from those
//! documented limits, not measured. A 32 KiB budget keeps three blocks with full budgets, half of the
//! SM's threads, resident (32 copies of 256 bins still fit); with 48 KiB two would be.
struct tuning_sm86 : tuning_sm90
{
  static constexpr std::size_t copies_budget_bytes = 32 * 1024;
};

//! sm_75 (1024 threads and 64 KB of shared memory an SM): sized from those documented limits, not
//! measured. A 32 KiB budget keeps two blocks with full budgets, half of the SM's threads, resident
//! (32 copies of 256 bins still fit); with 48 KiB one would be.
struct tuning_sm75 : tuning_sm90
{
  static constexpr std::size_t copies_budget_bytes = 32 * 1024;
};

//! The tuning of each of sweep's architectures (util/arch.hpp): the one place that chooses. sm_100
//! has sm_90's limits and runs its tuning. Arch 0 (the host compiler's pass, util/arch.hpp) parses
//! with sm_90's.
template <int Arch>
using tuning_for = std::conditional_t<
  Arch == 750,
  tuning_sm75,
  std::conditional_t<Arch == 800,
                     tuning_sm80,
                     std::conditional_t<Arch == 860 || Arch == 890 || Arch == 1200, tuning_sm86, tuning_sm90>>>;

//! Tuning fits `limits`: its blocks, each with the full copies budget, keep half of the SM's threads
//! resident, and the budget is dynamic shared memory a block may have without the opt-in.
template <class Tuning>
constexpr bool fits(const arch_limits& limits)
{
  return blocks_fit(limits, Tuning::block_threads, limits.threads_per_sm / 2 / Tuning::block_threads, Tuning::copies_budget_bytes)
      && Tuning::copies_budget_bytes <= static_shared_per_block && Tuning::block_threads <= 1024;
}

static_assert(fits<tuning_for<750>>(limits_of(750)) && fits<tuning_for<800>>(limits_of(800))
                && fits<tuning_for<860>>(limits_of(860)) && fits<tuning_for<890>>(limits_of(890))
                && fits<tuning_for<900>>(limits_of(900)) && fits<tuning_for<1000>>(limits_of(1000))
                && fits<tuning_for<1200>>(limits_of(1200)),
              "histogram tuning: a struct does not fit the architecture it is chosen for");

} // namespace histogram_impl
} // namespace detail
} // namespace sweep
