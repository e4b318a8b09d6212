// Shared pieces of the GPU tests of the compaction family (unique, partition, remove, reduce_by_key):
// inputs in runs of chosen shapes, floating-point keys with NaN and signed zeros, items whose custom
// equality leaves the rest of their bytes free, guard regions after in-place ranges, the multiset
// comparison of non-stable partitions, the sizes around copy_if's tile (on which these algorithms
// run) and the check that a call refused inside a graph capture leaves the capture valid.
#pragma once

// The umbrella header: each compaction algorithm is reached through it once it exists; until then
// the calls below with sweep policies run Thrust's CUDA backend (sweep's policies derive from it).
#include <sweep/sweep.cuh>

#include <copy_if/copy_if_test.cuh> // s12, s24, keep_percent, copy_if_tile, label

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/mismatch.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

#include <cuda/std/functional>

#include <common/test_utils.cuh>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace sweep_test
{

// --------------------------------------------------------------------------------------------------
// Sizes

//! The sizes of the compaction tests for items of T: edge_sizes around the copy_if tile of T (the
//! tile these algorithms run on), from 0 to past 131 tiles and 2^20 + 1.
template <class T>
std::vector<std::size_t> compaction_sizes()
{
  return edge_sizes(copy_if_tile<T>());
}

//! More than 300 tiles of T (the many-tiles cases, tagged [slow]).
template <class T>
std::size_t many_tiles()
{
  return 300 * copy_if_tile<T>() + 7;
}

//! The sizes of the policy tests (streams, allocators, par_nosync): one item, under a tile, one past
//! the u32 tile, past 40 tiles.
inline std::vector<std::size_t> policy_sizes_of_copy_if()
{
  const std::size_t tile = copy_if_tile<std::uint32_t>();
  return {1, 1000, tile + 1, 40 * tile + 7};
}

// --------------------------------------------------------------------------------------------------
// Runs

//! How the items of an input are grouped into runs of equal keys.
enum class run_shape
{
  distinct, //!< every run one item long
  short_runs, //!< run lengths random, 8 on average (a new run where a hash of i is 0 mod 8)
  long_runs, //!< runs of long_run items, each crossing many tiles
  all_equal, //!< one run
};

inline constexpr std::uint64_t long_run = 100000;

inline constexpr run_shape all_run_shapes[] = {run_shape::distinct, run_shape::short_runs, run_shape::long_runs,
                                               run_shape::all_equal};

inline const char* run_name(run_shape shape)
{
  return shape == run_shape::distinct     ? "distinct"
       : shape == run_shape::short_runs   ? "runs of 8 on average"
       : shape == run_shape::long_runs    ? "runs of 100000"
                                          : "all equal";
}

struct short_run_head
{
  std::uint64_t seed;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const
  {
    return i != 0 && mix64(i ^ mix64(seed)) % 8 == 0 ? 1 : 0;
  }
};

struct run_of_length
{
  std::uint64_t length;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const
  {
    return i / length;
  }
};

//! ids[i]: the run item i is in (0, 1, 2, ... in order), for n items grouped as `shape` says.
inline thrust::device_vector<std::uint64_t> run_ids(std::size_t n, run_shape shape, std::uint64_t seed)
{
  switch (shape)
  {
    case run_shape::distinct:
      return generated_vector<std::uint64_t>(n, run_of_length{1});
    case run_shape::long_runs:
      return generated_vector<std::uint64_t>(n, run_of_length{long_run});
    case run_shape::all_equal:
      return generated_vector<std::uint64_t>(n, run_of_length{std::numeric_limits<std::uint64_t>::max()});
    case run_shape::short_runs:
    default: {
      auto ids = generated_vector<std::uint64_t>(n, short_run_head{seed});
      thrust::inclusive_scan(thrust::device, ids.begin(), ids.end(), ids.begin());
      return ids;
    }
  }
}

template <class Gen>
struct apply_to_run
{
  Gen gen;
  template <class Tuple>
  __host__ __device__ auto operator()(const Tuple& t) const
  {
    return gen(thrust::get<0>(t), thrust::get<1>(t));
  }
};

//! keys[i] = gen(ids[i], i): items from the run they are in (and, for generators that use it, their
//! own index).
template <class T, class Gen>
thrust::device_vector<T> items_of_runs(const thrust::device_vector<std::uint64_t>& ids, Gen gen)
{
  thrust::device_vector<T> items(ids.size());
  const auto in = thrust::make_zip_iterator(ids.begin(), thrust::counting_iterator<std::uint64_t>(0));
  thrust::transform(thrust::device, in, in + static_cast<std::ptrdiff_t>(ids.size()), items.begin(),
                    apply_to_run<Gen>{gen});
  return items;
}

//! The value of every item of run `id`: random bits of the run (all of T's bytes).
template <class T>
struct run_value
{
  std::uint64_t seed;
  __host__ __device__ T operator()(std::uint64_t id, std::uint64_t) const
  {
    return random_element<T>{seed}(id);
  }
};

//! 1-byte keys in runs of 1 to 15 items (each block of 16 items cut once at a hashed point): the
//! inputs past 2^31 items, generated on the device.
struct large_run_key
{
  std::uint64_t seed;
  __host__ __device__ std::uint8_t operator()(std::uint64_t i) const
  {
    const std::uint64_t block = i / 16;
    const std::uint64_t cut   = 1 + mix64(block ^ seed) % 15;
    const std::uint64_t run   = 2 * block + (i % 16 >= cut ? 1 : 0);
    return static_cast<std::uint8_t>(mix64(run ^ mix64(seed)));
  }
};

//! A predicate on bool stencils and flags: the flag itself.
struct is_true
{
  __host__ __device__ bool operator()(bool b) const
  {
    return b;
  }
};

//! T from the low sizeof(T) bytes of `bits` (a NaN with a payload, a negative zero...).
template <class T>
__host__ __device__ T from_raw(std::uint64_t bits)
{
  static_assert(sizeof(T) <= sizeof(std::uint64_t), "from_raw: at most 8 bytes");
  T out;
  memcpy(&out, &bits, sizeof(T));
  return out;
}

template <class T>
struct float_bits;
template <>
struct float_bits<float>
{
  static constexpr std::uint64_t sign = 0x80000000ull, quiet_nan = 0x7fc00000ull, payload = 0x003fffffull,
                                 inf = 0x7f800000ull, denorm_min = 1;
};
template <>
struct float_bits<double>
{
  static constexpr std::uint64_t sign = 0x8000000000000000ull, quiet_nan = 0x7ff8000000000000ull,
                                 payload = 0x0007ffffffffffffull, inf = 0x7ff0000000000000ull, denorm_min = 1;
};

//! Floating-point keys in runs, about a third of the runs special: NaN (each NaN its own segment
//! under equal_to, whatever its run), -NaN, NaN with payloads, +0.0, -0.0, zeros of mixed signs in
//! one run (equal under equal_to: unique keeps the run's first), +inf, -inf, the smallest denormal;
//! the others random finite values. With_nan false: no NaN (the zero runs take their place).
template <class T>
struct float_run_value
{
  std::uint64_t seed;
  bool with_nan = true;
  __host__ __device__ T operator()(std::uint64_t id, std::uint64_t i) const
  {
    using bits             = float_bits<T>;
    const std::uint64_t h  = mix64(id ^ mix64(seed));
    const std::uint64_t hi = mix64(i ^ mix64(seed + 1));
    switch (h % 24)
    {
      case 0:
      case 1:
        return with_nan ? from_raw<T>(bits::quiet_nan | ((h >> 8) & bits::payload)) : from_raw<T>(0);
      case 2:
        return with_nan ? from_raw<T>(bits::sign | bits::quiet_nan) : from_raw<T>(bits::sign);
      case 3:
        return from_raw<T>(0); // +0.0
      case 4:
        return from_raw<T>(bits::sign); // -0.0
      case 5:
      case 6:
        return from_raw<T>((hi & 1) ? bits::sign : 0); // zeros of both signs in one run
      case 7:
        return from_raw<T>(bits::inf);
      case 8:
        return from_raw<T>(bits::sign | bits::inf);
      case 9:
        return from_raw<T>(bits::denorm_min);
      default:
        return from_bits<T>{}(h);
    }
  }
};

//! Items of a run that agree on their first 4 bytes (a hash of the run) and differ in the others:
//! under same_first_word they form one run whose first item an algorithm must pick.
template <class T>
struct keyed_item
{
  std::uint64_t seed;
  __host__ __device__ T operator()(std::uint64_t id, std::uint64_t i) const
  {
    static_assert(sizeof(T) >= 4, "keyed_item: items of at least 4 bytes");
    T item                   = random_element<T>{seed}(i);
    const std::uint32_t word = static_cast<std::uint32_t>(mix64(id ^ mix64(seed)));
    memcpy(&item, &word, 4);
    return item;
  }
};

//! Equality of items by their first 4 bytes only.
template <class T>
struct same_first_word
{
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    std::uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
  }
};

