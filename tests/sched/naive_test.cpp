// The ways a batch runs without a planner (sched::naive_schedule): every task at one allocation, in an order, each
// on the first of the node's slots to free up — xargs -P in the file's order, longest first, one by one.
#include <gtest/gtest.h>

#include <memory>
#include <tuple>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sched/naive.hpp"
#include "test_support.hpp"

namespace cosched::sched {
namespace {

// Three tasks on two cores: a takes 3 s on one core or 2 on both, b 1 or 1, c 2 or 1.
Instance three_tasks() {
  const AllocationSpace space({2});
  std::vector<Task> tasks;
  for (const auto& [id, one, two] : {std::tuple{"a", 3.0, 2.0}, std::tuple{"b", 1.0, 1.0}, std::tuple{"c", 2.0, 1.0}}) {
    tasks.push_back({id, std::make_shared<DenseTimeTable>(space, std::vector<double>{testing::kInf, one, two})});
  }
  return Instance({Resource{"cores", 2}}, std::move(tasks));
}

TEST(NaiveCores, OneEachUnlessTheTasksAreFewerThanTheCores) {
  EXPECT_EQ(naive_cores(2, 7), 1);
  EXPECT_EQ(naive_cores(2, 2), 1);
  EXPECT_EQ(naive_cores(2, 1), 2);
  EXPECT_EQ(naive_cores(64, 24), 2);
  EXPECT_EQ(naive_cores(64, 5), 12);
  EXPECT_EQ(naive_cores(64, 64), 1);
  EXPECT_EQ(naive_cores(4, 0), 1);
}

TEST(NaiveSchedule, XargsStartsEachTaskOnTheFirstCoreFreeInTheFilesOrder) {
  // a on core 0 for 0-3 s, b on core 1 for 0-1 s, then c on core 1 for 1-3 s: 3 s.
  const Schedule xargs = naive_schedule(three_tasks(), file_order(3), {1});
  EXPECT_EQ(xargs.launch_rule, "greedy");
  EXPECT_DOUBLE_EQ(xargs.tasks[2].start, 1.0);
  EXPECT_DOUBLE_EQ(xargs.makespan, 3.0);
  // Longest first (a, c, b): a 0-3 s, c 0-2 s, b 2-3 s; the same 3 s. One by one on both cores: 2 + 1 + 1 s.
  EXPECT_DOUBLE_EQ(naive_schedule(three_tasks(), {0, 2, 1}, {1}).tasks[1].start, 2.0);
  const Schedule one_by_one = naive_schedule(three_tasks(), file_order(3), {2});
  EXPECT_DOUBLE_EQ(one_by_one.tasks[2].start, 3.0);
  EXPECT_DOUBLE_EQ(one_by_one.makespan, 4.0);
}

TEST(NaiveSchedule, RefusesAnAllocationOffTheNodeAndAnOrderThatIsNotAPermutation) {
  const Instance instance = three_tasks();
  EXPECT_THROW((void)naive_schedule(instance, file_order(3), {0}), UsageError);
  EXPECT_THROW((void)naive_schedule(instance, file_order(3), {3}), UsageError);
  EXPECT_THROW((void)naive_schedule(instance, file_order(3), {1, 0}), UsageError);
  EXPECT_THROW((void)naive_schedule(instance, {0, 1}, {1}), UsageError);
  EXPECT_THROW((void)naive_schedule(instance, {0, 1, 1}, {1}), UsageError);
}

}  // namespace
}  // namespace cosched::sched
