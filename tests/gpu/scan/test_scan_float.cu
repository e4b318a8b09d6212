// inclusive_scan / exclusive_scan of float and double on sweep::par: within the documented error bound
// of a long double reference at every edge size, NaN and infinities where the reference has them,
// signed zeros as Thrust gives them, and the same bits on every call, also while another stream keeps
// the GPU busy (the association order must not depend on how tiles are scheduled).
#include "scan_test.cuh"

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/scan.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace sweep_test;

namespace
{

//! Scans the first n items of `data` with `form` on sweep::par into a poisoned output of n + 4;
//! requires the returned end and the poison; returns the n outputs on the host.
template <class OutT, class T, class Form>
thrust::host_vector<OutT> sweep_scan(const thrust::device_vector<T>& data, std::size_t n, Form form, const std::string& what)
{
  thrust::device_vector<OutT> out(n + 4);
  poison(out);
  const auto end = form(sweep::par, data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n), out.begin());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  INFO(what);
  REQUIRE(static_cast<std::size_t>(end - out.begin()) == n);
  require_poison_intact(out, n, what);
  return thrust::host_vector<OutT>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
}

//! At every edge size of AccT's tile: sweep's outputs within the bound, and a second call bitwise
//! equal to the first.
template <class AccT, class T, class Form>
void bound_at_every_size(Form form, bool inclusive, bool has_init, AccT init, const std::string& name)
{
  const auto sizes = edge_sizes(scan_tile<AccT>());
  const auto data  = random_vector<T>(sizes.back(), test_seed() + sizeof(T) + 7 * sizeof(AccT) + (inclusive ? 1 : 0));
  const thrust::host_vector<T> host(data);
  for (std::size_t n : sizes)
  {
    const std::string what = scan_label(name, n);
    const auto first       = sweep_scan<AccT>(data, n, form, what);
    require_within_bound<AccT>(host, first, n, inclusive, has_init, init, what);
    const auto again = sweep_scan<AccT>(data, n, form, what + " (again)");
    require_bitwise_equal(first, again, n, what + ": two calls on the same input");
  }
}

} // namespace

TEST_CASE("float and double scans are within the documented error bound at every edge size", "[scan][float]")
{
  bound_at_every_size<float, float>([](auto p, auto f, auto l, auto o) { return thrust::inclusive_scan(p, f, l, o); },
                                    true, false, 0.0f, "float inclusive");
  bound_at_every_size<float, float>(
    [](auto p, auto f, auto l, auto o) { return thrust::exclusive_scan(p, f, l, o, 1.5f); }, false, true, 1.5f,
    "float exclusive init 1.5");
  bound_at_every_size<double, double>([](auto p, auto f, auto l, auto o) { return thrust::inclusive_scan(p, f, l, o); },
                                      true, false, 0.0, "double inclusive");
  bound_at_every_size<double, double>(
    [](auto p, auto f, auto l, auto o) { return thrust::exclusive_scan(p, f, l, o, -3.25); }, false, true, -3.25,
    "double exclusive init -3.25");
  // A double initial value: Thrust's exclusive scan accumulates in double, so float input sums as double.
  bound_at_every_size<double, float>(
    [](auto p, auto f, auto l, auto o) { return thrust::exclusive_scan(p, f, l, o, 0.0); }, false, true, 0.0,
    "float exclusive into double, double init");
}

namespace
{

template <class T>
void signed_zeros(const char* name)
{
  // Every sum below is exact, so Thrust's bits are the reference: -0 + -0 is -0, +0 + -0 is +0.
  const std::size_t tile = scan_tile<T>();
  for (std::size_t n : {std::size_t(1), std::size_t(33), tile + 1, 7 * tile + 5})
  {
    const thrust::device_vector<T> zeros(n, -T(0));
    const std::string what = scan_label(std::string(name) + " all -0.0", n);
    check_scan_against_thrust<T>(sweep::par, n, [&](auto p, auto o) {
      return thrust::inclusive_scan(p, zeros.begin(), zeros.end(), o);
    }, what + " inclusive (all -0.0)");
    check_scan_against_thrust<T>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, zeros.begin(), zeros.end(), o, T(0));
    }, what + " exclusive init +0.0 (all +0.0)");
    check_scan_against_thrust<T>(sweep::par, n, [&](auto p, auto o) {
      return thrust::exclusive_scan(p, zeros.begin(), zeros.end(), o, -T(0));
    }, what + " exclusive init -0.0 (all -0.0)");
    const thrust::host_vector<T> inclusive = sweep_scan<T>(zeros, n, [](auto p, auto f, auto l, auto o) {
      return thrust::inclusive_scan(p, f, l, o);
    }, what);
    REQUIRE(std::signbit(inclusive[n - 1]));
  }
}

