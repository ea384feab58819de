// The measurer table: built-in rows, rows a layer above adds (register_measurer), and what a sweep learns from a
// row's kind before making the measurer.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "cosched/common/error.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

bool listed(const std::string& name) {
  const auto names = measurer_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Registered once per test process (the table is the process's), whatever the order the tests run in.
void register_counting_measurers() {
  static const bool done = [] {
    const MeasurerFactory counting = [](const MeasurerOptions&) -> std::unique_ptr<PointMeasurer> {
      return std::make_unique<testing::CountingMeasurer>();
    };
    register_measurer("counting-tasks", counting, MeasurerKind{{}, true});
    register_measurer("counting-passes", counting);
    return true;
  }();
  (void)done;
}

TEST(MeasurerRegistry, BuiltInRowsAndTheirKinds) {
  EXPECT_TRUE(listed("stream"));
  EXPECT_TRUE(listed("knl-model"));
  EXPECT_TRUE(listed(std::string(kDefaultMeasurer)));
  EXPECT_TRUE(measurer_kind("knl-model").is_model());
  EXPECT_EQ(measurer_kind("knl-model").modelled_node().name, config::knl_7210_flat_platform().name);
  EXPECT_FALSE(measurer_kind("stream").is_model());
  EXPECT_FALSE(measurer_kind("stream").times_whole_tasks);
  EXPECT_THROW((void)measurer_kind("bogus"), UsageError);
  EXPECT_THROW((void)make_measurer("bogus", MeasurerOptions{}), UsageError);
}

TEST(MeasurerRegistry, ARegisteredMeasurerIsListedAndMadeLikeTheBuiltInOnes) {
  register_counting_measurers();
  EXPECT_TRUE(listed("counting-tasks"));
  EXPECT_TRUE(listed("counting-passes"));
  MeasurerOptions options{config::knl_7210_flat_platform(), 3, 0};
  options.passes = {4, 0};
  const auto measurer = make_measurer("counting-tasks", options);
  EXPECT_EQ(measurer->name(), "counting");
  EXPECT_EQ(measurer->measure({"triad", 1 << 20, 1, 0}).times_s.size(), 3U);
  // Passes are for measurers that time whole tasks; the others time each pass themselves.
  EXPECT_THROW((void)make_measurer("counting-passes", options), UsageError);
  EXPECT_THROW((void)make_measurer("knl-model", options), UsageError);
  options.passes = {1, 0};
  EXPECT_NO_THROW((void)make_measurer("counting-passes", options));
  EXPECT_THROW(register_measurer("counting-tasks", [](const MeasurerOptions&) { return nullptr; }),
               std::logic_error);
  EXPECT_THROW(register_measurer("stream", [](const MeasurerOptions&) { return nullptr; }), std::logic_error);
}

TEST(MeasurerRegistry, ASweepFileNamesARegisteredMeasurer) {
  register_counting_measurers();
  const auto path = testing::write_file(testing::scratch_dir() / "sweep.toml",
                                        "kernels = [\"triad\"]\nmeasurer = \"counting-tasks\"\npasses = 5\n");
  const SweepConfig sweep = load_sweep_config(path);
  EXPECT_EQ(sweep.measurer, "counting-tasks");
  EXPECT_EQ(sweep_passes(sweep), (PassCounts{5, 0}));
}

// Issue 39: whatever a plan will launch, the default tables must predict it. A sweep that names no measurer times
// whole processes at two pass counts — each row's fixed cost apart from its cost per pass, so a launched task of any
// passes is predicted; one that names the stream measurer gets warm passes in-process, one pass per repetition; the
// passes a sweep gives win over its measurer's.
TEST(MeasurerRegistry, TheDefaultSweepTimesWholeTasksAtTwoPassCounts) {
  SweepConfig sweep;
  EXPECT_EQ(sweep.measurer, kDefaultMeasurer);
  EXPECT_TRUE(measurer_kind(sweep.measurer).times_whole_tasks);
  EXPECT_FALSE(sweep.passes.has_value());
  EXPECT_TRUE(sweep_passes(sweep).separates_fixed_cost());
  EXPECT_EQ(sweep_passes(sweep), kDefaultProcessPasses);

  sweep.measurer = "stream";
  EXPECT_EQ(sweep_passes(sweep), PassCounts{});
  sweep.measurer = "process";
  sweep.passes = PassCounts{8, 0};
  EXPECT_EQ(sweep_passes(sweep), (PassCounts{8, 0}));

  const auto file = testing::write_file(testing::scratch_dir() / "sweep.toml", "kernels = [\"triad\"]\n");
  const SweepConfig from_file = load_sweep_config(file);
  EXPECT_EQ(from_file.measurer, kDefaultMeasurer);
  EXPECT_EQ(sweep_passes(from_file), kDefaultProcessPasses);
  const auto stream_file = testing::write_file(testing::scratch_dir() / "stream.toml",
                                               "kernels = [\"triad\"]\nmeasurer = \"stream\"\n");
  EXPECT_EQ(sweep_passes(load_sweep_config(stream_file)), PassCounts{});
}

// Worked by hand: 1 and 21 passes, 0.30 s and 0.50 s: a pass 0.01 s, the fixed cost 0.29 s. Runs the noise made
// no longer than that: the floor (0.45 s / 21 / 1000) and not resolved; the fixed cost never below 0.
TEST(PassSplit, TwoPassCountsGiveTheCostOfAPassAndTheFixedCostOrSayTheyDidNot) {
  const PassCounts passes{1, 21};
  const PassSplit split = split_by_passes(0.30, 0.50, passes);
  EXPECT_TRUE(split.resolved);
  EXPECT_NEAR(split.per_pass_s, 0.01, 1e-12);
  EXPECT_NEAR(split.fixed_s, 0.29, 1e-12);

  const PassSplit noisy = split_by_passes(0.46, 0.45, passes);
  EXPECT_FALSE(noisy.resolved);
  EXPECT_NEAR(noisy.per_pass_s, 0.45 / 21 / 1000, 1e-15);
  EXPECT_NEAR(noisy.fixed_s, 0.46 - noisy.per_pass_s, 1e-12);

  EXPECT_FALSE(split_by_passes(0.45, 0.45, passes).resolved);
  const PassSplit fixed_free = split_by_passes(0.001, 10.0, {2, 4});  // the short run less than two passes
  EXPECT_TRUE(fixed_free.resolved);
  EXPECT_EQ(fixed_free.fixed_s, 0.0);
}

}  // namespace
}  // namespace cosched::profiler
