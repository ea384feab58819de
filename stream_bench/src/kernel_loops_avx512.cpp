// The kernel loops for AVX-512F (-mavx512f -mavx2 -mfma: no BW, DQ or VL, so Knights Landing runs them);
// stream_bench/CMakeLists.txt sets the flags, kernel_loops.cpp picks the variant.
#define COSCHED_KERNEL_LOOPS_VARIANT avx512
#include "kernel_loops_body.hpp"
