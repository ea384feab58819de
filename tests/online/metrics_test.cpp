// The metrics of an online run read directly (issue #27, mutation testing: no test read the fairness-by-size bins,
// so counting stretch >= 1 instead of > 1 went unnoticed; a stretch divided by the job's actual runtime instead of
// its reference time was caught by one end-to-end test only).
#include <gtest/gtest.h>

#include <vector>

#include "cosched/online/metrics.hpp"
#include "cosched/online/policy.hpp"
#include "online/support.hpp"

namespace cosched::online {
namespace {

// Released at `release` (the arrival's release: an open-loop replay).
JobOutcome ran(double start, double end, std::vector<int> alloc, double release = 0.0) {
  return {true, release, start, end, std::move(alloc)};
}

// Sequential jobs released at 0: reference times 10, 10 (seconds), 60 (the first of minutes: bins are [from, below)),
// 100 (minutes) and 3600 (hours). Two end exactly at stretch 1 — not stretched: the bins count stretch > 1.
TEST(OnlineMetrics, TheFairnessBinsCountJobsBySizeAndOnlyThoseStretchedBeyondOne) {
  const OnlineWorkload workload = testing::rigid_workload(
      {4}, {{0.0, 10.0}, {0.0, 10.0}, {0.0, 60.0}, {0.0, 100.0}, {0.0, 3600.0}});
  const std::vector<JobOutcome> outcomes{ran(0, 10, {1}), ran(5, 15, {1}), ran(0, 60, {1}), ran(100, 200, {1}),
                                         ran(0, 3600, {1})};
  const OnlineMetrics metrics = online_metrics(workload, outcomes);
  ASSERT_EQ(metrics.fairness.size(), 5U);
  const std::vector<std::string> labels{"seconds", "minutes", "hours", "days", "weeks"};
  const std::vector<std::size_t> jobs{2, 2, 1, 0, 0};
  const std::vector<std::size_t> stretched{1, 1, 0, 0, 0};
  for (std::size_t bin = 0; bin < 5; ++bin) {
    EXPECT_EQ(metrics.fairness[bin].label, labels[bin]);
    EXPECT_EQ(metrics.fairness[bin].jobs, jobs[bin]) << labels[bin];
    EXPECT_EQ(metrics.fairness[bin].stretched, stretched[bin]) << labels[bin];
  }
  EXPECT_DOUBLE_EQ(metrics.max_stretch, 2.0);
  EXPECT_DOUBLE_EQ(metrics.mean_stretch, (1.0 + 1.5 + 1.0 + 2.0 + 1.0) / 5.0);
}

// A moldable job's stretch divides its flow time by its sequential time p_i,1 (10), not by the time it ran (5 on
// two processors): 5 / 10 = 0.5, below 1. A rigid job's reference is its runtime at its processor count.
TEST(OnlineMetrics, TheStretchDividesByTheReferenceTimeNotTheActualRuntime) {
  const OnlineWorkload moldable = testing::table_workload({2}, {{testing::kInf, 10.0, 5.0}}, {0.0});
  const OnlineMetrics fast = online_metrics(moldable, std::vector<JobOutcome>{ran(0, 5, {2})});
  EXPECT_DOUBLE_EQ(fast.max_stretch, 0.5);
  EXPECT_DOUBLE_EQ((OnlineState{moldable, 0.0, {}, {}, {}, {}}.stretch_at(0, 5.0)), 0.5);
  // Started at 3 on one processor: flow 13, ran 10: stretch 1.3 (by the actual runtime it would also be 1.3; by
  // the two-processor time, 2.6).
  const OnlineMetrics late = online_metrics(moldable, std::vector<JobOutcome>{ran(3, 13, {1})});
  EXPECT_DOUBLE_EQ(late.max_stretch, 1.3);

  const OnlineWorkload rigid = testing::rigid_workload({4}, {{1.0, 4.0, {2}}});
  const OnlineMetrics waited = online_metrics(rigid, std::vector<JobOutcome>{ran(3, 7, {2}, 1.0)});
  EXPECT_DOUBLE_EQ(waited.max_stretch, 1.5);  // (7 - 1) / 4
}

}  // namespace
}  // namespace cosched::online
