// The predicted run as a text picture (`cosched run --dry-run`): one row per core, each task its letter on the
// lowest cores free at its start, for as long as it runs, and a legend with its resources and times.
#include "cosched/sim/gantt.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cosched/sim/prediction.hpp"

namespace cosched::sim {
namespace {

PlannedTask task(const std::string& id, int cores, double start, double duration) {
  PlannedTask planned;
  planned.id = id;
  planned.demand = {cores, 0};
  planned.planned_start = start;
  planned.predicted_duration = duration;
  return planned;
}

// 3 cores: a (2 cores, 0-2 s), b (1 core, 0-1 s), c (1 core, after b: 1-4 s).
LaunchPlan three_tasks() {
  LaunchPlan plan;
  plan.algorithm = "t-list-lpt";
  plan.resource_names = {"cores", "fast_chunks"};
  plan.capacities = {3, 2};
  plan.tasks = {task("a", 2, 0.0, 2.0), task("b", 1, 0.0, 1.0), task("c", 1, 1.0, 3.0)};
  return plan;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The cells of a core's row, between its bars.
std::string cells(const std::string& line) {
  const auto open = line.find('|');
  return line.substr(open + 1, line.rfind('|') - open - 1);
}

TEST(GanttChart, EachTaskHoldsTheLowestFreeCoresForItsTime) {
  const LaunchPlan plan = three_tasks();
  const std::string chart = gantt_chart(plan, predict(plan, "auto"), 40);
  const auto lines = lines_of(chart);
  ASSERT_EQ(lines.size(), 1U + 3U + 3U) << chart;  // the axis, three cores, three legend lines
  EXPECT_NE(lines[0].find("4.000 s"), std::string::npos) << "the axis ends at the makespan\n" << chart;
  // a on cores 0 and 1 for the first half (2 of 4 s), b on core 2 for a quarter, then c there to the end.
  EXPECT_EQ(cells(lines[1]), std::string(20, 'A') + std::string(20, '.')) << chart;
  EXPECT_EQ(cells(lines[2]), std::string(20, 'A') + std::string(20, '.')) << chart;
  EXPECT_EQ(cells(lines[3]), std::string(10, 'B') + std::string(30, 'C')) << chart;
  EXPECT_NE(chart.find("  A a (2 cores, 0 fast_chunks): 0.000 .. 2.000 s"), std::string::npos) << chart;
  EXPECT_NE(chart.find("  C c (1 cores, 0 fast_chunks): 1.000 .. 4.000 s"), std::string::npos) << chart;
}

TEST(GanttChart, IsAtLeastTenColumnsWide) {
  const LaunchPlan plan = three_tasks();
  const auto lines = lines_of(gantt_chart(plan, predict(plan, "auto"), 1));
  ASSERT_GE(lines.size(), 2U);
  EXPECT_EQ(cells(lines[1]).size(), 10U);
}

// Without a bandwidth model the line gives the paper model's makespan and says why there is no other; the chart
// that follows is the paper model's run.
TEST(FormatPrediction, LeadsWithThePaperModelWithoutBandwidth) {
  LaunchPlan plan = three_tasks();
  plan.lower_bound = 3.5;
  const std::string text = format_prediction(plan);
  const auto lines = lines_of(text);
  ASSERT_GE(lines.size(), 2U) << text;
  EXPECT_EQ(lines[0],
            "predicted makespan 4.000 s (paper model; no bandwidth model for the contention-aware one); lower bound "
            "L_min(d) 3.500 s");
  EXPECT_EQ(text.substr(lines[0].size() + 1), gantt_chart(plan, predict(plan, "auto")));
}

}  // namespace
}  // namespace cosched::sim
