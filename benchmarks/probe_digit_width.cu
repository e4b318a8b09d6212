// probe_digit_width: a lower bound on the cost of one LSD radix-sort digit pass, as a function of
// the digit width D, to decide between 8-bit and 11-bit digits by measurement.
//
// What it measures
//   One kernel, templated on D, that does for each tile of keys only the work of a digit pass that
//   grows with the number of digits 2^D:
//     - a block histogram over 2^D digits in shared memory: one shared atomicAdd per key, whose
//       return value is also the key's slot within its digit in the tile (unordered, not stable);
//     - an exclusive scan of the 2^D counts into the tile's digit offsets;
//     - one global atomicAdd per non-empty digit per tile, on a cursor that the host set to each
//       digit's global start: the tile's global base for each digit;
//     - the exchange of the tile through shared memory into digit order;
//     - the scatter of the tile into up to 2^D runs of the output.
//   The same code runs with D = 8 and D = 11, so t(11) / t(8) is the growth of that work alone.
//   A plain coalesced copy of the same keys is timed too, as the bandwidth floor.
//
// Why it is a lower bound on any 11-bit pass
//   A real (stable, onesweep) pass does all of the above and more: a stable ranking instead of
//   unordered shared atomics, a decoupled look-back over the preceding tiles instead of one global
//   atomic per digit, and the per-tile per-digit state that the look-back publishes and polls. All
//   of these also grow with 2^D; leaving them out can only make the pass cheaper, so
//   t_probe(11) <= t_real(11). Tiles take their bases in whatever order their atomics run, so the
//   output is grouped by digit but not stable; for a cost bound that does not matter.
//
// Decision rule
//   32-bit keys: three 11-bit passes (11 + 11 + 10 bits) replace four 8-bit passes; 64-bit keys:
//   six replace eight. Either way 11-bit digits win only if t_real(11) < 4/3 * t_real(8).
//   sweep's real 8-bit pass takes about 1190 us for 2^28 u32 keys on an H200 (tile 512 x 21), so
//   the bar is about 1587 us. Since t_probe(11) <= t_real(11):
//     t_probe(11) >= 4/3 * t_real(8): 11-bit digits cannot win; keep 8.
//     t_probe(11) <  4/3 * t_real(8): not ruled out; the gap is all that a stable ranking, the
//                                     look-back and the tile state of 2^11 digits may cost.
//
// Configurations
//   u32 keys, n = 2^20, 2^24, 2^28: D = 8 at sweep's tile 512 x 21; D = 11 at 512 x 21, 1024 x 16
//   and 1024 x 24. u64 keys, n = 2^27: D = 8 at sweep's tile 384 x 14; D = 11 at 384 x 14 and
//   1024 x 12. Each at shift 0 and at shift D (to show that the digit's position does not matter).
//   Tiles of sweep's shapes are compiled for sweep's blocks per SM (2 for 512 x 21, 3 for 384 x 14),
//   the 1024-thread tiles for one. Median of 15 launches after 2 warm-ups; the cursor is reset by
//   a copy before every launch, outside the timed events. Each configuration is checked once, after
//   its first launch: every output key lies in its digit's run, every digit's cursor ended at the
//   end of its run, and per digit the sum of the keys and the sum of a 64-bit hash of the keys match
//   the input's. The summary takes t8 at sweep's tile and the best t11 over the tiles, at shift 0.
//
// Build and run
//   cmake target sweep-probe-digit-width, or
//     nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr benchmarks/probe_digit_width.cu -o probe_digit_width
//   ./probe_digit_width        every configuration (u32 at 2^20, 2^24, 2^28 keys; u64 at 2^27)
//   ./probe_digit_width u32    only 32-bit keys (or u64: only 64-bit keys)
//   Output: one key=value line per configuration, then "summary" lines. Exit status: 0 done,
//   1 CUDA error or failed self-check, 2 bad argument, 77 no CUDA device.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#define CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)

namespace
{

void check_cuda(cudaError_t status, const char* call, const char* file, int line)
{
  if (status == cudaSuccess)
  {
    return;
  }
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cudaGetErrorString(status));
  std::exit(1);
}

constexpr int warp_threads = 32;
constexpr int max_digit_bits = 11;
constexpr int max_radix = 1 << max_digit_bits;
constexpr int warmup_runs = 2;
constexpr int timed_runs = 15;
constexpr int helper_threads = 256;
constexpr int copy_threads = 256;
constexpr int copy_items = 16;

// sweep's real 8-bit pass (stable onesweep, decoupled look-back, tile 512 x 21) on the H200.
constexpr double real_8bit_pass_us = 1190.0;
constexpr std::size_t real_8bit_pass_n = std::size_t(1) << 28;

