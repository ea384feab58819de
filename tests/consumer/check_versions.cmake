# ctest script (cmake -P): the version is written once (project(VERSION) in CMakeLists.txt); the generated header
# <cosched/common/version.hpp>, `cosched --version` and `stream_bench --version` must all say that version.
# Inputs (-D): EXPECTED_VERSION, VERSION_HEADER, PROGRAMS (a ;-list of program paths).
cmake_minimum_required(VERSION 3.25)

file(STRINGS "${VERSION_HEADER}" define REGEX "^#define COSCHED_VERSION \"")
string(REGEX REPLACE "^#define COSCHED_VERSION \"([^\"]*)\".*" "\\1" header_version "${define}")
if(NOT header_version STREQUAL EXPECTED_VERSION)
  message(FATAL_ERROR "${VERSION_HEADER} says '${header_version}', CMake says '${EXPECTED_VERSION}'")
endif()

foreach(program IN LISTS PROGRAMS)
  get_filename_component(name "${program}" NAME)
  execute_process(COMMAND "${program}" --version RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out STREQUAL "${name} ${EXPECTED_VERSION}\n")
    message(FATAL_ERROR "'${name} --version' exited ${status} and printed '${out}' (stderr '${err}'); "
                        "expected '${name} ${EXPECTED_VERSION}'")
  endif()
endforeach()
message(STATUS "header, ${PROGRAMS}: ${EXPECTED_VERSION}")
