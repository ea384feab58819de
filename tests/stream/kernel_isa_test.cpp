// The STREAM loops' instruction set is chosen from the CPU's features: each CPU below gets the widest variant it
// can run, and never one it cannot (a Knights Landing has AVX-512F but no BW/VL: it gets avx512, whose loops use
// AVX-512F only; a CPU without FMA gets no AVX2 loops, which fuse multiply-adds).
#include <gtest/gtest.h>

#include <string>

#include "cosched/stream/kernel_isa.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"
#include "stream/test_tier_backend.hpp"

namespace {

using cosched::stream::choose_kernel_isa;
using cosched::stream::CpuFeatures;
using cosched::stream::KernelIsa;

struct CpuCase {
  std::string cpu;
  CpuFeatures features;
  KernelIsa expected;
};

class KernelIsaChoice : public ::testing::TestWithParam<CpuCase> {};

TEST_P(KernelIsaChoice, PicksTheWidestVariantTheCpuRuns) {
  EXPECT_EQ(choose_kernel_isa(GetParam().features), GetParam().expected) << GetParam().cpu;
}

INSTANTIATE_TEST_SUITE_P(
    Cpus, KernelIsaChoice,
    ::testing::Values(CpuCase{"qemu64 (baseline x86-64)", {false, false, false}, KernelIsa::x86_64},
                      CpuCase{"Sandy Bridge (AVX, no AVX2)", {false, false, false}, KernelIsa::x86_64},
                      CpuCase{"AVX2 without FMA", {true, false, false}, KernelIsa::x86_64},
                      CpuCase{"Haswell (AVX2 + FMA)", {true, true, false}, KernelIsa::avx2},
                      CpuCase{"Knights Landing (AVX-512F/CD/ER/PF, AVX2, FMA)", {true, true, true}, KernelIsa::avx512},
                      CpuCase{"Sapphire Rapids / Xeon Max (AVX-512 F..VL)", {true, true, true}, KernelIsa::avx512},
                      CpuCase{"AVX-512F without FMA (no such CPU)", {true, false, true}, KernelIsa::x86_64}),
    [](const ::testing::TestParamInfo<CpuCase>& cpu) { return "case" + std::to_string(cpu.index); });

TEST(KernelIsaNames, EveryVariantHasItsName) {
  EXPECT_EQ(cosched::stream::kernel_isa_name(KernelIsa::x86_64), "x86-64");
  EXPECT_EQ(cosched::stream::kernel_isa_name(KernelIsa::avx2), "avx2");
  EXPECT_EQ(cosched::stream::kernel_isa_name(KernelIsa::avx512), "avx512");
}

// This process runs what its own CPU's features choose, and a STREAM run says which.
TEST(KernelIsaThisCpu, TheActiveVariantIsTheOneThisCpuChooses) {
  EXPECT_EQ(cosched::stream::active_kernel_isa(), choose_kernel_isa(cosched::stream::this_cpu_features()));
  cosched::stream::StreamConfig config;
  config.kernel = "triad";
  config.threads = 1;
  config.array_bytes = 1 << 16;
  config.reps = 2;
  cosched::stream::testing::TestTierBackend backend;
  const cosched::stream::StreamResult result = cosched::stream::run_stream(config, backend);
  EXPECT_TRUE(result.validated) << result.validation_message;
  EXPECT_EQ(result.kernel_isa, cosched::stream::kernel_isa_name(cosched::stream::active_kernel_isa()));
}

}  // namespace
