// The kernels beyond STREAM (gemm, stencil, spmv, gups) through the same table, sessions and tier split: results
// validated on tiny sizes, byte/flop accounting against each kernel's stated model, a corrupted result caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"
#include "cosched/stream/stream_session.hpp"
#include "stream/test_tier_backend.hpp"

namespace cosched::stream {
namespace {

using testing::TestTierBackend;

constexpr std::size_t tiny_array_bytes = 32 * 1024;

StreamConfig tiny_config(const std::string& kernel, unsigned threads) {
  StreamConfig config;
  config.kernel = kernel;
  config.threads = threads;
  config.array_bytes = tiny_array_bytes;
  config.reps = 3;
  return config;
}

unsigned usable_threads() { return static_cast<unsigned>(std::min<std::size_t>(2, platform::allowed_cores().size())); }

// The fast words the tier split must give an array: the platform's page-rounded share in whole granules.
std::size_t expected_fast_words(const ArrayLayout& array, double fraction) {
  const std::size_t words = platform::fast_element_count(array.words, fraction);
  return std::min(array.words, (words + array.granule - 1) / array.granule * array.granule);
}

struct RooflineCase {
  const char* kernel;
  unsigned threads;  // capped at the cores this process may use
  TestTierBackend::Layout layout;
  double fast_fraction;
  double slow_pass_factor;
};

class RooflineKernel : public ::testing::TestWithParam<RooflineCase> {};

TEST_P(RooflineKernel, ValidatesAndAccountsAsItsShapeSays) {
  const RooflineCase param = GetParam();
  const KernelSpec& kernel = find_kernel(param.kernel);
  TestTierBackend backend({param.slow_pass_factor, param.slow_pass_factor > 1.0}, param.layout);
  StreamConfig config = tiny_config(param.kernel, std::min(param.threads, usable_threads()));
  config.fast_fraction = param.fast_fraction;
  const StreamResult result = run_stream(config, backend);

  EXPECT_TRUE(result.validated) << result.validation_message;
  const KernelShape shape = kernel.shape(tiny_array_bytes * kernel.array_count());
  EXPECT_EQ(result.array_count, kernel.array_count());
  EXPECT_EQ(result.bytes_per_rep, shape.bytes_per_rep);
  EXPECT_EQ(result.flops_per_rep, shape.flops_per_rep);
  EXPECT_EQ(result.updates_per_rep, shape.updates_per_rep);
  EXPECT_EQ(result.merit_unit, merit_unit_name(kernel.merit));
  EXPECT_EQ(result.bytes_per_element, 0U);
  EXPECT_EQ(result.stores, "none");
  EXPECT_GT(result.best_merit, 0.0);
  EXPECT_GE(result.best_merit, result.median_merit);
  EXPECT_EQ(result.fast_bytes + result.slow_bytes, shape.footprint_bytes());
  std::size_t fast_words = 0;
  for (const ArrayLayout& array : shape.arrays) fast_words += expected_fast_words(array, param.fast_fraction);
  EXPECT_EQ(result.fast_bytes, fast_words * sizeof(double));
  ASSERT_EQ(result.arrays.size(), shape.arrays.size());
  for (std::size_t k = 0; k < shape.arrays.size(); ++k) {
    EXPECT_EQ(result.arrays[k].name, shape.arrays[k].name);
    EXPECT_EQ(result.arrays[k].bytes, shape.arrays[k].words * sizeof(double));
  }
}

INSTANTIATE_TEST_SUITE_P(
    KernelsThreadsSplits, RooflineKernel,
    ::testing::Values(RooflineCase{"gemm", 1, TestTierBackend::Layout::separate, 0.0, 1.0},
                      RooflineCase{"gemm", 2, TestTierBackend::Layout::separate, 0.4, 1.0},
                      RooflineCase{"gemm", 2, TestTierBackend::Layout::contiguous, 0.7, 2.5},
                      RooflineCase{"stencil", 1, TestTierBackend::Layout::separate, 0.0, 1.0},
                      RooflineCase{"stencil", 2, TestTierBackend::Layout::separate, 0.4, 1.0},
                      RooflineCase{"stencil", 2, TestTierBackend::Layout::contiguous, 0.7, 2.5},
                      RooflineCase{"spmv", 1, TestTierBackend::Layout::separate, 0.0, 1.0},
                      RooflineCase{"spmv", 2, TestTierBackend::Layout::separate, 0.4, 1.0},
                      RooflineCase{"spmv", 2, TestTierBackend::Layout::contiguous, 0.7, 2.5},
                      RooflineCase{"gups", 1, TestTierBackend::Layout::separate, 0.0, 1.0},
                      RooflineCase{"gups", 2, TestTierBackend::Layout::separate, 0.4, 1.0},
                      RooflineCase{"gups", 2, TestTierBackend::Layout::contiguous, 1.0, 2.5}),
    [](const auto& test_case) {
      return std::string(test_case.param.kernel) + "_" + std::to_string(test_case.index);
    });

// Each kernel's byte and flop model, written out for one small size.
TEST(RooflineShapes, ByteAndFlopModels) {
  const KernelShape gemm = find_kernel("gemm").shape(3 * 8 * 10 * 10);  // three 10 x 10 matrices
  EXPECT_EQ(gemm.dimension, 10U);
  EXPECT_EQ(gemm.bytes_per_rep, 3U * 8 * 100);  // read A, B; write C
  EXPECT_EQ(gemm.flops_per_rep, 2U * 1000);
  EXPECT_EQ(find_kernel("gemm").merit, MeritUnit::gflops);

  const KernelShape stencil = find_kernel("stencil").shape(2 * 8 * 5 * 5 * 5 + 7);  // two 5^3 grids, 7 spare
  EXPECT_EQ(stencil.dimension, 5U);
  EXPECT_EQ(stencil.bytes_per_rep, 2U * 8 * 125);  // one grid read, one written per sweep
  EXPECT_EQ(stencil.flops_per_rep, 8U * 27);       // 8 flops per interior point
  EXPECT_EQ(stencil.footprint_bytes(), 2U * 8 * 125);

  const std::uint64_t rows = 10;  // per row: 16 values, 8 words of columns, a row pointer, x, y; one more pointer
  const KernelShape spmv = find_kernel("spmv").shape((rows * 27 + 1) * 8);
  EXPECT_EQ(spmv.dimension, rows);
  EXPECT_EQ(spmv.bytes_per_rep, rows * 16 * (8 + 4) + (rows + 1) * 8 + 2 * 8 * rows);
  EXPECT_EQ(spmv.flops_per_rep, 2 * 16 * rows);
  EXPECT_EQ(spmv.footprint_bytes(), (rows * 27 + 1) * 8);

  const KernelShape gups = find_kernel("gups").shape(8 * 1000);  // the largest power of two: 512 words
  EXPECT_EQ(gups.dimension, 512U);
  EXPECT_EQ(gups.updates_per_rep, 4U * 512);
  EXPECT_EQ(gups.bytes_per_rep, 16U * 4 * 512);
  EXPECT_EQ(find_kernel("gups").merit, MeritUnit::gups);
}

// The launcher and the profiler size a task as array_count() arrays of F / array_count() bytes; the kernel's
// bytes per pass must be its shape's.
TEST(RooflineShapes, BytesPerPassIsTheShapesByteModel) {
  for (const char* name : {"gemm", "stencil", "spmv", "gups"}) {
    const KernelSpec& kernel = find_kernel(name);
    const std::uint64_t footprint = std::uint64_t{64} << 20;
    EXPECT_EQ(kernel.bytes_per_pass(footprint), kernel.shape(footprint).bytes_per_rep) << name;
    EXPECT_LE(kernel.shape(footprint).footprint_bytes(), footprint) << name;
    EXPECT_FALSE(kernel.elementwise());
    EXPECT_GT(kernel.array_count(), 0U);
  }
}

// gemm runs on 1 x 1 matrices and gups on one word; a stencil needs 3^3 grids and spmv one whole row.
TEST(RooflineShapes, TooSmallFootprintIsAUsageError) {
  for (const char* name : {"stencil", "spmv"}) {
    TestTierBackend backend;
    StreamConfig config = tiny_config(name, 1);
    config.array_bytes = 8;
    try {
      (void)run_stream(config, backend);
      ADD_FAILURE() << name << " ran in " << config.array_bytes << " bytes per array";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
    }
  }
}

// Which array to corrupt between measurements: one the next rep reads and does not rewrite (an input, or the grid
// the next sweep reads), so the next result is wrong.
struct Corruption {
  const char* kernel;
  std::size_t array;  // allocation order = the shape's order
};

class CorruptedResult : public ::testing::TestWithParam<Corruption> {};

// The measurement after the corruption checks a sample (one element per page; gups skips an odd table), which may
// miss one wrong element; the full check a session makes before it lets the arrays go must not.
TEST_P(CorruptedResult, IsCaughtByTheNextFullCheckAtTheLatest) {
  const Corruption param = GetParam();
  TestTierBackend backend;
  StreamConfig config = tiny_config(param.kernel, usable_threads());
  StreamSession session(config, backend);
  const StreamResult clean = session.measure({std::nullopt, 1, 0});
  ASSERT_TRUE(clean.validated) << clean.validation_message;

  const platform::TieredSpan result = backend.allocated_spans.at(param.array);
  result[result.count() / 2 + 1] = 12345.5;
  (void)session.measure({std::nullopt, 1, 0});
  const SessionCheck full = session.finish();
  EXPECT_FALSE(full.validated);
  EXPECT_NE(full.validation_message.find("wrong"), std::string::npos) << full.validation_message;
}

INSTANTIATE_TEST_SUITE_P(ResultArrays, CorruptedResult,
                         ::testing::Values(Corruption{"gemm", 0}, Corruption{"stencil", 1}, Corruption{"spmv", 0},
                                           Corruption{"gups", 0}),
                         [](const auto& test_case) { return std::string(test_case.param.kernel); });

// gemm compares every row's checksum at every measurement (O(n^2) against the O(n^3) product), so it needs no
// full check to catch a wrong entry of A.
TEST(RooflineSession, GemmCatchesACorruptedInputAtTheNextMeasurement) {
  TestTierBackend backend;
  StreamSession session(tiny_config("gemm", usable_threads()), backend);
  ASSERT_TRUE(session.measure({std::nullopt, 1, 0}).validated);
  const platform::TieredSpan a = backend.allocated_spans.at(0);
  a[a.count() / 2 + 1] = 12345.5;
  const StreamResult spoiled = session.measure({std::nullopt, 1, 0});
  EXPECT_FALSE(spoiled.validated);
  EXPECT_NE(spoiled.validation_message.find("sampled"), std::string::npos) << spoiled.validation_message;
}

// A session moves the split of every array (resplit, whole granules) and keeps validating.
TEST(RooflineSession, ResplitKeepsResultsValid) {
  for (const char* name : {"gemm", "stencil", "spmv", "gups"}) {
    SCOPED_TRACE(name);
    TestTierBackend backend({}, TestTierBackend::Layout::contiguous);
    backend.supports_resplit = true;
    StreamSession session(tiny_config(name, usable_threads()), backend);
    for (double fraction : {0.0, 0.5, 1.0, 0.25}) {
      const StreamResult result = session.measure({fraction, 2, 1});
      EXPECT_TRUE(result.validated) << fraction << ": " << result.validation_message;
    }
    EXPECT_EQ(session.allocations(), 1U);
    EXPECT_EQ(session.resplits(), 3U);
    EXPECT_TRUE(session.finish().validated);
  }
}

}  // namespace
}  // namespace cosched::stream
