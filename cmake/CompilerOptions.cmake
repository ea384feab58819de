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

# Kernels are compiled for the build machine: the point of stream_bench is the physical limit.
add_library(cosched_kernel_options INTERFACE)
add_library(cosched::kernel_options ALIAS cosched_kernel_options)
if(COSCHED_NATIVE)
  target_compile_options(cosched_kernel_options INTERFACE -march=native -mtune=native)
endif()
target_compile_options(cosched_kernel_options INTERFACE -O3 -fno-math-errno)
