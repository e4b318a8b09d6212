// A/B of onesweep pass tile shapes against cub::DeviceRadixSort (DoubleBuffer, temp storage
// preallocated) in one run: every variant's result is checked bitwise against CUB's first.
// Not part of the default build (SWEEP_BUILD_EXPERIMENTS); prints one line per (workload, variant).
#include <sweep/sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <thrust/device_allocator.h>

#include <new>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace
{
namespace sort_impl = sweep::detail::sort_impl;

void check(cudaError_t e, const char* what)
{
  if (e != cudaSuccess)
  {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

__host__ __device__ unsigned long long mix(unsigned long long x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

enum class dist
{
  uniform,
  below_2_16,
  half_one_value,
  four_values,
  floats,
};

template <class K>
__global__ void fill(K* out, std::size_t n, dist d, unsigned long long seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
  {
    const unsigned long long b = mix(seed * 0x100000001b3ull + i);
    K k;
    if constexpr (sizeof(K) == 4 && std::is_same<K, float>::value)
    {
      // roughly normal: sum of four uniforms, centred, with both signs and zeros of both signs
      float s = 0;
      for (int j = 0; j < 4; ++j)
      {
        s += static_cast<float>((b >> (16 * j)) & 0xffff) / 65536.0f;
      }
      k = (s - 2.0f) * 100.0f;
      if ((b & 0xfffff) == 7)
      {
        k = -0.0f;
      }
    }
    else if (d == dist::uniform)
    {
      k = static_cast<K>(b);
    }
    else if (d == dist::below_2_16)
    {
      k = static_cast<K>(b & 0xffff);
    }
    else if (d == dist::half_one_value)
    {
      k = (b & 1) ? static_cast<K>(0x12345678u) : static_cast<K>(b >> 32);
    }
    else
    {
      const unsigned v[4] = {0x0u, 0x10203u, 0x7f7f7f7fu, 0xffffffffu};
      k = static_cast<K>(v[b >> 62]);
    }
    out[i] = k;
  }
}

template <class T>
__global__ void count_diff(const T* a, const T* b, std::size_t n, unsigned long long* bad)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
  {
    using U = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
    U x, y;
    memcpy(&x, a + i, sizeof(T));
    memcpy(&y, b + i, sizeof(T));
    if (x != y)
    {
      atomicAdd(bad, 1ull);
    }
  }
}

template <class T>
unsigned long long diff(const T* a, const T* b, std::size_t n)
{
  unsigned long long* bad;
  check(cudaMalloc(&bad, 8), "malloc");
  check(cudaMemset(bad, 0, 8), "memset");
  count_diff<<<1024, 256>>>(a, b, n, bad);
  unsigned long long h = 0;
  check(cudaMemcpy(&h, bad, 8, cudaMemcpyDeviceToHost), "copy");
  cudaFree(bad);
  return h;
}

//! Temporary storage from one preallocated buffer (bump allocation, reset when all is returned):
//! sweep's call without the cost of mapping fresh memory.
struct arena
{
  char* base       = nullptr;
  std::size_t size = 0, used = 0;
  int live         = 0;
};
arena g_arena;

struct arena_allocator : thrust::device_allocator<char>
{
  using value_type = char;
  using pointer    = thrust::device_ptr<char>;
  pointer allocate(std::size_t n)
  {
    const std::size_t at = (g_arena.used + 255) / 256 * 256;
    if (at + n > g_arena.size)
    {
      throw std::bad_alloc();
    }
    g_arena.used = at + n;
    ++g_arena.live;
    return pointer(g_arena.base + at);
  }
  void deallocate(pointer, std::size_t)
  {
    if (--g_arena.live == 0)
    {
      g_arena.used = 0;
    }
  }
};

template <int Threads, int Items, int MinBlocks>
struct shape
{
  static constexpr int threads    = Threads;
  static constexpr int items      = Items;
  static constexpr int tile_items = Threads * Items;
  static constexpr int min_blocks = MinBlocks;
};

template <class F>
double time_ms(F&& run, void (*reset)(void*), void* ctx, int reps = 7)
{
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < reps + 2; ++r)
  {
    reset(ctx);
    check(cudaDeviceSynchronize(), "reset");
    cudaEventRecord(a);
    run();
    cudaEventRecord(b);
    check(cudaEventSynchronize(b), "run");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (r >= 2)
    {
      t.push_back(ms);
    }
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class K, class V>
struct bench_data
{
  std::size_t n;
  K *src, *keys, *alt, *ref;
  V *vsrc, *vals, *valt, *vref;
};

template <class K, class V>
void reset_data(void* p)
{
  auto* d = static_cast<bench_data<K, V>*>(p);
  cudaMemcpyAsync(d->keys, d->src, d->n * sizeof(K), cudaMemcpyDeviceToDevice);
  if (d->vals)
  {
    cudaMemcpyAsync(d->vals, d->vsrc, d->n * sizeof(V), cudaMemcpyDeviceToDevice);
  }
}

template <class K, class V, bool Desc, class... Shapes>
void workload(const char* name, std::size_t n, dist dd, bool pairs)
{
  if (n != (std::size_t(1) << 28) && std::getenv("ONLY_2_28") != nullptr)
  {
    return;
  }
  bench_data<K, V> d{};
  d.n = n;
  check(cudaMalloc(&d.src, n * sizeof(K)), "malloc");
  check(cudaMalloc(&d.keys, n * sizeof(K)), "malloc");
  check(cudaMalloc(&d.alt, n * sizeof(K)), "malloc");
  check(cudaMalloc(&d.ref, n * sizeof(K)), "malloc");
  if (pairs)
  {
    check(cudaMalloc(&d.vsrc, n * sizeof(V)), "malloc");
    check(cudaMalloc(&d.vals, n * sizeof(V)), "malloc");
    check(cudaMalloc(&d.valt, n * sizeof(V)), "malloc");
    check(cudaMalloc(&d.vref, n * sizeof(V)), "malloc");
    fill<V><<<1024, 256>>>(d.vsrc, n, dist::uniform, 99);
  }
  fill<K><<<1024, 256>>>(d.src, n, dd, 1234);
  check(cudaDeviceSynchronize(), "fill");

  // CUB, DoubleBuffer, temp preallocated (the first call, with temp == nullptr, sizes it).
  cub::DoubleBuffer<K> kb(d.keys, d.alt);
  cub::DoubleBuffer<V> vb(d.vals, d.valt);
  std::size_t temp_bytes = 0;
  void* temp             = nullptr;
  auto cub_sort          = [&] {
    kb = cub::DoubleBuffer<K>(d.keys, d.alt);
    vb = cub::DoubleBuffer<V>(d.vals, d.valt);
    if (pairs)
    {
      Desc ? cub::DeviceRadixSort::SortPairsDescending(temp, temp_bytes, kb, vb, n)
           : cub::DeviceRadixSort::SortPairs(temp, temp_bytes, kb, vb, n);
    }
    else
    {
      Desc ? cub::DeviceRadixSort::SortKeysDescending(temp, temp_bytes, kb, n)
           : cub::DeviceRadixSort::SortKeys(temp, temp_bytes, kb, n);
    }
  };
  cub_sort();
  check(cudaMalloc(&temp, temp_bytes), "malloc");
  const K* cub_out  = nullptr;
  const V* cub_vout = nullptr;
  auto run_cub      = [&] {
    cub_sort();
    cub_out  = kb.Current();
    cub_vout = vb.Current();
  };
  const double cub_ms = time_ms(run_cub, reset_data<K, V>, &d);
  check(cudaMemcpy(d.ref, cub_out, n * sizeof(K), cudaMemcpyDeviceToDevice), "ref");
  if (pairs)
  {
    check(cudaMemcpy(d.vref, cub_vout, n * sizeof(V), cudaMemcpyDeviceToDevice), "ref");
  }
  std::printf("%-22s n=2^%-2d cub %8.3f ms\n", name, 63 - __builtin_clzll(n), cub_ms);

  auto one = [&](auto s) {
    using S         = decltype(s);
    auto sort_with  = [&](auto& policy) {
      if (pairs)
      {
        sort_impl::onesweep_passes<Desc, sort_impl::value_mode::direct, S>(policy, d.keys, d.vals, n);
      }
      else
      {
        sort_impl::onesweep_passes<Desc, sort_impl::value_mode::none, S>(policy, d.keys, static_cast<sort_impl::no_value*>(nullptr), n);
      }
    };
    auto pol   = sweep::par.on(cudaStream_t{});
    auto run_s = [&] { sort_with(pol); };
    reset_data<K, V>(&d);
    run_s();
    check(cudaDeviceSynchronize(), "sweep");
    unsigned long long bad = diff(d.keys, d.ref, n);
    if (pairs)
    {
      bad += diff(d.vals, d.vref, n);
    }
    const double ms = time_ms(run_s, reset_data<K, V>, &d);
    std::printf("%-22s %4dx%-2d/%d %8.3f ms  %5.3fx cub  %s\n", name, S::threads, S::items, S::min_blocks, ms,
                cub_ms / ms, bad == 0 ? "ok" : "MISMATCH");
    arena_allocator alloc;
    auto apol       = sweep::par(alloc).on(cudaStream_t{});
    const double am = time_ms([&] { sort_with(apol); }, reset_data<K, V>, &d);
    std::printf("%-22s %4dx%-2d/%d %8.3f ms  %5.3fx cub  (temp from a preallocated arena)\n", name, S::threads,
                S::items, S::min_blocks, am, cub_ms / am);
  };
  (one(Shapes{}), ...);
  cudaFree(temp);
  cudaFree(d.src);
  cudaFree(d.keys);
  cudaFree(d.alt);
  cudaFree(d.ref);
  if (pairs)
  {
    cudaFree(d.vsrc);
    cudaFree(d.vals);
    cudaFree(d.valt);
    cudaFree(d.vref);
  }
}

using B = shape<512, 21, 2>;
using C = shape<384, 19, 3>;
} // namespace

int main(int argc, char** argv)
{
  g_arena.size = std::size_t(5) << 30;
  check(cudaMalloc(&g_arena.base, g_arena.size), "arena");
  const std::string only = argc > 1 ? argv[1] : "";
  auto want              = [&](const char* w) { return only.empty() || only.find(w) != std::string::npos; };
  if (want("u32"))
  {
    workload<unsigned, unsigned, false, B, C>("u32 uniform", std::size_t(1) << 28, dist::uniform, false);
    workload<unsigned, unsigned, false, B, C>("u32 uniform", std::size_t(1) << 24, dist::uniform, false);
    workload<unsigned, unsigned, false, B, C>("u32 half one value", std::size_t(1) << 28, dist::half_one_value, false);
    workload<unsigned, unsigned, false, B, C>("u32 four values", std::size_t(1) << 28, dist::four_values, false);
    workload<unsigned, unsigned, false, B, C>("u32 below 2^16", std::size_t(1) << 28, dist::below_2_16, false);
  }
  if (want("float"))
  {
    workload<float, unsigned, false, B, C>("float", std::size_t(1) << 27, dist::floats, false);
    workload<float, unsigned, true, B, C>("float descending", std::size_t(1) << 27, dist::floats, false);
  }
  if (want("u64"))
  {
    workload<unsigned long long, unsigned, false, shape<384, 12, 3>, shape<256, 16, 3>>("u64 uniform", std::size_t(1) << 27, dist::uniform, false);
  }
  if (want("pairs"))
  {
    workload<unsigned, unsigned, false, shape<384, 20, 2>, shape<512, 16, 2>>(
      "u32/u32 pairs", std::size_t(1) << 28, dist::uniform, true);
    workload<unsigned, unsigned long long, false, shape<384, 14, 2>, shape<256, 16, 3>>(
      "u32/u64 pairs", std::size_t(1) << 27, dist::uniform, true);
  }
  return 0;
}
