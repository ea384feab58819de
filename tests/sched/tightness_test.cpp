// The two tightness constructions in the proof of Theorem 3 (Sec. 4.5).
#include <gtest/gtest.h>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

using testing::kInf;

// List family: n = 2d tasks, P(i) = 2P. Task j (1-based) has t_j(P e_ceil(j/2)) = 1 and
// t_j((P+1) e_1) = (P-1)/(P+1); every other vector gets the closure of these (and +inf below them).
Instance list_family(std::size_t d, int P) {
  const std::vector<int> capacities(d, 2 * P);
  const AllocationSpace space(capacities);
  std::vector<std::vector<double>> raw(2 * d, std::vector<double>(space.size(), kInf));
  for (std::size_t j = 1; j <= 2 * d; ++j) {
    std::vector<int> slow(d, 0), fast(d, 0);
    slow[(j + 1) / 2 - 1] = P;
    fast[0] = P + 1;
    raw[j - 1][space.index_of(slow)] = 1.0;
    raw[j - 1][space.index_of(fast)] = static_cast<double>(P - 1) / static_cast<double>(P + 1);
  }
  return testing::dense_instance(capacities, raw);
}

// The optimal schedule of the list family: every task at time 0 with its time-1 allocation.
Schedule list_family_optimum(const Instance& instance, int P) {
  const std::size_t d = instance.dimensions();
  Schedule schedule;
  schedule.algorithm = "witness";
  for (std::size_t j = 1; j <= 2 * d; ++j) {
    std::vector<int> alloc(d, 0);
    alloc[(j + 1) / 2 - 1] = P;
    schedule.tasks.push_back({alloc, 0.0, instance.time(j - 1, alloc), -1});
  }
  schedule.makespan = completion_time(schedule.tasks);
  return schedule;
}

TEST(ListTightnessTest, ListAlgorithmsReachExactly2dTimesPMinus1OverPPlus1WhereOptIs1) {
  for (const auto& [d, P] : std::vector<std::pair<std::size_t, int>>{{1, 3}, {1, 1000}, {2, 2}, {2, 60}, {3, 12},
                                                                      {4, 4}}) {
    const Instance instance = list_family(d, P);
    const Schedule witness = list_family_optimum(instance, P);
    ASSERT_TRUE(find_violations(instance, witness).empty());
    EXPECT_EQ(witness.makespan, 1.0);
    const double expected = 2.0 * static_cast<double>(d) * (P - 1) / (P + 1);
    const double bound = lower_bound(instance);
    for (const char* name : {"d-list-spt", "d-list-lpt", "t-list-spt", "t-list-lpt"}) {
      const PlanResult result = plan(find_algorithm(name), instance, bound);
      EXPECT_NEAR(result.schedule.makespan, expected, 1e-12) << name << " d=" << d << " P=" << P;
      EXPECT_LE(result.schedule.makespan, 2.0 * static_cast<double>(d) * witness.makespan);  // Theorem 3
    }
  }
}

TEST(ListTightnessTest, OptimumOfSmallMembersIsOneByExhaustiveSearch) {
  for (const auto& [d, P] : std::vector<std::pair<std::size_t, int>>{{1, 3}, {2, 2}}) {
    EXPECT_EQ(testing::brute_force_optimum(list_family(d, P)), 1.0) << "d=" << d << " P=" << P;
  }
}

TEST(ListTightnessTest, RatioTendsTo2d) {
  const int P = 2000;
  for (std::size_t d : {1u, 2u}) {
    const Instance instance = list_family(d, d == 1 ? P : 100);
    const double makespan = find_algorithm("d-list-lpt").schedule(instance).makespan;
    EXPECT_GT(makespan, 2.0 * static_cast<double>(d) * 0.97);
  }
}

// Pack family: n = 2dP + d + 1 tasks, P(i) = P. Task 0: t(1,...,1) = P. For each i: task (i,0) with P units of
// resources i and i-1 (if i > 1), tasks (i,j1), j1 in [1,P], with P-1 units of resource i, tasks (i,j2),
// j2 in [P+1,2P], with 2 units of resource i; each of time 1 + k/n^3 (k < n) that is decreasing along the order
// 0, (1,0), (1,1), (1,P+1), (1,2), (1,P+2), ..., (2,0), ... so that the sort by non-increasing time follows it.
struct PackFamily {
  Instance instance;
  std::vector<std::vector<int>> alloc;  // the defining allocation of each task
  std::vector<std::pair<std::size_t, int>> label;  // (i, j); task 0 is (0, 0)
};