__host__ __device__ inline unsigned long long mix64(unsigned long long x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <class Key>
const char* key_name();
template <>
const char* key_name<std::uint32_t>()
{
  return "u32";
}
template <>
const char* key_name<std::uint64_t>()
{
  return "u64";
}

// ---------------------------------------------------------------------------------------------
// Device code
// ---------------------------------------------------------------------------------------------

template <int DigitBits, class Key>
__device__ __forceinline__ unsigned digit_of(Key key, unsigned shift)
{
  return static_cast<unsigned>(key >> shift) & ((1u << DigitBits) - 1u);
}

// value, unknown to the compiler from here on: digits computed from it after this are recomputed
// instead of kept in registers from an earlier phase.
__device__ __forceinline__ unsigned opaque(unsigned value)
{
  asm volatile("" : "+r"(value));
  return value;
}

// low + 65536 * high, both below 2^16. An asm, so that neither compiler sees through it: were the
// two halves recovered from the values they were made of, those values would stay live in
// registers (and spill) until the ranks are used.
__device__ __forceinline__ unsigned pack_halves(unsigned low, unsigned high)
{
  unsigned packed;
  asm("mad.lo.u32 %0, %2, 65536, %1;" : "=r"(packed) : "r"(low), "r"(high));
  return packed;
}

__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned value)
{
  const unsigned lane = threadIdx.x % warp_threads;
#pragma unroll
  for (unsigned offset = 1; offset < warp_threads; offset *= 2)
  {
    const unsigned other = __shfl_up_sync(0xffffffffu, value, offset);
    if (lane >= offset)
    {
      value += other;
    }
  }
  return value;
}

// Exclusive sum over the block's threads. Every thread of the block must call it; it holds two
// barriers. warp_totals: shared, one word per warp.
template <int Threads>
__device__ unsigned block_exclusive_sum(unsigned value, unsigned* warp_totals)
{
  static_assert(Threads % warp_threads == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  constexpr unsigned warps = Threads / warp_threads;
  const unsigned lane = threadIdx.x % warp_threads;
  const unsigned warp = threadIdx.x / warp_threads;

  const unsigned inclusive = warp_inclusive_sum(value);
  if (lane == warp_threads - 1)
  {
    warp_totals[warp] = inclusive;
  }
  __syncthreads();
  if (warp == 0)
  {
    const unsigned total = lane < warps ? warp_totals[lane] : 0u;
    const unsigned total_inclusive = warp_inclusive_sum(total);
    if (lane < warps)
    {
      warp_totals[lane] = total_inclusive - total;
    }
  }
  __syncthreads();
  return warp_totals[warp] + inclusive - value;
}

template <class Key, int DigitBits, int Threads, int Items>
struct probe_shape
{
  static constexpr int radix = 1 << DigitBits;
  static constexpr int tile_keys = Threads * Items;
  static_assert(tile_keys <= 65536, "ranks are held as 16-bit halves of registers");
  static constexpr int rank_words = (Items + 1) / 2;
  static constexpr int digits_per_thread = (radix + Threads - 1) / Threads;
  static constexpr std::size_t exchange_bytes = std::size_t(tile_keys) * sizeof(Key);
  // exchange, then the digit counts (turned into tile offsets in place), then the digit bases
  static constexpr std::size_t shared_bytes = exchange_bytes + 2 * std::size_t(radix) * sizeof(unsigned);
};

// One tile: keys [tile_start, tile_start + valid). FullTile: valid == tile_keys, no guards.
// offsets and bases hold 2^DigitBits words each; exchange holds the tile.
template <class Key, int DigitBits, int Threads, int Items, bool FullTile>
__device__ __forceinline__ void probe_tile(const Key* __restrict__ in,
                                           Key* __restrict__ out,
                                           std::size_t tile_start,
                                           unsigned valid,
                                           unsigned shift,
                                           unsigned* __restrict__ cursor,
                                           Key* exchange,
                                           unsigned* offsets,
                                           unsigned* bases,
                                           unsigned* warp_totals)
{
  using shape = probe_shape<Key, DigitBits, Threads, Items>;
  const unsigned lane = threadIdx.x % warp_threads;
  const unsigned warp = threadIdx.x / warp_threads;
  // striped like sweep: item i of this thread is tile key warp * 32 * Items + i * 32 + lane
  const unsigned first_local = warp * warp_threads * Items + lane;

  // 1. load (padding: all-ones keys, which are never ranked nor stored)
  Key keys[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const unsigned local = first_local + i * warp_threads;
    keys[i] = (FullTile || local < valid) ? in[tile_start + local] : static_cast<Key>(~Key(0));
  }
#pragma unroll
  for (int k = 0; k < shape::digits_per_thread; ++k)
  {
    const int d = k * Threads + static_cast<int>(threadIdx.x);
    if (d < shape::radix)
    {
      offsets[d] = 0;
    }
  }
  __syncthreads();

  // 2. block histogram; the returned count is the key's slot within its digit (unordered), held
  //    as a 16-bit half of ranks[i / 2] (as sweep holds tile positions) to keep registers down
  unsigned ranks[shape::rank_words];
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const unsigned local = first_local + i * warp_threads;
    const unsigned rank =
      (FullTile || local < valid) ? atomicAdd(&offsets[digit_of<DigitBits>(keys[i], shift)], 1u) : 0u;
    ranks[i / 2] = i % 2 == 0 ? rank : pack_halves(ranks[i / 2], rank);
  }
  __syncthreads();

  // 3. exclusive scan of the counts (a contiguous run of digits per thread, then over threads),
  //    and one global atomic per non-empty digit for the tile's base in the output
  const int first_digit = static_cast<int>(threadIdx.x) * shape::digits_per_thread;
  unsigned run_total = 0;
#pragma unroll
  for (int k = 0; k < shape::digits_per_thread; ++k)
  {
    const int d = first_digit + k;
    if (d < shape::radix)
    {
      run_total += offsets[d];
    }
  }
  unsigned offset = block_exclusive_sum<Threads>(run_total, warp_totals);
#pragma unroll
  for (int k = 0; k < shape::digits_per_thread; ++k)
  {
    const int d = first_digit + k;
    if (d < shape::radix)
    {
      const unsigned count = offsets[d];
      if (count != 0)
      {
        // modulo 2^32: bases[d] + j is the output index of the tile's exchange slot j (n < 2^32)
        bases[d] = atomicAdd(&cursor[d], count) - offset;
      }
      offsets[d] = offset;
      offset += count;
    }
  }
  __syncthreads();

  // 4. place the keys into digit order in shared memory
  shift = opaque(shift);
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const unsigned local = first_local + i * warp_threads;
    if (FullTile || local < valid)
    {
      const unsigned rank = i % 2 == 0 ? ranks[i / 2] & 0xffffu : ranks[i / 2] >> 16;
      exchange[offsets[digit_of<DigitBits>(keys[i], shift)] + rank] = keys[i];
    }
  }
  __syncthreads();

  // 5. scatter: consecutive threads write consecutive keys of a digit run
