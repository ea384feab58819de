#include "cosched/sched/schedule.hpp"

#include <gtest/gtest.h>

#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

// Two resources (cores 4, fast 2); every task has t(p) = 4 / p_1 when p_2 >= 1, +inf otherwise.
Instance small_instance() {
  const AllocationSpace space({4, 2});
  std::vector<double> raw(space.size(), testing::kInf);
  for (int cores = 1; cores <= 4; ++cores) {
    for (int fast = 1; fast <= 2; ++fast) raw[space.index_of(std::vector<int>{cores, fast})] = 4.0 / cores;
  }
  return testing::dense_instance({4, 2}, {raw, raw, raw});
}

// Two tasks side by side on 2 cores each, then the third on everything, starting as they end.
Schedule valid_schedule() {
  Schedule schedule;
  schedule.algorithm = "hand";
  schedule.tasks = {{{2, 1}, 0.0, 2.0, -1}, {{2, 1}, 0.0, 2.0, -1}, {{4, 2}, 2.0, 1.0, -1}};
  schedule.makespan = 3.0;
  return schedule;
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  for (const auto& problem : problems) {
    if (problem.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(ValidatorTest, AcceptsBackToBackTasks) {
  const Instance instance = small_instance();
  EXPECT_TRUE(find_violations(instance, valid_schedule()).empty());
  EXPECT_NO_THROW(require_valid(instance, valid_schedule()));
}

TEST(ValidatorTest, DetectsOverlapOverCapacity) {
  const Instance instance = small_instance();
  Schedule schedule = valid_schedule();
  schedule.tasks[2].start = 1.5;
  schedule.makespan = 2.5;
  const auto problems = find_violations(instance, schedule);
  EXPECT_TRUE(mentions(problems, "resource \"r0\" is over capacity at time 1.5: 8 > 4")) << problems.size();
  EXPECT_THROW(require_valid(instance, schedule), std::logic_error);
}

TEST(ValidatorTest, DetectsWrongDurationAllocationStartAndMakespan) {
  const Instance instance = small_instance();
  Schedule schedule = valid_schedule();
  schedule.tasks[0].duration = 1.0;
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "task \"t0\": duration 1 but t([2, 1]) = 2"));
  schedule = valid_schedule();
  schedule.tasks[1].alloc = {5, 1};
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "task \"t1\": allocation [5, 1] is outside"));
  schedule = valid_schedule();
  schedule.tasks[1].start = -1.0;
  schedule.tasks[1].alloc = {1, 1};
  schedule.tasks[1].duration = 4.0;
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "start time -1"));
  schedule = valid_schedule();
  schedule.makespan = 4.0;
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "makespan 4 but the last task completes at 3"));
  schedule = valid_schedule();
  schedule.tasks.pop_back();
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "schedule has 2 tasks, the instance 3"));
}

TEST(ValidatorTest, DetectsInfeasibleAllocation) {
  const Instance instance = small_instance();
  Schedule schedule = valid_schedule();
  schedule.tasks[0].alloc = {2, 0};  // t = +inf
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "task \"t0\": duration 2 but t([2, 0]) = inf"));
}

TEST(ValidatorTest, ChecksPackStructure) {
  const Instance instance = small_instance();
  Schedule schedule = valid_schedule();
  schedule.tasks[0].pack = 0;
  schedule.tasks[1].pack = 0;
  schedule.tasks[2].pack = 1;
  EXPECT_TRUE(find_violations(instance, schedule).empty());
  schedule.tasks[1].pack = 1;  // pack 1 would have two start times
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "but pack 1 starts at"));
  schedule.tasks[1].pack = -1;
  EXPECT_TRUE(mentions(find_violations(instance, schedule), "task \"t1\": no pack in a pack schedule"));
}

// A schedule chosen on longer times (cosched run: the fits' expected times) is predicted on shorter ones (their
// medians): the same allocations and starts, each duration the instance's, the makespan the last completion, and
// still valid. By hand: the valid schedule planned at 1.5 x these times (3, 3, then 1.5 from 3: 4.5 s).
TEST(ValidatorTest, RetimedKeepsThePlanWithTheInstancesTimes) {
  const Instance instance = small_instance();
  Schedule planned = valid_schedule();
  for (ScheduledTask& task : planned.tasks) {
    task.start *= 1.5;
    task.duration *= 1.5;
  }
  planned.makespan = 4.5;
  const Schedule retimed_schedule = retimed(instance, planned);
  ASSERT_EQ(retimed_schedule.tasks.size(), 3U);
  EXPECT_DOUBLE_EQ(retimed_schedule.tasks[0].duration, 2.0);
  EXPECT_DOUBLE_EQ(retimed_schedule.tasks[2].duration, 1.0);
  EXPECT_DOUBLE_EQ(retimed_schedule.tasks[2].start, 3.0);
  EXPECT_EQ(retimed_schedule.tasks[2].alloc, (std::vector<int>{4, 2}));
  EXPECT_DOUBLE_EQ(retimed_schedule.makespan, 4.0);
  EXPECT_TRUE(find_violations(instance, retimed_schedule).empty());
}

// Longer times could overlap: a caller's bug, refused.
TEST(ValidatorTest, RetimedRefusesTimesLongerThanPlanned) {
  Schedule planned = valid_schedule();
  planned.tasks[0].duration = 1.0;
  EXPECT_THROW((void)retimed(small_instance(), planned), std::logic_error);
}

}  // namespace
}  // namespace cosched::sched
