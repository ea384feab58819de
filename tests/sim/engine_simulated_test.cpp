// The engine on the simulated clock: with exact durations it reproduces every algorithm's planned schedule (list
// and pack policies), the list rule keeps list order when a task runs late, and pack boundaries hold.
#include <gtest/gtest.h>

#include <random>
#include <vector>
#include <utility>
#include <algorithm>

#include "cosched/common/error.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sched/algorithm.hpp"
#include "test_support.hpp"

namespace cosched::sim {
namespace {

EngineResult simulate(const LaunchPlan& plan, const std::string& policy_name) {
  auto policy = make_policy(policy_name, plan);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan);
  return run_engine(plan, *policy, clock, *pool);
}

TEST(EngineSimulated, ReproducesThePlannedScheduleOfEveryAlgorithmWhenDurationsAreExact) {
  std::mt19937 rng(7);
  for (int round = 0; round < 5; ++round) {
    const auto instance = testing::random_instance(rng, 8, 20, 25);
    for (const auto& name : testing::algorithms_for(instance)) {
      const LaunchPlan plan = testing::plan_with(instance, name);
      const EngineResult result = simulate(plan, "auto");
      ASSERT_EQ(result.completed, plan.tasks.size()) << name;
      EXPECT_TRUE(result.overcommit_refusals.empty()) << name;
      for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
        EXPECT_NEAR(result.runs[j].launch.start, plan.tasks[j].planned_start, 1e-9) << name << " task " << j;
        EXPECT_NEAR(result.runs[j].completion.end, plan.tasks[j].planned_end(), 1e-9) << name << " task " << j;
      }
      EXPECT_NEAR(result.observed_makespan, plan.predicted_makespan(), 1e-9) << name;
    }
  }
}

TEST(EngineSimulated, ListPolicyAlsoReproducesPackSchedules) {
  // A pack schedule is a valid schedule too: the list rule (planned starts) gives the same one.
  std::mt19937 rng(11);
  const auto instance = testing::random_instance(rng, 4, 10, 15);
  const LaunchPlan plan = testing::plan_with(instance, "t-pack-ff");
  const EngineResult result = simulate(plan, "list");
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    EXPECT_NEAR(result.runs[j].launch.start, plan.tasks[j].planned_start, 1e-9);
  }
}

// A clock on which time moves between two reads, as a wall clock's does: every now() is `tick` later than the one
// before; a task ends `durations[task]` after it started.
class TickingClock final : public Clock {
 public:
  TickingClock(std::vector<double> durations, double tick) : durations_(std::move(durations)), tick_(tick) {}
  [[nodiscard]] std::string_view name() const override { return "ticking"; }
  [[nodiscard]] double now() override { return t_ += tick_; }
  LaunchRecord launch(std::size_t task, const platform::Grant&) override {
    Completion end;
    end.task = task;
    end.end = t_ + durations_[task];
    ends_.push_back(end);
    LaunchRecord record;
    record.start = t_;
    return record;
  }
  std::vector<Completion> wait(std::optional<double> wake_at) override {
    const auto next = std::min_element(ends_.begin(), ends_.end(),
                                       [](const Completion& a, const Completion& b) { return a.end < b.end; });
    if (next == ends_.end() || (wake_at && *wake_at < next->end)) {
      if (wake_at) t_ = std::max(t_, *wake_at);
      return {};
    }
    Completion done = *next;
    done.exit_code = 0;
    ends_.erase(next);
    t_ = std::max(t_, done.end);
    return {done};
  }
  std::vector<Completion> stop_running() override { return std::exchange(ends_, {}); }

 private:
  std::vector<double> durations_;
  double tick_;
  double t_ = 0.0;
  std::vector<Completion> ends_;
};

// a ends a little before b's planned start, and the clock crosses that start between the list policy's "what
// starts now" and its "when to wake": the engine must neither start b early nor take the batch for stuck (a demo
// run once stopped with "6 tasks pending, none running and the 'list' policy starts none").
TEST(EngineSimulated, AClockThatMovesBetweenTwoReadsDoesNotStopAListPlan) {
  LaunchPlan plan;
  plan.algorithm = "hand-made";
  plan.resource_names = {"cores"};
  plan.capacities = {2};
  plan.tasks = {{"a", {2}, 0.0, 1.0, -1}, {"b", {2}, 1.0, 1.0, -1}};
  // a's end on a grid finer than the clock's tick: for some of them b's planned start falls between two reads.
  for (int step = 0; step < 100; ++step) {
    const double duration = 0.9 + 0.001 * step;
    auto policy = make_policy("list", plan);
    auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
    TickingClock clock({duration, 1.0}, 0.01);
    const EngineResult result = run_engine(plan, *policy, clock, *pool);
    EXPECT_EQ(result.completed, 2U) << duration;
    EXPECT_GE(result.runs[1].launch.start, 1.0) << duration;  // never before its planned start
  }
}

