#pragma once
// The kernels stream_bench runs are the kernel table's (cosched/kernels/kernels.hpp: what each kernel reads, writes,
// moves and computes, how a footprint sizes it, how a run is validated), named here in cosched::stream as well;
// stream_bench adds each kernel's work (src/kernel_work.hpp: the loops over a pinned team, one source file per
// kernel beyond STREAM), found by its KernelId.
#include "cosched/kernels/kernels.hpp"

namespace cosched::stream {

using kernels::array_id_count;
using kernels::array_name;
using kernels::ArrayId;
using kernels::ArrayLayout;
using kernels::arrays;
using kernels::ArraySet;
using kernels::find_kernel;
using kernels::initial_value;
using kernels::initial_value_period;
using kernels::kernel_names;
using kernels::kernel_scalar;
using kernels::kernel_table;
using kernels::KernelId;
using kernels::KernelShape;
using kernels::KernelSpec;
using kernels::merit_unit_name;
using kernels::MeritUnit;

}  // namespace cosched::stream