#pragma unroll
  for (int k = 0; k < Items; ++k)
  {
    const unsigned j = k * Threads + threadIdx.x;
    if (FullTile || j < valid)
    {
      const Key key = exchange[j];
      out[bases[digit_of<DigitBits>(key, shift)] + j] = key;
    }
  }
}

// One block per tile of Threads * Items keys; cursor[d] starts at digit d's global start.
// MinBlocks: the blocks per SM it is compiled for (__launch_bounds__), as sweep's pass of that tile.
template <class Key, int DigitBits, int Threads, int Items, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
  probe_kernel(const Key* __restrict__ in, Key* __restrict__ out, std::size_t n, unsigned shift, unsigned* __restrict__ cursor)
{
  using shape = probe_shape<Key, DigitBits, Threads, Items>;
  extern __shared__ __align__(16) unsigned char probe_shared[];
  __shared__ unsigned warp_totals[warp_threads];
  Key* exchange = reinterpret_cast<Key*>(probe_shared);
  unsigned* offsets = reinterpret_cast<unsigned*>(probe_shared + shape::exchange_bytes);
  unsigned* bases = offsets + shape::radix;

  const std::size_t tile_start = std::size_t(blockIdx.x) * shape::tile_keys;
  const std::size_t remaining = n - tile_start;
  if (remaining >= std::size_t(shape::tile_keys))
  {
    probe_tile<Key, DigitBits, Threads, Items, true>(
      in, out, tile_start, shape::tile_keys, shift, cursor, exchange, offsets, bases, warp_totals);
  }
  else
  {
    probe_tile<Key, DigitBits, Threads, Items, false>(
      in, out, tile_start, static_cast<unsigned>(remaining), shift, cursor, exchange, offsets, bases, warp_totals);
  }
}

// The floor: a plain coalesced copy, Items loads in flight per thread.
template <class Key, int Threads, int Items>
__global__ void __launch_bounds__(Threads) copy_kernel(const Key* __restrict__ in, Key* __restrict__ out, std::size_t n)
{
  const std::size_t tile_start = std::size_t(blockIdx.x) * Threads * Items;
  Key keys[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const std::size_t index = tile_start + std::size_t(i) * Threads + threadIdx.x;
    keys[i] = index < n ? in[index] : Key(0);
  }
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const std::size_t index = tile_start + std::size_t(i) * Threads + threadIdx.x;
    if (index < n)
    {
      out[index] = keys[i];
    }
  }
}

