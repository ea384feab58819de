// The two-shelf makespan bound of seed 001's dual approximation (bicriteria.hpp): never above the optimum (brute
// force, monotone or not), never below L_min(1), exactly the boundary of MRT's textbook test on monotone tasks, and
// refused on several resources.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "sched/bicriteria_support.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

using testing::kInf;

// Tiny one-resource instances: random integer tables (plateaus, infinite small counts, works that fall with k:
// not monotone) and the paper's recurrence (monotone).
std::vector<std::pair<std::string, Instance>> tiny_instances() {
  std::vector<std::pair<std::string, Instance>> instances;
  for (std::uint64_t seed = 0; seed < 160; ++seed) {
    instances.emplace_back("random " + std::to_string(seed),
                           testing::random_dense_instance(seed, {1 + static_cast<int>(seed % 4)}, 1 + seed % 4, 0.2));
  }
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    instances.emplace_back("recurrence " + std::to_string(seed),
                           testing::recurrence_instance(seed, 1 + static_cast<int>(seed % 4), 1 + seed % 4,
                                                        0.25 * static_cast<double>(seed % 5)));
  }
  return instances;
}

TEST(TwoShelfBoundTest, IsNeverAboveTheOptimumNorBelowLmin) {
  int stronger = 0;
  for (const auto& [label, instance] : tiny_instances()) {
    const std::optional<double> bound = two_shelf_lower_bound(instance);
    ASSERT_TRUE(bound.has_value()) << label;
    const double optimum = testing::brute_force_optimum(instance);
    EXPECT_TRUE(testing::close_or_below(*bound, optimum)) << label << ": " << *bound << " > optimum " << optimum;
    EXPECT_TRUE(testing::close_or_below(lower_bound(instance), *bound)) << label;
    if (*bound > lower_bound(instance) * (1 + 1e-9)) ++stronger;
  }
  EXPECT_GE(stronger, 10) << "the two shelves should beat L_min on a good share of these instances";
}

// Larger instances: still between L_min(1) and the makespan of every registered algorithm's (feasible) schedule.
TEST(TwoShelfBoundTest, LiesBetweenLminAndEveryAlgorithmsMakespan) {
  std::vector<std::pair<std::string, Instance>> instances;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    instances.emplace_back("recurrence " + std::to_string(seed),
                           testing::recurrence_instance(seed, 32, 40, 0.1 + 0.4 * static_cast<double>(seed % 3)));
    instances.emplace_back("random " + std::to_string(seed), testing::random_dense_instance(seed, {12}, 30));
  }
  for (const auto& [label, instance] : instances) {
    const double bound = *two_shelf_lower_bound(instance);
    EXPECT_TRUE(testing::close_or_below(lower_bound(instance), bound)) << label;
    for (const auto& algorithm : algorithms()) {
      if (!algorithm->refusal(instance).empty()) continue;
      const Schedule schedule = plan(*algorithm, instance, lower_bound(instance)).schedule;
      EXPECT_TRUE(testing::close_or_below(bound, schedule.makespan)) << label << ", " << algorithm->name();
    }
  }
}

// MRT's test for a guess λ as the textbook states it for monotone tasks (digest §2.2), by enumerating the first
// shelf: small tasks (t(1) <= λ/2) sequential, every other task on shelf 1 at γ(λ) or shelf 2 at γ(λ/2), least
// total work with shelf 1 within m processors; reject when it exceeds m λ or some task cannot reach λ.
bool textbook_rejects(const Instance& instance, double guess) {
  const int m = instance.space().capacity(0);
  const auto time = [&](std::size_t j, int k) { return instance.time(j, std::vector<int>{k}); };
  const auto fewest = [&](std::size_t j, double limit) {  // γ(limit), 0 when none
    for (int k = 1; k <= m; ++k) {
      if (time(j, k) <= limit) return k;
    }
    return 0;
  };
  double small_work = 0;
  std::vector<std::size_t> others;
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    if (time(j, m) > guess) return true;
    if (time(j, 1) <= guess / 2) {
      small_work += time(j, 1);
    } else {
      others.push_back(j);
    }
  }
  double least = kInf;
  for (std::size_t mask = 0; mask < (std::size_t{1} << others.size()); ++mask) {
    int first_shelf = 0;
    double work = small_work;
    for (std::size_t i = 0; i < others.size(); ++i) {
      const int on_first = fewest(others[i], guess);
      const int on_second = fewest(others[i], guess / 2);
      if ((mask >> i & 1) != 0 || on_second == 0) {
        first_shelf += on_first;
        work += on_first * time(others[i], on_first);
      } else {
        work += on_second * time(others[i], on_second);
      }
    }
    if (first_shelf <= m) least = std::min(least, work);
  }
  return least > m * guess;
}

TEST(TwoShelfBoundTest, IsTheBoundaryOfTheTextbookTestOnMonotoneTasks) {
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const Instance instance = testing::recurrence_instance(seed, 2 + static_cast<int>(seed % 7), 1 + seed % 9,
                                                           0.2 * static_cast<double>(seed % 6));
    const double bound = *two_shelf_lower_bound(instance);
    EXPECT_TRUE(textbook_rejects(instance, bound * (1 - 1e-9))) << "seed " << seed << ": bound " << bound;
    EXPECT_FALSE(textbook_rejects(instance, bound * (1 + 1e-9))) << "seed " << seed << ": bound " << bound;
  }
}

// Three tasks of time 1 on 2 processors, no speedup: the areas fit in 1.5 (L_min), but in a schedule shorter than
// 2 every task is longer than half of it, so all three would run at its middle instant on 2 processors. The
// shelves see it: the bound is the optimum, 2.
TEST(TwoShelfBoundTest, SeesThatLongTasksCannotShareAnInstant) {
  const Instance instance = testing::dense_instance({2}, {{kInf, 1, 1}, {kInf, 1, 1}, {kInf, 1, 1}});
  EXPECT_DOUBLE_EQ(lower_bound(instance), 1.5);
  EXPECT_DOUBLE_EQ(*two_shelf_lower_bound(instance), 2.0);
  EXPECT_DOUBLE_EQ(testing::brute_force_optimum(instance), 2.0);
}

TEST(TwoShelfBoundTest, RefusesSeveralResourcesAndIsZeroWithoutTasks) {
  EXPECT_FALSE(two_shelf_lower_bound(testing::random_dense_instance(1, {2, 2}, 3)).has_value());
  EXPECT_EQ(two_shelf_lower_bound(Instance({Resource{"cores", 4}}, {})), 0.0);
}

}  // namespace
}  // namespace cosched::sched
