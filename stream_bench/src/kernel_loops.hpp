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
// `streaming` selects non-temporal stores for the written array.
double run_kernel_range(KernelId kernel, const ArrayPointers& arrays, std::size_t n, double scalar,
                        bool streaming) noexcept;

}  // namespace cosched::stream::detail
