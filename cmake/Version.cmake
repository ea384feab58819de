# The version is written once, in project(VERSION ...). This generates <cosched/common/version.hpp> from it into
# the build tree; cosched_attach_version_header() makes it a public header of cosched::common (and installs it).
include(GNUInstallDirs)
set(COSCHED_GENERATED_INCLUDE_DIR ${PROJECT_BINARY_DIR}/generated/include)
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.hpp.in
               ${COSCHED_GENERATED_INCLUDE_DIR}/cosched/common/version.hpp @ONLY)

function(cosched_attach_version_header target)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${COSCHED_GENERATED_INCLUDE_DIR}>)
  install(FILES ${COSCHED_GENERATED_INCLUDE_DIR}/cosched/common/version.hpp
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cosched/common)
endfunction()
