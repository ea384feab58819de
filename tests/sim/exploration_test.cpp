// Exploring in a plan's slack (cosched/sim/exploration.hpp): a hand-worked list plan on 4 cores.
//
//   a  2 cores   0 .. 4     (the last end: the makespan)
//   b  1 core    0 .. 1
//   c  1 core    0 .. 2
//   d  1 core    1 .. 2.5   (after b, in list order)
//
// Cores 2 and 3 idle from 2 s (c ends) to 4 s. d on 2 cores cannot start at 1 s (one core free) and waits for c:
// it starts at 2 s and ends by 4 s as long as it takes at most 2 s there. d on 4 cores waits for a (4 s): never
// free.
#include "cosched/sim/exploration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cosched/sched/schedule.hpp"

namespace cosched::sim {
namespace {

constexpr double kMedianOfDOnTwoCores = 1.0;

sched::Instance four_core_instance() {
  const sched::AllocationSpace space({4});
  const auto table = [&](std::vector<double> by_cores) {  // seconds on 1..4 cores
    std::vector<double> times(space.size(), std::numeric_limits<double>::infinity());
    for (int p = 1; p <= 4; ++p) times[space.index_of(std::vector<int>{p})] = by_cores[p - 1];
    return std::make_shared<sched::DenseTimeTable>(space, std::move(times));
  };
  std::vector<sched::Task> tasks;
  tasks.push_back({"a", table({7.0, 4.0, 3.5, 3.0})});
  tasks.push_back({"b", table({1.0, 0.8, 0.7, 0.6})});
  tasks.push_back({"c", table({2.0, 1.5, 1.2, 1.0})});
  tasks.push_back({"d", table({1.5, kMedianOfDOnTwoCores, 0.8, 0.6})});
  return sched::Instance({{"cores", 4}}, std::move(tasks));
}

sched::Schedule four_core_plan() {
  sched::Schedule schedule;
  schedule.algorithm = "hand";
  schedule.launch_rule = "greedy";
  schedule.tasks = {{{2}, 0.0, 4.0}, {{1}, 0.0, 1.0}, {{1}, 0.0, 2.0}, {{1}, 1.0, 1.5}};
  schedule.makespan = 4.0;
  return schedule;
}

ExplorationOption option(std::size_t task, std::size_t group, std::vector<ExplorationChoice> choices) {
  return {task, group, std::move(choices)};
}

struct SlackCase {
  std::string name;
  std::vector<ExplorationOption> options;
  std::vector<std::vector<int>> expected_allocs;  // a, b, c, d after exploring
  std::size_t expected_steps;
};

class ExploreInSlack : public ::testing::TestWithParam<SlackCase> {};

TEST_P(ExploreInSlack, TakesAMoveOnlyWhenTheMakespanHoldsOnTheCautiousSide) {
  const sched::Instance instance = four_core_instance();
  sched::Schedule schedule = four_core_plan();
  const ExplorationResult result = explore_in_slack(instance, schedule, GetParam().options);

  EXPECT_DOUBLE_EQ(result.makespan_s, 4.0);
  ASSERT_EQ(result.steps.size(), GetParam().expected_steps);
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    EXPECT_EQ(schedule.tasks[j].alloc, GetParam().expected_allocs[j]) << "task " << j;
  }
  EXPECT_TRUE(sched::find_violations(instance, schedule).empty()) << "a valid schedule of the instance";
  EXPECT_DOUBLE_EQ(schedule.makespan, 4.0) << "the move fits the idle tail: the plan still ends with a";
}

const std::vector<int> k1{1}, k2{2}, k4{4};

INSTANTIATE_TEST_SUITE_P(
    HandWorked, ExploreInSlack,
    ::testing::Values(
        // d on 2 cores from 2 s, 1.9 s on the cautious side: ends at 3.9 s <= 4 s.
        SlackCase{"FitsTheIdleTail", {option(3, 0, {{k2, 1.9}})}, {k2, k1, k1, k2}, 1},
        // The same move at 2.1 s would end at 4.1 s: the batch would wait for it.
        SlackCase{"TooSlowOnTheCautiousSide", {option(3, 0, {{k2, 2.1}})}, {k2, k1, k1, k1}, 0},
        // 4 cores wait for a: the first choice is refused, the next that fits is taken.
        SlackCase{"FirstChoiceThatFits", {option(3, 0, {{k4, 0.1}, {k2, 1.5}})}, {k2, k1, k1, k2}, 1},
        // b and d are of one kind: once b explored (2 cores beside a, 0..1.2 s; c and d wait for it), d does not.
        SlackCase{"OneTaskPerKind",
                  {option(1, 7, {{k2, 1.2}}), option(3, 7, {{k2, 1.5}})}, {k2, k2, k1, k1}, 1},
        // b on 2 cores at its cautious 2 s holds c and d back to 2 s; c then holds a core to 4 s, so d on 2 cores
        // would wait for it and end at 5.9 s (alone, that move fits: FitsTheIdleTail).
        SlackCase{"EarlierMovesKeepTheirCautiousTimes",
                  {option(1, 1, {{k2, 2.0}}), option(3, 2, {{k2, 1.9}})}, {k2, k2, k1, k1}, 1},
        // b on 2 cores at its cautious 2 s holds c and d back to 2 s: c on 2 cores (1 s) would hold d to 3 s, which
        // ends at 4.5 s. Counted at b's 1 s from before its move, c would end at 2 s and d at 3.5 s: it fits.
        SlackCase{"AMoveIsWeighedWithTheCautiousTimesOfEarlierMoves",
                  {option(1, 1, {{k2, 2.0}}), option(2, 2, {{k2, 1.0}})}, {k2, k2, k1, k1}, 1},
        // A choice at the task's own allocation is no move (d on 1 core, 1.5 s, would fit): the next is taken.
        SlackCase{"TheTasksOwnAllocationIsNoMove", {option(3, 0, {{k1, 1.5}, {k2, 1.9}})}, {k2, k1, k1, k2}, 1},
        // d moves once: its second option (of another group, made for where d was planned) is passed over, though
        // d back on 1 core from 1 s (1.5 s, ends at 2.5 s) would fit.
        SlackCase{"ATaskMovesOnce", {option(3, 0, {{k2, 1.9}}), option(3, 1, {{k1, 1.5}})}, {k2, k1, k1, k2}, 1}),
    [](const ::testing::TestParamInfo<SlackCase>& slack) { return slack.param.name; });

TEST(ExploreInSlack, TheMovedTaskRunsAtItsMedianAndStartsWhereTheLaunchRuleStartsIt) {
  const sched::Instance instance = four_core_instance();
  sched::Schedule schedule = four_core_plan();
  const ExplorationResult result = explore_in_slack(instance, schedule, {option(3, 0, {{k2, 1.9}})});
  ASSERT_EQ(result.steps.size(), 1U);
  EXPECT_EQ(result.steps[0].from, k1);
  EXPECT_EQ(result.steps[0].to, k2);
  EXPECT_DOUBLE_EQ(result.steps[0].cautious_s, 1.9);
  EXPECT_DOUBLE_EQ(schedule.tasks[3].duration, kMedianOfDOnTwoCores);
  EXPECT_DOUBLE_EQ(schedule.tasks[3].start, 2.0) << "it waits for c's core: one core is free at 1 s, not two";
}

TEST(ExploreInSlack, APackPlanIsLeftAsItIs) {
  const sched::Instance instance = four_core_instance();
  sched::Schedule schedule = four_core_plan();
  schedule.launch_rule.clear();
  for (sched::ScheduledTask& task : schedule.tasks) task.pack = 0;  // a, b and c at once; d in the next pack
  schedule.tasks[3] = {{1}, 4.0, 1.5, 1};
  const sched::Schedule before = schedule;
  EXPECT_TRUE(explore_in_slack(instance, schedule, {option(3, 0, {{k2, 0.1}})}).steps.empty());
  EXPECT_EQ(schedule.tasks[3].alloc, before.tasks[3].alloc);
}

TEST(ExploreInSlack, RefusesAChoiceOutsideTheNodeOrWithoutATime) {
  const sched::Instance instance = four_core_instance();
  sched::Schedule schedule = four_core_plan();
  EXPECT_THROW((void)explore_in_slack(instance, schedule, {option(3, 0, {{{5}, 1.0}})}), std::invalid_argument);
  EXPECT_THROW((void)explore_in_slack(instance, schedule, {option(3, 0, {{k2, 0.0}})}), std::invalid_argument);
  EXPECT_THROW((void)explore_in_slack(instance, schedule, {option(3, 0, {{{0}, 1.0}})}), std::invalid_argument)
      << "a task on no core";
  EXPECT_THROW((void)explore_in_slack(instance, schedule, {option(9, 0, {{k2, 1.0}})}), std::invalid_argument);
}

// slack_exploration_options on the four-core plan: every task of one kind unless said, along cores only.
ExplorableTask explorable(std::size_t task, std::size_t kind, std::vector<std::vector<int>> ran = {}) {
  ExplorableTask explorable;
  explorable.task = task;
  explorable.kind = kind;
  explorable.ran_at = [ran](const std::vector<int>& alloc) {
    return std::find(ran.begin(), ran.end(), alloc) != ran.end();
  };
  explorable.log_sd_at = [](const std::vector<int>& alloc) { return 0.1 * alloc[0]; };
  return explorable;
}

TEST(SlackExplorationOptions, OffersTheNodesAllThenDoublingsItsKindNeverRanAtEachOneSdUp) {
  const sched::Instance instance = four_core_instance();
  const sched::Schedule schedule = four_core_plan();
  const std::vector<ExplorationOption> options = slack_exploration_options(instance, schedule, {explorable(3, 5)});
  ASSERT_EQ(options.size(), 1U);
  EXPECT_EQ(options[0].task, 3U);
  EXPECT_EQ(options[0].group, 5U) << "kind 5 along the one resource of a cores-only instance";
  ASSERT_EQ(options[0].choices.size(), 2U) << "d planned on 1 core: 4 (all) and 2";
  EXPECT_EQ(options[0].choices[0].alloc, std::vector<int>{4});
  EXPECT_DOUBLE_EQ(options[0].choices[0].cautious_s, 0.6 * std::exp(0.4));
  EXPECT_EQ(options[0].choices[1].alloc, k2);
  EXPECT_DOUBLE_EQ(options[0].choices[1].cautious_s, kMedianOfDOnTwoCores * std::exp(0.2));

  const std::vector<ExplorationOption> ran_on_all =
      slack_exploration_options(instance, schedule, {explorable(3, 5, {{4}})});
  ASSERT_EQ(ran_on_all.size(), 1U);
  ASSERT_EQ(ran_on_all[0].choices.size(), 1U) << "its kind ran on 4 cores: only 2 is left to learn";
  EXPECT_EQ(ran_on_all[0].choices[0].alloc, k2);
  EXPECT_TRUE(slack_exploration_options(instance, schedule, {explorable(0, 5, {{4}})}).empty())
      << "a on 2 cores: only 4, where it ran";
}

TEST(SlackExplorationOptions, AKindOffersItsLatestStartingTasksAndNoMoreThanItsShare) {
  const sched::Instance instance = four_core_instance();
  sched::Schedule schedule = four_core_plan();
  schedule.tasks[1].start = 0.5;  // b after a and c, before d
  std::vector<ExplorableTask> tasks;
  for (std::size_t j = 0; j < 4; ++j) tasks.push_back(explorable(j, 0));
  const std::vector<ExplorationOption> options = slack_exploration_options(instance, schedule, tasks);
  std::vector<std::size_t> order;
  for (const ExplorationOption& option : options) order.push_back(option.task);
  ASSERT_EQ(kExplorationTasksPerKind, 3U) << "the test is worked for three";
  EXPECT_EQ(order, (std::vector<std::size_t>{3, 1, 0})) << "d (1 s), b (0.5 s), then a and c (0 s) in their order";
}

TEST(SlackExplorationOptions, RefusesATaskOrAResourceTheInstanceDoesNotHaveOrNoKnowledge) {
  const sched::Instance instance = four_core_instance();
  const sched::Schedule schedule = four_core_plan();
  ExplorableTask along_chunks = explorable(3, 0);
  along_chunks.resources = {0, 1};
  EXPECT_THROW((void)slack_exploration_options(instance, schedule, {along_chunks}), std::invalid_argument);
  EXPECT_THROW((void)slack_exploration_options(instance, schedule, {explorable(4, 0)}), std::invalid_argument);
  ExplorableTask unknowing = explorable(3, 0);
  unknowing.ran_at = nullptr;
  EXPECT_THROW((void)slack_exploration_options(instance, schedule, {unknowing}), std::invalid_argument);
}

}  // namespace
}  // namespace cosched::sim
