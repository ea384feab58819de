// Re-planning as results arrive (sim/replanning.hpp): the greedy rule shows each task that ends to its replanner and
// takes the order and allocations it gives the pending tasks; the other rules run the plan as made.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/replanning.hpp"

namespace cosched::sim {
namespace {

// A plan of one-core tasks on `cores` cores in the given order (planned starts 0, 1, 2 ...).
LaunchPlan one_core_plan(int cores, const std::vector<std::string>& ids) {
  LaunchPlan plan;
  plan.algorithm = "test";
  plan.launch_rule = "greedy";
  plan.resource_names = {"cores"};
  plan.capacities = {cores};
  for (std::size_t j = 0; j < ids.size(); ++j) {
    plan.tasks.push_back({ids[j], {1}, static_cast<double>(j), 1.0});
  }
  return plan;
}

// Answers each ended task with what `answer` gives, and keeps what it was shown.
class ScriptedReplanner final : public Replanner {
 public:
  explicit ScriptedReplanner(std::function<std::optional<Replan>(std::size_t, const EngineView&)> answer)
      : answer_(std::move(answer)) {}
  std::optional<Replan> task_ended(std::size_t task, const EngineView& view, const StandingList&) override {
    shown.push_back({task, view.now});
    return answer_(task, view);
  }
  struct Shown {
    std::size_t task;
    double now;
  };
  std::vector<Shown> shown;