template <class Key>
__global__ void __launch_bounds__(helper_threads) fill_random_kernel(Key* keys, std::size_t n, unsigned long long seed)
{
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
  {
    keys[i] = static_cast<Key>(mix64(seed + i));
  }
}

// counts[d] += number of keys with digit d (counts zeroed by the caller).
template <class Key, int DigitBits>
__global__ void __launch_bounds__(helper_threads)
  digit_histogram_kernel(const Key* __restrict__ keys, std::size_t n, unsigned shift, unsigned* __restrict__ counts)
{
  constexpr int radix = 1 << DigitBits;
  __shared__ unsigned block_counts[radix];
  for (int d = static_cast<int>(threadIdx.x); d < radix; d += blockDim.x)
  {
    block_counts[d] = 0;
  }
  __syncthreads();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
  {
    atomicAdd(&block_counts[digit_of<DigitBits>(keys[i], shift)], 1u);
  }
  __syncthreads();
  for (int d = static_cast<int>(threadIdx.x); d < radix; d += blockDim.x)
  {
    if (block_counts[d] != 0)
    {
      atomicAdd(&counts[d], block_counts[d]);
    }
  }
}

// Per digit d: signature[d] += sum of the keys, signature[radix + d] += sum of mix64(key), both
// modulo 2^64 (signature zeroed by the caller). With starts (the digit runs of a grouped output,
// radix + 1 entries), also counts the keys outside their digit's run: check[0] += count,
// check[1] = min(check[1], index of such a key).
template <class Key, int DigitBits>
__global__ void __launch_bounds__(helper_threads) digit_signature_kernel(const Key* __restrict__ keys,
                                                                         std::size_t n,
                                                                         unsigned shift,
                                                                         const unsigned* __restrict__ starts,
                                                                         unsigned long long* __restrict__ signature,
                                                                         unsigned long long* __restrict__ check)
{
  constexpr int radix = 1 << DigitBits;
  __shared__ unsigned long long key_sums[radix];
  __shared__ unsigned long long hash_sums[radix];
  for (int d = static_cast<int>(threadIdx.x); d < radix; d += blockDim.x)
  {
    key_sums[d] = 0;
    hash_sums[d] = 0;
  }
  __syncthreads();

  unsigned long long misplaced = 0;
  unsigned long long first_misplaced = ~0ull;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
  {
    const Key key = keys[i];
    const unsigned d = digit_of<DigitBits>(key, shift);
    atomicAdd(&key_sums[d], static_cast<unsigned long long>(key));
    atomicAdd(&hash_sums[d], mix64(key));
    if (starts != nullptr && (i < starts[d] || i >= starts[d + 1]))
    {
      if (misplaced == 0)
      {
        first_misplaced = i;
      }
      ++misplaced;
    }
  }
  if (misplaced != 0)
  {
    atomicAdd(&check[0], misplaced);
    atomicMin(&check[1], first_misplaced);
  }
  __syncthreads();
  for (int d = static_cast<int>(threadIdx.x); d < radix; d += blockDim.x)
  {
    if (key_sums[d] != 0 || hash_sums[d] != 0)
    {
      atomicAdd(&signature[d], key_sums[d]);
      atomicAdd(&signature[radix + d], hash_sums[d]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Host code
// ---------------------------------------------------------------------------------------------

std::string printf_string(const char* format, ...)
{
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return buffer;
}

[[noreturn]] void fail_check(const std::string& label, const std::string& what)
{
  std::fflush(stdout);
  std::fprintf(stderr, "%s check=FAILED: %s\n", label.c_str(), what.c_str());
  std::exit(1);
}

struct device_info
{
  std::string name;
  int sm_count = 0;
  std::size_t shared_per_block_optin = 0;
};

// Device buffers and stream shared by every configuration.
struct scratch
{
  cudaStream_t stream{};
  cudaEvent_t start{};
  cudaEvent_t stop{};
  unsigned* counts = nullptr; // max_radix
  unsigned* starts = nullptr; // max_radix + 1
  unsigned* cursor = nullptr; // max_radix
  unsigned long long* signature = nullptr; // 2 * max_radix
  unsigned long long* check = nullptr; // [0] misplaced keys, [1] first misplaced index
};

scratch make_scratch()
{
  scratch s;
  CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&s.start));
  CHECK(cudaEventCreate(&s.stop));
  CHECK(cudaMalloc(&s.counts, max_radix * sizeof(unsigned)));
  CHECK(cudaMalloc(&s.starts, (max_radix + 1) * sizeof(unsigned)));
  CHECK(cudaMalloc(&s.cursor, max_radix * sizeof(unsigned)));
  CHECK(cudaMalloc(&s.signature, 2 * max_radix * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&s.check, 2 * sizeof(unsigned long long)));
  return s;
}

void free_scratch(scratch& s)
{
  CHECK(cudaFree(s.check));
  CHECK(cudaFree(s.signature));
  CHECK(cudaFree(s.cursor));
  CHECK(cudaFree(s.starts));
  CHECK(cudaFree(s.counts));
  CHECK(cudaEventDestroy(s.stop));
  CHECK(cudaEventDestroy(s.start));
  CHECK(cudaStreamDestroy(s.stream));
}

unsigned helper_blocks(std::size_t n, const device_info& dev)
{
  const std::size_t needed = (n + helper_threads - 1) / helper_threads;
  const std::size_t cap = std::size_t(dev.sm_count) * 8;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(needed, cap)));
}

