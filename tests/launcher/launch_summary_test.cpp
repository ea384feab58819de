// The summary of a launch: both predictions side by side with what was observed.
#include <gtest/gtest.h>

#include <string>

#include "cosched/launcher/launch.hpp"

namespace cosched::launcher {
namespace {

TEST(LaunchSummary, GivesTheErrorOfEachPrediction) {
  LaunchSummary summary;
  summary.predicted_makespan = 2.0;
  summary.observed_makespan = 2.2;
  EXPECT_NEAR(summary.error_paper().value(), 0.1, 1e-12);
  EXPECT_FALSE(summary.error_contention().has_value());
  summary.predicted_makespan_contention = 2.2;
  EXPECT_DOUBLE_EQ(summary.error_contention().value(), 0.0);
}

// The line before a run says the node's cores, its fast chunks when it has any, and the tier backend (emulated
// ones said loudly).
TEST(LaunchSummary, TheNodeOfARunInWords) {
  config::PlatformConfig node;
  node.cores = 4;
  node.fast_chunks = 0;
  exec::TierSetup tier;
  EXPECT_EQ(describe_node(node, tier), "4 cores, tier backend none");
  node.fast_chunks = 20;
  tier.backend = "emulated";
  EXPECT_EQ(describe_node(node, tier), "4 cores + 20 fast chunks, tier backend emulated (EMULATED fast tier)");
  tier.backend = "numa";
  EXPECT_EQ(describe_node(node, tier), "4 cores + 20 fast chunks, tier backend numa");
}

TEST(LaunchSummary, ShowsBothPredictionsOrSaysWhyOneIsMissing) {
  LaunchSummary summary;
  summary.lower_bound = 1.0;
  summary.predicted_makespan = 2.0;
  summary.observed_makespan = 2.5;
  summary.predicted_makespan_contention = 2.4;
  summary.tasks = {{"a", 0.0, 2.0, 0.0, 2.4, 0.0, 2.5, 0.001, sim::TaskStatus::ok}};
  const std::string text = format_summary(summary);
  EXPECT_NE(text.find("d end (c)"), std::string::npos) << text;
  EXPECT_NE(text.find("+0.100"), std::string::npos) << text;  // observed end 2.5 - contention end 2.4
  EXPECT_NE(text.find("+25.0 % (paper model)"), std::string::npos) << text;
  EXPECT_NE(text.find("+4.2 % (contention-aware)"), std::string::npos) << text;
  summary.predicted_makespan_contention.reset();
  summary.tasks[0].predicted_contention_end.reset();
  const std::string paper_only = format_summary(summary);
  EXPECT_EQ(paper_only.find("d end (c)"), std::string::npos) << paper_only;
  EXPECT_NE(paper_only.find("contention-aware     unavailable (no bandwidth model)"), std::string::npos) << paper_only;
}

}  // namespace
}  // namespace cosched::launcher