//! Non-negative integer keys 10 * r + d: r a hash of the run (below `tens`), d a hash of the item in
//! [0, 10). Under equal_div_10 a run is one segment, though its keys differ: which key an algorithm
//! outputs (the run's first, or its last) shows.
template <class T>
struct tens_key
{
  std::uint64_t seed;
  std::uint64_t tens;
  __host__ __device__ T operator()(std::uint64_t id, std::uint64_t i) const
  {
    return static_cast<T>(10 * (mix64(id ^ mix64(seed)) % tens) + mix64(i ^ mix64(seed + 3)) % 10);
  }
};

//! How many tens fit in T's non-negative range (tens_key's second argument).
template <class T>
constexpr std::uint64_t tens_of()
{
  return std::numeric_limits<T>::max() / 10 < 100000000 ? std::numeric_limits<T>::max() / 10 : 100000000;
}

template <class T>
struct equal_div_10
{
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a / 10 == b / 10;
  }
};

//! "b is a or a + 1": neither symmetric nor transitive. Thrust's CUDA backend tests every adjacent
//! pair as pred(previous, current), so a run is a chain of steps of 0 or +1 (std::unique would test
//! each item against the run's first instead).
template <class T>
struct steps_up
{
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return b == a || b == static_cast<T>(a + 1);
  }
};

