// The pieces the scan probes of this folder share (scan-latency-probe.cu,
// scan-plain-partial-probe.cu): a CUDA check, a named cell of whole calls, the interleaved timing
// (rounds of `reps` calls a cell, each after 3 warm-up calls, host clock around a synchronized
// batch) and the median of a cell's rounds.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

static void ck(cudaError_t e, const char* w)
{
  if (e != cudaSuccess) { std::printf("CUDA error %s: %s\n", w, cudaGetErrorString(e)); std::exit(1); }
}

struct cell
{
  std::string name;
  std::function<void()> call;
  std::vector<double> us; //!< µs a call, one entry a round
};

static double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

//! `rounds` interleaved rounds over the cells: each cell 3 warm-up calls, then `reps` calls timed
//! on the host clock up to the device's synchronization; a round's µs a call appended to cell.us.
static void time_interleaved(std::vector<cell>& cells, int rounds = 9, int reps = 100)
{
  for (int round = 0; round < rounds; ++round)
  {
    for (auto& c : cells)
    {
      for (int w = 0; w < 3; ++w) c.call();
      ck(cudaDeviceSynchronize(), "warm");
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r) c.call();
      ck(cudaDeviceSynchronize(), "t");
      const auto t1 = std::chrono::steady_clock::now();
      c.us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / reps);
    }
  }
}
