// Knowing pays for itself over a batch's runs (issue 39): what a run's automatic profiling budget did not spend is
// kept in the node's launch history, and a later run of the same batch may draw on it (saved_profiling_budget,
// ProfileBudget::max_saved_shares).
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/run_history.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

struct ProfilingSavings : ::testing::Test {
  ProfileCache cache{testing::scratch_dir("profiling-savings"), NodeFingerprint{"host", "Some CPU", 2, "none", 5.0}};

  void launch(const std::string& batch, std::optional<double> share, double spent) {
    record_launch(cache, {batch, 10.0, 9.0, 11.0, 10.0}, {share, spent, std::nullopt});
  }
};

TEST_F(ProfilingSavings, AreTheSharesLessWhatWasSpentNeverADebt) {
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 0.0) << "no history";
  launch("b", 1.0, 0.0);   // saved 1
  launch("b", 1.0, 0.25);  // 1.75
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 1.75);
  launch("b", 1.0, 5.0);   // spent its share and every saving, and more: 0, not a debt
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 0.0);
  launch("b", 1.0, 0.5);   // 0.5 from there
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 0.5);
  launch("other", 3.0, 0.0);
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 0.5) << "another batch's savings are its own";
  launch("b", std::nullopt, 0.0);  // a budget the user gave neither saves nor draws
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 0.5);
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "other"), 3.0);
}

// The history's profiling fields as its header says: a run's share and what it spent, both null when the user gave
// the budget; a line whose figures are not numbers >= 0 (a damaged or hand-edited file) saves nothing. (A number
// beyond a double's range makes the JSON parser refuse the whole line: no line read has an infinite figure.)
TEST_F(ProfilingSavings, AreWrittenAsTheHistorysSchemaSaysAndReadOnlyWhenSound) {
  launch("b", 1.0, 0.25);
  launch("b", std::nullopt, 0.5);
  std::vector<nlohmann::json> lines;
  std::istringstream text(testing::read_text(launch_history_path(cache)));
  for (std::string line; std::getline(text, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].at("profiling_share_s"), 1.0);
  EXPECT_EQ(lines[0].at("profiling_spent_s"), 0.25);
  EXPECT_TRUE(lines[1].at("profiling_share_s").is_null());
  EXPECT_TRUE(lines[1].at("profiling_spent_s").is_null()) << "a user's budget: nothing to save or draw";
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 0.75);

  std::ofstream(launch_history_path(cache), std::ios::app)
      << R"({"batch": "b", "profiling_share_s": 1e999, "profiling_spent_s": 0})" << "\n"
      << R"({"batch": "b", "profiling_share_s": 2, "profiling_spent_s": -1})" << "\n";
  EXPECT_DOUBLE_EQ(saved_profiling_budget(cache, "b"), 0.75) << "a share out of range, a negative spent: passed over";
}

// The overhead a profiling run paid, recorded per launch, of any batch: the largest of the last five recorded
// (a launch without one passed over), nothing when none was.
TEST_F(ProfilingSavings, TheRecentRunOverheadIsTheLargestOfTheLastFiveRecorded) {
  EXPECT_FALSE(recent_run_overhead(cache).has_value());
  const auto overhead = [&](std::optional<double> seconds) {
    record_launch(cache, {"b", 10.0, 9.0, 11.0, 10.0}, {1.0, 0.5, seconds});
  };
  overhead(std::nullopt);
  EXPECT_FALSE(recent_run_overhead(cache).has_value());
  overhead(0.3);
  EXPECT_DOUBLE_EQ(*recent_run_overhead(cache), 0.3);
  for (const double seconds : {0.1, 0.05, 0.02}) overhead(seconds);
  overhead(std::nullopt);
  overhead(0.04);
  EXPECT_DOUBLE_EQ(*recent_run_overhead(cache), 0.3) << "0.3 is one of the last five recorded";
  overhead(0.03);
  EXPECT_DOUBLE_EQ(*recent_run_overhead(cache), 0.1) << "0.3 is six recorded ago";
  const std::string last = testing::read_text(launch_history_path(cache));
  EXPECT_NE(last.find("\"profiling_run_overhead_s\":0.03"), std::string::npos) << last;
}