//! Random finite values with NaN, infinities and signed zeros placed in several tiles.
template <class T>
void special_values(const char* name)
{
  const std::size_t tile = scan_tile<T>();
  const std::size_t n    = 9 * tile + 5;
  const T inf            = std::numeric_limits<T>::infinity();
  const T nan            = std::numeric_limits<T>::quiet_NaN();
  struct placed
  {
    std::size_t index;
    T value;
  };
  // 1: +inf in tile 2, then -inf in tile 5: the prefixes turn +inf, then NaN.
  // 2: one NaN at index 1: NaN from there on. 3: -inf in the last item only.
  const std::vector<std::vector<placed>> layouts = {
    {{2 * tile + 17, inf}, {5 * tile + 3, -inf}, {tile, -T(0)}, {tile + 1, T(0)}},
    {{1, nan}, {4 * tile, inf}},
    {{n - 1, -inf}, {0, -T(0)}, {3 * tile - 1, -T(0)}},
  };
  int layout_index = 0;
  for (const auto& layout : layouts)
  {
    thrust::device_vector<T> data = random_vector<T>(n, test_seed() + 60 + static_cast<std::uint64_t>(layout_index));
    for (const placed& p : layout)
    {
      data[p.index] = p.value;
    }
    const thrust::host_vector<T> host(data);
    const std::string what = std::string(name) + " specials layout " + std::to_string(layout_index++);
    const auto inclusive   = sweep_scan<T>(data, n, [](auto p, auto f, auto l, auto o) {
      return thrust::inclusive_scan(p, f, l, o);
    }, what + " inclusive");
    require_within_bound<T>(host, inclusive, n, true, false, T(0), what + " inclusive");
    const auto exclusive = sweep_scan<T>(data, n, [](auto p, auto f, auto l, auto o) {
      return thrust::exclusive_scan(p, f, l, o, T(0));
    }, what + " exclusive");
    require_within_bound<T>(host, exclusive, n, false, true, T(0), what + " exclusive");
  }
}

} // namespace

TEST_CASE("float and double scans keep signed zeros as Thrust does", "[scan][float]")
{
  signed_zeros<float>("float");
  signed_zeros<double>("double");
}

TEST_CASE("float and double scans give NaN and infinities where the exact prefix has them", "[scan][float]")
{
  special_values<float>("float");
  special_values<double>("double");
}

namespace
{

//! Keeps the GPU busy: many short blocks, each thread rewriting its item of a large buffer after a
//! long dependent chain of arithmetic, so that blocks retire and start all the time.
__global__ void busy_kernel(float* data, int rounds)
{
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float x             = data[i];
  for (int r = 0; r < rounds; ++r)
  {
    x = x * 0.999f + 1.0f;
  }
  data[i] = x;
}

//! A non-blocking stream of the given priority (lower numbers run first), destroyed with its scope.
struct priority_stream
{
  cudaStream_t stream{};
  explicit priority_stream(int priority)
  {
    REQUIRE(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority) == cudaSuccess);
  }
  ~priority_stream()
  {
    cudaStreamDestroy(stream);
  }
};

} // namespace

TEST_CASE("float scans give the same bits on every call, also while another stream runs", "[scan][float][determinism]")
{
  const std::size_t tile = scan_tile<float>();
  const std::size_t n    = 301 * tile + 77; // more tiles than the grid holds at once on any GPU
  const auto data        = random_vector<float>(n, test_seed() + 70);
  auto inclusive         = [](auto p, auto f, auto l, auto o) { return thrust::inclusive_scan(p, f, l, o); };
  const auto first       = sweep_scan<float>(data, n, inclusive, "float inclusive, first call");
  for (int run = 0; run < 2; ++run)
  {
    const auto again = sweep_scan<float>(data, n, inclusive, "float inclusive, run " + std::to_string(run));
    require_bitwise_equal(first, again, n, "float inclusive, call " + std::to_string(run + 2) + " against the first");
  }

  // A kernel of 2^16 short blocks runs on a second non-blocking stream, launched just before the scan
  // on a third: the scan's blocks start late, between the busy kernel's, and in another order. Run 0
  // gives the scan's stream the higher priority (its blocks take every slot that frees), run 1 the
  // busy stream's (the scan's blocks wait behind it). The result must not change.
  int least = 0, greatest = 0;
  REQUIRE(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  thrust::device_vector<float> busy(std::size_t(1) << 24, 1.0f);
  for (int run = 0; run < 2; ++run)
  {
    priority_stream busy_stream(run == 0 ? least : greatest);
    priority_stream scan_stream(run == 0 ? greatest : least);
    thrust::device_vector<float> out(n + 4);
    poison(out);
    busy_kernel<<<static_cast<unsigned>(busy.size() / 256), 256, 0, busy_stream.stream>>>(
      thrust::raw_pointer_cast(busy.data()), 2000);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    auto end = run == 0 ? thrust::inclusive_scan(sweep::par.on(scan_stream.stream), data.begin(), data.end(), out.begin())
                        : thrust::inclusive_scan(sweep::par_nosync.on(scan_stream.stream), data.begin(), data.end(),
                                                 out.begin());
    REQUIRE(cudaStreamSynchronize(scan_stream.stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(busy_stream.stream) == cudaSuccess);
    INFO("run " << run);
    REQUIRE(static_cast<std::size_t>(end - out.begin()) == n);
    require_poison_intact(out, n, "float inclusive beside a busy kernel");
    const thrust::host_vector<float> got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
    require_bitwise_equal(first, got, n, "float inclusive beside a busy kernel, run " + std::to_string(run));
  }
}
