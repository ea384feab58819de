# ctest script (cmake -P): installs the cosched build tree into a fresh temporary prefix, configures and builds the
# consumer project (project/) against it with find_package(cosched), runs it and checks what it prints. The
# temporary folder is unique per run and removed whatever the outcome.
# Inputs (-D): COSCHED_BUILD_DIR, CONSUMER_SOURCE_DIR, WORK_PARENT, GENERATOR, CXX_COMPILER, CONFIG,
#              EXPECTED_VERSION, PACKAGE_SUBDIR (where the package files go under the prefix, lib/cmake/cosched).
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/scratch.cmake)
require_inputs(COSCHED_BUILD_DIR CONSUMER_SOURCE_DIR WORK_PARENT GENERATOR CXX_COMPILER EXPECTED_VERSION PACKAGE_SUBDIR)
make_scratch_folder("${WORK_PARENT}" consumer)
set(prefix "${work}/prefix")

# Runs one step; on failure prints its output, removes the temporary folder and fails the test.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    fail("${what} failed (${status}): ${ARGN}\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

function(expect condition message_text)
  if(NOT ${condition})
    fail("${message_text}")
  endif()
endfunction()

step("install" ${clean_env} ${CMAKE_COMMAND} --install "${COSCHED_BUILD_DIR}" --prefix "${prefix}"
     --config "${CONFIG}")
step("configure consumer" ${clean_env} ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${work}/build"
     -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_BUILD_TYPE=${CONFIG}"
     "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)

# The package must come from the temporary prefix, nowhere else (a system-wide or registered cosched would hide a
# broken install).
file(STRINGS "${work}/build/CMakeCache.txt" found_dir REGEX "^cosched_DIR:")
string(REGEX REPLACE "^cosched_DIR:[A-Z]+=" "" found_dir "${found_dir}")
set(from_prefix FALSE)
if(found_dir STREQUAL "${prefix}/${PACKAGE_SUBDIR}")
  set(from_prefix TRUE)
endif()
expect(from_prefix "the consumer found cosched in '${found_dir}', not in ${prefix}/${PACKAGE_SUBDIR}")

step("build consumer" ${CMAKE_COMMAND} --build "${work}/build" --config "${CONFIG}")
find_program(consumer cosched_consumer PATHS "${work}/build" "${work}/build/${CONFIG}" NO_DEFAULT_PATH)
expect(consumer "the consumer build produced no cosched_consumer program")
step("run consumer" "${consumer}")

string(REPLACE "." "\\." version_pattern "${EXPECTED_VERSION}")
set(number "[0-9]+(\\.[0-9]+)?")
set(expected "^cosched ${version_pattern}\nplatform: [1-9][0-9]* cores, [1-9][0-9]* NUMA nodes\n"
             "t-pack-ff: makespan ${number}, lower bound ${number}, 3 tasks, 0 violations\n"
             "predicted makespan ${number}\nmeasured /bin/true on 1 core: ${number}(e-[0-9]+)? s\n$")
string(JOIN "" expected ${expected})
set(output_ok FALSE)
if(step_output MATCHES "${expected}")
  set(output_ok TRUE)
endif()
expect(output_ok "unexpected consumer output:\n${step_output}\nexpected (regex): ${expected}")

message(STATUS "consumer built against ${prefix}:\n${step_output}")
file(REMOVE_RECURSE "${work}")
