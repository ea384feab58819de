#pragma once
// How a footprint sizes each kernel beyond STREAM: its arrays and what one repetition moves and computes. The
// kernel table (kernel_table.cpp) names them; stream_bench's work for each kernel reads the same shape.
#include <cstdint>

#include "cosched/kernels/kernels.hpp"

namespace cosched::kernels::detail {

[[nodiscard]] KernelShape gemm_shape(std::uint64_t footprint_bytes);
[[nodiscard]] KernelShape stencil_shape(std::uint64_t footprint_bytes);
[[nodiscard]] KernelShape spmv_shape(std::uint64_t footprint_bytes);
[[nodiscard]] KernelShape gups_shape(std::uint64_t footprint_bytes);

}  // namespace cosched::kernels::detail
