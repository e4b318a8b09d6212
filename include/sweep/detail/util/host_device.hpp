// SWEEP_HOST_DEVICE: marks a function that host and device code share. Expands to
// `__host__ __device__` under nvcc and to nothing for a host compiler, so that plain C++ headers
// (plan.hpp, bin_transforms.hpp) stay includable from host-only unit tests.
#pragma once

#if defined(__CUDACC__)
#  define SWEEP_HOST_DEVICE __host__ __device__
#else
#  define SWEEP_HOST_DEVICE
#endif
