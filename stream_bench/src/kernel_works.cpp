// Each kernel's work found by its KernelId (roofline_kernels.hpp): the kernel table (cosched/kernels/kernels.hpp)
// describes the kernels, this table gives the ones beyond STREAM their code.
#include <array>
#include <cassert>
#include <utility>

#include "roofline_kernels.hpp"

namespace cosched::stream::detail {

namespace {

using WorkFactory = std::unique_ptr<KernelWork> (*)(const WorkContext&);

constexpr std::array<std::pair<KernelId, WorkFactory>, 4> sized_works{{
    {KernelId::gemm, make_gemm_work},
    {KernelId::stencil, make_stencil_work},
    {KernelId::spmv, make_spmv_work},
    {KernelId::gups, make_gups_work},
}};

}  // namespace

std::unique_ptr<KernelWork> make_kernel_work(const WorkContext& context) {
  if (context.kernel.elementwise()) return make_elementwise_work(context);
  for (const auto& [id, make] : sized_works) {
    if (id == context.kernel.id) return make(context);
  }
  assert(false && "every kernel of the table that is not element-wise has a work here (kernel_table_test)");
  return nullptr;
}

}  // namespace cosched::stream::detail
