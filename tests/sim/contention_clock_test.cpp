// The contention clock (the contention-aware prediction): hand-computed co-runs, progress conserved across
// events, the simulated clock's times exactly when nothing contends, and the engine's rules kept on it.
#include "cosched/sim/clocks/contention_clock.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/generator.hpp"
#include "test_support.hpp"

namespace cosched::sim {
namespace {

// Records, at every event, the rates of the running tasks, integrates rate * dt per task, and the order of
// completions.
class ProgressMeter final : public EngineObserver {
 public:
  ProgressMeter(const LaunchPlan& plan, ContentionClock& clock)
      : progress_(plan.tasks.size(), 0.0), plan_(plan), clock_(clock), rate_(plan.tasks.size(), 0.0) {}

  void task_started(std::size_t /*task*/, const TaskRun& /*run*/) override { on_event(); }
  void task_ended(std::size_t task, const TaskRun& /*run*/) override {
    on_event();
    ended_.push_back(plan_.tasks[task].id);
  }

  std::vector<double> progress_;
  std::vector<std::string> ended_;

 private:
  void on_event() {
    const double now = clock_.now();
    for (std::size_t j = 0; j < rate_.size(); ++j) {
      progress_[j] += rate_[j] * (now - last_);
      rate_[j] = clock_.rate(j).value_or(0.0);
      EXPECT_GE(rate_[j], 0.0);
      EXPECT_LE(rate_[j], 1.0);
    }
    last_ = now;
  }

  const LaunchPlan& plan_;
  ContentionClock& clock_;
  std::vector<double> rate_;
  double last_ = 0.0;
};

struct MeteredRun {
  EngineResult result;
  std::vector<double> progress;
  std::vector<std::string> ended;
};

MeteredRun run_contention(const LaunchPlan& plan, const std::string& policy_name) {
  auto policy = make_policy(policy_name, plan);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  ContentionClock clock(plan);
  ProgressMeter meter(plan, clock);
  MeteredRun run{run_engine(plan, *policy, clock, *pool, &meter), {}, {}};
  run.progress = meter.progress_;
  run.ended = meter.ended_;
  return run;
}

// One pool delivering 10 GB/s whoever streams; tasks of one core each.
LaunchPlan one_pool_plan(int cores) {
  LaunchPlan plan;
  plan.algorithm = "hand-made";
  plan.resource_names = {"cores"};
  plan.capacities = {cores};
  plan.bandwidth.pools = {{"dram", {1.0}, {10e9}}};
  return plan;
}

PlannedTask streaming_task(const std::string& id, double start, double work, double bytes_per_s) {
  return {id, {1}, start, work, -1, sched::FlowDemand{{bytes_per_s}, 1.0}};
}

// A co-run computed by hand: tasks of one core on one pool of 10 GB/s, each task's expected end, and the order
// in which they end.
struct HandCase {
  std::string label;
  int cores;
  std::vector<PlannedTask> tasks;
  std::vector<double> ends;
  std::vector<std::string> order;
};

void PrintTo(const HandCase& hand, std::ostream* out) { *out << hand.label; }

class ContentionClockByHand : public ::testing::TestWithParam<HandCase> {};

TEST_P(ContentionClockByHand, EndsWhereComputedAndConservesEveryTasksWork) {
  const HandCase& hand = GetParam();
  LaunchPlan plan = one_pool_plan(hand.cores);
  plan.tasks = hand.tasks;
  const MeteredRun run = run_contention(plan, "list");
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    EXPECT_NEAR(run.result.runs[j].completion.end, hand.ends[j], 1e-12) << plan.tasks[j].id;
    EXPECT_NEAR(run.progress[j], plan.tasks[j].predicted_duration, 1e-12) << plan.tasks[j].id;
  }
  EXPECT_EQ(run.ended, hand.order);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ContentionClockByHand,
    ::testing::Values(
        // Each needs the whole pool: both run at 1/2 and take twice their time.
        HandCase{"two_tasks_that_each_need_the_pool_take_twice_their_time", 2,
                 {streaming_task("a", 0, 1.0, 10e9), streaming_task("b", 0, 1.0, 10e9)}, {2.0, 2.0}, {"a", "b"}},
        // 4 + 6 GB/s fit in 10: nobody is slowed.
        HandCase{"tasks_that_fit_the_pool_together_are_not_slowed", 2,
                 {streaming_task("a", 0, 1.0, 4e9), streaming_task("b", 0, 3.0, 6e9)}, {1.0, 3.0}, {"a", "b"}},
        // a and b (2 s of work each) share the pool at 1/2 until c starts at 1 s: they have 1.5 s left. The three
        // share it at 1/3: c (1 s of work) ends at 1 + 3 = 4, when a and b have 0.5 s left, which they do at 1/2:
        // both end at 5. The pool is full all along: 5 s of work at 10 GB/s each through 10 GB/s.
        HandCase{"a_third_task_starting_midway_slows_the_others_until_it_ends", 3,
                 {streaming_task("a", 0, 2.0, 10e9), streaming_task("b", 0, 2.0, 10e9),
                  streaming_task("c", 1.0, 1.0, 10e9)},
                 {5.0, 5.0, 4.0}, {"c", "a", "b"}},
        // a streams 10 GB/s, b 5: max-min per core gives 5 GB/s each, so b runs at full speed (ends at 1) and a at
        // 1/2; then a alone does its last 0.5 s at full speed and ends at 1.5.
        HandCase{"the_task_that_streams_less_ends_first_and_frees_the_pool", 2,
                 {streaming_task("a", 0, 1.0, 10e9), streaming_task("b", 0, 1.0, 5e9)}, {1.5, 1.0}, {"b", "a"}}),
    [](const ::testing::TestParamInfo<HandCase>& test) { return test.param.label; });

TEST(ContentionClock, ALoneTaskIsNeverSlowedWhateverItsDemand) {
  // 50 GB/s measured alone on a pool whose curve says 10: the pool served it alone, so it does again.
  LaunchPlan plan = one_pool_plan(2);
  plan.tasks = {streaming_task("a", 0, 1.25, 50e9), streaming_task("b", 1.25, 0.5, 1e12)};
  plan.tasks[0].demand = {2};
  const MeteredRun run = run_contention(plan, "list");
  EXPECT_EQ(run.result.runs[0].completion.end, 1.25);
  EXPECT_EQ(run.result.runs[1].completion.end, 1.75);
}

TEST(ContentionClock, NamesItself) {
  const LaunchPlan plan = one_pool_plan(1);
  EXPECT_EQ(ContentionClock(plan).name(), "contention");
}

TEST(ContentionClock, RefusesADemandThatDoesNotFitTheModel) {
  LaunchPlan plan = one_pool_plan(1);
  plan.tasks = {streaming_task("a", 0, 1.0, 1e9)};
  plan.tasks[0].flow.bytes_per_s = {1e9, 2e9};  // two values for one pool
  EXPECT_THROW(ContentionClock{plan}, InputError);
  plan.tasks[0].flow.bytes_per_s = {-1.0};
  EXPECT_THROW(ContentionClock{plan}, InputError);
}

// The same random plans on both clocks: every algorithm, list and pack policies.
class ContentionClockRandom : public ::testing::TestWithParam<std::string> {};

TEST_P(ContentionClockRandom, WithoutABandwidthModelOrTrafficItIsTheSimulatedClockExactly) {
  std::mt19937 rng(31);
  sched::GeneratorConfig config;
  config.capacities = {6, 12};
  config.tasks = 14;
  for (std::uint64_t round = 0; round < 4; ++round) {
    // Perfectly moldable tasks (mostly run one after the other) and Amdahl / power-law ones (co-run).
    const auto instance = round % 2 == 0 ? testing::random_instance(rng, 6, 12, 14)
                                         : sched::generate_instance(config, round);
    for (const auto& algorithm : testing::algorithms_for(instance)) {
      const LaunchPlan plan = testing::plan_with(instance, algorithm);
      LaunchPlan no_traffic_plan = plan;  // a model, but no task has traffic
      no_traffic_plan.bandwidth = testing::two_pool_model();
      const LaunchPlan& no_traffic = no_traffic_plan;
      if (GetParam() == "pack" && !plan.is_pack()) continue;
      const EngineResult paper = predict(plan, GetParam());
      for (const LaunchPlan* variant : {&plan, &no_traffic}) {
        const EngineResult fluid = predict_contention(*variant, GetParam());
        ASSERT_EQ(fluid.completed, plan.tasks.size()) << algorithm;
        for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
          EXPECT_EQ(fluid.runs[j].launch.start, paper.runs[j].launch.start) << algorithm << " task " << j;
          EXPECT_EQ(fluid.runs[j].completion.end, paper.runs[j].completion.end) << algorithm << " task " << j;
        }
        EXPECT_EQ(fluid.observed_makespan, paper.observed_makespan) << algorithm;
      }
    }
  }
}

