#pragma once
// The work of the kernels beyond STREAM, one source file each (kernel_work.hpp); how a footprint sizes them is the
// kernel table's (cosched/kernels/kernels.hpp). kernel_works.cpp finds them by KernelId; nothing else names them.
#include <memory>

#include "cosched/stream/kernels.hpp"
#include "kernel_work.hpp"

namespace cosched::stream::detail {

[[nodiscard]] std::unique_ptr<KernelWork> make_gemm_work(const WorkContext& context);
[[nodiscard]] std::unique_ptr<KernelWork> make_stencil_work(const WorkContext& context);
[[nodiscard]] std::unique_ptr<KernelWork> make_spmv_work(const WorkContext& context);
[[nodiscard]] std::unique_ptr<KernelWork> make_gups_work(const WorkContext& context);

// The work of `context.kernel`: element-wise kernels share one (slice_work.hpp), the others have their own.
[[nodiscard]] std::unique_ptr<KernelWork> make_kernel_work(const WorkContext& context);

}  // namespace cosched::stream::detail