 private:
  std::function<std::optional<Replan>(std::size_t, const EngineView&)> answer_;
};

// Runs `plan` under `rule` with `replanner`, each task taking durations[task] on one core and half of it on more.
EngineResult run(const LaunchPlan& plan, const std::string& rule, Replanner& replanner,
                 const std::vector<double>& durations) {
  auto policy = make_policy(rule, plan, &replanner);
  auto pool = make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock([&](std::size_t task, const platform::Grant& grant) {
    return SimulatedOutcome{grant.amounts[0] > 1 ? durations[task] / 2 : durations[task], TaskStatus::ok};
  });
  return run_engine(plan, *policy, clock, *pool);
}

TEST(Replanning, TheGreedyRuleTakesARePlansOrderAndAllocations) {
  // 2 cores: a and b start at 0; a ends at 1 and re-plans: d first on both cores, then c. d waits for b (ends at 3)
  // and takes 2 cores (4 s / 2), then c.
  const LaunchPlan plan = one_core_plan(2, {"a", "b", "c", "d"});
  ScriptedReplanner replanner([](std::size_t task, const EngineView&) -> std::optional<Replan> {
    if (task != 0) return std::nullopt;
    return Replan{{{3, {2}}, {2, {1}}}};
  });
  const EngineResult result = run(plan, "greedy", replanner, {1.0, 3.0, 1.0, 4.0});
  ASSERT_EQ(result.completed, 4U);
  EXPECT_DOUBLE_EQ(result.runs[3].launch.start, 3.0);
  EXPECT_EQ(result.runs[3].grant.amounts, std::vector<int>{2});
  EXPECT_DOUBLE_EQ(result.runs[2].launch.start, 5.0) << "c after d, as the re-plan ordered";
  EXPECT_DOUBLE_EQ(result.observed_makespan, 6.0);
  ASSERT_FALSE(replanner.shown.empty());
  EXPECT_EQ(replanner.shown.front().task, 0U);
  EXPECT_DOUBLE_EQ(replanner.shown.front().now, 1.0) << "shown when it ended";
  EXPECT_EQ(replanner.shown.size(), 3U) << "every task that ends while the batch goes on: a, b, d (c ends it)";
}

TEST(Replanning, PendingTasksARePlanLeavesOutKeepTheirOrderAfterIt) {
  // 1 core: a runs first; the re-plan names d only: d, then b and c in their old order.
  const LaunchPlan plan = one_core_plan(1, {"a", "b", "c", "d"});
  ScriptedReplanner replanner([](std::size_t task, const EngineView&) -> std::optional<Replan> {
    if (task != 0) return std::nullopt;
    return Replan{{{3, {1}}}};
  });
  const EngineResult result = run(plan, "greedy", replanner, {1.0, 1.0, 1.0, 1.0});
  EXPECT_DOUBLE_EQ(result.runs[3].launch.start, 1.0);
  EXPECT_DOUBLE_EQ(result.runs[1].launch.start, 2.0);
  EXPECT_DOUBLE_EQ(result.runs[2].launch.start, 3.0);
}

TEST(Replanning, WithoutARePlanTheGreedyRuleRunsThePlanAsMade) {
  const LaunchPlan plan = one_core_plan(2, {"a", "b", "c"});
  ScriptedReplanner replanner([](std::size_t, const EngineView&) -> std::optional<Replan> { return std::nullopt; });
  const EngineResult result = run(plan, "greedy", replanner, {1.0, 2.0, 1.0});
  EXPECT_DOUBLE_EQ(result.runs[2].launch.start, 1.0);
  EXPECT_EQ(result.runs[2].grant.amounts, std::vector<int>{1});
  EXPECT_EQ(replanner.shown.size(), 1U) << "a; b and c end the batch together";
}

// The rules that keep their plan never ask: the list rule's planned starts and a pack's boundaries would not hold.
TEST(Replanning, TheListRuleNeverAsks) {
  const LaunchPlan plan = one_core_plan(2, {"a", "b", "c"});
  ScriptedReplanner replanner([](std::size_t, const EngineView&) -> std::optional<Replan> {
    ADD_FAILURE() << "the list rule asked for a re-plan";
    return std::nullopt;
  });
  const EngineResult result = run(plan, "list", replanner, {1.0, 1.0, 1.0});
  EXPECT_EQ(result.completed, 3U);
  EXPECT_TRUE(replanner.shown.empty());
}

TEST(Replanning, ARePlanOfATaskNotPendingOrBeyondTheNodeIsAnInternalError) {
  const LaunchPlan plan = one_core_plan(2, {"a", "b", "c"});
  ScriptedReplanner running([](std::size_t task, const EngineView&) -> std::optional<Replan> {
    if (task != 0) return std::nullopt;
    return Replan{{{1, {1}}}};  // b is still running when a ends
  });
  EXPECT_THROW((void)run(plan, "greedy", running, {1.0, 2.0, 1.0}), std::logic_error);
  ScriptedReplanner too_wide([](std::size_t task, const EngineView&) -> std::optional<Replan> {
    if (task != 0) return std::nullopt;
    return Replan{{{2, {3}}}};
  });
  EXPECT_THROW((void)run(plan, "greedy", too_wide, {1.0, 2.0, 1.0}), std::logic_error);
}

// What a re-plan is weighed with (prediction.hpp): the rest of a launch run greedily from now, and a running task's
// time left.
TEST(GreedyRest, RunningTasksHoldTheirCoresThenThePendingOnesStartInOrder) {
  // 2 cores: r (both cores, 1 s left), then a (1 core, 3 s) and b (1 core, 2 s) side by side: 4 s. With b on both
  // cores first, a waits for it: 1 + 2 + 3 = 6 s.
  const std::vector<RestTask> running{{"r", {2}, 1.0}};
  EXPECT_DOUBLE_EQ(greedy_rest_seconds({"cores"}, {2}, running, {{"a", {1}, 3.0}, {"b", {1}, 2.0}}), 4.0);
  EXPECT_DOUBLE_EQ(greedy_rest_seconds({"cores"}, {2}, running, {{"b", {2}, 2.0}, {"a", {1}, 3.0}}), 6.0);
  EXPECT_EQ(greedy_rest_seconds({"cores"}, {2}, running, {{"a", {1}, std::numeric_limits<double>::infinity()}}),
            std::numeric_limits<double>::infinity());
}

TEST(GreedyRest, ARunningTaskOverItsPredictionHasATenthOfItLeft) {
  EXPECT_DOUBLE_EQ(running_time_left(10.0, 4.0), 6.0);
  EXPECT_DOUBLE_EQ(running_time_left(10.0, 12.0), 1.0);
  EXPECT_DOUBLE_EQ(running_time_left(std::numeric_limits<double>::infinity(), 5.0), 5.0);
  EXPECT_DOUBLE_EQ(running_time_left(std::numeric_limits<double>::infinity(), 0.0), 1e-6);
}

}  // namespace
}  // namespace cosched::sim
