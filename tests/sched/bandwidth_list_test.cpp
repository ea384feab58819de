// bw-list-lpt (issue 10): the bandwidth resources it adds, and what planning with them changes. The invariants it
// shares with the eight (validity, L_min, determinism) are in algorithms_test.cpp.
#include "cosched/sched/bandwidth_planning.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/schedule.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

// Two bandwidth-bound tasks on 2 cores: a second core does not help, and each moves 10 bytes/s alone — all the
// pool delivers.
Instance two_streams(double pool_bytes_per_s) {
  Instance plain = testing::dense_instance({2}, {{testing::kInf, 1.0, 1.0}, {testing::kInf, 1.0, 1.0}});
  std::vector<Task> tasks = plain.tasks();
  for (Task& task : tasks) task.traffic = std::make_shared<TrafficTable>(TrafficTable{{10.0, 10.0, 10.0}});
  BandwidthModel model;
  model.pools.push_back({"dram", {1.0, 2.0}, {pool_bytes_per_s, pool_bytes_per_s}});
  return Instance(plain.resources(), std::move(tasks), plain.attributes(), std::move(model));
}

bool overlap(const ScheduledTask& a, const ScheduledTask& b) {
  return std::max(a.start, b.start) < std::min(a.start + a.duration, b.start + b.duration);
}

TEST(BandwidthList, TimesGrowAsTheBandwidthShareShrinks) {
  const Instance planning = with_bandwidth_resources(two_streams(10.0), 20);
  ASSERT_EQ(planning.dimensions(), 2U);
  EXPECT_EQ(planning.resources()[1].name, "bandwidth_dram");
  EXPECT_EQ(planning.resources()[1].capacity, 20);
  // A unit is 10/20 = 0.5 bytes/s; 10 bytes with b units take max(1, 10 / (0.5 b)) = 20 / b seconds (b <= 20).
  for (const int units : {1, 4, 10, 20}) {
    const std::vector<int> alloc{1, units};
    EXPECT_DOUBLE_EQ(planning.time(0, alloc), std::max(1.0, 20.0 / units)) << units << " units";
  }
  EXPECT_TRUE(std::isinf(planning.time(0, std::vector<int>{1, 0})));  // it moves bytes: no bandwidth, no progress
}

TEST(BandwidthList, SerialisesTasksThePoolCannotFeedTogether) {
  const Instance instance = two_streams(10.0);
  const Schedule paper = find_algorithm("d-list-lpt").schedule(instance);
  const Schedule planned = find_algorithm("bw-list-lpt").schedule(instance);
  EXPECT_TRUE(overlap(paper.tasks[0], paper.tasks[1])) << "the paper's model co-runs them on one core each";
  EXPECT_FALSE(overlap(planned.tasks[0], planned.tasks[1])) << "together they would each run at half speed";
  EXPECT_TRUE(find_violations(instance, planned).empty());
}

TEST(BandwidthList, CoRunsTasksThePoolCanFeedTogether) {
  const Instance instance = two_streams(40.0);  // twice what both need
  const Schedule planned = find_algorithm("bw-list-lpt").schedule(instance);
  EXPECT_TRUE(overlap(planned.tasks[0], planned.tasks[1]));
  EXPECT_DOUBLE_EQ(planned.makespan, 1.0);
}

TEST(BandwidthList, WithoutTrafficItIsTheListAlgorithm) {
  const Instance instance = testing::random_dense_instance(7, {3, 2}, 9);
  const Schedule lpt = find_algorithm("d-list-lpt").schedule(instance);
  const Schedule planned = find_algorithm("bw-list-lpt").schedule(instance);
  EXPECT_EQ(planned.algorithm, "bw-list-lpt");
  ASSERT_EQ(planned.tasks.size(), lpt.tasks.size());
  for (std::size_t j = 0; j < lpt.tasks.size(); ++j) {
    EXPECT_EQ(planned.tasks[j].alloc, lpt.tasks[j].alloc);
    EXPECT_EQ(planned.tasks[j].start, lpt.tasks[j].start);
  }
}

TEST(BandwidthList, UnitsShrinkToKeepTheAllocationSpaceSmall) {
  const Instance one_pool = testing::with_random_traffic(testing::random_dense_instance(1, {64, 20}, 2), 1, 1);
  EXPECT_EQ(bandwidth_units(one_pool), 20);
  const Instance two_pools = testing::with_random_traffic(testing::random_dense_instance(1, {64, 20}, 2), 1, 2);
  const int units = bandwidth_units(two_pools);
  EXPECT_LE(65.0 * 21 * (units + 1) * (units + 1), static_cast<double>(1 << 22));
  EXPECT_GE(units, 10);
}

}  // namespace
}  // namespace cosched::sched