LaunchPlan two_core_plan() {
  LaunchPlan plan;
  plan.algorithm = "hand-made";
  plan.resource_names = {"cores"};
  plan.capacities = {2};
  plan.tasks = {{"a", {2}, 0.0, 1.0, -1}, {"b", {2}, 1.0, 1.0, -1}, {"c", {1}, 2.0, 1.0, -1}};
  return plan;
}

TEST(EngineSimulated, ALateTaskDelaysTheTasksWaitingForItsResourcesInListOrder) {
  const LaunchPlan plan = two_core_plan();
  auto policy = make_policy("list", plan);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan, [](std::size_t task) {
    return SimulatedOutcome{task == 0 ? 3.0 : 1.0, TaskStatus::ok};  // a runs 2 s late
  });
  const EngineResult result = run_engine(plan, *policy, clock, *pool);
  EXPECT_DOUBLE_EQ(result.runs[0].launch.start, 0.0);
  EXPECT_DOUBLE_EQ(result.runs[1].launch.start, 3.0);  // waits for a's cores
  EXPECT_DOUBLE_EQ(result.runs[2].launch.start, 4.0);  // waits behind b: list order is kept
  EXPECT_DOUBLE_EQ(result.observed_makespan, 5.0);
}

TEST(EngineSimulated, AnEarlyTaskDoesNotPullLaterTasksBeforeTheirPlannedStart) {
  const LaunchPlan plan = two_core_plan();
  auto policy = make_policy("list", plan);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan, [](std::size_t) { return SimulatedOutcome{0.25, TaskStatus::ok}; });
  const EngineResult result = run_engine(plan, *policy, clock, *pool);
  EXPECT_DOUBLE_EQ(result.runs[1].launch.start, 1.0);
  EXPECT_DOUBLE_EQ(result.runs[2].launch.start, 2.0);
}

TEST(EngineSimulated, PackPolicyStartsAPackOnlyWhenThePreviousOneHasFullyFinished) {
  LaunchPlan plan;
  plan.resource_names = {"cores"};
  plan.capacities = {4};
  plan.tasks = {{"p0a", {2}, 0.0, 2.0, 0}, {"p0b", {2}, 0.0, 1.0, 0}, {"p1a", {1}, 2.0, 1.0, 1},
                {"p1b", {3}, 2.0, 0.5, 1}};
  auto policy = make_policy("auto", plan);
  EXPECT_EQ(policy->name(), "pack");
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan, [](std::size_t task) { return SimulatedOutcome{task == 1 ? 4.0 : 1.0, TaskStatus::ok}; });
  const EngineResult result = run_engine(plan, *policy, clock, *pool);
  EXPECT_DOUBLE_EQ(result.runs[2].launch.start, 4.0);  // p0b ran until 4
  EXPECT_DOUBLE_EQ(result.runs[3].launch.start, 4.0);  // the whole pack starts together
}

TEST(EngineSimulated, FailFastStopsTheBatchAndOtherwiseItContinues) {
  const LaunchPlan plan = two_core_plan();
  const auto outcome = [](std::size_t task) {
    return SimulatedOutcome{1.0, task == 0 ? TaskStatus::failed : TaskStatus::ok};
  };
  for (const bool fail_fast : {false, true}) {
    auto policy = make_policy("list", plan);
    auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
    SimulatedClock clock(plan, outcome);
    const EngineResult result = run_engine(plan, *policy, clock, *pool, nullptr, EngineOptions{fail_fast});
    EXPECT_EQ(result.failed, 1U);
    EXPECT_EQ(result.stopped_by_failure, fail_fast);
    EXPECT_EQ(result.completed, fail_fast ? 0U : 2U);
    EXPECT_EQ(result.not_started, fail_fast ? 2U : 0U);
  }
}

TEST(EngineSimulated, ADemandThatCanNeverFitIsReportedNotAHang) {
  LaunchPlan plan;
  plan.resource_names = {"cores"};
  plan.capacities = {2};
  plan.tasks = {{"too-big", {3}, 0.0, 1.0, -1}};
  auto policy = make_policy("list", plan);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan);
  EXPECT_THROW((void)run_engine(plan, *policy, clock, *pool), RuntimeFailure);
}

TEST(EngineSimulated, UnknownPolicyAndPackPolicyOnAListScheduleAreUsageErrors) {
  const LaunchPlan plan = two_core_plan();
  EXPECT_THROW((void)make_policy("fifo", plan), UsageError);
  EXPECT_THROW((void)make_policy("pack", plan), UsageError);
  EXPECT_EQ(make_policy("auto", plan)->name(), "list");
}

}  // namespace
}  // namespace cosched::sim
