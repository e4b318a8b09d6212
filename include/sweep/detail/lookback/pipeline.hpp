// The shapes of the single-pass pipeline (pipeline.cuh) that host code needs: the threads a block of
// the specialised schedule has beside its tile threads, and the layout of its shared words. Plain C++
// (the plans and their host-only unit tests include it).
#pragma once

#include <cstddef>

#include <sweep/detail/util/bulk_barrier.hpp>
#include <sweep/detail/util/host_device.hpp>

namespace sweep
{
namespace detail
{

//! Threads a block of the specialised schedule has beside its tile threads: the producer warp and the
//! look-back warp.
inline constexpr int pipeline_extra_threads = 64;

//! A step with no shared words of its own beside the pipeline's.
struct pipeline_no_extra
{};

//! The specialised schedule's barriers and words a slot, after the step's slots in dynamic shared
//! memory, then the step's own shared words (`Extra`). Aggregate and Prefix: what a tile hands the
//! look-back warp and what it hands back (copy_if: counts and offsets; the scans: values).
template <int Slots, class Aggregate, class Prefix, class Extra>
struct pipeline_sync
{
  bulk_barrier full[Slots];     // producer: the slot's tile index written, a full tile's bytes landed
  bulk_barrier empty[Slots];    // every tile thread: done with the slot (one arrival a thread)
  bulk_barrier reduced[Slots];  // tile thread 0: the slot's tile reduced, its aggregate published
  bulk_barrier prefixed[Slots]; // every look-back lane: the slot's tile's prefix written (lane 0)
  unsigned long long tile[Slots];         // the producer's: the tile in the slot; tiles() or more: none
  unsigned long long reduced_tile[Slots]; // tile thread 0's: the tile reduced; tiles(): none
  Aggregate aggregate[Slots];             // tile thread 0's: the tile's aggregate
  Prefix prefix[Slots];                   // the look-back warp's: the tile's exclusive prefix
  Extra extra;
};

//! Bytes of dynamic shared memory a block of the specialised schedule needs: `dynamic_slots` slots of
//! `slot_bytes` (a step may keep one more slot in static shared memory), then its pipeline_sync.
template <int Slots, class Aggregate, class Prefix, class Extra>
SWEEP_HOST_DEVICE constexpr std::size_t pipeline_dynamic_bytes(int dynamic_slots, std::size_t slot_bytes)
{
  return static_cast<std::size_t>(dynamic_slots) * slot_bytes + sizeof(pipeline_sync<Slots, Aggregate, Prefix, Extra>);
}

} // namespace detail
} // namespace sweep
