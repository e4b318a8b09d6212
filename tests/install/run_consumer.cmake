# Installs sweep into a scratch prefix (find_package mode) or points at its source (add_subdirectory
# mode), configures and builds the consumer project with the CCCL the case names, and runs it (it
# exits 77 without a GPU). CCCL: "none" (the toolkit's), "dir:<release>" (CCCL_DIR to that install),
# "target:<release>" (the consumer makes CCCL::CCCL from its headers before sweep). EXPECT: the
# CCCL_VERSION the consumer must compile against, or "refused" (configuring must stop with sweep's
# message naming its supported range).
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

set(args -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}
  -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES})
if(CCCL MATCHES "^dir:(.*)$")
  list(APPEND args "-DCCCL_DIR=${CCCL_RELEASES_DIR}/${CMAKE_MATCH_1}/lib/cmake/cccl")
elseif(CCCL MATCHES "^target:(.*)$")
  list(APPEND args "-DSWEEP_CONSUMER_CCCL_INCLUDE=${CCCL_RELEASES_DIR}/${CMAKE_MATCH_1}/include")
endif()
if(EXPECT MATCHES "^[0-9]+$")
  list(APPEND args "-DSWEEP_CONSUMER_EXPECT_CCCL=${EXPECT}")
endif()
if(MODE STREQUAL "find_package")
  run_step("${CMAKE_COMMAND}" --install "${SWEEP_BINARY_DIR}" --prefix "${WORK_DIR}/prefix")
  list(APPEND args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DSWEEP_CONSUME=find_package)
else()
  list(APPEND args -DSWEEP_CONSUME=add_subdirectory -DSWEEP_SOURCE_DIR=${SWEEP_SOURCE_DIR})
endif()

if(EXPECT STREQUAL "refused")
  execute_process(COMMAND "${CMAKE_COMMAND}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "configuring with ${CCCL} succeeded; sweep must refuse that CCCL\n${out}")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${err}")
  if(NOT flat MATCHES "sweep supports CCCL 2\\.5\\.0 \\(CUDA 12\\.6\\) through every 3\\.x release")
    message(FATAL_ERROR "configuring with ${CCCL} failed, but not with sweep's message:\n${err}")
  endif()
  message("refused as expected: ${flat}")
  return()
endif()

run_step("${CMAKE_COMMAND}" ${args})
run_step("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
execute_process(COMMAND "${WORK_DIR}/build/consumer" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 77)
  message("consumer built; no GPU to run it on")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer failed (${rc})")
endif()
