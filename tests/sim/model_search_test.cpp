// The model-driven planner (issue 23): never predicted later than the plans it starts from, deterministic for a
// seed, registered in the sim core's table, and its plan is what a launch predicts.
#include "cosched/sim/model_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "cosched/common/error.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/prediction.hpp"
#include "sched/test_support.hpp"
#include "test_support.hpp"

namespace cosched::sim {
namespace {

// A budget no test instance reaches: the search stops by convergence or its cap, never by the clock.
constexpr sched::SearchLimits kUnhurried{60'000.0, 1};

double contention_makespan(const sched::Instance& instance, const sched::Schedule& schedule) {
  return predict_contention(plan_from_schedule(instance, schedule), "auto").observed_makespan;
}

// The smallest contention-aware prediction among the plans of every other registered algorithm that applies,
// each launched with its own policy.
double best_of_the_others(const sched::Instance& instance) {
  double best = std::numeric_limits<double>::infinity();
  for (const std::string& name : testing::algorithms_for(instance)) {
    best = std::min(best, predict_contention(testing::plan_with(instance, name), "auto").observed_makespan);
  }
  return best;
}

// Random times (integers 1..8, some allocations infeasible, closed) on 2..4 cores and 2..3 other units, 4..15
// tasks, and one or two pools that three tasks in four stream from at up to 4x what the pool delivers.
sched::Instance random_instance_with_traffic(std::uint32_t seed) {
  const std::vector<int> capacities{2 + static_cast<int>(seed % 3), 2 + static_cast<int>(seed % 2)};
  const sched::Instance plain = sched::testing::random_dense_instance(900 + seed, capacities, 4 + seed % 12);
  return sched::testing::with_random_traffic(plain, seed, 1 + seed % 2);
}

TEST(ModelSearchTest, IsNeverPredictedLaterThanItsStartingPlansOnRandomInstancesWithPoolsAndTraffic) {
  std::size_t searched_better = 0;
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    const sched::Instance instance = random_instance_with_traffic(seed);
    const SearchOutcome outcome = model_search(instance, {kUnhurried.budget_ms, seed});
    const double others = best_of_the_others(instance);
    // What a launch predicts for the plan (the same clock and policy as `cosched launch`), not the search's own
    // figure.
    const double predicted = contention_makespan(instance, outcome.schedule);
    EXPECT_EQ(predicted, outcome.predicted_makespan) << "seed " << seed;
    EXPECT_LE(predicted, others) << "seed " << seed;
    EXPECT_TRUE(sched::find_violations(instance, outcome.schedule).empty()) << "seed " << seed;
    EXPECT_EQ(outcome.schedule.algorithm, "model-search");
    EXPECT_NE(outcome.stopped_by, "budget") << "seed " << seed;
    const auto starts = testing::algorithms_for(instance);
    ASSERT_EQ(outcome.starts.size(), starts.size());
    for (std::size_t k = 0; k < starts.size(); ++k) EXPECT_EQ(outcome.starts[k].algorithm, starts[k]);
    if (predicted < others * (1.0 - 1e-9)) ++searched_better;
  }
  // The search is not a bystander: on these instances it finds shorter plans than every starting one, often.
  EXPECT_GE(searched_better, 10U);
}

TEST(ModelSearchTest, WithoutABandwidthModelItsPaperMakespanIsNeverAboveTheOthers) {
  for (std::uint32_t seed = 0; seed < 30; ++seed) {
    std::mt19937 rng(seed);
    const sched::Instance instance = testing::random_instance(rng, 1 + static_cast<int>(seed % 3), 3, 3 + seed % 8);
    const sched::Schedule schedule = model_search(instance, kUnhurried).schedule;
    double best = std::numeric_limits<double>::infinity();
    for (const std::string& name : testing::algorithms_for(instance)) {
      best = std::min(best, sched::plan(sched::find_algorithm(name), instance, 0.0).schedule.makespan);
    }
    EXPECT_LE(schedule.makespan, best * (1.0 + 1e-12)) << "seed " << seed;
    // No contention: the prediction is the paper model's own schedule.
    EXPECT_DOUBLE_EQ(contention_makespan(instance, schedule), schedule.makespan) << "seed " << seed;
  }
}

TEST(ModelSearchTest, IsDeterministicForASeed) {
  for (std::uint32_t seed : {3U, 8U, 17U}) {
    const sched::Instance instance = random_instance_with_traffic(seed);
    const SearchOutcome first = model_search(instance, {kUnhurried.budget_ms, 7});
    const SearchOutcome second = model_search(instance, {kUnhurried.budget_ms, 7});
    ASSERT_NE(first.stopped_by, "budget");
    EXPECT_EQ(first.evaluations, second.evaluations);
    EXPECT_EQ(first.predicted_makespan, second.predicted_makespan);
    ASSERT_EQ(first.schedule.tasks.size(), second.schedule.tasks.size());
    for (std::size_t j = 0; j < first.schedule.tasks.size(); ++j) {
      EXPECT_EQ(first.schedule.tasks[j].alloc, second.schedule.tasks[j].alloc) << "seed " << seed;
      EXPECT_EQ(first.schedule.tasks[j].start, second.schedule.tasks[j].start) << "seed " << seed;
    }
  }
}

// Two heavy tasks that each stream the pool at all it delivers, and two light ones without traffic, on 2 cores,
// 1 s each alone. Co-running, the heavy ones get half the pool each and take 2 s: the paper's algorithms start both
// at 0 (list order) and the light ones after them, predicted 3 s. Keeping the heavy ones apart, each beside a
// light one, takes 2 s — the best plan (hand-computed rates: 10 B/s shared by two demands of 10 B/s gives 1/2).
TEST(ModelSearchTest, HandCaseKeepsTheHeavyTasksApart) {
  sched::BandwidthModel model;
  model.pools = {{"dram", {1, 2}, {10.0, 10.0}}};
  const sched::AllocationSpace space({2});
  const auto task = [&](const char* id, double bytes) {
    sched::Task t{id, std::make_shared<sched::DenseTimeTable>(
                          space, std::vector<double>{std::numeric_limits<double>::infinity(), 1.0, 1.0})};
    t.traffic = std::make_shared<sched::TrafficTable>(1, std::vector<double>{0.0, bytes, bytes});
    return t;
  };
  const sched::Instance instance({{"cores", 2}},
                                 {task("heavy-a", 10.0), task("heavy-b", 10.0), task("light-c", 0.0),
                                  task("light-d", 0.0)},
                                 nlohmann::json::object(), model);
  EXPECT_DOUBLE_EQ(predict_contention(testing::plan_with(instance, "d-list-lpt"), "auto").observed_makespan, 3.0);
  const SearchOutcome outcome = model_search(instance, kUnhurried);
  EXPECT_DOUBLE_EQ(outcome.predicted_makespan, 2.0);
  const auto& a = outcome.schedule.tasks[0];
  const auto& b = outcome.schedule.tasks[1];
  EXPECT_TRUE(a.start + a.duration <= b.start || b.start + b.duration <= a.start)
      << "heavy-a at " << a.start << ", heavy-b at " << b.start;
}

// An allocation off the Pareto front shortens the plan. 2 cores, 3 chunks, no bandwidth model. B takes 2 s on 1
// core with 2 chunks (no faster with more); each of S1, S2 takes 0.45 s on 2 cores with 1 chunk and 1 s on 1 core
// with 1 chunk — more area (5/6 against 3/5), so the front offers S only 2 cores, and a plan from the front runs
// B, then S1 and S2 (or the other way round): 2.9 s. S1 then S2 on the core B leaves idle, each with the chunk B
// leaves: 2 s, the best plan (every time hand-computed; without chunks every time is 3 x).
TEST(ModelSearchTest, HandCaseRunsTwoTasksOffTheirFrontBesideATaskThatLeavesACoreIdle) {
  const sched::AllocationSpace space({2, 3});
  const double inf = std::numeric_limits<double>::infinity();
  // Row-major over (cores 0..2) x (chunks 0..3).
  const auto task = [&](const char* id, std::vector<double> times) {
    return sched::Task{id, std::make_shared<sched::DenseTimeTable>(space, std::move(times))};
  };
  const sched::Instance instance({{"cores", 2}, {"chunks", 3}},
                                 {task("b", {inf, inf, inf, inf, 6.0, 6.0, 2.0, 2.0, 6.0, 6.0, 2.0, 2.0}),
                                  task("s1", {inf, inf, inf, inf, 3.0, 1.0, 1.0, 1.0, 1.35, 0.45, 0.45, 0.45}),
                                  task("s2", {inf, inf, inf, inf, 3.0, 1.0, 1.0, 1.0, 1.35, 0.45, 0.45, 0.45})});
  EXPECT_GT(best_of_the_others(instance), 2.0 * (1.0 + 1e-9));
  const SearchOutcome outcome = model_search(instance, kUnhurried);
  EXPECT_DOUBLE_EQ(outcome.predicted_makespan, 2.0);
  EXPECT_EQ(outcome.schedule.tasks[1].alloc, (std::vector<int>{1, 1}));
  EXPECT_EQ(outcome.schedule.tasks[2].alloc, (std::vector<int>{1, 1}));
}

TEST(ModelSearchTest, IsRegisteredAfterSchedsAlgorithmsAndTakesItsLimitsThroughPlan) {
  const auto names = algorithm_names();
  const auto sched_names = sched::algorithm_names();
  ASSERT_EQ(names.size(), sched_names.size() + planner_names().size());
  EXPECT_TRUE(std::equal(sched_names.begin(), sched_names.end(), names.begin()));
  EXPECT_EQ(planner_names(), std::vector<std::string>{"model-search"});
  EXPECT_EQ(find_algorithm("model-search").name(), "model-search");
  // sched's own table does not know it: sched is below the simulation core.
  EXPECT_THROW((void)sched::find_algorithm("model-search"), UsageError);
  const sched::Instance instance = random_instance_with_traffic(5);
  const auto planned = sched::plan(find_algorithm("model-search"), instance, sched::lower_bound(instance),
                                   {kUnhurried.budget_ms, 11});
  EXPECT_EQ(planned.schedule.algorithm, "model-search");
  for (const double budget : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(), 2 * sched::kMaxSearchBudgetMs}) {
    EXPECT_THROW((void)sched::plan(find_algorithm("model-search"), instance, 0.0, {budget, 1}), UsageError) << budget;
  }
}

// Past kModelSearchMaxTasks it refuses before any work (its starting plans' predictions would overrun any budget),
// so `plan --algorithm all` skips it and `plan --algorithm model-search` is a usage error naming the limit.
TEST(ModelSearchTest, RefusesBatchesLargerThanItsLimitBeforeAnyWork) {
  const ModelSearch planner;
  const sched::Instance at_limit = sched::testing::random_dense_instance(3, {2, 2}, kModelSearchMaxTasks);
  EXPECT_EQ(planner.refusal(at_limit), "");
  const sched::Instance beyond = sched::testing::random_dense_instance(3, {2, 2}, kModelSearchMaxTasks + 1);
  EXPECT_NE(planner.refusal(beyond).find("up to 2000 tasks"), std::string::npos) << planner.refusal(beyond);
  EXPECT_THROW((void)sched::plan(find_algorithm("model-search"), beyond, 0.0, kUnhurried), UsageError);
}

// A budget far below what the starting plans take still gives a valid plan, the best starting one or better.
TEST(ModelSearchTest, ATinyBudgetStillGivesTheBestStartingPlanOrBetter) {
  const sched::Instance instance = random_instance_with_traffic(12);
  const SearchOutcome outcome = model_search(instance, {1e-3, 1});
  EXPECT_EQ(outcome.stopped_by, "budget");
  EXPECT_TRUE(sched::find_violations(instance, outcome.schedule).empty());
  EXPECT_LE(outcome.predicted_makespan, best_of_the_others(instance));
}

// A cap on candidates stops the search there, whatever the machine's speed: the same plan for a seed, never
// predicted later than the best starting plan.
TEST(ModelSearchTest, ACapOnCandidatesStopsItThereReproducibly) {
  const sched::Instance instance = random_instance_with_traffic(12);
  const SearchOutcome uncapped = model_search(instance, kUnhurried);
  ASSERT_GT(uncapped.evaluations, 40U);
  const sched::SearchLimits capped{kUnhurried.budget_ms, 1, 40};
  const SearchOutcome first = model_search(instance, capped);
  const SearchOutcome second = model_search(instance, capped);
  EXPECT_EQ(first.stopped_by, "evaluations");
  EXPECT_EQ(first.evaluations, 40U);
  EXPECT_EQ(first.predicted_makespan, second.predicted_makespan);
  EXPECT_LE(first.predicted_makespan, best_of_the_others(instance));
}

// Issue 41 item 11: a mutant returning the searched plan even when it is predicted later than the best starting
// plan was not caught — no test reached the rule. Capped at one candidate, the search's best is a starting plan's
// order as its decoder lays it out, which a launch often predicts later than that starting plan itself: the rule
// must then return the starting plan. The test counts that it reached the rule.
TEST(ModelSearchTest, ASearchedPlanPredictedLaterThanTheBestStartingPlanIsNeverReturned) {
  std::size_t start_returned = 0;
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    const sched::Instance instance = random_instance_with_traffic(seed);
    const SearchOutcome outcome = model_search(instance, {kUnhurried.budget_ms, seed, 1});
    double best_start = std::numeric_limits<double>::infinity();
    for (const SearchStart& start : outcome.starts) best_start = std::min(best_start, start.predicted_makespan);
    EXPECT_LE(outcome.predicted_makespan, best_start) << "seed " << seed;
    EXPECT_EQ(contention_makespan(instance, outcome.schedule), outcome.predicted_makespan) << "seed " << seed;
    if (outcome.chosen != "search") ++start_returned;
  }
  EXPECT_GE(start_returned, 1U) << "no instance reached the never-worse rule: the test proves nothing";
}

}  // namespace
}  // namespace cosched::sim