//! Keys for steps_up: 3 * run + a hash of the item in [0, 3): adjacent steps of -2 .. +2 inside runs.
template <class T>
struct step_key
{
  std::uint64_t seed;
  __host__ __device__ T operator()(std::uint64_t id, std::uint64_t i) const
  {
    return static_cast<T>(3 * (id % 1000) + mix64(i ^ mix64(seed)) % 3);
  }
};

// --------------------------------------------------------------------------------------------------
// Guards and comparisons

//! Fills v[from, end) with the 0xA5 poison: the guard after the range of an in-place algorithm.
template <class T>
void poison_from(thrust::device_vector<T>& v, std::size_t from)
{
  if (from < v.size())
  {
    REQUIRE(cudaMemset(thrust::raw_pointer_cast(v.data()) + from, 0xA5, (v.size() - from) * sizeof(T)) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
}

//! A copy of the first n items of `from` with `guard` poisoned items after them: the input of an
//! in-place algorithm whose writes past n show.
template <class T, class It>
thrust::device_vector<T> guarded_copy(It from, std::size_t n, std::size_t guard = 4)
{
  thrust::device_vector<T> v(n + guard);
  thrust::copy(thrust::device, from, from + static_cast<std::ptrdiff_t>(n), v.begin());
  poison_from(v, n);
  return v;
}

//! Bitwise equality of items (NaN equal to the same NaN; -0.0 unequal to +0.0).
template <class T>
struct item_equal
{
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    const unsigned char* x = reinterpret_cast<const unsigned char*>(&a);
    const unsigned char* y = reinterpret_cast<const unsigned char*>(&b);
    for (std::size_t i = 0; i < sizeof(T); ++i)
    {
      if (x[i] != y[i])
      {
        return false;
      }
    }
    return true;
  }
};

//! An item as one 64-bit word: its bits for items up to 8 bytes (exact), a hash of its bytes for
//! larger ones (equal multisets of words then mean equal multisets of items but for a 2^-64 chance).
template <class T>
struct item_word
{
  __host__ __device__ std::uint64_t operator()(const T& x) const
  {
    if constexpr (sizeof(T) <= 8)
    {
      std::uint64_t w = 0;
      memcpy(&w, &x, sizeof(T));
      return w;
    }
    else
    {
      const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&x);
      std::uint64_t h            = 0x9E3779B97F4A7C15ull;
      for (std::size_t i = 0; i < sizeof(T); ++i)
      {
        h = mix64(h ^ bytes[i]);
      }
      return h;
    }
  }
};

