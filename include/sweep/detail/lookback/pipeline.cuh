// The single-pass pipeline: how a block goes through the tiles of one decoupled look-back pass
// (Merrill & Garland 2016), written once for every algorithm on it (copy_if, the scans). An algorithm
// supplies only its tile step (select: flags, ranks, stores; scan: tile scan, prefix, stores); the
// schedules, the tile ticket, the slots and their barriers are here.
//   in order     a block takes a tile (block_next_tile), runs the step's whole tile (load, reduce,
//                look back, finish), then takes the next.
//   specialised  (sm_90 and newer) the block's tile warps, a producer warp and a look-back warp. The
//                producer takes tiles and has the copy engine bring each into a ring of shared-memory
//                slots (cp.async.bulk); the tile warps reduce each tile in its slot, hand its aggregate
//                to the look-back warp and keep what the finish needs in the slot; a step later, once
//                the look-back warp has found that tile's prefix, they finish it (stores) and give its
//                slot back to the producer. The roles meet only at four mbarriers a slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include <sweep/detail/lookback/lookback.cuh>
#include <sweep/detail/lookback/pipeline.hpp>
#include <sweep/detail/util/bulk_copy.cuh>

namespace sweep
{
namespace detail
{

//! A barrier for the block's first Threads threads: __syncthreads() (barrier 0, every thread of the
//! block) or named barrier `Id` (bar.sync), which the specialised schedule's tile threads use without
//! its producer and look-back warps.
template <int Id, int Threads>
__device__ __forceinline__ void block_sync()
{
  if constexpr (Id == 0)
  {
    __syncthreads();
  }
  else
  {
    asm volatile("bar.sync %0, %1;" ::"n"(Id), "n"(Threads) : "memory");
  }
}

//! The named barrier the specialised schedule's tile threads synchronize on (barrier 0 is every
//! thread of the block, the producer and look-back warps included).
inline constexpr int tile_barrier = 1;

//! The dynamic shared memory this block was launched with (PTX %dynamic_smem_size): a kernel that has
//! the specialised schedule runs it where the host launched it with the slots, in order otherwise (the
//! host's one decision).
__device__ __forceinline__ std::uint32_t launched_dynamic_shared()
{
  std::uint32_t bytes = 0;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}

//! The in-order schedule: tiles from the call's counter one after another (a lone tile: tile 0 only,
//! no counter). Step (every thread of the block calls it):
//!   tiles(), tile_counter(), full_tile(t)        the call's tiles, its ticket counter, tile t has no
//!                                                 item past the end
//!   process<Full>(t)                              the whole tile: load, reduce, look back, finish. It
//!                                                 must contain a block barrier, after which no thread
//!                                                 reads `ticket` (block_next_tile writes it before its
//!                                                 own barrier), and separate its shared-memory reads
//!                                                 from the next tile's writes.
//! `ticket` is a __shared__ word.
template <class Step>
__device__ __forceinline__ void run_tiles_in_order(Step& step, unsigned long long& ticket)
{
  const bool lone    = step.tiles() == 1;
  std::uint64_t tile = lone ? 0 : block_next_tile(step.tile_counter(), ticket);
  while (tile < step.tiles())
  {
    if (step.full_tile(tile))
    {
      step.template process<true>(tile);
    }
    else
    {
      step.template process<false>(tile);
    }
    if (lone)
    {
      return;
    }
    tile = block_next_tile(step.tile_counter(), ticket);
  }
}

//! The specialised schedule. Step (a const-qualified type where its members are const):
//!   slots, tile_threads                           slots a block (2..32) and the tile threads (whole
//!                                                 warps); the producer is warp tile_threads / 32, the
//!                                                 look-back warp the one after it
//!   aggregate_t, prefix_t, extra_t, reduced_t     the hand-off types (pipeline_sync) and what a tile's
//!                                                 reduce leaves in registers for its keep
//!   tiles(), tile_counter(), full_tile(t)          as for run_tiles_in_order
//!   slot(dynamic, s)                              slot s's address
//!   copy_tile(t, slot, barrier) -> bool            producer lane: starts the copies of full tile t into
//!                                                 the slot, counted by the barrier (bulk_expect_bytes
//!                                                 and bulk_copy_to_shared); false: nothing to copy
//!   reduce<Full>(t, slot, extra, odd) -> reduced_t tile threads: reduce tile t (Full: its bytes are
//!                                                 in the slot; else load it), publish its aggregate in
//!                                                 the tile state; thread 0's result holds it
//!                                                 (aggregate_of). `odd` alternates step by step. Must
//!                                                 contain a tile barrier after every thread's reads of
//!                                                 the slot's tile bytes.
//!   keep(r, t, slot, extra)                       tile threads, after the hand-off: keep in the slot
//!                                                 what finish needs (copy_if: the staged items)
//!   finish(t, slot, extra, aggregate, prefix)     tile threads, a step later: the stores
//!   look_back(t, aggregate) -> prefix_t            look-back warp (all lanes): tile t's exclusive
//!                                                 prefix in lane 0, its inclusive one published
//! Each step of the tile threads: wait for the next slot's tile b, reduce it, hand it to the look-back
//! warp (thread 0: aggregate, tile, arrival), keep it; then wait for the prefix of the tile a kept a
//! step earlier (the look-back warp found it while they reduced b), finish a and give its slot back to
//! the producer (a proxy fence: the slot's generic accesses before the copy engine's next writes; one
//! arrival a warp). A slot without a tile ends each role.
//! Forward progress: a look-back waits only on lower tiles. The lowest tile without an inclusive
//! prefix is some block's; that block's earlier tiles all have theirs, so its tile threads finished
//! them and gave their slots back, and they reach this tile (its bytes land, or they load it), reduce
//! and publish it, and its look-back ends.
template <class Step>
struct specialized_pipeline
{
  static constexpr int slots      = Step::slots;
  static constexpr int tile_warps = Step::tile_threads / 32;
  using aggregate_t               = typename Step::aggregate_t;
  using prefix_t                  = typename Step::prefix_t;
  using sync_t                    = pipeline_sync<slots, aggregate_t, prefix_t, typename Step::extra_t>;
  static_assert(slots >= 2 && slots <= 32, "pipeline: one tile a slot, a bit a slot");
  static_assert(Step::tile_threads % 32 == 0, "pipeline: the tile threads are whole warps");

