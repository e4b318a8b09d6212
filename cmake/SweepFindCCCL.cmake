# Finds the CUDA toolkit and the CCCL (Thrust, CUB, libcu++) sweep builds against, and checks that
# sweep supports that release. The CCCL is the one the project brings, wherever it comes from:
#  - a CCCL::CCCL target the project already has (CPM, or add_subdirectory of a CCCL clone);
#  - else find_package(CCCL CONFIG) through CMake's usual search (CCCL_DIR, CCCL_ROOT,
#    CMAKE_PREFIX_PATH: an install of CCCL), and only then the CUDA toolkit's own CCCL.
# sweep's installed package (sweepConfig.cmake) runs this file too, in the consumer's project, so an
# installed sweep uses the consumer's CCCL, found the same way.
# Sets SWEEP_CCCL_VERSION (e.g. 3.5.0) and SWEEP_CCCL_INCLUDE_DIR (the directory holding its
# thrust/, cub/ and cuda/), read from the target's headers.
#
# CCCL's include directories reach the compiler as -I, which nvcc searches before the toolkit's own
# CCCL (it adds that as a system directory); sweep's headers include only headers that every
# supported release has (.ci/cccl-matrix checks each release with no other CCCL visible), so the
# toolkit's copy never fills a gap for sweep. Outside sweep's range, configuring stops here.
set(SWEEP_CCCL_OLDEST "2.5.0")   # sweep/detail/util/cccl_compat.cuh: SWEEP_CCCL_OLDEST_VERSION
set(SWEEP_CCCL_FIRST_UNSUPPORTED "4.0.0") # and SWEEP_CCCL_FIRST_UNSUPPORTED_VERSION

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

# The include directories a target brings, following the targets it links (build-tree paths of
# $<BUILD_INTERFACE:...> kept, other generator expressions dropped).
function(_sweep_interface_include_dirs target out_var)
  set(seen "${ARGN}")
  set(dirs)
  if(NOT TARGET "${target}" OR "${target}" IN_LIST seen)
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  list(APPEND seen "${target}")
  get_target_property(aliased "${target}" ALIASED_TARGET)
  if(aliased)
    _sweep_interface_include_dirs("${aliased}" dirs ${seen})
    set(${out_var} "${dirs}" PARENT_SCOPE)
    return()
  endif()
  get_target_property(own "${target}" INTERFACE_INCLUDE_DIRECTORIES)
  if(own)
    foreach(dir IN LISTS own)
      string(REGEX REPLACE "^\\$<BUILD_INTERFACE:(.*)>$" "\\1" dir "${dir}")
      if(NOT dir MATCHES "\\$<")
        list(APPEND dirs "${dir}")
      endif()
    endforeach()
  endif()
  get_target_property(links "${target}" INTERFACE_LINK_LIBRARIES)
  if(links)
    foreach(link IN LISTS links)
      _sweep_interface_include_dirs("${link}" more ${seen})
      list(APPEND dirs ${more})
    endforeach()
  endif()
  set(${out_var} "${dirs}" PARENT_SCOPE)
endfunction()

# The release, from the THRUST_VERSION of its thrust/version.h (CCCL, Thrust and CUB share one number
# since CCCL 2.0; cuda/version has CCCL_VERSION only in newer layouts).
_sweep_interface_include_dirs(CCCL::CCCL _sweep_cccl_dirs)
if(NOT _sweep_cccl_dirs)
  # The toolkit's CCCL, found through its cmake files, has its headers in include/cccl (CUDA 13) or
  # include (CUDA 12): CMake drops those from the target as implicit include directories.
  foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    list(APPEND _sweep_cccl_dirs "${dir}/cccl" "${dir}")
  endforeach()
endif()
unset(SWEEP_CCCL_INCLUDE_DIR)
unset(SWEEP_CCCL_VERSION)
foreach(dir IN LISTS _sweep_cccl_dirs)
  if(EXISTS "${dir}/thrust/version.h")
    set(SWEEP_CCCL_INCLUDE_DIR "${dir}")
    file(STRINGS "${dir}/thrust/version.h" _sweep_line REGEX "^#define[ \t]+THRUST_VERSION[ \t]+[0-9]+")
    string(REGEX REPLACE "^#define[ \t]+THRUST_VERSION[ \t]+([0-9]+).*$" "\\1" _sweep_code "${_sweep_line}")
    math(EXPR _sweep_major "${_sweep_code} / 100000")
    math(EXPR _sweep_minor "${_sweep_code} / 100 % 1000")
    math(EXPR _sweep_patch "${_sweep_code} % 100")
    set(SWEEP_CCCL_VERSION "${_sweep_major}.${_sweep_minor}.${_sweep_patch}")
    break()
  endif()
endforeach()
if(NOT SWEEP_CCCL_VERSION AND CCCL_VERSION)
  string(REGEX MATCH "^[0-9]+\\.[0-9]+\\.[0-9]+" SWEEP_CCCL_VERSION "${CCCL_VERSION}")
endif()

if(NOT SWEEP_CCCL_VERSION)
  message(WARNING "sweep: cannot tell which CCCL release CCCL::CCCL is (no thrust/version.h in its include "
    "directories); sweep's headers check the release when they are compiled.")
elseif(SWEEP_CCCL_VERSION VERSION_LESS SWEEP_CCCL_OLDEST OR NOT SWEEP_CCCL_VERSION VERSION_LESS SWEEP_CCCL_FIRST_UNSUPPORTED)
  message(FATAL_ERROR "sweep supports CCCL ${SWEEP_CCCL_OLDEST} (CUDA 12.6) through every 3.x release; the "
    "CCCL found is ${SWEEP_CCCL_VERSION} (${SWEEP_CCCL_INCLUDE_DIR}). Point CCCL_DIR (or CMAKE_PREFIX_PATH) at a "
    "supported CCCL, or remove it to use the CUDA toolkit's.")
else()
  message(STATUS "sweep: CCCL ${SWEEP_CCCL_VERSION} (${SWEEP_CCCL_INCLUDE_DIR})")
endif()
