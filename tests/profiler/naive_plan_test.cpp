// The naive way a first run takes when nothing is known (sched::naive_cores, naive_schedule): one core each as
// `xargs -P <cores>` does, or with fewer tasks than cores the node shared evenly — never a core left idle for the
// whole batch.
#include <gtest/gtest.h>

#include <tuple>

#include "cosched/profiler/learning.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

// (node cores, tasks, cores each, the last task's start in seconds of the 1-s guess)
class NaivePlan : public ::testing::TestWithParam<std::tuple<unsigned, std::size_t, int, double>> {};

TEST_P(NaivePlan, RunsTheGuessedTasksOnTheirShareInTheFilesOrder) {
  const auto [cores, tasks, each, last_start] = GetParam();
  const ProfileCache cache(testing::scratch_dir("naive-plan"), NodeFingerprint{"host", "Some CPU", 1, "none", 5.0});
  config::Workload workload;
  workload.name = "naive";
  for (std::size_t k = 0; k < tasks; ++k) {
    workload.tasks.push_back(testing::command_task("t" + std::to_string(k), {"sh", "-c", "exit " + std::to_string(k)}));
  }
  test_support::RecordingReporter reporter;
  LearningOptions options;
  options.launched.platform = testing::cores_only_platform(cores);
  options.launched.tier = exec::TierSetup{};
  options.launched.reporter = &reporter;
  const BatchKnowledge known = learn_batch(workload, cache, options);
  ASSERT_EQ(known.unknown_kinds(), tasks);
  const KnowledgeInstance made = knowledge_instance(workload, known, options.launched.platform, nullptr, false);
  const sched::Schedule schedule = naive_schedule(made.instance);
  ASSERT_EQ(schedule.tasks.size(), tasks);
  for (const sched::ScheduledTask& task : schedule.tasks) {
    EXPECT_EQ(task.alloc.front(), each);
    EXPECT_DOUBLE_EQ(task.duration, 1.0) << "the guess from nothing, whatever its cores: no speed-up assumed";
  }
  EXPECT_DOUBLE_EQ(schedule.tasks.back().start, last_start) << "each slot's tasks one after the other";
  EXPECT_TRUE(sched::find_violations(made.instance, schedule).empty());
}

INSTANTIATE_TEST_SUITE_P(Shapes, NaivePlan,
                         ::testing::Values(std::make_tuple(2U, std::size_t{3}, 1, 1.0),   // xargs -P 2
                                           std::make_tuple(2U, std::size_t{1}, 2, 0.0),   // the whole node
                                           std::make_tuple(8U, std::size_t{3}, 2, 0.0),   // 2 cores idle
                                           std::make_tuple(4U, std::size_t{4}, 1, 0.0),
                                           std::make_tuple(1U, std::size_t{3}, 1, 2.0)));  // 0, 1, 2 s on one core

}  // namespace
}  // namespace cosched::profiler
