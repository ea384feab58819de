#include "cosched/sched/allocation.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "cosched/common/error.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

using testing::kInf;

void expect_same_lists(const std::vector<AdmissibleAllocation>& actual,
                       const std::vector<AdmissibleAllocation>& expected, std::uint64_t seed) {
  ASSERT_EQ(actual.size(), expected.size()) << "seed " << seed;
  for (std::size_t k = 0; k < actual.size(); ++k) {
    EXPECT_EQ(actual[k].index, expected[k].index) << "seed " << seed << " entry " << k;
    EXPECT_EQ(actual[k].time, expected[k].time) << "seed " << seed << " entry " << k;
    EXPECT_EQ(actual[k].area, expected[k].area) << "seed " << seed << " entry " << k;
  }
}

TEST(AdmissibleScannerTest, MatchesSortAndScanOnDenseTablesWithPlateaus) {
  AdmissibleScanner scanner;
  std::vector<AdmissibleAllocation> list;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const std::size_t d = 1 + seed % 4;
    std::vector<int> capacities;
    for (std::size_t i = 0; i < d; ++i) capacities.push_back(1 + static_cast<int>((seed / 4 + i) % 4));
    const Instance instance = testing::random_dense_instance(seed, capacities, 2);
    for (const auto& task : instance.tasks()) {
      scanner.scan(instance.space(), *task.profile, list);
      expect_same_lists(list, testing::sort_and_scan_front(instance.space(), *task.profile), seed);
      for (std::size_t k = 1; k < list.size(); ++k) {
        EXPECT_LT(list[k - 1].time, list[k].time);
        EXPECT_GT(list[k - 1].area, list[k].area);
      }
    }
  }
}

TEST(AdmissibleScannerTest, MatchesSortAndScanOnSyntheticProfiles) {
  AdmissibleScanner scanner;
  std::vector<AdmissibleAllocation> list;
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    GeneratorConfig config;
    config.capacities = seed % 2 == 0 ? std::vector<int>{16, 8, 4} : std::vector<int>{64, 20};
    config.tasks = 6;
    config.profile = all_profiles()[seed % 6];
    const Instance instance = generate_instance(config, seed);
    for (const auto& task : instance.tasks()) {
      scanner.scan(instance.space(), *task.profile, list);
      expect_same_lists(list, testing::sort_and_scan_front(instance.space(), *task.profile), seed);
    }
  }
}

// L_min(s) = min over all allocation matrices of max(A/s, t_max), enumerated outright on tiny instances.
double brute_force_lmin(const Instance& instance, double s) {
  const auto& space = instance.space();
  const std::size_t n = instance.task_count();
  std::vector<std::size_t> choice(n, 0);
  double best = kInf;
  while (true) {
    double total = 0.0, longest = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      const auto alloc = space.decode(choice[j]);
      const double t = instance.time(j, alloc);
      total += area(space, alloc, t);
      longest = std::max(longest, t);
    }
    best = std::min(best, std::max(total / s, longest));
    std::size_t j = 0;
    while (j < n && ++choice[j] == space.size()) choice[j++] = 0;
    if (j == n) return best;
  }
}

TEST(AllocateResourcesTest, FindsTheExactMinimumOfL) {
  for (std::uint64_t seed = 0; seed < 120; ++seed) {
    const std::size_t d = 1 + seed % 2;
    const std::vector<int> capacities = d == 1 ? std::vector<int>{1 + static_cast<int>(seed % 4)}
                                               : std::vector<int>{1 + static_cast<int>(seed % 2), 2};
    const Instance instance = testing::random_dense_instance(seed, capacities, 1 + seed % 3);
    for (const double s : {1.0, static_cast<double>(d), 2.5}) {
      const auto result = allocate_resources(instance, s);
      const double expected = brute_force_lmin(instance, s);
      EXPECT_NEAR(result.bound, expected, 1e-12 * expected) << "seed " << seed << " s " << s;
      // The returned matrix attains its bound.
      double total = 0.0, longest = 0.0;
      for (std::size_t j = 0; j < instance.task_count(); ++j) {
        const auto alloc = instance.space().decode(result.allocation[j]);
        EXPECT_EQ(result.time[j], instance.time(j, alloc));
        total += area(instance.space(), alloc, result.time[j]);
        longest = std::max(longest, result.time[j]);
      }
      EXPECT_NEAR(result.bound, std::max(total / s, longest), 1e-12 * result.bound);
    }
  }
}

TEST(AllocateResourcesTest, LowerBoundIsRaWithSEqualToD) {
  const Instance instance = testing::random_dense_instance(7, {3, 2, 2}, 5);
  EXPECT_EQ(lower_bound(instance), allocate_resources(instance, 3.0).bound);
}

TEST(AllocateResourcesTest, RejectsTaskThatCannotRun) {
  const Instance instance = testing::dense_instance({1}, {{kInf, 1.0}, {kInf, kInf}});
  try {
    (void)lower_bound(instance);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("task \"t1\""), std::string::npos) << e.what();
  }
}

TEST(AllocateResourcesTest, EmptyInstanceHasBoundZero) {
  const Instance instance = testing::dense_instance({2}, {});
  EXPECT_EQ(lower_bound(instance), 0.0);
}

}  // namespace
}  // namespace cosched::sched