template <class Key>
struct key_arrays
{
  Key* in = nullptr;
  Key* out = nullptr;
  std::size_t n = 0;
};

template <class Key>
key_arrays<Key> make_keys(std::size_t n, unsigned long long seed, const device_info& dev, scratch& s)
{
  if (n == 0 || n > 0xffffffffull)
  {
    std::fprintf(stderr, "n = %zu: the probe needs 0 < n < 2^32\n", n);
    std::exit(1);
  }
  key_arrays<Key> keys;
  keys.n = n;
  CHECK(cudaMalloc(&keys.in, n * sizeof(Key)));
  CHECK(cudaMalloc(&keys.out, n * sizeof(Key)));
  fill_random_kernel<Key><<<helper_blocks(n, dev), helper_threads, 0, s.stream>>>(keys.in, n, seed);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s.stream));
  return keys;
}

template <class Key>
void free_keys(key_arrays<Key>& keys)
{
  CHECK(cudaFree(keys.out));
  CHECK(cudaFree(keys.in));
  keys = key_arrays<Key>{};
}

// Global digit histogram of the input, exclusive scan on the host; the radix + 1 starts go to
// s.starts and are returned.
template <class Key, int DigitBits>
std::vector<unsigned> upload_digit_starts(const key_arrays<Key>& keys, unsigned shift, const device_info& dev, scratch& s)
{
  constexpr int radix = 1 << DigitBits;
  CHECK(cudaMemsetAsync(s.counts, 0, radix * sizeof(unsigned), s.stream));
  digit_histogram_kernel<Key, DigitBits><<<helper_blocks(keys.n, dev), helper_threads, 0, s.stream>>>(
    keys.in, keys.n, shift, s.counts);
  CHECK(cudaGetLastError());
  std::vector<unsigned> counts(radix);
  CHECK(cudaMemcpyAsync(counts.data(), s.counts, radix * sizeof(unsigned), cudaMemcpyDeviceToHost, s.stream));
  CHECK(cudaStreamSynchronize(s.stream));

  std::vector<unsigned> starts(radix + 1, 0);
  for (int d = 0; d < radix; ++d)
  {
    starts[d + 1] = starts[d] + counts[d];
  }
  if (starts[radix] != keys.n)
  {
    std::fprintf(stderr, "digit histogram counts %u keys, expected %zu\n", starts[radix], keys.n);
    std::exit(1);
  }
  CHECK(cudaMemcpyAsync(s.starts, starts.data(), (radix + 1) * sizeof(unsigned), cudaMemcpyHostToDevice, s.stream));
  CHECK(cudaStreamSynchronize(s.stream));
  return starts;
}

// Per-digit signature of keys (see digit_signature_kernel), copied back to the host.
template <class Key, int DigitBits>
std::vector<unsigned long long> digit_signature(
  const Key* keys, std::size_t n, unsigned shift, const unsigned* starts, const device_info& dev, scratch& s)
{
  constexpr int radix = 1 << DigitBits;
  CHECK(cudaMemsetAsync(s.signature, 0, 2 * radix * sizeof(unsigned long long), s.stream));
  digit_signature_kernel<Key, DigitBits><<<helper_blocks(n, dev), helper_threads, 0, s.stream>>>(
    keys, n, shift, starts, s.signature, s.check);
  CHECK(cudaGetLastError());
  std::vector<unsigned long long> signature(2 * radix);
  CHECK(cudaMemcpyAsync(signature.data(), s.signature, 2 * radix * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s.stream));
  CHECK(cudaStreamSynchronize(s.stream));
  return signature;
}

void reset_check(scratch& s)
{
  CHECK(cudaMemsetAsync(s.check, 0, sizeof(unsigned long long), s.stream));
  CHECK(cudaMemsetAsync(s.check + 1, 0xff, sizeof(unsigned long long), s.stream));
}

