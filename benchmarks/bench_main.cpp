// main() of sweep-bench: requires a CUDA device, adds --quick, prints progress on stderr.
#include <benchmark/benchmark.h>

#include <thrust/version.h>

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
// Counted by run name: with --benchmark_report_aggregates_only (the default) a benchmark reports only
// aggregate runs, and without it a benchmark reports twice (its repetitions, then its aggregates).
class progress_reporter : public benchmark::ConsoleReporter
{
public:
  void ReportRuns(const std::vector<Run>& runs) override
  {
    if (!runs.empty())
    {
      const std::string name = runs.front().run_name.str();
      if (name != last_name_)
      {
        ++done_;
        last_name_ = name;
        std::fprintf(stderr, "[sweep-bench] %zu done: %s\n", done_, name.c_str());
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

private:
  std::size_t done_ = 0;
  std::string last_name_;
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
  // Defaults go right after argv[0]: Google Benchmark parses flags in order and the last one wins, so
  // any --benchmark_repetitions / --benchmark_min_time / ... the user passes overrides them.
  // Full run: median of 5 repetitions of at least 0.1 s each. --quick: one repetition of at least 0.05 s per benchmark.
  static char default_repetitions[] = "--benchmark_repetitions=5";
  static char default_aggregates[]  = "--benchmark_report_aggregates_only=true";
  static char default_min_time[]    = "--benchmark_min_time=0.1";
  static char quick_repetitions[]   = "--benchmark_repetitions=1";
  static char quick_min_time[]      = "--benchmark_min_time=0.05";
  std::vector<char*> user_args;
  for (int i = 1; i < argc; ++i)
  {
    if (std::strcmp(argv[i], "--quick") == 0)
    {
      sweep_bench::quick_mode() = true;
      continue;
    }
    user_args.push_back(argv[i]);
  }
  std::vector<char*> args{argv[0]};
  if (sweep_bench::quick_mode())
  {
    args.push_back(quick_repetitions);
    args.push_back(quick_min_time);
  }
  else
  {
    args.push_back(default_repetitions);
    args.push_back(default_aggregates);
    args.push_back(default_min_time);
  }
  args.insert(args.end(), user_args.begin(), user_args.end());
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  benchmark::AddCustomContext("gpu", prop.name);
  benchmark::AddCustomContext("sm_count", std::to_string(prop.multiProcessorCount));
  benchmark::AddCustomContext("cuda_driver", std::to_string(driver));
  benchmark::AddCustomContext("cuda_runtime", std::to_string(runtime));
  benchmark::AddCustomContext("cccl",
                              std::to_string(THRUST_MAJOR_VERSION) + "." + std::to_string(THRUST_MINOR_VERSION) + "."
                                + std::to_string(THRUST_SUBMINOR_VERSION));
  std::fprintf(stderr, "sweep-bench on %s (%d SMs)%s\n", prop.name, prop.multiProcessorCount,
               sweep_bench::quick_mode() ? ", quick mode" : "");
  int new_argc = static_cast<int>(args.size());
  benchmark::Initialize(&new_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(new_argc, args.data()))
  {
    return 1; // a mistyped flag (e.g. --benchmark_filer=sort) must not silently run the whole suite
  }
  progress_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