// Amdahl and power-law tasks (Sec. 5.4) on 8 cores and 16 chunks, with random traffic: the algorithms run
// several at once, so they contend.
sched::Instance co_running_instance(std::mt19937& rng, std::uint64_t seed) {
  sched::GeneratorConfig config;
  config.capacities = {8, 16};
  config.tasks = 20;
  return testing::with_random_traffic(sched::generate_instance(config, seed), rng);
}

TEST_P(ContentionClockRandom, NeverOvercommitsConservesProgressAndNeverSpeedsATaskUp) {
  std::mt19937 rng(57);
  std::size_t slowed = 0;
  for (std::uint64_t round = 0; round < 3; ++round) {
    const auto instance = co_running_instance(rng, round);
    for (const auto& algorithm : testing::algorithms_for(instance)) {
      const LaunchPlan plan = testing::plan_with(instance, algorithm);
      if (GetParam() == "pack" && !plan.is_pack()) continue;
      const MeteredRun run = run_contention(plan, GetParam());
      const EngineResult& result = run.result;
      ASSERT_EQ(result.completed, plan.tasks.size()) << algorithm;
      EXPECT_TRUE(result.overcommit_refusals.empty()) << algorithm;
      for (std::size_t i = 0; i < plan.dimensions(); ++i) EXPECT_LE(result.peak_in_use[i], plan.capacities[i]);
      for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
        const double work = plan.tasks[j].predicted_duration;
        const double took = result.runs[j].completion.end - result.runs[j].launch.start;
        EXPECT_NEAR(run.progress[j], work, 1e-9 * std::max(1.0, work)) << algorithm << " task " << j;
        EXPECT_GE(took, work * (1.0 - 1e-12)) << algorithm << " task " << j;
        if (took > work * (1.0 + 1e-9)) ++slowed;
      }
    }
  }
  EXPECT_GT(slowed, 0U) << "no task was slowed: the cases do not exercise contention";
}

INSTANTIATE_TEST_SUITE_P(Policies, ContentionClockRandom, ::testing::Values("list", "pack"));

TEST(ContentionClock, CoRunningTasksWithTrafficTakeLongerThanPredictedByThePaperModel) {
  std::mt19937 rng(5);
  const auto instance = co_running_instance(rng, 11);
  const LaunchPlan plan = testing::plan_with(instance, "t-list-lpt");
  EXPECT_GT(predict_contention(plan, "list").observed_makespan, predict(plan, "list").observed_makespan);
}

}  // namespace
}  // namespace cosched::sim
