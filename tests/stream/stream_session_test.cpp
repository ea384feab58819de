// StreamSession: arrays kept across measurements, split moved in place or re-allocated, and every measurement
// validated (full on fresh arrays and at finish, sampled in between).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_session.hpp"
#include "stream/expected_arrays.hpp"
#include "stream/session_config.hpp"
#include "stream/test_tier_backend.hpp"

namespace cosched::stream {
namespace {

using testing::expected_contents;
using testing::TestTierBackend;

constexpr std::size_t count = testing::kSessionElements;

StreamConfig session_config(const std::string& kernel, double fast_fraction = 0.0, std::size_t elements = count) {
  StreamConfig config;
  config.kernel = kernel;
  config.threads = static_cast<unsigned>(std::min<std::size_t>(2, platform::allowed_cores().size()));
  config.array_bytes = elements * sizeof(double);
  config.fast_fraction = fast_fraction;
  return config;
}

const std::vector<double> fractions{0.0, 0.3, 1.0, 0.5, 0.0};

// Arrays of a few pages, and arrays larger than any core's own cache (8 MiB and an odd 13 elements), whose initial
// values go by streaming stores from wherever each tier part starts.
constexpr std::size_t large_count = (std::size_t{8} << 20) / sizeof(double) + 13;

class EveryKernelSession : public ::testing::TestWithParam<std::tuple<std::string, std::size_t>> {};

TEST_P(EveryKernelSession, RerunsGiveIdenticalValidatedResultsAcrossSplits) {
  const KernelSpec& kernel = find_kernel(std::get<0>(GetParam()));
  const std::size_t elements = std::get<1>(GetParam());
  TestTierBackend backend({2.5, true}, TestTierBackend::Layout::contiguous);
  backend.supports_resplit = true;
  std::vector<StreamResult> results;
  {
    StreamSession session(session_config(std::string(kernel.name), fractions.front(), elements), backend);
    for (std::size_t k = 0; k < fractions.size(); ++k) {
      results.push_back(session.measure({fractions[k], 2, static_cast<unsigned>(k % 2)}));
      EXPECT_TRUE(results.back().validated) << results.back().validation_message;
      EXPECT_EQ(results.back().rep_times_s.size(), 2U);
      EXPECT_EQ(results.back().fast_bytes,
                kernel.touched().size() * platform::fast_element_count(elements, fractions[k]) * sizeof(double));
    }
    EXPECT_EQ(session.allocations(), 1U);
    EXPECT_EQ(session.resplits(), fractions.size() - 1);  // every neighbour pair differs
    EXPECT_EQ(session.measurements(), fractions.size());
    const SessionCheck check = session.finish();
    EXPECT_TRUE(check.validated) << check.validation_message;
  }
  EXPECT_EQ(backend.allocations, static_cast<int>(kernel.touched().size()));
  for (const StreamResult& result : results) {
    EXPECT_EQ(result.sum, results.front().sum);
    EXPECT_EQ(result.bytes_per_rep, results.front().bytes_per_rep);
  }
  // Independent of the session's own checks: the memory left behind is what the table says.
  std::vector<ArrayId> ids;
  for (ArrayId id : {ArrayId::a, ArrayId::b, ArrayId::c}) {
    if (kernel.touched().contains(id)) ids.push_back(id);
  }
  std::reverse(ids.begin(), ids.end());  // released in reverse order of allocation
  const auto& released = backend.released().contents;
  ASSERT_EQ(released.size(), ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) EXPECT_EQ(released[k], expected_contents(kernel, ids[k], elements));
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryKernelSession,
                         ::testing::Combine(::testing::Values("write", "ddot", "copy", "scale", "add", "triad"),
                                            ::testing::Values(count, large_count)));

TEST(StreamSession, BackendWithoutResplitReallocatesForANewSplitOnly) {
  TestTierBackend backend;  // separate fast and slow blocks: cannot move the split
  StreamSession session(session_config("triad", 0.0), backend);
  EXPECT_TRUE(session.measure({0.0, 1, 0}).validated);
  EXPECT_TRUE(session.measure({0.0, 1, 0}).validated);  // same split: same arrays
  EXPECT_EQ(session.allocations(), 1U);
  const StreamResult moved = session.measure({0.5, 1, 1});
  EXPECT_TRUE(moved.validated) << moved.validation_message;
  EXPECT_EQ(session.allocations(), 2U);
  EXPECT_EQ(session.resplits(), 0U);
  EXPECT_EQ(backend.allocations, 6);
  EXPECT_TRUE(session.finish().validated);
}

// A measurement says what it cost besides its reps: the first one prepared the arrays (allocation, first touch,
// initial values), a later one on the same arrays prepared nothing; each one checked its results. The counts are
// each measurement's own share of the session's.
TEST(StreamSession, EachMeasurementReportsItsPreparationAndValidationTime) {
  TestTierBackend backend;
  StreamSession session(session_config("triad", 0.0, large_count), backend);
  const StreamResult first = session.measure({0.0, 1, 0});
  const StreamResult kept = session.measure({0.0, 1, 0});
  EXPECT_GT(first.preparation_s, 0.0);
  EXPECT_EQ(kept.preparation_s, 0.0);
  EXPECT_GT(first.validation_s, 0.0);
  EXPECT_GT(kept.validation_s, 0.0);
  EXPECT_DOUBLE_EQ(first.preparation_s + kept.preparation_s, session.counts().preparation_s);
  EXPECT_TRUE(session.finish().validated);
}

TEST(StreamSession, SampledCheckCoversEveryPageAndFinishComparesEveryOutput) {
  TestTierBackend backend;
  StreamSession session(session_config("triad"), backend);
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);  // full check on fresh arrays
  ASSERT_EQ(backend.allocated_spans.size(), 3U);
  // Spoil a whole page of b (read by triad): every sampled offset lands on it.
  const platform::TieredSpan b = backend.allocated_spans[1];
  for (std::size_t i = 512; i < 1024; ++i) b[i] = -1.0;
  const StreamResult sampled = session.measure({0.0, 1, 0});
  EXPECT_FALSE(sampled.validated);
  EXPECT_NE(sampled.validation_message.find("sampled"), std::string::npos) << sampled.validation_message;

