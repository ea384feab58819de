#pragma once
// The vectorised kernel loops over one contiguous range of element indices. Pointers are already offset to the
// range's first element; every array of one call has the same length n.
#include <cstddef>

#include "cosched/stream/kernels.hpp"

namespace cosched::stream::detail {

struct ArrayPointers {
  double* a = nullptr;
  double* b = nullptr;
  double* c = nullptr;
};

// Runs `kernel` on elements [0, n) of `arrays`; returns the partial sum for a reduction (ddot), else 0.
// `streaming` selects non-temporal stores for the written array. The loops of the variant active_kernel_isa()
// names (cosched/stream/kernel_isa.hpp).
double run_kernel_range(KernelId kernel, const ArrayPointers& arrays, std::size_t n, double scalar,
                        bool streaming) noexcept;

// The same loops, one per instruction set (kernel_loops_body.hpp compiled by kernel_loops_<isa>.cpp). Only
// kernel_loops.cpp calls them: a variant runs only on a CPU that has its instructions.
namespace x86_64 {
double run_kernel_range(KernelId kernel, const ArrayPointers& arrays, std::size_t n, double scalar,
                        bool streaming) noexcept;
}  // namespace x86_64
namespace avx2 {
double run_kernel_range(KernelId kernel, const ArrayPointers& arrays, std::size_t n, double scalar,
                        bool streaming) noexcept;
}  // namespace avx2
namespace avx512 {
double run_kernel_range(KernelId kernel, const ArrayPointers& arrays, std::size_t n, double scalar,
                        bool streaming) noexcept;
}  // namespace avx512

}  // namespace cosched::stream::detail
