# Script for the install.find_package_consumer test (see CMakeLists.txt beside it).
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix --component Unspecified)
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK_DIR}/build -G Ninja
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DVKC_SOURCE_DIR=${SOURCE_DIR})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
# The exit code is the verdict on the answer and on validation until the host's teardown; messages
# during the teardown (objects vkcollide left on the device) are only printed.
run(${WORK_DIR}/build/consumer)
if(last_output MATCHES "validation: ")
  message(FATAL_ERROR "validation messages:\n${last_output}")
endif()
message(STATUS "${last_output}")
# The whole embedding example, built against the package: a few frames of the GPU-driven
# aabb-tree method under validation (its exit code is 1 on any validation message).
run(${WORK_DIR}/build/vkcollide-example ${SOURCE_DIR}/tests/tools/scenes/example_growing.json --frames 4
    --validation --out ${WORK_DIR}/example-frames)
if(NOT last_output MATCHES "frame 3: colliding")
  message(FATAL_ERROR "the installed-package example did not report its last frame:\n${last_output}")
endif()
message(STATUS "${last_output}")
