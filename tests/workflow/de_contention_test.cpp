// What `cosched run` learns from a launch (issue 41, mutant B4): a task's observed time, de-contended by the launch's
// two predictions, is what it would have taken alone. The factor is its paper-model duration over its
// contention-aware one; 1 when there is nothing to de-contend by. And the runs a launch teaches (observed_runs).
#include <gtest/gtest.h>

#include <optional>

#include "cosched/workflow/run_batch.hpp"

namespace cosched::workflow {
namespace {

struct FactorCase {
  const char* name;
  double paper_start, paper_end;
  std::optional<double> contention_start, contention_end;
  double factor;
};

class DeContention : public ::testing::TestWithParam<FactorCase> {};

TEST_P(DeContention, IsThePaperDurationOverTheContentionAwareOne) {
  launcher::TaskDeviation task;
  task.id = "t";
  task.predicted_start = GetParam().paper_start;
  task.predicted_end = GetParam().paper_end;
  task.predicted_contention_start = GetParam().contention_start;
  task.predicted_contention_end = GetParam().contention_end;
  EXPECT_DOUBLE_EQ(de_contention_factor(task), GetParam().factor);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DeContention,
    ::testing::Values(
        // 2 s alone, 2.5 s beside its co-runners by the contention clock: an observed 2.5 s is 2 s of its own.
        FactorCase{"SlowedByCoRunners", 0.0, 2.0, 0.0, 2.5, 0.8},
        // The clocks may start it at other times: durations count, not ends (3 s on paper, 2 s contended).
        FactorCase{"DurationsNotEnds", 0.0, 3.0, 0.5, 2.5, 1.5},
        FactorCase{"NotSlowed", 1.0, 4.0, 1.0, 4.0, 1.0},
        FactorCase{"NoContentionAwarePrediction", 0.0, 2.0, std::nullopt, std::nullopt, 1.0},
        FactorCase{"AContendedDurationOfNothing", 0.0, 2.0, 1.0, 1.0, 1.0},
        FactorCase{"APaperDurationOfNothing", 1.0, 1.0, 0.0, 2.0, 1.0}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// What the launch teaches: a task that ran as planned at its planned allocation, de-contended; a task the launch
// re-planned (LaunchReplanner) at the allocation it ran with, as observed; a failed task not at all.
TEST(ObservedRuns, AreWhereEachTaskRanDeContendedOnlyWhereItRanAsPredicted) {
  launcher::LaunchSummary summary;
  summary.plan.resource_names = {"cores"};
  summary.plan.capacities = {4};
  for (const char* id : {"kept", "moved", "reordered", "failed"}) summary.plan.tasks.push_back({id, {1}, 0.0, 2.0});
  launcher::TaskDeviation kept;
  kept.id = "kept";
  kept.predicted_end = 2.0;
  kept.predicted_contention_start = 0.0;
  kept.predicted_contention_end = 2.5;
  kept.observed_end = 2.5;
  kept.allocation = {1};
  launcher::TaskDeviation moved = kept;
  moved.id = "moved";
  moved.allocation = {4};
  moved.observed_end = 1.0;
  launcher::TaskDeviation reordered = kept;  // re-planned at its own allocation: later, beside other tasks
  reordered.id = "reordered";
  reordered.replanned = true;
  launcher::TaskDeviation failed = kept;
  failed.id = "failed";
  failed.status = sim::TaskStatus::failed;
  summary.tasks = {kept, moved, reordered, failed};
  const std::vector<profiler::ObservedTask> runs = observed_runs(summary);
  ASSERT_EQ(runs.size(), 3U);
  EXPECT_EQ(runs[0].id, "kept");
  EXPECT_EQ(runs[0].allocation, std::vector<int>{1});
  EXPECT_DOUBLE_EQ(runs[0].seconds, 2.5);
  EXPECT_DOUBLE_EQ(runs[0].contention_factor, 0.8);
  EXPECT_EQ(runs[1].id, "moved");
  EXPECT_EQ(runs[1].allocation, std::vector<int>{4});
  EXPECT_DOUBLE_EQ(runs[1].seconds, 1.0);
  EXPECT_DOUBLE_EQ(runs[1].contention_factor, 1.0) << "its predictions were of another allocation";
  EXPECT_EQ(runs[2].allocation, std::vector<int>{1});
  EXPECT_DOUBLE_EQ(runs[2].contention_factor, 1.0) << "its predictions were of other co-runners";
}

}  // namespace
}  // namespace cosched::workflow
