# Installs sweep into a scratch prefix (find_package mode) or points at its source (add_subdirectory
# mode), configures and builds the consumer project, and runs it (it exits 77 without a GPU).
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
if(MODE STREQUAL "find_package")
  run_step("${CMAKE_COMMAND}" --install "${SWEEP_BINARY_DIR}" --prefix "${WORK_DIR}/prefix")
  run_step("${CMAKE_COMMAND}" ${args} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DSWEEP_CONSUME=find_package)
else()
  run_step("${CMAKE_COMMAND}" ${args} -DSWEEP_CONSUME=add_subdirectory -DSWEEP_SOURCE_DIR=${SWEEP_SOURCE_DIR})
endif()
run_step("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
execute_process(COMMAND "${WORK_DIR}/build/consumer" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 77)
  message("consumer built; no GPU to run it on")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer failed (${rc})")
endif()
