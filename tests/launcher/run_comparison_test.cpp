// Launches compared with their predictions (launcher/run_comparison.hpp), on hand-made reports: the results CSV
// row of a run, the prediction errors (the contention-aware one only where recorded), the duration ratios
// together, the launch overheads of the tasks that started; every figure 0 over no values.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cosched/launcher/run_comparison.hpp"

namespace cosched::launcher {
namespace {

JournalReport report(double predicted, std::optional<double> contention, double observed) {
  JournalReport r;
  r.lower_bound = 2.0;
  r.predicted_makespan = predicted;
  r.predicted_makespan_contention = contention;
  r.observed_makespan = observed;
  r.tasks_completed = 3;
  r.tasks_failed = 1;
  r.tasks_killed = 1;
  return r;
}

TEST(RunComparison, TheResultsCsvHasAHeaderAndARowPerRun) {
  const JournalReport with = report(4.0, 5.0, 6.0);
  const JournalReport without = report(4.0, std::nullopt, 3.0);
  const std::string csv = results_csv({{"cores+fast", "t-list-lpt", 3.5, 0.25, "runs/a.jsonl", &with},
                                       {"cores-only-slow", "d-pack-ff", 4.5, 0.5, "runs/b.jsonl", &without}},
                                      true);
  std::istringstream lines(csv);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, "configuration,algorithm,lower_bound_s,planned_makespan_s,predicted_makespan_s,"
                  "predicted_makespan_contention_s,observed_makespan_s,observed_over_predicted,"
                  "observed_over_lower_bound,scheduling_time_s,tasks_ok,tasks_failed,emulated,journal");
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, "cores+fast,t-list-lpt,2,3.5,4,5,6,1.5,3,0.25,3,2,true,a.jsonl");
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, "cores-only-slow,d-pack-ff,2,4.5,4,,3,0.75,1.5,0.5,3,2,true,b.jsonl");
  EXPECT_FALSE(std::getline(lines, line));
}

TEST(RunComparison, FidelityOfEachPredictionWhereRecorded) {
  const JournalReport a = report(4.0, 5.0, 6.0);            // errors 0.5 and 0.2
  const JournalReport b = report(4.0, std::nullopt, 3.0);   // 0.25, no contention-aware prediction
  const JournalReport c = report(4.0, 4.0, 4.4);            // 0.1 and 0.1
  const PredictionFidelity fidelity = prediction_fidelity({&a, &b, &c});
  ASSERT_EQ(fidelity.errors.size(), 3u);
  ASSERT_EQ(fidelity.errors_contention.size(), 2u);
  EXPECT_TRUE(fidelity.have_contention());
  EXPECT_DOUBLE_EQ(fidelity.median_error, 0.25);
  EXPECT_DOUBLE_EQ(fidelity.worst_error, 0.5);
  EXPECT_NEAR(fidelity.median_error_contention, 0.15, 1e-12);
  EXPECT_NEAR(fidelity.worst_error_contention, 0.2, 1e-12);
  const PredictionFidelity none = prediction_fidelity({});
  EXPECT_FALSE(none.have_contention());
  EXPECT_EQ(none.median_error, 0.0);
  EXPECT_EQ(none.worst_error, 0.0);
}

TEST(RunComparison, DurationsTogetherAndOverheadsOfTheTasksThatStarted) {
  const DurationSummary durations = duration_summary({{{1.0, 2.0}, {3.0}}, {{3.0}, {}}});
  EXPECT_EQ(durations.ratios.alone, (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_DOUBLE_EQ(durations.alone_mean, 2.0);
  EXPECT_DOUBLE_EQ(durations.corun_mean, 3.0);
  EXPECT_EQ(duration_summary({}).alone_mean, 0.0);

  const auto task = [](const char* status, double overhead_s) {
    TaskReport t;
    t.status = status;
    t.launch_overhead_s = overhead_s;
    return t;
  };
  JournalReport a, b;
  a.tasks = {task("ok", 0.003), task("", 99.0)};  // the second never ended: no overhead counted
  b.tasks = {task("failed", 0.001), task("ok", 0.002)};
  const LaunchOverheads overheads = launch_overheads({&a, &b});
  EXPECT_EQ(overheads.launches, 3u);
  EXPECT_DOUBLE_EQ(overheads.min_s, 0.001);
  EXPECT_DOUBLE_EQ(overheads.median_s, 0.002);
  EXPECT_DOUBLE_EQ(overheads.max_s, 0.003);
  const LaunchOverheads none = launch_overheads({});
  EXPECT_EQ(none.launches, 0u);
  EXPECT_EQ(none.max_s, 0.0);
}

}  // namespace
}  // namespace cosched::launcher
