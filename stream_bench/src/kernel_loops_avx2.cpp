// The kernel loops for AVX2 + FMA (-mavx2 -mfma: Haswell and later); stream_bench/CMakeLists.txt sets the flags,
// kernel_loops.cpp picks the variant.
#define COSCHED_KERNEL_LOOPS_VARIANT avx2
#include "kernel_loops_body.hpp"