//! Requires [expected, expected + n) and [actual, actual + n) to hold the same items in any order
//! (bitwise): each side's item words are sorted on the device (thrust::sort of a copy) and compared.
template <class T, class ExpectedIt, class ActualIt>
void require_same_items(ExpectedIt expected, ActualIt actual, std::size_t n, const std::string& what)
{
  thrust::device_vector<std::uint64_t> e(n), a(n);
  thrust::transform(thrust::device, expected, expected + static_cast<std::ptrdiff_t>(n), e.begin(), item_word<T>{});
  thrust::transform(thrust::device, actual, actual + static_cast<std::ptrdiff_t>(n), a.begin(), item_word<T>{});
  thrust::sort(thrust::device, e.begin(), e.end());
  thrust::sort(thrust::device, a.begin(), a.end());
  require_bitwise_equal(e, a, n, what + " (the same items, in any order)");
}

//! Requires the first `count` items of two device ranges to be bitwise equal, compared on the device
//! (thrust::mismatch; for the tests past 2^31 items, whose outputs are too large to copy to the host).
//! Only the first difference is copied back, to be named.
template <class T, class ExpectedIt, class ActualIt>
void require_equal_on_device(ExpectedIt expected, ActualIt actual, std::size_t count, const std::string& what)
{
  INFO(what << ", count = " << count << ", seed = " << test_seed());
  const auto e_last = expected + static_cast<std::ptrdiff_t>(count);
  const auto first  = thrust::mismatch(thrust::device, expected, e_last, actual, item_equal<T>{});
  if (first.first != e_last)
  {
    const std::size_t i = static_cast<std::size_t>(first.first - expected);
    FAIL("first mismatch at index " << i << ": expected " << describe(static_cast<T>(*first.first)) << ", got "
                                    << describe(static_cast<T>(*first.second)));
  }
}

// --------------------------------------------------------------------------------------------------
// Streams

