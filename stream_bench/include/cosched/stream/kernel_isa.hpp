#pragma once
// The instruction set the STREAM loops run with, chosen when the process first runs a kernel from what this CPU
// has (cpuid), so one binary runs on any x86-64 and still uses the widest vector unit there is. The loops are
// compiled once per instruction set (stream_bench/src/kernel_loops_*.cpp); docs/stream_bench.md, "Instruction
// sets".
#include <string_view>

namespace cosched::stream {

// Ordered from the narrowest: baseline x86-64 (SSE2), AVX2 + FMA (Haswell and later), AVX-512F (the subset
// every AVX-512 CPU has, Knights Landing's F/CD included: the loops need no BW, DQ or VL).
enum class KernelIsa { x86_64, avx2, avx512 };

// The CPU features the choice depends on.
struct CpuFeatures {
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
};

[[nodiscard]] std::string_view kernel_isa_name(KernelIsa isa) noexcept;  // "x86-64", "avx2", "avx512"

// The widest variant `features` can run: avx512 needs AVX-512F with AVX2 and FMA (the variant's scalar tails and
// fused multiply-adds), avx2 needs AVX2 and FMA, anything else gets the baseline.
[[nodiscard]] KernelIsa choose_kernel_isa(const CpuFeatures& features) noexcept;

// What this CPU has (__builtin_cpu_supports, which also checks that the OS saves the vector registers).
[[nodiscard]] CpuFeatures this_cpu_features() noexcept;

// The variant this process's loops use: choose_kernel_isa(this_cpu_features()). In a COSCHED_NATIVE build every
// variant is compiled for the build machine, so the name says which entry runs, not which instructions.
[[nodiscard]] KernelIsa active_kernel_isa() noexcept;

}  // namespace cosched::stream
