# libFuzzer builds (tests/fuzz, scripts/fuzz.sh). Configure a separate build folder with clang:
#   CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DCOSCHED_FUZZ=ON && cmake --build build-fuzz --target fuzz_targets
# Every cosched library is then compiled with coverage instrumentation for the fuzzer's guidance plus ASan and
# UBSan (any undefined behaviour aborts: a finding); the fuzz_<target> executables link libFuzzer's main.
option(COSCHED_FUZZ "Build the libFuzzer targets of tests/fuzz (clang only, in a build folder of its own)" OFF)

if(COSCHED_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "COSCHED_FUZZ needs clang (libFuzzer): configure a new build folder with "
                        "CC=clang-14 CXX=clang++-14 (Debian packages clang-14, libclang-rt-14-dev, libomp-14-dev)")
  endif()
  if(NOT COSCHED_BUILD_TESTS)
    message(FATAL_ERROR "COSCHED_FUZZ needs COSCHED_BUILD_TESTS=ON (the targets live in tests/fuzz)")
  endif()
  target_compile_options(cosched_options INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                         -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g)
  target_link_options(cosched_options INTERFACE -fsanitize=address,undefined)
endif()
