#pragma once
// The kernels beyond STREAM, one source file each: how a footprint sizes them and their work (kernel_work.hpp).
// kernel_table.cpp lists them; nothing else names them.
#include <cstdint>
#include <memory>

#include "cosched/stream/kernels.hpp"
#include "kernel_work.hpp"

namespace cosched::stream::detail {

[[nodiscard]] KernelShape gemm_shape(std::uint64_t footprint_bytes);
[[nodiscard]] std::unique_ptr<KernelWork> make_gemm_work(const WorkContext& context);

[[nodiscard]] KernelShape stencil_shape(std::uint64_t footprint_bytes);
[[nodiscard]] std::unique_ptr<KernelWork> make_stencil_work(const WorkContext& context);

[[nodiscard]] KernelShape spmv_shape(std::uint64_t footprint_bytes);
[[nodiscard]] std::unique_ptr<KernelWork> make_spmv_work(const WorkContext& context);

[[nodiscard]] KernelShape gups_shape(std::uint64_t footprint_bytes);
[[nodiscard]] std::unique_ptr<KernelWork> make_gups_work(const WorkContext& context);

}  // namespace cosched::stream::detail
