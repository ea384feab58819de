// Property: whatever the actual durations (random, late or early) and failures, the engine never has more cores
// or fast chunks in use than the node has, never gives one core to two tasks, runs every task exactly once, and
// keeps the policies' order rules.
#include <gtest/gtest.h>

#include <stdexcept>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sched/algorithm.hpp"
#include "test_support.hpp"

namespace cosched::sim {
namespace {

// Checks the invariants at every event from outside the engine.
class LedgerCheck final : public EngineObserver {
 public:
  LedgerCheck(const LaunchPlan& plan, const sim::NodeResources& pool) : plan_(plan), pool_(pool) {
    in_use_.assign(plan.dimensions(), 0);
  }
  void task_started(std::size_t task, const TaskRun& run) override {
    ++starts_[task];
    for (std::size_t i = 0; i < in_use_.size(); ++i) {
      in_use_[i] += plan_.tasks[task].demand[i];
      EXPECT_LE(in_use_[i], plan_.capacities[i]) << plan_.resource_names[i];
    }
    for (unsigned core : run.grant.cores.cores) EXPECT_TRUE(cores_.insert(core).second) << "core " << core;
    EXPECT_EQ(run.grant.cores.size(), static_cast<std::size_t>(plan_.tasks[task].demand[0]));
    EXPECT_LE(pool_.budget()->used_bytes(), pool_.budget()->capacity_bytes());
  }
  void task_ended(std::size_t task, const TaskRun& run) override {
    for (std::size_t i = 0; i < in_use_.size(); ++i) in_use_[i] -= plan_.tasks[task].demand[i];
    for (unsigned core : run.grant.cores.cores) cores_.erase(core);
  }
  std::map<std::size_t, int> starts_;

 private:
  const LaunchPlan& plan_;
  const sim::NodeResources& pool_;
  std::vector<int> in_use_;
  std::set<unsigned> cores_;
};

TEST(OvercommitProperty, RandomSchedulesWithRandomActualDurationsNeverOvercommit) {
  std::mt19937 rng(2024);
  for (int round = 0; round < 40; ++round) {
    const int cores = std::uniform_int_distribution<int>(2, 16)(rng);
    const int chunks = std::uniform_int_distribution<int>(1, 20)(rng);
    const auto instance = testing::random_instance(rng, cores, chunks, 30);
    const auto names = testing::algorithms_for(instance);
    const std::string& algorithm = names[static_cast<std::size_t>(round) % names.size()];
    const LaunchPlan plan = testing::plan_with(instance, algorithm);
    std::vector<SimulatedOutcome> outcomes;
    std::uniform_real_distribution<double> stretch(0.3, 2.5);
    std::bernoulli_distribution fails(0.1);
    for (const auto& task : plan.tasks) {
      outcomes.push_back({task.predicted_duration * stretch(rng), fails(rng) ? TaskStatus::failed : TaskStatus::ok});
    }
    for (const std::string policy_name : {"auto", "list"}) {
      auto policy = make_policy(policy_name, plan);
      auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
      SimulatedClock clock(plan, [&](std::size_t task) { return outcomes[task]; });
      LedgerCheck check(plan, *pool);
      const EngineResult result = run_engine(plan, *policy, clock, *pool, &check);
      ASSERT_EQ(result.completed + result.failed, plan.tasks.size()) << algorithm;
      EXPECT_TRUE(result.overcommit_refusals.empty());
      for (std::size_t i = 0; i < plan.dimensions(); ++i) EXPECT_LE(result.peak_in_use[i], plan.capacities[i]);
      for (const auto& [task, count] : check.starts_) EXPECT_EQ(count, 1) << "task " << task;
      EXPECT_EQ(pool->budget()->used_bytes(), 0U);  // everything was given back
      // No task starts before its planned start (list) / before its previous pack ended (pack).
      for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
        const auto& run = result.runs[j];
        if (policy->name() == "list") {
          EXPECT_GE(run.launch.start + 1e-9, plan.tasks[j].planned_start);
        } else {
          for (std::size_t k = 0; k < plan.tasks.size(); ++k) {
            if (plan.tasks[k].pack < plan.tasks[j].pack) {
              EXPECT_LE(result.runs[k].completion.end, run.launch.start);
            }
          }
        }
      }
    }
  }
}

TEST(OvercommitProperty, APolicyThatPicksTooMuchIsRefusedAndReported) {
  // A deliberately wrong policy: it starts every pending task at once.
  class Greedy final : public Policy {
   public:
    [[nodiscard]] std::string_view name() const override { return "greedy"; }
    [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override {
      std::vector<StartChoice> all;
      for (std::size_t j = 0; j < view.runs.size(); ++j) {
        if (view.runs[j].state == TaskState::pending) all.push_back({j, view.plan.tasks[j].demand});
      }
      return all;
    }
    [[nodiscard]] std::optional<double> next_wakeup(const EngineView&) const override { return std::nullopt; }
  };
  LaunchPlan plan;
  plan.resource_names = {"cores", "fast_chunks"};
  plan.capacities = {2, 4};
  plan.tasks = {{"a", {1, 3}, 0, 1, -1}, {"b", {1, 3}, 0, 1, -1}, {"c", {2, 0}, 0, 1, -1}};
  Greedy policy;
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan);
  const EngineResult result = run_engine(plan, policy, clock, *pool);
  EXPECT_EQ(result.completed, 3U);
  EXPECT_FALSE(result.overcommit_refusals.empty());
  EXPECT_LE(result.peak_in_use[0], 2);
  EXPECT_LE(result.peak_in_use[1], 4);
}

// A policy that starts a task twice (the same index twice in one answer) is a bug in the policy: the engine says so
// in Release builds too, where its pending count would otherwise wrap and its loop wait forever (issue #27).
TEST(OvercommitProperty, APolicyThatStartsATaskTwiceIsAnInternalErrorNotAHang) {
  class Twice final : public Policy {
   public:
    [[nodiscard]] std::string_view name() const override { return "twice"; }
    [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override {
      if (view.runs[0].state != TaskState::pending) return {};
      return {{0, view.plan.tasks[0].demand}, {0, view.plan.tasks[0].demand}};
    }
    [[nodiscard]] std::optional<double> next_wakeup(const EngineView&) const override { return std::nullopt; }
  };
  LaunchPlan plan;
  plan.resource_names = {"cores", "fast_chunks"};
  plan.capacities = {4, 4};
  plan.tasks = {{"a", {1, 1}, 0, 1, -1}, {"b", {1, 1}, 0, 1, -1}};
  Twice policy;
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan);
  EXPECT_THROW((void)run_engine(plan, policy, clock, *pool), std::logic_error);
}

}  // namespace
}  // namespace cosched::sim
