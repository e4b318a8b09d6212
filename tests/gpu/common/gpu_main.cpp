// main() of every GPU test binary: exits 77 (ctest: skipped) without a CUDA device, but still
// answers Catch's listing options so that catch_discover_tests works on machines without a GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

int main(int argc, char* argv[])
{
  bool listing = false;
  for (int i = 1; i < argc; ++i)
  {
    if (std::strncmp(argv[i], "--list", 6) == 0 || std::strcmp(argv[i], "-l") == 0
        || std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0)
    {
      listing = true;
    }
  }
  if (!listing)
  {
    int count          = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0)
    {
      std::printf("no CUDA device (%s): skipping GPU tests\n", cudaGetErrorString(status));
      return 77;
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    {
      std::printf("device 0: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
    }
  }
  return Catch::Session().run(argc, argv);
}
