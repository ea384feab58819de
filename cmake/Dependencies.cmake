# Every dependency comes from a Debian package; a missing one stops configuration with the package to install.
# scripts/setup.sh installs all of them.
find_package(PkgConfig QUIET)
if(NOT PkgConfig_FOUND)
  message(FATAL_ERROR "pkg-config not found: install the Debian package 'pkg-config' (or run scripts/setup.sh)")
endif()

function(cosched_require_pkg prefix module debian_package)
  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${prefix}_FOUND)
    message(FATAL_ERROR "${module} not found: install the Debian package '${debian_package}' "
                        "(or run scripts/setup.sh)")
  endif()
endfunction()

function(cosched_require_package name debian_package)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "${name} not found: install the Debian package '${debian_package}' "
                        "(or run scripts/setup.sh)")
  endif()
endfunction()

cosched_require_pkg(HWLOC hwloc libhwloc-dev)
cosched_require_pkg(LIBXML2 libxml-2.0 libxml2-dev)  # checks an untrusted hwloc XML before hwloc reads it
cosched_require_pkg(MEMKIND memkind libmemkind-dev)
cosched_require_pkg(NUMA numa libnuma-dev)

cosched_require_package(OpenMP libgomp1 COMPONENTS CXX)
cosched_require_package(Threads libc6-dev)
cosched_require_package(CLI11 libcli11-dev CONFIG)
cosched_require_package(nlohmann_json nlohmann-json3-dev CONFIG)
cosched_require_package(fmt libfmt-dev CONFIG)
cosched_require_pkg(TOMLPP tomlplusplus libtomlplusplus-dev)
cosched_require_pkg(OPENBLAS openblas libopenblas-dev)  # stream_bench's gemm kernel (cblas_dgemm)
cosched_require_package(ZLIB zlib1g-dev)  # gzip-compressed SWF traces (online)
cosched_require_pkg(CLP clp coinor-libclp-dev)  # the LP lower bound on sum w_j C_j (sched/bicriteria)
if(COSCHED_BUILD_TESTS)
  cosched_require_package(GTest libgtest-dev)
endif()
if(COSCHED_BUILD_BENCH)
  cosched_require_package(benchmark libbenchmark-dev CONFIG)
endif()