template <int DigitBits>
void compare_signatures(const std::vector<unsigned long long>& expected,
                        const std::vector<unsigned long long>& actual,
                        const std::string& label)
{
  constexpr int radix = 1 << DigitBits;
  for (int d = 0; d < radix; ++d)
  {
    if (expected[d] != actual[d] || expected[radix + d] != actual[radix + d])
    {
      fail_check(label,
                 printf_string("digit %d: the output keys with this digit are not the input's "
                               "(key sum %llx, expected %llx; hash sum %llx, expected %llx)",
                               d, actual[d], expected[d], actual[radix + d], expected[radix + d]));
    }
  }
}

// After one probe launch: the output is the input grouped by digit, and every digit's cursor
// ended at the end of its run.
template <class Key, int DigitBits>
void verify_probe_output(const key_arrays<Key>& keys,
                         unsigned shift,
                         const std::vector<unsigned>& starts,
                         const std::string& label,
                         const device_info& dev,
                         scratch& s)
{
  constexpr int radix = 1 << DigitBits;
  std::vector<unsigned> cursor(radix);
  CHECK(cudaMemcpyAsync(cursor.data(), s.cursor, radix * sizeof(unsigned), cudaMemcpyDeviceToHost, s.stream));
  reset_check(s);
  const std::vector<unsigned long long> expected = digit_signature<Key, DigitBits>(keys.in, keys.n, shift, nullptr, dev, s);
  const std::vector<unsigned long long> actual = digit_signature<Key, DigitBits>(keys.out, keys.n, shift, s.starts, dev, s);
  unsigned long long check[2] = {};
  CHECK(cudaMemcpyAsync(check, s.check, sizeof(check), cudaMemcpyDeviceToHost, s.stream));
  CHECK(cudaStreamSynchronize(s.stream));

  if (check[0] != 0)
  {
    fail_check(label,
               printf_string("%llu output keys lie outside their digit's run (the first at index %llu)", check[0], check[1]));
  }
  for (int d = 0; d < radix; ++d)
  {
    if (cursor[d] != starts[d + 1])
    {
      fail_check(label,
                 printf_string("digit %d: its cursor ended at %u, expected %u (the end of its run)", d, cursor[d], starts[d + 1]));
    }
  }
  compare_signatures<DigitBits>(expected, actual, label);
}

// Median over timed_runs launches of the event time around launch(); prepare() is queued before
// each launch, outside the events.
template <class Prepare, class Launch>
double median_time_us(scratch& s, Prepare prepare, Launch launch)
{
  std::vector<float> times_ms;
  for (int run = 0; run < timed_runs; ++run)
  {
    prepare();
    CHECK(cudaEventRecord(s.start, s.stream));
    launch();
    CHECK(cudaEventRecord(s.stop, s.stream));
    CHECK(cudaEventSynchronize(s.stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, s.start, s.stop));
    times_ms.push_back(ms);
  }
  std::sort(times_ms.begin(), times_ms.end());
  return 1000.0 * times_ms[times_ms.size() / 2];
}

double gbps(std::size_t n, std::size_t key_bytes, double us)
{
  return 2.0 * double(n) * double(key_bytes) / (us * 1e3);
}

struct result
{
  std::string key;
  std::size_t n = 0;
  bool copy = false;
  int bits = 0;
  int threads = 0;
  int items = 0;
  unsigned shift = 0;
  double median_us = 0;
};

template <class Key, int DigitBits, int Threads, int Items, int MinBlocks>
void run_probe(const key_arrays<Key>& keys, unsigned shift, const device_info& dev, scratch& s, std::vector<result>& results)
{
  using shape = probe_shape<Key, DigitBits, Threads, Items>;
  const std::string label = printf_string(
    "kernel=probe key=%s n=%zu bits=%d tile=%dx%d shift=%u", key_name<Key>(), keys.n, DigitBits, Threads, Items, shift);

  cudaFuncAttributes attributes{};
  CHECK(cudaFuncGetAttributes(&attributes, probe_kernel<Key, DigitBits, Threads, Items, MinBlocks>));
  if (attributes.sharedSizeBytes + shape::shared_bytes > dev.shared_per_block_optin)
  {
    std::printf("%s check=skipped reason=needs_%zu_bytes_of_shared_memory\n",
                label.c_str(), attributes.sharedSizeBytes + shape::shared_bytes);
    return;
  }
  CHECK(cudaFuncSetAttribute(probe_kernel<Key, DigitBits, Threads, Items, MinBlocks>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(shape::shared_bytes)));
  int blocks_per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    &blocks_per_sm, probe_kernel<Key, DigitBits, Threads, Items, MinBlocks>, Threads, shape::shared_bytes));
  if (blocks_per_sm == 0)
  {
    std::printf("%s check=skipped reason=no_block_fits_an_sm\n", label.c_str());
    return;
  }

  const std::vector<unsigned> starts = upload_digit_starts<Key, DigitBits>(keys, shift, dev, s);
  const unsigned tiles = static_cast<unsigned>((keys.n + shape::tile_keys - 1) / shape::tile_keys);
  const auto reset_cursor = [&] {
    CHECK(cudaMemcpyAsync(s.cursor, s.starts, shape::radix * sizeof(unsigned), cudaMemcpyDeviceToDevice, s.stream));
  };
  const auto launch = [&] {
    probe_kernel<Key, DigitBits, Threads, Items, MinBlocks><<<tiles, Threads, shape::shared_bytes, s.stream>>>(
      keys.in, keys.out, keys.n, shift, s.cursor);
    CHECK(cudaGetLastError());
  };

  CHECK(cudaMemsetAsync(keys.out, 0xff, keys.n * sizeof(Key), s.stream));
  reset_cursor();
  launch();
  CHECK(cudaStreamSynchronize(s.stream));
  verify_probe_output<Key, DigitBits>(keys, shift, starts, label, dev, s);
  for (int run = 1; run < warmup_runs; ++run)
  {
    reset_cursor();
    launch();
  }
  const double us = median_time_us(s, reset_cursor, launch);

  std::printf("%s median_us=%.1f gbps=%.1f keys_per_digit_per_tile=%.2f regs=%d blocks_per_sm=%d check=ok\n",
              label.c_str(), us, gbps(keys.n, sizeof(Key), us), double(shape::tile_keys) / shape::radix,
              attributes.numRegs, blocks_per_sm);
  std::fflush(stdout);
  results.push_back(result{key_name<Key>(), keys.n, false, DigitBits, Threads, Items, shift, us});
}

