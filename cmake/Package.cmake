# `cpack -G DEB` in the build folder: one Debian package with everything `cmake --install` installs (programs,
# headers, static libraries, the CMake package, the sample configs). Its Depends line is computed by dpkg-shlibdeps
# from the programs (the runtime libraries: libhwloc, libmemkind, libnuma, libgomp, libfmt, libtomlplusplus, ...);
# the -dev packages a find_package(cosched) consumer also needs are Recommends.
set(COSCHED_PACKAGE_MAINTAINER "cosched maintainers <maintainers@users.noreply.a-seed-5bee74a2.example>"
    CACHE STRING "Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME cosched)
set(CPACK_PACKAGE_VENDOR "cosched")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "${COSCHED_PACKAGE_MAINTAINER}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # cosched_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${COSCHED_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The extended description; CPack puts the summary line first and formats it as Debian policy wants.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "cosched profiles moldable kernels over core counts and fast-memory shares,
plans list and pack schedules over several resources, and runs them pinned to
cores with their share of fast memory (KNL MCDRAM, Xeon Max HBM, NUMA tiers).

Programs: cosched, stream_bench. Library: static libraries, headers under
/usr/include/cosched and the CMake package (find_package(cosched)).

License: Apache-2.0 (/usr/share/doc/cosched/LICENSE).")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
string(JOIN ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS g++ cmake pkg-config libhwloc-dev libxml2-dev libmemkind-dev
            libnuma-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev zlib1g-dev libopenblas-dev coinor-libclp-dev
            libcli11-dev)
set(CPACK_GENERATOR DEB)

include(CPack)
