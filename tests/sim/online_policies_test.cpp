// Every online policy, one test body (seed 000's setting, Sec. 2.1): on the engine and the simulated clock, each
// job starts no earlier than its release, nothing is ever over-committed (every resource type), every job
// completes, and the metrics agree with the run. Sequential, moldable and two-resource node workloads.
#include <gtest/gtest.h>

#include <random>

#include "cosched/common/error.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/online/policy.hpp"
#include "online_support.hpp"

namespace cosched::sim {
namespace {

// Options every registered policy accepts on the workloads below (Split needs >= 2 groups, the reservation
// scheme 1 <= X < m).
online::OnlineOptions suite_options() {
  online::OnlineOptions options;
  options.rho = 2.0;
  options.reserve = 1;
  options.threshold = 2.0;
  return options;
}

void expect_a_valid_run(const LaunchPlan& plan, const std::string& policy) {
  const EngineResult result = testing::run_online(plan, policy);
  ASSERT_EQ(result.completed, plan.tasks.size()) << policy;
  EXPECT_TRUE(result.overcommit_refusals.empty()) << policy << ": " << result.overcommit_refusals.front();
  for (std::size_t i = 0; i < plan.capacities.size(); ++i) {
    EXPECT_LE(result.peak_in_use[i], plan.capacities[i]) << policy << " " << plan.resource_names[i];
  }
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    const TaskRun& run = result.runs[j];
    EXPECT_GE(run.launch.start, plan.tasks[j].release) << policy << " job " << j;
    EXPECT_NEAR(run.completion.end - run.launch.start, plan.duration(j, run.grant.amounts), 1e-9) << policy;
  }
  const auto metrics = run_metrics(plan, result);
  EXPECT_EQ(metrics.completed, plan.tasks.size());
  EXPECT_GT(metrics.max_stretch, 0.0);
  EXPECT_LE(metrics.mean_stretch, metrics.max_stretch);
  EXPECT_LE(metrics.utilization, 1.0 + 1e-12);
  EXPECT_EQ(metrics.events, 2 * plan.tasks.size());
}

class EveryOnlinePolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryOnlinePolicy, SequentialJobsStartAfterReleaseWithoutOvercommitment) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> size(1.0, 20.0), gap(0.0, 3.0);
  for (int round = 0; round < 4; ++round) {
    std::vector<std::pair<double, double>> jobs;
    double release = 0.0;
    for (int j = 0; j < 40; ++j, release += gap(rng)) jobs.emplace_back(release, size(rng));
    expect_a_valid_run(online_plan(testing::sequential_workload(4, jobs), suite_options()), GetParam());
  }
}

TEST_P(EveryOnlinePolicy, MoldableJobsStartAfterReleaseWithoutOvercommitment) {
  std::mt19937 rng(5);
  for (int round = 0; round < 3; ++round) {
    expect_a_valid_run(online_plan(testing::random_moldable_workload(rng, 8, 30), suite_options()), GetParam());
  }
}

TEST_P(EveryOnlinePolicy, NodeJobsNeverOvercommitCoresOrFastChunks) {
  std::mt19937 rng(9);
  for (int round = 0; round < 3; ++round) {
    expect_a_valid_run(online_plan(testing::random_node_workload(rng, 4, 6, 25), suite_options()), GetParam());
  }
}

TEST_P(EveryOnlinePolicy, SimultaneousReleasesAndAnIdleStart) {
  // Jobs released together, and a first release after time 0: the engine waits for it.
  const auto workload = testing::sequential_workload(2, {{3.0, 2.0}, {3.0, 1.0}, {3.0, 4.0}, {10.0, 1.0}});
  const LaunchPlan plan = online_plan(workload, suite_options());
  expect_a_valid_run(plan, GetParam());
  const EngineResult result = testing::run_online(plan, GetParam());
  EXPECT_DOUBLE_EQ(result.runs[3].launch.start, 10.0);  // two processors are idle by then whatever the order
}

TEST_P(EveryOnlinePolicy, AResumedRunRunsWhatIsLeftAndNothingWhenNothingIs) {
  std::mt19937 rng(13);
  const LaunchPlan plan = online_plan(testing::random_moldable_workload(rng, 4, 12), suite_options());
  std::vector<std::string> done;
  for (std::size_t j = 0; j < plan.tasks.size(); j += 2) done.push_back(plan.tasks[j].id);
  const LaunchPlan rest = remaining_plan(plan, done);
  ASSERT_EQ(rest.tasks.size(), plan.tasks.size() - done.size());
  EXPECT_DOUBLE_EQ(rest.tasks.front().release, 0.0);  // releases shifted with the planned starts
  expect_a_valid_run(rest, GetParam());

  std::vector<std::string> all;
  for (const PlannedTask& task : plan.tasks) all.push_back(task.id);
  const LaunchPlan nothing = remaining_plan(plan, all);
  EXPECT_TRUE(nothing.tasks.empty());
  const EngineResult result = testing::run_online(nothing, GetParam());
  EXPECT_EQ(result.completed, 0U);
  EXPECT_EQ(run_metrics(nothing, result).jobs, 0U);
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryOnlinePolicy, ::testing::ValuesIn(online::online_policy_names()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EveryOnlinePolicy);

TEST(OnlinePlans, RefuseTheLaunchRulesAndSchedulesRefuseOnlinePolicies) {
  const LaunchPlan plan = online_plan(testing::sequential_workload(2, {{0.0, 1.0}}), {});
  EXPECT_THROW((void)make_policy("list", plan), UsageError);
  EXPECT_THROW((void)make_policy("auto", plan), UsageError);
  EXPECT_THROW((void)make_policy("no-such-policy", plan), UsageError);
}

}  // namespace
}  // namespace cosched::sim
