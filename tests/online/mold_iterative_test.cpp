// Iterative and Improved Iterative (seed 000, Sec. 5.4).
#include <gtest/gtest.h>

#include "cosched/online/moldable.hpp"
#include "online/support.hpp"

namespace cosched::online {
namespace {

using testing::by_processors;
using testing::StateFixture;
using testing::table_workload;

double mean_flow(const OnlineWorkload& workload, const std::vector<Placement>& placements) {
  double sum = 0.0;
  for (const Placement& placement : placements) sum += placement.end - workload.arrivals[placement.job].release;
  return sum / static_cast<double>(placements.size());
}

class IterativeRuleTest : public ::testing::TestWithParam<StepRule> {};

TEST_P(IterativeRuleTest, AcceptedStepsStrictlyLowerTheMeanFlow) {
  std::size_t steps = 0;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    const std::vector<int> capacities = seed % 2 == 0 ? std::vector<int>{16} : std::vector<int>{6, 3};
    StateFixture fixture(testing::random_moldable_workload(seed, capacities, 14, 20.0), 20.0, {});
    const OnlineWorkload& workload = fixture.workload;
    fixture.pending = testing::in_release_order(workload, 10);
    const std::vector<std::size_t>& pending = fixture.pending;
    std::vector<int> held(capacities.size(), 0);
    held[0] = capacities[0] / 2;
    fixture.run(10, held, 15.0, 30.0);
    const OnlineState state = fixture.state();
    CandidateCache cache(workload);
    const IterativePlan plan = iterative_plan(state, cache, GetParam());
    ASSERT_FALSE(plan.accepted_mean_flows.empty());
    for (std::size_t k = 1; k < plan.accepted_mean_flows.size(); ++k) {
      EXPECT_LT(plan.accepted_mean_flows[k], plan.accepted_mean_flows[k - 1]) << "seed " << seed << " step " << k;
    }
    steps += plan.accepted_mean_flows.size() - 1;
    EXPECT_DOUBLE_EQ(mean_flow(workload, plan.placements), plan.accepted_mean_flows.back()) << "seed " << seed;
    EXPECT_FALSE(plan.budget_exhausted);
    ASSERT_EQ(plan.placements.size(), pending.size());
    for (std::size_t q = 0; q < pending.size(); ++q) EXPECT_EQ(plan.placements[q].job, pending[q]);  // FCFS order
    testing::expect_valid_plan(state, plan.placements);
  }
  EXPECT_GT(steps, 30U);  // the search did move
}

TEST_P(IterativeRuleTest, AZeroBudgetKeepsTheCheapestAllocations) {
  const StateFixture fixture(table_workload({4}, {by_processors({8, 4.5, 3.2, 2.5})}, {0.0}), 0.0, {0});
  CandidateCache cache(fixture.workload);
  const IterativePlan plan = iterative_plan(fixture.state(), cache, GetParam(), 0);
  EXPECT_TRUE(plan.budget_exhausted);
  EXPECT_EQ(plan.trials, 0U);
  ASSERT_EQ(plan.placements.size(), 1U);
  EXPECT_EQ(plan.placements[0].alloc, std::vector<int>{1});
  // With a budget, a lone job on an idle machine takes every step that shortens it.
  const IterativePlan full = iterative_plan(fixture.state(), cache, GetParam());
  EXPECT_EQ(full.placements[0].alloc, std::vector<int>{4});
}

INSTANTIATE_TEST_SUITE_P(BothRules, IterativeRuleTest,
                         ::testing::Values(StepRule::next_candidate, StepRule::steepest),
                         [](const auto& param_info) {
                           return param_info.param == StepRule::next_candidate ? std::string("iterative")
                                                                         : std::string("improved");
                         });

TEST(ImprovedIterativeTest, SkipsTheLowEfficiencyStepIterativeStopsAt) {
  // Four processors. Jobs 0-2 are sequential (2 s) and come first in FCFS order; job 3 takes 10 s on one
  // processor, 9 on two or three (a step), 5 on four. Its candidates in cost order: 1, 2, 4 processors.
  // Iterative tries 2 processors: job 3 would wait for the others until 2 and end at 11 (flow 11 > 10): the step
  // is undone and the job frozen on 1. Improved Iterative goes straight to 4 processors, (10 - 5) / 3 per
  // processor against (10 - 9) / 1, and ends at 7.
  const std::vector<double> sequential = by_processors({2, 2, 2, 2});
  const StateFixture fixture(
      table_workload({4}, {sequential, sequential, sequential, by_processors({10, 9, 9, 5})}, {0.0, 0.0, 0.0, 0.0}),
      0.0, {0, 1, 2, 3});
  CandidateCache cache(fixture.workload);
  const IterativePlan iterative = iterative_plan(fixture.state(), cache, StepRule::next_candidate);
  const IterativePlan improved = iterative_plan(fixture.state(), cache, StepRule::steepest);
  EXPECT_EQ(iterative.placements[3].alloc, std::vector<int>{1});
  EXPECT_EQ(iterative.placements[3].start, 0.0);
  EXPECT_EQ(iterative.trials, 1U);
  EXPECT_EQ(iterative.accepted_mean_flows, std::vector<double>{4.0});
  EXPECT_EQ(improved.placements[3].alloc, std::vector<int>{4});
  EXPECT_EQ(improved.placements[3].start, 2.0);
  EXPECT_EQ(improved.accepted_mean_flows, (std::vector<double>{4.0, 3.25}));
  // Through the registry: what each policy starts now.
  for (const auto& [name, started] : {std::pair<const char*, std::size_t>{"iterative", 4}, {"improved-iterative", 3}}) {
    const auto policy = make_online_policy(name, {}, fixture.workload);
    const std::vector<Placement> plan = policy->plan(fixture.state());
    std::size_t now = 0;
    for (const Placement& placement : plan) now += placement.start <= 0.0 ? 1 : 0;
    EXPECT_EQ(now, started) << name;
  }
}

}  // namespace
}  // namespace cosched::online