// What the launches' memory warm-ups cost a byte, the slowest of the last five recorded of at least 16 MiB (a
// launch without one, or with a smaller one, passed over): 256 MiB in 0.5 s is 2 s a GiB.
TEST_F(ProfilingSavings, TheWarmUpRateIsTheSlowestOfTheLastFiveRecorded) {
  EXPECT_FALSE(recent_warm_up_seconds_per_byte(cache).has_value());
  const auto warmed = [&](std::optional<std::uint64_t> mib, std::optional<double> seconds) {
    RecordedLaunch launch{"b", 10.0, 9.0, 11.0, 10.0};
    if (mib) launch.warm_up_bytes = *mib << 20;
    launch.warm_up_s = seconds;
    record_launch(cache, launch);
  };
  const double gib = static_cast<double>(std::uint64_t{1} << 30);
  warmed(std::nullopt, std::nullopt);
  warmed(1, 5.0);  // 1 MiB: too small to tell a rate
  EXPECT_FALSE(recent_warm_up_seconds_per_byte(cache).has_value());
  warmed(256, 0.5);
  EXPECT_NEAR(*recent_warm_up_seconds_per_byte(cache) * gib, 2.0, 1e-9);
  for (int k = 0; k < 4; ++k) warmed(512, 0.25);  // 0.5 s a GiB
  EXPECT_NEAR(*recent_warm_up_seconds_per_byte(cache) * gib, 2.0, 1e-9) << "one of the last five";
  warmed(512, 0.25);
  EXPECT_NEAR(*recent_warm_up_seconds_per_byte(cache) * gib, 0.5, 1e-9) << "six recorded ago";
  const std::string text = testing::read_text(launch_history_path(cache));
  EXPECT_NE(text.find("\"warm_up_bytes\":536870912"), std::string::npos) << text;
  EXPECT_NE(text.find("\"warm_up_bytes\":null"), std::string::npos) << text;
}

TEST_F(ProfilingSavings, AnAutomaticBudgetAddsWhatEarlierRunsSavedUpToItsCap) {
  config::Workload workload;
  workload.name = "b";
  workload.tasks = {testing::command_task("t", {"true"})};
  // Known: one observed run of 2 s, so the automatic budget is 10 % of a predicted 2 s = 0.2 s.
  ASSERT_EQ(learn_from_launch(workload, {{"t", {1}, 2.0, 1.0}}, cache, "preferred"), 1U);
  test_support::RecordingReporter reporter;
  LearningOptions options;
  options.launched.platform = testing::cores_only_platform(2);
  options.launched.tier = exec::TierSetup{};
  options.launched.reporter = &reporter;
  // At most 1.2 shares drawn: 2.2 shares (0.44 s) stay under what knowing more may save here (one run on one core,
  // its 2-core time the prior's: 0.49 s), which would bound the budget too (learning_test.cpp).
  options.budget.max_saved_shares = 1.2;
  // Every run the strategy wants is quoted at about the observed 2 s, more than any budget here: nothing runs.

  const auto budget_now = [&] { return learn_batch(workload, cache, options); };
  BatchKnowledge known = budget_now();
  ASSERT_TRUE(known.share_s.has_value());
  const double share = *known.share_s;
  EXPECT_NEAR(known.budget_s, share, 1e-12) << "nothing saved yet";
  EXPECT_EQ(known.budget_why.find("earlier runs saved"), std::string::npos) << "nothing to say: " << known.budget_why;

  launch("b", share, 0.0);
  known = budget_now();
  EXPECT_NEAR(known.budget_s, 2.0 * share, 1e-9) << "its share and the one the last run left";
  EXPECT_NE(known.budget_why.find("its earlier runs saved"), std::string::npos) << known.budget_why;

  for (int k = 0; k < 10; ++k) launch("b", share, 0.0);
  known = budget_now();
  EXPECT_NEAR(known.budget_s, (1.0 + options.budget.max_saved_shares) * share, 1e-9) << "at most the cap drawn";

  options.budget.seconds = 0.5;
  known = budget_now();
  EXPECT_DOUBLE_EQ(known.budget_s, 0.5) << "a budget the user gave is the budget";
  EXPECT_FALSE(known.share_s.has_value());
}

}  // namespace
}  // namespace cosched::profiler