  // One wrong element that a sample may miss: finish() compares every element of the output a, where the next
  // rep carried it (inputs are sampled there too, and b[1541] is on no sample).
  for (std::size_t i = 512; i < 1024; ++i) b[i] = initial_value(ArrayId::b, i);
  b[3 * 512 + 5] = -1.0;
  (void)session.measure({0.0, 1, 0});
  const SessionCheck check = session.finish();
  EXPECT_FALSE(check.validated);
  EXPECT_EQ(check.validation_message.rfind("1 of ", 0), 0U) << check.validation_message;
  EXPECT_NE(check.validation_message.find("a[1541]"), std::string::npos) << check.validation_message;
}

// Between a measurement and the next full check nothing runs a kernel: a wrong output element still shows.
TEST(StreamSession, FinishComparesEveryElementOfTheOutput) {
  TestTierBackend backend;
  StreamSession session(session_config("scale"), backend);  // b = s * c
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);  // sampled
  const platform::TieredSpan b = backend.allocated_spans.at(0);
  b[1541] = -1.0;  // on no sample, and no edge of a slice
  const SessionCheck check = session.finish();
  EXPECT_FALSE(check.validated);
  EXPECT_EQ(check.validation_message.rfind("1 of ", 0), 0U) << check.validation_message;
  EXPECT_NE(check.validation_message.find("b[1541]"), std::string::npos) << check.validation_message;
}

TEST(StreamSession, ReallocationChecksTheOldArraysInFullFirst) {
  TestTierBackend backend;  // no resplit
  StreamSession session(session_config("copy"), backend);
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);
  (void)session.measure({0.0, 1, 0});  // sampled
  backend.allocated_spans[1][700] = -1.0;  // c (written by copy): on no sample, and no edge of a slice
  const StreamResult moved = session.measure({1.0, 1, 0});
  EXPECT_FALSE(moved.validated);
  EXPECT_NE(moved.validation_message.find("before re-allocating"), std::string::npos) << moved.validation_message;
}

TEST(StreamSession, ZeroRepsAndBadFractionsAreUsageErrors) {
  TestTierBackend backend;
  StreamSession session(session_config("write"), backend);
  EXPECT_THROW((void)session.measure({0.0, 0, 0}), UsageError);
  EXPECT_THROW((void)session.measure({1.5, 1, 0}), UsageError);
  EXPECT_TRUE(session.measure({0.0, 1, 0}).validated);
}

TEST(StreamSession, OverCommitOnTheEmulatedTierIsRefusedAndLeavesTheSessionUsable) {
  platform::TierOptions options;
  options.backend = "emulated";
  options.emulated_fast_bytes = 2 * count * sizeof(double);  // room for two of triad's three arrays
  options.budget = platform::make_fast_tier_budget(options);
  const auto backend = platform::make_tier_backend(options);
  StreamSession session(session_config("triad", 0.5), *backend);
  EXPECT_TRUE(session.measure({0.5, 1, 0}).validated);
  const std::size_t used = options.budget->used_bytes();
  EXPECT_EQ(used, 3 * platform::fast_element_count(count, 0.5) * sizeof(double));
  EXPECT_THROW((void)session.measure({1.0, 1, 0}), ResourceError);
  EXPECT_EQ(options.budget->used_bytes(), used);  // the arrays moved before the refusal were put back
  const StreamResult shrunk = session.measure({0.25, 1, 0});
  EXPECT_TRUE(shrunk.validated) << shrunk.validation_message;
  EXPECT_EQ(options.budget->used_bytes(), 3 * platform::fast_element_count(count, 0.25) * sizeof(double));
  EXPECT_EQ(session.allocations(), 1U);
  EXPECT_TRUE(session.finish().validated);
}

}  // namespace
}  // namespace cosched::stream
