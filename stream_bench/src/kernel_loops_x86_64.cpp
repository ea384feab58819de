// The kernel loops for baseline x86-64 (SSE2, what every x86-64 CPU has: no extra flags); kernel_loops.cpp picks
// the variant.
#define COSCHED_KERNEL_LOOPS_VARIANT x86_64
#include "kernel_loops_body.hpp"