  //! The producer (one lane): for each slot in turn, waits until the tile threads are done with it,
  //! takes the block's next tile and has the copy engine bring a full tile into it (a partial one the
  //! tile threads load themselves).
  __device__ static void produce(Step& step, sync_t& sync, unsigned char* dynamic)
  {
    const bool lone     = step.tiles() == 1;
    bool taken_lone     = false;
    std::uint32_t phase = 0; // bit s: the parity of slot s's next use (its first waits for none)
    for (int s = 0;; s = s + 1 == slots ? 0 : s + 1)
    {
      bulk_wait(sync.empty[s], ((phase >> s) & 1u) ^ 1u);
      phase ^= 1u << s;
      std::uint64_t t = step.tiles();
      if (lone)
      {
        t          = taken_lone ? step.tiles() : 0;
        taken_lone = true;
      }
      else
      {
        t = take_tile_index(step.tile_counter());
      }
      sync.tile[s] = t;
      if (!(t < step.tiles() && step.full_tile(t) && step.copy_tile(t, step.slot(dynamic, s), sync.full[s])))
      {
        bulk_arrive(sync.full[s]);
      }
      if (t >= step.tiles())
      {
        return;
      }
    }
  }

  //! The look-back warp: for each slot in turn, waits until the tile threads have reduced its tile,
  //! looks back for its prefix and hands it over.
  __device__ static void look_back(Step& step, sync_t& sync)
  {
    std::uint32_t phase = 0;
    for (int s = 0;; s = s + 1 == slots ? 0 : s + 1)
    {
      bulk_wait(sync.reduced[s], (phase >> s) & 1u);
      phase ^= 1u << s;
      const std::uint64_t tile = sync.reduced_tile[s];
      if (tile >= step.tiles())
      {
        return;
      }
      const prefix_t prefix = step.look_back(tile, sync.aggregate[s]);
      if (threadIdx.x % 32 == 0)
      {
        sync.prefix[s] = prefix;
      }
      // Every lane arrives (the barrier expects 32): each lane's reads of the slot's words precede its
      // own release, before the tile threads may reuse them.
      bulk_arrive(sync.prefixed[s]);
    }
  }

