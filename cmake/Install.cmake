# `cmake --install` and the exported package: executables, public headers, static libraries and
# <prefix>/lib/cmake/cosched/{coschedConfig,coschedConfigVersion,coschedTargets}.cmake, so another CMake project can
#   find_package(cosched REQUIRED)  target_link_libraries(app PRIVATE cosched::sched)
# and include <cosched/sched/model.hpp>. The components' CMakeLists stay install-agnostic: the functions below adapt
# each target after it is defined (called from the top-level CMakeLists after every add_subdirectory).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(COSCHED_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cosched)

# Build-only helper targets: warning flags, -march=native for the kernels, the CLI's main. Static libraries carry
# their private links into their interface as $<LINK_ONLY:...>; these must not reach the export, where they do not
# exist (and where -Werror or -march=native would mean nothing to a consumer).
set(COSCHED_BUILD_ONLY_TARGETS cosched::options cosched_options cosched::kernel_options cosched_kernel_options)

# Keeps a target's build-tree include folders and build-only helpers out of its exported interface: absolute
# include folders become $<BUILD_INTERFACE:...> (installed consumers get <prefix>/include from install(TARGETS
# ... INCLUDES DESTINATION)), and so do the links to COSCHED_BUILD_ONLY_TARGETS.
function(_cosched_build_only_interface target)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(dirs)
    list(TRANSFORM dirs REPLACE "^(/.*)$" "$<BUILD_INTERFACE:\\1>")
    set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${dirs}")
  endif()
  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  if(links)
    foreach(helper IN LISTS COSCHED_BUILD_ONLY_TARGETS)
      list(TRANSFORM links REPLACE "^(${helper}|\\$<LINK_ONLY:${helper}>)$" "$<BUILD_INTERFACE:\\1>")
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES "${links}")
  endif()
endfunction()

# Installs and exports the library of one component as cosched::<component>: the target cosched_<component>, whose
# public headers are <include dir>/cosched/<component>/ (installed to <prefix>/include/cosched/<component>/).
# A new component is one more call in the top-level CMakeLists.txt: cosched_install_component(<component>).
function(cosched_install_component component)
  set(target cosched_${component})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "cosched_install_component(${component}): no target ${target}")
  endif()
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  set(headers "")
  foreach(dir IN LISTS dirs)
    if(IS_DIRECTORY "${dir}/cosched/${component}")
      list(APPEND headers "${dir}/cosched/${component}")
    endif()
  endforeach()
  if(NOT headers)
    message(FATAL_ERROR "cosched_install_component(${component}): ${target} has no include folder with "
                        "cosched/${component}/ in it")
  endif()

  _cosched_build_only_interface(${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${component})
  if(COSCHED_SANITIZE)
    # The objects call into the sanitizer runtimes: whoever links them must link those runtimes too.
    target_link_options(${target} INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
  endif()
  install(TARGETS ${target} EXPORT coschedTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  # The folder itself (no trailing slash): <prefix>/include/cosched/<component>/...
  install(DIRECTORY ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cosched
          FILES_MATCHING PATTERN "*.hpp")
endfunction()

# The command-line programs (not the tests and benchmarks).
function(cosched_install_programs)
  install(TARGETS ${ARGN} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

# The package files: coschedTargets.cmake from every cosched_install_component, the config that finds the
# dependencies first, and the version file. Call it once, after the components.
function(cosched_install_package)
  install(EXPORT coschedTargets NAMESPACE cosched:: DESTINATION ${COSCHED_INSTALL_CMAKEDIR})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/coschedConfig.cmake.in
                                ${PROJECT_BINARY_DIR}/package/coschedConfig.cmake
                                INSTALL_DESTINATION ${COSCHED_INSTALL_CMAKEDIR})
  # Semantic versioning: before 1.0 a minor release may break the API, so 0.x only matches the same minor.
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(compatibility SameMinorVersion)
  else()
    set(compatibility SameMajorVersion)
  endif()
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/coschedConfigVersion.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY ${compatibility})
  install(FILES ${PROJECT_BINARY_DIR}/package/coschedConfig.cmake
                ${PROJECT_BINARY_DIR}/package/coschedConfigVersion.cmake
          DESTINATION ${COSCHED_INSTALL_CMAKEDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # The sample platforms, profile sweeps and workloads the docs refer to.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/cosched/configs)
  # The demo's plotting scripts: an installed cosched looks for them in <bin>/../share/cosched/scripts.
  file(GLOB plot_scripts CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scripts/plot_*.py)
  install(FILES ${plot_scripts} DESTINATION ${CMAKE_INSTALL_DATADIR}/cosched/scripts)
endfunction()
