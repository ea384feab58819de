#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"
#include "stream/expected_arrays.hpp"
#include "stream/test_tier_backend.hpp"

namespace cosched::stream {
namespace {

using testing::expected_contents;
using testing::TestTierBackend;

constexpr std::size_t small_count = 4003;  // not a multiple of any vector width: exercises heads and tails

StreamConfig small_config(const std::string& kernel, unsigned threads = 1) {
  StreamConfig config;
  config.kernel = kernel;
  config.threads = threads;
  config.array_bytes = small_count * sizeof(double);
  config.reps = 3;
  return config;
}

unsigned usable_threads() { return static_cast<unsigned>(std::min<std::size_t>(2, platform::allowed_cores().size())); }

std::vector<ArrayId> touched_arrays(const KernelSpec& kernel) {
  std::vector<ArrayId> ids;
  for (ArrayId id : {ArrayId::a, ArrayId::b, ArrayId::c}) {
    if (kernel.touched().contains(id)) ids.push_back(id);
  }
  return ids;
}

struct KernelCase {
  StoreMode stores;
  TestTierBackend::Layout layout;
  double fast_fraction;
};

class EveryKernel : public ::testing::TestWithParam<KernelCase> {};

TEST_P(EveryKernel, ResultsAndByteAccountingMatchTheTable) {
  const KernelCase param = GetParam();
  for (const KernelSpec* each : testing::elementwise_kernels()) {
    const KernelSpec& kernel = *each;
    SCOPED_TRACE(std::string(kernel.name));
    TestTierBackend backend({}, param.layout);
    StreamConfig config = small_config(std::string(kernel.name), usable_threads());
    config.stores = param.stores;
    config.fast_fraction = param.fast_fraction;
    const StreamResult result = run_stream(config, backend);

    EXPECT_TRUE(result.validated) << result.validation_message;
    EXPECT_EQ(result.array_count, kernel.touched().size());
    EXPECT_EQ(result.array_bytes, small_count * sizeof(double));
    EXPECT_EQ(result.bytes_per_element, kernel.bytes_per_element());
    EXPECT_EQ(result.bytes_per_rep, kernel.bytes_per_element() * small_count);
    EXPECT_EQ(result.fast_bytes + result.slow_bytes, kernel.touched().size() * small_count * sizeof(double));
    EXPECT_EQ(result.fast_bytes,
              kernel.touched().size() * platform::fast_element_count(small_count, param.fast_fraction) * 8);
    EXPECT_EQ(result.rep_times_s.size(), 3U);
    EXPECT_GT(result.best_gbs, 0.0);
    EXPECT_GE(result.best_gbs, result.median_gbs);
    EXPECT_LE(result.min_time_s, result.median_time_s);
    if (kernel.is_reduction()) {
      EXPECT_EQ(result.stores, "none");
    } else {
      EXPECT_EQ(result.stores, param.stores == StoreMode::streaming ? "nt" : "regular");  // small: auto = regular
    }

    // Independent of the library's own check: compare the released memory with the table's formula.
    const auto& released = backend.released().contents;
    auto ids = touched_arrays(kernel);
    std::reverse(ids.begin(), ids.end());  // arrays are released in reverse order of allocation
    ASSERT_EQ(released.size(), ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k) {
      EXPECT_EQ(released[k], expected_contents(kernel, ids[k], small_count)) << "array " << array_name(ids[k]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    StoresLayoutsFractions, EveryKernel,
    ::testing::Values(KernelCase{StoreMode::regular, TestTierBackend::Layout::separate, 0.0},
                      KernelCase{StoreMode::streaming, TestTierBackend::Layout::separate, 0.0},
                      KernelCase{StoreMode::streaming, TestTierBackend::Layout::separate, 0.3},
                      KernelCase{StoreMode::regular, TestTierBackend::Layout::contiguous, 0.3},
                      KernelCase{StoreMode::automatic, TestTierBackend::Layout::contiguous, 1.0}));

TEST(StreamRun, DdotSumIsExact) {
  TestTierBackend backend;
  const StreamResult result = run_stream(small_config("ddot", usable_threads()), backend);
  double expected = 0;
  for (std::size_t i = 0; i < small_count; ++i) expected += (4.0 + double(i % 8)) * (16.0 + double(i % 4));
  ASSERT_TRUE(result.sum.has_value());
  EXPECT_EQ(*result.sum, expected);
  EXPECT_TRUE(result.validated) << result.validation_message;
}

// The emulated slow tier streams the slow part several times per rep; the results must not change.
TEST(StreamRun, SlowPassFactorLeavesResultsIdentical) {
  for (const KernelSpec* each : testing::elementwise_kernels()) {
    const KernelSpec& kernel = *each;
    SCOPED_TRACE(std::string(kernel.name));
    StreamConfig config = small_config(std::string(kernel.name), usable_threads());
    config.fast_fraction = 0.25;
    TestTierBackend once({1.0, false});
    TestTierBackend repeated({2.5, true});
    const StreamResult single = run_stream(config, once);
    const StreamResult emulated = run_stream(config, repeated);
    EXPECT_TRUE(single.validated) << single.validation_message;
    EXPECT_TRUE(emulated.validated) << emulated.validation_message;
    EXPECT_EQ(once.released().contents, repeated.released().contents);
    EXPECT_EQ(single.sum, emulated.sum);
    EXPECT_EQ(single.bytes_per_rep, emulated.bytes_per_rep);  // logical bytes: one pass
    EXPECT_TRUE(emulated.emulated);
    EXPECT_EQ(emulated.slow_pass_factor, 2.5);
  }
}

TEST(StreamRun, SlowPassFactorBelowOneIsRefused) {
  TestTierBackend backend({0.5, true});
  EXPECT_THROW((void)run_stream(small_config("triad"), backend), RuntimeFailure);
}

// A backend that hands out one block for every array: the kernels' results cannot be right, and validation must
// say so rather than report a bandwidth.
class AliasingBackend final : public platform::TierBackend {
 public:
  std::string_view name() const override { return "aliasing"; }
  platform::TierCostModel cost_model() const override { return {}; }
  platform::TieredArray allocate(std::size_t count, std::size_t) override {
    if (block_.size() < count) block_.resize(count);
    platform::TieredSpan span;
    span.slow = block_.data();
    span.slow_count = count;
    return {span, nullptr};
  }

 private:
  std::vector<double> block_;
};

TEST(StreamRun, ValidationFailureIsReportedNotHidden) {
  AliasingBackend backend;
  const StreamResult result = run_stream(small_config("add"), backend);
  EXPECT_FALSE(result.validated);
  EXPECT_NE(result.validation_message.find("wrong"), std::string::npos) << result.validation_message;
}

class MisreportingBackend final : public platform::TierBackend {
 public:
  std::string_view name() const override { return "misreporting"; }
  platform::TierCostModel cost_model() const override { return {}; }
  platform::TieredArray allocate(std::size_t count, std::size_t fast_count) override {
    return inner_.allocate(count, fast_count == 0 ? 0 : fast_count - 1);
  }

 private:
  TestTierBackend inner_;
};

TEST(StreamRun, BackendBreakingTheSplitContractIsAnError) {
  MisreportingBackend backend;
  StreamConfig config = small_config("copy");
  config.fast_fraction = 0.5;
  EXPECT_THROW((void)run_stream(config, backend), RuntimeFailure);
}

TEST(StreamRun, BadConfigsFailBeforeAllocating) {
  const auto cores = platform::allowed_cores().size();
  auto expect_error = [](StreamConfig config, auto error_type, const std::string& fragment) {
    TestTierBackend backend;
    try {
      (void)run_stream(config, backend);
      ADD_FAILURE() << "no error for " << fragment;
    } catch (const decltype(error_type)& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    EXPECT_EQ(backend.allocations, 0) << fragment;
  };
  StreamConfig config = small_config("bogus");
  expect_error(config, UsageError{""}, "unknown kernel");
  config = small_config("triad", 0);
  expect_error(config, UsageError{""}, "threads must be at least 1");
  config = small_config("triad", static_cast<unsigned>(cores + 1));
  expect_error(config, ResourceError{""}, "cores");
  config = small_config("triad", 1);
  config.cores = {static_cast<unsigned>(cores)};
  expect_error(config, ResourceError{""}, "does not exist");
  config = small_config("triad", 2);
  config.cores = {0, 0};
  expect_error(config, UsageError{""}, "twice");
  config = small_config("triad", 2);
  config.cores = {0};
  expect_error(config, UsageError{""}, "one core per thread");
  config = small_config("triad");
  config.fast_fraction = 1.5;
  expect_error(config, UsageError{""}, "fraction");
  config = small_config("triad");
  config.reps = 0;
  expect_error(config, UsageError{""}, "reps");
  config = small_config("triad");
  config.array_bytes = 4;
  expect_error(config, UsageError{""}, "holds no double");
  config = small_config("triad");
  config.array_bytes = available_memory_bytes();  // three of them cannot fit
  expect_error(config, ResourceError{""}, "available");
}

TEST(StreamRun, StoreModesParse) {
  EXPECT_EQ(parse_store_mode("nt"), StoreMode::streaming);
  EXPECT_EQ(parse_store_mode("regular"), StoreMode::regular);
  EXPECT_EQ(parse_store_mode("auto"), StoreMode::automatic);
  EXPECT_THROW((void)parse_store_mode("fast"), UsageError);
}

}  // namespace
}  // namespace cosched::stream