  //! The tile threads.
  __device__ static void tile_threads(Step& step, sync_t& sync, unsigned char* dynamic)
  {
    std::uint32_t full_phase = 0, prefix_phase = 0; // bit s: parity of slot s's next phase
    int a_slot               = -1;                  // kept, waiting for its prefix; -1: none
    std::uint64_t a_tile     = 0;
    aggregate_t a_aggregate{};
    bool odd_step = false;
    for (int b_slot = 0;; b_slot = b_slot + 1 == slots ? 0 : b_slot + 1)
    {
      bulk_wait(sync.full[b_slot], (full_phase >> b_slot) & 1u);
      full_phase ^= 1u << b_slot;
      const std::uint64_t b_tile = sync.tile[b_slot];
      const bool have_b          = b_tile < step.tiles();
      aggregate_t b_aggregate{};
      if (have_b)
      {
        unsigned char* const slot = step.slot(dynamic, b_slot);
        typename Step::reduced_t r;
        if (step.full_tile(b_tile))
        {
          r = step.template reduce<true>(b_tile, slot, sync.extra, odd_step);
        }
        else
        {
          r = step.template reduce<false>(b_tile, slot, sync.extra, odd_step);
        }
        b_aggregate = Step::aggregate_of(r);
        if (threadIdx.x == 0)
        {
          sync.aggregate[b_slot]    = b_aggregate;
          sync.reduced_tile[b_slot] = b_tile;
          bulk_arrive(sync.reduced[b_slot]);
        }
        step.keep(r, b_tile, slot, sync.extra);
        odd_step = !odd_step;
      }
      else
      {
        if (threadIdx.x == 0)
        {
          sync.reduced_tile[b_slot] = step.tiles(); // ends the look-back warp
          bulk_arrive(sync.reduced[b_slot]);
        }
        block_sync<tile_barrier, Step::tile_threads>(); // a's keep (the step before) complete
      }
      if (a_slot >= 0)
      {
        // a was kept a step earlier; this step's reduce (or the barrier above) completed it.
        bulk_wait(sync.prefixed[a_slot], (prefix_phase >> a_slot) & 1u);
        prefix_phase ^= 1u << a_slot;
        step.finish(a_tile, step.slot(dynamic, a_slot), sync.extra, a_aggregate, sync.prefix[a_slot]);
        // This thread's reads and writes of a's slot, before the copy engine's writes (the proxy
        // fence), released by its own arrival: every tile thread arrives (one arrival a warp after a
        // __syncwarp measured the same for copy_if, but releases only lane 0's accesses under the PTX
        // memory model's per-thread release, which compute-sanitizer's racecheck reports).
        bulk_proxy_fence();
        bulk_arrive(sync.empty[a_slot]);
      }
      if (!have_b)
      {
        return;
      }
      a_slot      = b_slot;
      a_tile      = b_tile;
      a_aggregate = b_aggregate;
    }
  }

  //! The whole block (tile threads, producer and look-back warp): `dynamic` is the block's dynamic
  //! shared memory, Step's slots then sync_t at `sync_offset`.
  __device__ static void run(Step& step, unsigned char* dynamic, std::size_t sync_offset)
  {
    sync_t& sync   = *reinterpret_cast<sync_t*>(dynamic + sync_offset);
    const int warp = static_cast<int>(threadIdx.x / 32);
    if (threadIdx.x == 0)
    {
#pragma unroll
      for (int s = 0; s < slots; ++s)
      {
        bulk_barrier_init(sync.full[s]);
        bulk_barrier_init(sync.empty[s], Step::tile_threads);
        bulk_barrier_init(sync.reduced[s]);
        bulk_barrier_init(sync.prefixed[s], 32);
      }
      bulk_proxy_fence(); // the initialized barriers, before the copies that count on them
    }
    __syncthreads(); // every thread of the block: the barriers are initialized
    if (warp == tile_warps)
    {
      if (threadIdx.x % 32 == 0)
      {
        produce(step, sync, dynamic);
      }
      return;
    }
    if (warp == tile_warps + 1)
    {
      look_back(step, sync);
      return;
    }
    tile_threads(step, sync, dynamic);
  }
};

} // namespace detail
} // namespace sweep
