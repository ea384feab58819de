# Shared by the install/package ctest scripts (cmake -P): their -D inputs, the build configuration, a unique
# scratch folder that is removed on every way out, and failing with that cleanup.
macro(require_inputs)
  foreach(_input IN ITEMS ${ARGN})
    if(NOT DEFINED ${_input} OR "${${_input}}" STREQUAL "")
      message(FATAL_ERROR "${CMAKE_SCRIPT_MODE_FILE}: -D${_input}=... is missing")
    endif()
  endforeach()
endmacro()

if("${CONFIG}" STREQUAL "")
  set(CONFIG Release)
endif()

# Sets `work` to a new folder <parent>/<name>-<random>.
macro(make_scratch_folder parent name)
  string(RANDOM LENGTH 12 ALPHABET "abcdefghijklmnopqrstuvwxyz0123456789" _scratch_suffix)
  set(work "${parent}/${name}-${_scratch_suffix}")
  if(EXISTS "${work}")
    message(FATAL_ERROR "scratch folder ${work} already exists")
  endif()
  file(MAKE_DIRECTORY "${work}")
endmacro()

# Removes the scratch folder and fails the test with `message_text`.
function(fail message_text)
  file(REMOVE_RECURSE "${work}")
  message(FATAL_ERROR "${message_text}")
endfunction()

# A DESTDIR or cosched_ROOT in the caller's environment would send an install, or a package search, elsewhere.
set(clean_env ${CMAKE_COMMAND} -E env --unset=DESTDIR --unset=cosched_ROOT --unset=COSCHED_ROOT)