PackFamily pack_family(std::size_t d, int P) {
  const std::vector<int> capacities(d, P);
  const AllocationSpace space(capacities);
  const std::size_t n = 2 * d * static_cast<std::size_t>(P) + d + 1;
  const double epsilon = 1.0 / (static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n));
  std::vector<std::vector<int>> allocs{std::vector<int>(d, 1)};
  std::vector<std::pair<std::size_t, int>> labels{{0, 0}};
  for (std::size_t i = 1; i <= d; ++i) {
    std::vector<int> head(d, 0);
    head[i - 1] = P;
    if (i > 1) head[i - 2] = P;
    allocs.push_back(head);
    labels.push_back({i, 0});
    for (int k = 1; k <= P; ++k) {
      std::vector<int> big(d, 0), small(d, 0);
      big[i - 1] = P - 1;
      small[i - 1] = 2;
      allocs.push_back(big);
      labels.push_back({i, k});
      allocs.push_back(small);
      labels.push_back({i, P + k});
    }
  }
  std::vector<std::vector<double>> raw(n, std::vector<double>(space.size(), kInf));
  raw[0][space.index_of(allocs[0])] = P;
  for (std::size_t k = 1; k < n; ++k) raw[k][space.index_of(allocs[k])] = 1.0 + static_cast<double>(n - k) * epsilon;
  return {testing::dense_instance(capacities, raw), allocs, labels};
}

// OPT of the pack family (the proof's schedule, with (i,j1) beside task 0): task 0 and, per resource i, the P tasks
// (i,j1) back to back in [0, ~P); then the (i,j2) in two rounds of P/2; then the (i,0), odd i then even i.
Schedule pack_family_optimum(const PackFamily& family, int P) {
  const Instance& instance = family.instance;
  const std::size_t d = instance.dimensions();
  Schedule schedule;
  schedule.algorithm = "witness";
  schedule.tasks.resize(instance.task_count());
  for (std::size_t k = 0; k < instance.task_count(); ++k) {
    schedule.tasks[k].alloc = family.alloc[k];
    schedule.tasks[k].duration = instance.time(k, family.alloc[k]);
  }
  std::vector<double> chain_end(d + 1, 0.0);
  double phase_end = schedule.tasks[0].duration;
  for (std::size_t k = 1; k < instance.task_count(); ++k) {
    const auto [i, j] = family.label[k];
    if (j >= 1 && j <= P) {
      schedule.tasks[k].start = chain_end[i];
      chain_end[i] += schedule.tasks[k].duration;
      phase_end = std::max(phase_end, chain_end[i]);
    }
  }
  for (int round = 0; round < 2; ++round) {
    double round_end = phase_end;
    for (std::size_t k = 1; k < instance.task_count(); ++k) {
      const auto [i, j] = family.label[k];
      if (j > P && (j - P - 1) / (P / 2) == round) {
        schedule.tasks[k].start = phase_end;
        round_end = std::max(round_end, phase_end + schedule.tasks[k].duration);
      }
    }
    phase_end = round_end;
  }
  for (std::size_t parity : {1u, 0u}) {
    double round_end = phase_end;
    for (std::size_t k = 1; k < instance.task_count(); ++k) {
      const auto [i, j] = family.label[k];
      if (j == 0 && i % 2 == parity) {
        schedule.tasks[k].start = phase_end;
        round_end = std::max(round_end, phase_end + schedule.tasks[k].duration);
      }
    }
    phase_end = round_end;
  }
  schedule.makespan = completion_time(schedule.tasks);
  return schedule;
}

TEST(PackTightnessTest, NextFitPacksReach2dPlus1TimesPPlusD) {
  for (const auto& [d, P] : std::vector<std::pair<std::size_t, int>>{{1, 40}, {2, 20}, {3, 8}, {4, 4}}) {
    const PackFamily family = pack_family(d, P);
    const Schedule witness = pack_family_optimum(family, P);
    ASSERT_TRUE(find_violations(family.instance, witness).empty()) << find_violations(family.instance, witness)[0];
    EXPECT_LT(witness.makespan, P + 4 + 0.01);
    const double floor = (2.0 * static_cast<double>(d) + 1.0) * P + static_cast<double>(d);
    const double bound = lower_bound(family.instance);
    for (const char* name : {"d-pack-nf", "t-pack-nf"}) {
      const PlanResult result = plan(find_algorithm(name), family.instance, bound);
      // Every task in a pack of its own: P + (2dP + d) * (1 + O(epsilon)).
      EXPECT_GE(result.schedule.makespan, floor) << name << " d=" << d << " P=" << P;
      EXPECT_LT(result.schedule.makespan, floor + 1.0) << name << " d=" << d << " P=" << P;
      int packs = 0;
      for (const auto& task : result.schedule.tasks) packs = std::max(packs, task.pack + 1);
      EXPECT_EQ(static_cast<std::size_t>(packs), family.instance.task_count()) << name;
      EXPECT_GT(result.schedule.makespan / witness.makespan, floor / (P + 4 + 0.01)) << name;
      EXPECT_LE(result.schedule.makespan, (2.0 * static_cast<double>(d) + 1.0) * witness.makespan);  // Theorem 3
    }
  }
}

TEST(PackTightnessTest, RatioApproaches2dPlus1AsPGrows) {
  const std::size_t d = 1;
  const int P = 400;
  const PackFamily family = pack_family(d, P);
  const double makespan = find_algorithm("d-pack-nf").schedule(family.instance).makespan;
  const double optimum = pack_family_optimum(family, P).makespan;
  EXPECT_GT(makespan / optimum, 2.95);
}

}  // namespace
}  // namespace cosched::sched
