#pragma once
// What the kernel table says an array holds after a kernel ran: the tests' own check, independent of the
// library's validation.
#include <cstddef>
#include <vector>

#include "cosched/stream/kernels.hpp"

namespace cosched::stream::testing {

// The element-wise (STREAM) entries of the kernel table: the kernels whose arrays a formula describes.
inline std::vector<const KernelSpec*> elementwise_kernels() {
  std::vector<const KernelSpec*> kernels;
  for (const KernelSpec& kernel : kernel_table()) {
    if (kernel.elementwise()) kernels.push_back(&kernel);
  }
  return kernels;
}

inline std::vector<double> expected_contents(const KernelSpec& kernel, ArrayId id, std::size_t count) {
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = kernel.writes.contains(id)
                    ? kernel.element(initial_value(ArrayId::a, i), initial_value(ArrayId::b, i),
                                     initial_value(ArrayId::c, i), kernel_scalar)
                    : initial_value(id, i);
  }
  return values;
}

}  // namespace cosched::stream::testing
