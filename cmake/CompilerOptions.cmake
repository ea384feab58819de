# Warning and sanitizer flags shared by every cosched target through cosched_options.
add_library(cosched_options INTERFACE)
add_library(cosched::options ALIAS cosched_options)
target_compile_options(cosched_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                       -Wno-sign-conversion)
if(COSCHED_WERROR)
  target_compile_options(cosched_options INTERFACE -Werror)
endif()
if(COSCHED_SANITIZE)
  target_compile_options(cosched_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                         -fno-sanitize-recover=undefined)
  target_link_options(cosched_options INTERFACE -fsanitize=address,undefined)
endif()

# Kernel options. The STREAM loops pick their instruction set at run time (stream_bench/CMakeLists.txt), so the
# default build runs on any x86-64 at full vector width; COSCHED_NATIVE (opt-in) compiles every kernel, the
# roofline ones too, for the build machine only (-march=native): a binary that may die with SIGILL elsewhere.
add_library(cosched_kernel_options INTERFACE)
add_library(cosched::kernel_options ALIAS cosched_kernel_options)
if(COSCHED_NATIVE)
  target_compile_options(cosched_kernel_options INTERFACE -march=native -mtune=native)
endif()
target_compile_options(cosched_kernel_options INTERFACE -O3 -fno-math-errno)