//! Spins for `ns` nanoseconds of the GPU's global timer (a template: this header is in several
//! translation units of one binary).
template <int = 0>
__global__ void compaction_spin_kernel(unsigned long long ns)
{
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do
  {
    __nanosleep(10000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

//! Enqueues on `stream` a 50 ms spin, then a copy of `from` over `to`: work on that stream that an
//! algorithm called on it must wait for (one on another stream would read `to` as it was).
template <class T>
void overwrite_later(cudaStream_t stream, const thrust::device_vector<T>& from, thrust::device_vector<T>& to)
{
  REQUIRE(from.size() == to.size());
  compaction_spin_kernel<><<<1, 1, 0, stream>>>(50ull * 1000 * 1000);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(thrust::raw_pointer_cast(to.data()), thrust::raw_pointer_cast(from.data()),
                          from.size() * sizeof(T), cudaMemcpyDeviceToDevice, stream)
          == cudaSuccess);
}

// --------------------------------------------------------------------------------------------------
// Graph capture

//! Requires call(policy) on a stream being captured (in each capture mode) to throw
//! thrust::system_error with cudaErrorStreamCaptureUnsupported before it enqueues anything: no error
//! left pending, the capture still valid (cudaStreamEndCapture succeeds) and its graph empty. After
//! one refusal the capture goes on and other work recorded in it runs when the graph is launched.
//! Then call(sweep::par.on(stream)) outside a capture must run (its result checked by the caller).
//! `call` takes the policy and returns nothing.
template <class Call>
void require_capture_refused(Call call, const std::string& what)
{
  stream_guard s;
  thrust::device_vector<int> marker(16, 0);
  for (auto mode : {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed})
  {
    for (bool then_more_work : {false, true})
    {
      INFO(what << ", capture mode " << static_cast<int>(mode) << (then_more_work ? ", then a fill" : ""));
      REQUIRE(cudaStreamBeginCapture(s.stream, mode) == cudaSuccess);
      bool refused  = false;
      int code      = 0;
      std::string message;
      try
      {
        call(sweep::par_nosync.on(s.stream));
      }
      catch (const thrust::system_error& e)
      {
        refused = true;
        code    = e.code().value();
        message = e.what();
      }
      INFO("message: " << message);
      CHECK(refused);
      CHECK(code == static_cast<int>(cudaErrorStreamCaptureUnsupported));
      CHECK(cudaPeekAtLastError() == cudaSuccess);
      if (then_more_work)
      {
        thrust::fill(thrust::cuda::par_nosync.on(s.stream), marker.begin(), marker.end(), 7);
      }
      cudaGraph_t graph{};
      REQUIRE(cudaStreamEndCapture(s.stream, &graph) == cudaSuccess);
      REQUIRE(graph != nullptr);
      if (!then_more_work)
      {
        std::size_t nodes = 1;
        REQUIRE(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
        CHECK(nodes == 0); // nothing was enqueued before the refusal
      }
      else
      {
        cudaGraphExec_t exec{};
        REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
        thrust::fill(thrust::device, marker.begin(), marker.end(), 0);
        REQUIRE(cudaGraphLaunch(exec, s.stream) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
        CHECK(marker[15] == 7);
        REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
      }
      REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
      (void) cudaGetLastError();
    }
  }
  // And outside a capture the same stream works.
  call(sweep::par.on(s.stream));
  REQUIRE(cudaStreamSynchronize(s.stream) == cudaSuccess);
}

//! A compaction's copying and in-place forms on raw pointers at misaligned starts, on thrust::device
//! and sweep::par: input `offset` items into `data` (at least 3 tiles of T and 64 items), output
//! `out_offset` items into its buffer, n from 1 to past 3 tiles. The same count, bitwise the same items,
//! nothing written after the returned end (copy) or outside the range (in place).
//! copy(policy, first, last, out) and in_place(policy, first, last) make the calls and return their ends.
template <class T, class Copy, class InPlace>
void check_misaligned(const thrust::device_vector<T>& data,
                      const std::string& name,
                      const std::string& copy_name,
                      const std::string& in_place_name,
                      Copy copy,
                      InPlace in_place)
{
  const std::size_t tile = copy_if_tile<T>();
  for (std::size_t offset : {1u, 3u, 7u, 15u})
  {
    for (std::size_t out_offset : {0u, 1u, 5u})
    {
      for (std::size_t n : {std::size_t(1), std::size_t(17), tile - offset, 3 * tile - 9})
      {
        const std::string what =
          name + " in+" + std::to_string(offset) + " out+" + std::to_string(out_offset) + ", n=" + std::to_string(n);
        INFO(what << ", seed = " << test_seed());
        REQUIRE(offset + n <= data.size());
        const T* first = thrust::raw_pointer_cast(data.data()) + offset;
        thrust::device_vector<T> expected(n + out_offset + 4), actual(n + out_offset + 4);
        poison(expected);
        poison(actual);
        T* e_out            = thrust::raw_pointer_cast(expected.data()) + out_offset;
        T* a_out            = thrust::raw_pointer_cast(actual.data()) + out_offset;
        const T* e_end      = copy(thrust::device, first, first + n, e_out);
        const T* a_end      = copy(sweep::par, first, first + n, a_out);
        const std::size_t c = static_cast<std::size_t>(e_end - e_out);
        REQUIRE(static_cast<std::size_t>(a_end - a_out) == c);
        require_bitwise_equal(expected, actual, out_offset + c, copy_name + " " + what);
        require_poison_intact(actual, out_offset + c, copy_name + " " + what);

        // In place at the same misalignment; nothing after the range changes.
        thrust::device_vector<T> e_copy(data), a_copy(data);
        T* e_first             = thrust::raw_pointer_cast(e_copy.data()) + offset;
        T* a_first             = thrust::raw_pointer_cast(a_copy.data()) + offset;
        const T* e_last        = in_place(thrust::device, e_first, e_first + n);
        const T* a_last        = in_place(sweep::par, a_first, a_first + n);
        const std::size_t kept = static_cast<std::size_t>(e_last - e_first);
        REQUIRE(static_cast<std::size_t>(a_last - a_first) == kept);
        require_bitwise_equal(e_copy, a_copy, offset + kept, in_place_name + " " + what);
        const thrust::host_vector<T> before(data.begin() + static_cast<std::ptrdiff_t>(offset + n), data.end());
        const thrust::host_vector<T> after(a_copy.begin() + static_cast<std::ptrdiff_t>(offset + n), a_copy.end());
        require_bitwise_equal(before, after, before.size(), in_place_name + ", after the range " + what);
      }
    }
  }
}

} // namespace sweep_test
