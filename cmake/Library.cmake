# One static library per tool folder (stream_bench/, profiler/, launcher/, workflow/): cosched_<name> with
# the alias cosched::<name>, every source under the folder's src/, public headers in its include/cosched/<name>/
# (what cosched_install_component installs) and private ones beside the sources. The runtime's components share
# one folder and have their own helper (cosched_component, runtime/CMakeLists.txt). Links are each caller's.
function(cosched_folder_library name)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  add_library(cosched_${name} STATIC ${sources})
  add_library(cosched::${name} ALIAS cosched_${name})
  target_include_directories(cosched_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include
                             PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
endfunction()
