// The probe behind docs/design/scan.md, variants, "Misaligned contiguous inputs" (the before/after table):
// build it against the headers to compare, e.g.
//   nvcc -std=c++17 -O3 -arch=sm_90 --extended-lambda -I<sweep>/include scan-misaligned-probe.cu -o probe
// and run both binaries in one call. CUB is timed in one count form (the type of n: 64-bit for the
// scans, int for copy_if); sweep-bench's scan/inclusive_u32_misaligned compares with both forms.
// Whole calls with sweep::par (CUDA events around each call), medians of 9; input and output both start
// `offset` items into 256-byte aligned buffers.
#include <sweep/scan.cuh>
#include <sweep/copy_if.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cstdint>

struct half_pred { __host__ __device__ bool operator()(std::uint32_t x) const { return (x * 2654435761u) & 0x80000000u; } };

template <class F> float med(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  f(); cudaDeviceSynchronize();
  for (int i = 0; i < 9; ++i) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[4];
}

template <class T> void scan_case(const char* name, std::size_t n) {
  thrust::device_vector<T> in(n + 8), out(n + 8);
  thrust::sequence(in.begin(), in.end());
  T* i0 = thrust::raw_pointer_cast(in.data()); T* o0 = thrust::raw_pointer_cast(out.data());
  std::size_t bytes = 0; cub::DeviceScan::InclusiveSum(nullptr, bytes, i0, o0, n);
  void* tmp; cudaMalloc(&tmp, bytes + 1024);
  for (int off : {0, 1}) {
    float s = med([&] { thrust::inclusive_scan(sweep::par, i0 + off, i0 + off + n, o0 + off); });
    float c = med([&] { std::size_t b = bytes + 1024; cub::DeviceScan::InclusiveSum(tmp, b, i0 + off, o0 + off, n); });
    std::printf("%s inclusive n=%zu offset=%d sweep %.3f ms cub %.3f ms ratio %.2fx\n", name, n, off, s, c, c / s);
  }
  cudaFree(tmp);
}

void copy_if_case(std::size_t n) {
  thrust::device_vector<std::uint32_t> in(n + 8), out(n + 8);
  thrust::sequence(in.begin(), in.end());
  thrust::device_vector<int> cnt(1);
  auto* i0 = thrust::raw_pointer_cast(in.data()); auto* o0 = thrust::raw_pointer_cast(out.data());
  std::size_t bytes = 0; cub::DeviceSelect::If(nullptr, bytes, i0, o0, thrust::raw_pointer_cast(cnt.data()), int(n), half_pred{});
  void* tmp; cudaMalloc(&tmp, bytes + 1024);
  for (int off : {0, 1}) {
    float s = med([&] { thrust::copy_if(sweep::par, i0 + off, i0 + off + n, o0, half_pred{}); });
    float c = med([&] { std::size_t b = bytes + 1024; cub::DeviceSelect::If(tmp, b, i0 + off, o0, thrust::raw_pointer_cast(cnt.data()), int(n), half_pred{}); });
    std::printf("copy_if u32 50%% n=%zu offset=%d sweep %.3f ms cub(kernel only) %.3f ms ratio %.2fx\n", n, off, s, c, c / s);
  }
  cudaFree(tmp);
}

int main() {
  const std::size_t n = std::size_t(1) << 28;
  scan_case<std::uint32_t>("u32", n);
  scan_case<std::uint64_t>("u64", n);
  scan_case<std::uint32_t>("u32", std::size_t(1) << 24);
  copy_if_case(n);
  return 0;
}