template <class Key>
void run_copy(const key_arrays<Key>& keys, const device_info& dev, scratch& s, std::vector<result>& results)
{
  constexpr std::size_t tile_keys = std::size_t(copy_threads) * copy_items;
  const std::string label =
    printf_string("kernel=copy key=%s n=%zu tile=%dx%d", key_name<Key>(), keys.n, copy_threads, copy_items);
  const unsigned blocks = static_cast<unsigned>((keys.n + tile_keys - 1) / tile_keys);
  const auto nothing = [] {};
  const auto launch = [&] {
    copy_kernel<Key, copy_threads, copy_items><<<blocks, copy_threads, 0, s.stream>>>(keys.in, keys.out, keys.n);
    CHECK(cudaGetLastError());
  };

  CHECK(cudaMemsetAsync(keys.out, 0xff, keys.n * sizeof(Key), s.stream));
  launch();
  CHECK(cudaStreamSynchronize(s.stream));
  const std::vector<unsigned long long> expected = digit_signature<Key, 8>(keys.in, keys.n, 0, nullptr, dev, s);
  const std::vector<unsigned long long> actual = digit_signature<Key, 8>(keys.out, keys.n, 0, nullptr, dev, s);
  compare_signatures<8>(expected, actual, label);
  for (int run = 1; run < warmup_runs; ++run)
  {
    launch();
  }
  const double us = median_time_us(s, nothing, launch);

  std::printf("%s median_us=%.1f gbps=%.1f check=ok\n", label.c_str(), us, gbps(keys.n, sizeof(Key), us));
  std::fflush(stdout);
  results.push_back(result{key_name<Key>(), keys.n, true, 0, copy_threads, copy_items, 0, us});
}

void run_u32(std::size_t n, const device_info& dev, scratch& s, std::vector<result>& results)
{
  using key = std::uint32_t;
  key_arrays<key> keys = make_keys<key>(n, 0x5eed000000000032ull, dev, s);
  run_copy(keys, dev, s, results);
  for (const unsigned shift : {0u, 8u})
  {
    run_probe<key, 8, 512, 21, 2>(keys, shift, dev, s, results);
  }
  for (const unsigned shift : {0u, 11u})
  {
    run_probe<key, 11, 512, 21, 2>(keys, shift, dev, s, results);
    run_probe<key, 11, 1024, 16, 1>(keys, shift, dev, s, results);
    run_probe<key, 11, 1024, 24, 1>(keys, shift, dev, s, results);
  }
  free_keys(keys);
}

void run_u64(std::size_t n, const device_info& dev, scratch& s, std::vector<result>& results)
{
  using key = std::uint64_t;
  key_arrays<key> keys = make_keys<key>(n, 0x5eed000000000064ull, dev, s);
  run_copy(keys, dev, s, results);
  for (const unsigned shift : {0u, 8u})
  {
    run_probe<key, 8, 384, 14, 3>(keys, shift, dev, s, results);
  }
  for (const unsigned shift : {0u, 11u})
  {
    run_probe<key, 11, 384, 14, 3>(keys, shift, dev, s, results);
    run_probe<key, 11, 1024, 12, 1>(keys, shift, dev, s, results);
  }
  free_keys(keys);
}

