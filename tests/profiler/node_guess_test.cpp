// The guess for a batch of which nothing is known (learning.cpp unknown_guess): what tasks on this node take — the
// median one-core time of the kinds its store knows from other batches (profiler::node_task_seconds) —, a second
// only on a node that knows nothing, and nothing of the store with --reprofile.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cosched/profiler/learning.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

KindKnowledge kind_with(const std::vector<knowledge::Measurement>& runs) {
  KindKnowledge kind;
  for (const knowledge::Measurement& run : runs) kind.runs.push_back({run, RunSource::observed, "2026-11-29T00:00:00Z"});
  return kind;
}

TEST(NodeTaskSeconds, AreEachKindsOneCoreMedianAtTheMostWorkItRanThere) {
  const std::vector<KindKnowledge> stored{
      kind_with({{1, 0, 1.0, 2.0}, {1, 0, 1.0, 4.0}, {2, 0, 1.0, 1.0}}),          // 3 s: the 2-core run is not one
      kind_with({{1, 0, 10.0, 5.0}, {1, 0, 100.0, 40.0}, {1, 0, 100.0, 60.0}}),  // 50 s: at work 100, not 10
      kind_with({{2, 0, 1.0, 7.0}}),                                             // no one-core run: left out
      kind_with({{1, 2, 1.0, 7.0}})};                                            // fast memory only: left out
  EXPECT_EQ(node_task_seconds(stored), (std::vector<double>{3.0, 50.0}));
}

struct NodeGuess : ::testing::Test {
  ProfileCache cache{testing::scratch_dir("node-guess"), NodeFingerprint{"host", "Some CPU", 2, "none", 5.0}};
  test_support::RecordingReporter reporter;

  // What the batch's tasks are planned at, with nothing measured now (budget 0).
  KnowledgeInstance planned(config::Workload& workload, bool forget) {
    LearningOptions options;
    options.launched.platform = testing::cores_only_platform(2);
    options.launched.tier = exec::TierSetup{};
    options.launched.reporter = &reporter;
    options.budget.seconds = 0.0;
    options.forget = forget;
    const BatchKnowledge known = learn_batch(workload, cache, options);
    return knowledge_instance(workload, known, options.launched.platform, nullptr, false);
  }
};

TEST_F(NodeGuess, ABatchOfNewKindsIsGuessedAtWhatThisNodesTasksTake) {
  config::Workload earlier;
  earlier.name = "earlier";
  earlier.tasks = {testing::command_task("quick", {"true"}), testing::command_task("slow", {"sh", "-c", "exit 0"})};
  ASSERT_EQ(learn_from_launch(earlier, {{"quick", {1}, 0.2, 1.0}, {"slow", {1}, 0.8, 1.0}}, cache, "preferred"), 2U);

  config::Workload fresh;
  fresh.name = "fresh";
  fresh.tasks = {testing::command_task("new", {"sh", "-c", "exit 1"})};
  const std::vector<int> one_core{1};
  // The median of 0.2 s and 0.8 s; their ln spread (0.73) is below the floor of 1.
  const KnowledgeInstance guessed = planned(fresh, false);
  EXPECT_DOUBLE_EQ(guessed.instance.time(0, one_core), 0.5);
  EXPECT_DOUBLE_EQ(guessed.log_sd[0][1], 1.0);
  // --reprofile sets the store aside: the second from nothing, and its wider spread.
  const KnowledgeInstance afresh = planned(fresh, true);
  EXPECT_DOUBLE_EQ(afresh.instance.time(0, one_core), 1.0);
  EXPECT_DOUBLE_EQ(afresh.log_sd[0][1], 1.5);
}

}  // namespace
}  // namespace cosched::profiler
