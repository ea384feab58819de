# ctest script (cmake -P): `cpack -G DEB` into a fresh temporary folder, then the package must hold the programs,
# the headers, the libraries and the CMake package, and depend on the Debian runtime packages (dpkg-shlibdeps).
# Skipped (message "SKIPPED:") where there is no dpkg-deb, i.e. not on Debian or a derivative.
# Inputs (-D): COSCHED_BUILD_DIR, WORK_PARENT, EXPECTED_VERSION, CONFIG.
cmake_minimum_required(VERSION 3.25)

find_program(dpkg_deb dpkg-deb)
if(NOT dpkg_deb)
  message(STATUS "SKIPPED: no dpkg-deb on this machine")
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/scratch.cmake)
require_inputs(COSCHED_BUILD_DIR WORK_PARENT EXPECTED_VERSION)
make_scratch_folder("${WORK_PARENT}" package)

get_filename_component(cmake_bin "${CMAKE_COMMAND}" DIRECTORY)
execute_process(COMMAND ${clean_env} "${cmake_bin}/cpack" -G DEB -C "${CONFIG}"
                        --config "${COSCHED_BUILD_DIR}/CPackConfig.cmake" -B "${work}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB deb "${work}/*.deb")
list(LENGTH deb debs)
if(NOT status EQUAL 0 OR NOT debs EQUAL 1)
  fail("cpack -G DEB failed (${status}, ${debs} .deb):\n${out}\n${err}")
endif()

execute_process(COMMAND "${dpkg_deb}" -f "${deb}" Package Version Depends OUTPUT_VARIABLE fields
                RESULT_VARIABLE status)
execute_process(COMMAND "${dpkg_deb}" -c "${deb}" OUTPUT_VARIABLE contents)
if(NOT status EQUAL 0)
  fail("dpkg-deb -f ${deb} failed")
endif()
foreach(field IN ITEMS "Package: cosched\n" "Version: ${EXPECTED_VERSION}\n" "libhwloc" "libmemkind" "libnuma"
                       "libgomp" "libfmt" "libtomlplusplus")
  string(FIND "${fields}" "${field}" at)
  if(at EQUAL -1)
    fail("the package's control fields lack '${field}':\n${fields}")
  endif()
endforeach()
foreach(file IN ITEMS bin/cosched bin/stream_bench include/cosched/sched/model.hpp
                      include/cosched/common/version.hpp lib/libcosched_sched.a lib/cmake/cosched/coschedConfig.cmake
                      lib/cmake/cosched/coschedConfigVersion.cmake lib/cmake/cosched/coschedTargets.cmake
                      share/doc/cosched/LICENSE)
  string(REGEX MATCH " \\./usr/${file}\n" found "${contents}")
  if(NOT found)
    fail("the package has no /usr/${file}")
  endif()
endforeach()

file(SIZE "${deb}" bytes)
message(STATUS "${deb}: ${bytes} bytes\n${fields}")
file(REMOVE_RECURSE "${work}")
