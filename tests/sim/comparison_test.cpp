// The comparison of every algorithm (sim/comparison.hpp, sched::comparison_bounds): the LPs only when asked, the
// bounds the table shows, and one row (or one "skipped" note) per registered algorithm, each reported as soon as it is planned.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cosched/sched/allocation.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/comparison.hpp"
#include "support/recording_reporter.hpp"

namespace cosched::sim {
namespace {

const char* const kInstance = R"({"resources": [{"name": "cores", "capacity": 2}, {"name": "fast", "capacity": 1}],
  "tasks": [{"id": "a", "times": [null, null, 4.0, 3.0, 2.0, 1.5]},
            {"id": "b", "times": [null, 5, 2.5, 2.5, 2.0, 2.0]},
            {"id": "c", "times": [null, null, 3.0, 2.0, 2.0, 1.0]}]})";

TEST(ComparisonBounds, TheLpsOnlyWhenAsked) {
  const sched::Instance instance = sched::parse_instance(kInstance, "inst");
  const double bound = sched::lower_bound(instance);
  const sched::ComparisonBounds without = sched::comparison_bounds(instance, bound, false);
  EXPECT_EQ(without.makespan, bound);
  EXPECT_EQ(without.two_shelf, sched::two_shelf_lower_bound(instance));
  EXPECT_FALSE(without.weighted.has_value());
  EXPECT_FALSE(without.weighted_paper_cost.has_value());
  EXPECT_FALSE(without.weighted_printed.has_value());
  const sched::ComparisonBounds with = sched::comparison_bounds(instance, bound, true);
  ASSERT_TRUE(with.weighted.has_value());
  EXPECT_EQ(with.weighted, sched::weighted_completion_lower_bound(instance));
  EXPECT_GT(*with.weighted, 0.0);
}

TEST(Comparison, OneLinePerAlgorithmAfterTheHeader) {
  const sched::Instance instance = sched::parse_instance(kInstance, "inst");
  const auto bounds = sched::comparison_bounds(instance, sched::lower_bound(instance), false);
  test_support::RecordingReporter reporter;
  report_comparison(reporter, instance, bounds, {});
  const std::string text = reporter.text_of("result");
  EXPECT_EQ(reporter.results.size(), algorithms().size() + 1) << "the header, then one result per algorithm";
  std::istringstream lines(text);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line.rfind("algorithm", 0), 0u) << line;
  EXPECT_EQ(line.find("contention"), std::string::npos) << "no bandwidth model, no contention column: " << line;
  std::size_t rows = 0, skipped = 0;
  for (const sched::Algorithm* algorithm : algorithms()) {
    ASSERT_TRUE(std::getline(lines, line)) << text;
    EXPECT_EQ(line.rfind(std::string(algorithm->name()) + " ", 0), 0u) << line;
    if (algorithm->refusal(instance).empty()) {
      ++rows;
      EXPECT_NE(line.find("n/a"), std::string::npos) << "the LP cells without the LP: " << line;
    } else {
      ++skipped;
      EXPECT_NE(line.find(" skipped: "), std::string::npos) << line;
    }
  }
  EXPECT_FALSE(std::getline(lines, line)) << text;
  EXPECT_GT(rows, 0u);
  EXPECT_GT(skipped, 0u) << "the BSP algorithms refuse two resources";
}

// Issue 41 case 10: `plan --algorithm all` on 100,000 tasks ran past 150 s with no output. On a large instance each
// algorithm is announced before it plans, and --skip leaves slow ones out (reported as skipped, not planned).
TEST(Comparison, ALargeInstanceAnnouncesEachAlgorithmAndSkippedOnesAreNotPlanned) {
  const sched::Instance instance = sched::parse_instance(kInstance, "inst");
  const auto bounds = sched::comparison_bounds(instance, sched::lower_bound(instance), false);
  const std::string skipped(algorithms().front()->name());
  ComparisonOptions options;
  options.skip = {skipped};
  options.announce_from_tasks = instance.task_count();  // "large" for this test
  test_support::RecordingReporter reporter;
  report_comparison(reporter, instance, bounds, options);
  EXPECT_EQ(reporter.results.size(), algorithms().size() + 1) << "every algorithm still has its line";
  const std::string rows = reporter.text_of("result");
  const std::size_t line = rows.find("\n" + skipped + " ");
  ASSERT_NE(line, std::string::npos) << rows;
  EXPECT_EQ(rows.find(" skipped: --skip\n", line), rows.find('\n', line + 1) - std::string(" skipped: --skip").size())
      << rows;
  const std::string notes = reporter.text_of("note");
  EXPECT_EQ(notes.find("with " + skipped + " "), std::string::npos) << "a skipped algorithm is not planned: " << notes;
  for (const sched::Algorithm* algorithm : algorithms()) {
    if (algorithm->name() == skipped || !algorithm->refusal(instance).empty()) continue;
    EXPECT_NE(notes.find(fmt::format("planning 3 tasks with {} (", algorithm->name())), std::string::npos) << notes;
  }
  test_support::RecordingReporter small;
  report_comparison(small, instance, bounds, {});
  EXPECT_TRUE(small.text_of("note").empty()) << "a small instance is planned without notes";
}

}  // namespace
}  // namespace cosched::sim
