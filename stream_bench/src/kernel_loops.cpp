// Which variant of the kernel loops this process runs: chosen once from this CPU's features (cpuid), so the
// default build and the Debian package run on any x86-64 and use AVX2 or AVX-512 where the CPU has them.
#include "kernel_loops.hpp"

#include "cosched/stream/kernel_isa.hpp"

namespace cosched::stream {

std::string_view kernel_isa_name(KernelIsa isa) noexcept {
  switch (isa) {
    case KernelIsa::x86_64: return "x86-64";
    case KernelIsa::avx2: return "avx2";
    case KernelIsa::avx512: return "avx512";
  }
  return "x86-64";
}

KernelIsa choose_kernel_isa(const CpuFeatures& features) noexcept {
  const bool avx2 = features.avx2 && features.fma;
  if (avx2 && features.avx512f) return KernelIsa::avx512;
  if (avx2) return KernelIsa::avx2;
  return KernelIsa::x86_64;
}

CpuFeatures this_cpu_features() noexcept {
  CpuFeatures features;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();  // may run before the constructor that initialises the model, from a static initialiser
  features.avx2 = __builtin_cpu_supports("avx2") != 0;
  features.fma = __builtin_cpu_supports("fma") != 0;
  features.avx512f = __builtin_cpu_supports("avx512f") != 0;
#endif
  return features;
}

KernelIsa active_kernel_isa() noexcept {
  static const KernelIsa isa = choose_kernel_isa(this_cpu_features());
  return isa;
}

namespace detail {

namespace {

using KernelLoops = double (*)(KernelId, const ArrayPointers&, std::size_t, double, bool) noexcept;

KernelLoops loops_for(KernelIsa isa) noexcept {
  switch (isa) {
    case KernelIsa::avx512: return &avx512::run_kernel_range;
    case KernelIsa::avx2: return &avx2::run_kernel_range;
    case KernelIsa::x86_64: return &x86_64::run_kernel_range;
  }
  return &x86_64::run_kernel_range;
}

}  // namespace

double run_kernel_range(KernelId kernel, const ArrayPointers& arrays, std::size_t n, double scalar,
                        bool streaming) noexcept {
  static const KernelLoops loops = loops_for(active_kernel_isa());
  return loops(kernel, arrays, n, scalar, streaming);
}

}  // namespace detail

}  // namespace cosched::stream