// Per key type and n: t8 (the first 8-bit shape, sweep's), the best 11-bit tile, both at shift 0.
void print_summary(const std::vector<result>& results)
{
  std::vector<std::pair<std::string, std::size_t>> groups;
  for (const result& r : results)
  {
    const std::pair<std::string, std::size_t> group{r.key, r.n};
    if (std::find(groups.begin(), groups.end(), group) == groups.end())
    {
      groups.push_back(group);
    }
  }

  for (const auto& group : groups)
  {
    const result* copy = nullptr;
    const result* t8 = nullptr;
    const result* t11 = nullptr;
    for (const result& r : results)
    {
      if (r.key != group.first || r.n != group.second)
      {
        continue;
      }
      if (r.copy)
      {
        copy = &r;
      }
      else if (r.bits == 8 && r.shift == 0 && t8 == nullptr)
      {
        t8 = &r;
      }
      else if (r.bits == 11 && r.shift == 0 && (t11 == nullptr || r.median_us < t11->median_us))
      {
        t11 = &r;
      }
    }
    if (copy == nullptr || t8 == nullptr || t11 == nullptr)
    {
      std::printf("summary key=%s n=%zu incomplete\n", group.first.c_str(), group.second);
      continue;
    }
    const double ratio = t11->median_us / t8->median_us;
    std::printf("summary key=%s n=%zu copy_us=%.1f t8_us=%.1f t8_tile=%dx%d best_t11_us=%.1f best_t11_tile=%dx%d "
                "ratio_t11_t8=%.3f four_thirds_t8_us=%.1f probe_t11_below_four_thirds_t8=%s\n",
                group.first.c_str(), group.second, copy->median_us, t8->median_us, t8->threads, t8->items,
                t11->median_us, t11->threads, t11->items, ratio, 4.0 / 3.0 * t8->median_us,
                ratio < 4.0 / 3.0 ? "yes" : "no");
    if (group.first == "u32" && group.second == real_8bit_pass_n)
    {
      const double break_even_us = 4.0 / 3.0 * real_8bit_pass_us;
      std::printf("summary key=u32 n=%zu real_t8_us=%.1f probe_t8_over_real_t8=%.3f break_even_t11_us=%.1f "
                  "probe_t11_lower_bound_us=%.1f margin_us=%.1f verdict=%s\n",
                  group.second, real_8bit_pass_us, t8->median_us / real_8bit_pass_us, break_even_us,
                  t11->median_us, break_even_us - t11->median_us,
                  t11->median_us >= break_even_us ? "11bit_ruled_out" : "11bit_not_ruled_out");
    }
  }
  std::printf("# 11-bit digits can win only if a real 11-bit pass takes less than 4/3 of a real 8-bit pass.\n"
              "# The probe's t11 is a lower bound on a real 11-bit pass: t11 >= 4/3 * t(real 8-bit) rules them out;\n"
              "# below it, the gap is what a stable ranking, the look-back and the tile state of 2^11 digits may cost.\n"
              "# ratio_t11_t8 is how much the digit-count-dependent work alone grows from 8 to 11 bits.\n");
}

} // namespace

int main(int argc, char** argv)
{
  bool want_u32 = true;
  bool want_u64 = true;
  if (argc > 2 || (argc == 2 && std::strcmp(argv[1], "u32") != 0 && std::strcmp(argv[1], "u64") != 0))
  {
    std::fprintf(stderr, "usage: %s [u32|u64]\n", argv[0]);
    return 2;
  }
  if (argc == 2)
  {
    want_u32 = std::strcmp(argv[1], "u32") == 0;
    want_u64 = !want_u32;
  }

  int device_count = 0;
  const cudaError_t status = cudaGetDeviceCount(&device_count);
  if (status != cudaSuccess || device_count == 0)
  {
    std::printf("no CUDA device (%s): nothing to measure\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "device count 0");
    return 77;
  }

  CHECK(cudaSetDevice(0));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  device_info dev;
  dev.name = prop.name;
  dev.sm_count = prop.multiProcessorCount;
  dev.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  std::printf("# device=\"%s\" sms=%d shared_per_block_optin=%zu l2_bytes=%d timed_runs=%d warmup_runs=%d\n",
              dev.name.c_str(), dev.sm_count, dev.shared_per_block_optin, prop.l2CacheSize, timed_runs, warmup_runs);

  scratch s = make_scratch();
  std::vector<result> results;
  if (want_u32)
  {
    for (const int log_n : {20, 24, 28})
    {
      run_u32(std::size_t(1) << log_n, dev, s, results);
    }
  }
  if (want_u64)
  {
    run_u64(std::size_t(1) << 27, dev, s, results);
  }
  print_summary(results);
  free_scratch(s);
  return 0;
}
