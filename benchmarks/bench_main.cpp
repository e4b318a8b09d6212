// main() of sweep-bench: requires a CUDA device, adds --quick, prints progress on stderr.
#include <benchmark/benchmark.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace sweep_bench
{
bool& quick_mode()
{
  static bool quick = false;
  return quick;
}
} // namespace sweep_bench

namespace
{
// Prints one progress line per finished benchmark on stderr while the console reporter writes stdout.
class progress_reporter : public benchmark::ConsoleReporter
{
public:
  void ReportRuns(const std::vector<Run>& runs) override
  {
    for (const Run& run : runs)
    {
      if (run.run_type == Run::RT_Aggregate)
      {
        continue;
      }
      ++done_;
    }
    std::fprintf(stderr, "[sweep-bench] %zu runs done: %s\n", done_, runs.empty() ? "" : runs.back().benchmark_name().c_str());
    ConsoleReporter::ReportRuns(runs);
  }

private:
  std::size_t done_ = 0;
};
} // namespace

int main(int argc, char** argv)
{
  int count          = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
  {
    std::fprintf(stderr, "sweep-bench: no CUDA device found (%s); nothing to measure.\n", cudaGetErrorString(status));
    return 1;
  }
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i)
  {
    if (std::strcmp(argv[i], "--quick") == 0)
    {
      sweep_bench::quick_mode() = true;
      continue;
    }
    args.push_back(argv[i]);
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  benchmark::AddCustomContext("gpu", prop.name);
  benchmark::AddCustomContext("sm_count", std::to_string(prop.multiProcessorCount));
  benchmark::AddCustomContext("cuda_driver", std::to_string(driver));
  benchmark::AddCustomContext("cuda_runtime", std::to_string(runtime));
  std::fprintf(stderr, "sweep-bench on %s (%d SMs)%s\n", prop.name, prop.multiProcessorCount,
               sweep_bench::quick_mode() ? ", quick mode" : "");
  int new_argc = static_cast<int>(args.size());
  benchmark::Initialize(&new_argc, args.data());
  progress_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
