# Finds the CUDA toolkit and the CCCL (Thrust, CUB, libcu++) that ships with it, wherever it lives.
find_package(CUDAToolkit REQUIRED)
if(NOT TARGET CCCL::CCCL)
  find_package(CCCL CONFIG REQUIRED
    HINTS
      "${CUDAToolkit_LIBRARY_DIR}/cmake/cccl"
      "${CUDAToolkit_LIBRARY_DIR}/cmake"
      "${CUDAToolkit_LIBRARY_ROOT}/lib64/cmake/cccl"
      "${CUDAToolkit_TARGET_DIR}/lib64/cmake/cccl"
      "${CUDAToolkit_TARGET_DIR}/lib/cmake/cccl")
endif()
