// The knowledge study's exploration rule (bench/knowledge_study/exploration.hpp): idle cores of a plan go to tasks
// of kinds that would learn from them, never where the plan needs the cores.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "knowledge_study/exploration.hpp"

namespace cosched::bench {
namespace {

sched::ScheduledTask task(int cores, double start, double duration) { return {{cores, 0}, start, duration, -1}; }

// The most cores the schedule's tasks hold at once at the task boundaries (what a grant must keep within the node).
int peak(const sched::Schedule& schedule) {
  int most = 0;
  for (const sched::ScheduledTask& at : schedule.tasks) {
    int used = 0;
    for (const sched::ScheduledTask& other : schedule.tasks) {
      if (other.start <= at.start && at.start < other.start + other.duration) used += other.alloc[0];
    }
    most = std::max(most, used);
  }
  return most;
}

TEST(ExploreIdleCores, GivesTheTailTaskTheCoresIdleDuringItsRun) {
  // 8 cores: a 6-core task over [0, 10), then a 4-core task over [10, 14) leaving 4 idle; a 1-core task over
  // [0, 10) beside the first leaves 1 idle there.
  sched::Schedule schedule;
  schedule.tasks = {task(6, 0, 10), task(1, 0, 10), task(4, 10, 4)};
  const std::vector<ExplorationWish> wishes{{1, 0, {8, 4, 2}}, {2, 1, {8}}};
  const std::vector<ExplorationGrant> grants = explore_idle_cores(schedule, 8, wishes);
  ASSERT_EQ(grants.size(), 2U);
  // First pass, the tail first: task 2's only count, 8, needs its 4 idle cores, over its share (4 idle over 2 kinds
  // wishing); task 1 gets 2, the one core idle beside the 6-core task. Second pass: task 2 alone wishes, gets 8.
  EXPECT_EQ(schedule.tasks[1].alloc[0], 2);
  EXPECT_EQ(schedule.tasks[2].alloc[0], 8);
  EXPECT_LE(peak(schedule), 8);
}

TEST(ExploreIdleCores, NeverTakesCoresThePlanUses) {
  sched::Schedule schedule;
  schedule.tasks = {task(4, 0, 10), task(4, 0, 10)};
  const std::vector<ExplorationWish> wishes{{0, 0, {8, 6, 5}}, {1, 1, {8, 6, 5}}};
  EXPECT_TRUE(explore_idle_cores(schedule, 8, wishes).empty());
  EXPECT_EQ(schedule.tasks[0].alloc[0], 4);
  EXPECT_EQ(schedule.tasks[1].alloc[0], 4);
}

TEST(ExploreIdleCores, SpreadsANaiveRunsSpareCoresOverTheKinds) {
  // Four one-core tasks of two kinds on 16 cores (12 idle): each kind learns a count, not one task all of them.
  sched::Schedule schedule;
  schedule.tasks = {task(1, 0, 1), task(1, 0, 1), task(1, 0, 1), task(1, 0, 1)};
  const std::vector<int> counts{16, 8, 4, 2};
  const std::vector<ExplorationWish> wishes{{0, 0, counts}, {1, 0, counts}, {2, 1, counts}, {3, 1, counts}};
  const std::vector<ExplorationGrant> grants = explore_idle_cores(schedule, 16, wishes);
  ASSERT_GE(grants.size(), 2U);
  std::vector<int> kind0, kind1;
  for (const ExplorationGrant& grant : grants) (grant.task < 2 ? kind0 : kind1).push_back(grant.to_cores);
  EXPECT_FALSE(kind0.empty());
  EXPECT_FALSE(kind1.empty());
  for (const auto* counts_of_kind : {&kind0, &kind1}) {  // never the same new count twice for one kind
    for (std::size_t a = 0; a < counts_of_kind->size(); ++a) {
      for (std::size_t b = a + 1; b < counts_of_kind->size(); ++b) EXPECT_NE((*counts_of_kind)[a], (*counts_of_kind)[b]);
    }
  }
  EXPECT_LE(peak(schedule), 16);
}

TEST(ExploreIdleCores, UnexploredCountsLeaveOutWhatWasMeasured) {
  EXPECT_EQ(unexplored_counts(64, {1}), (std::vector<int>{64, 32, 16, 8, 4, 2}));
  EXPECT_EQ(unexplored_counts(64, {1, 16, 64, 4}), (std::vector<int>{32, 8, 2}));
  EXPECT_TRUE(unexplored_counts(1, {}).empty());
}

}  // namespace
}  // namespace cosched::bench
