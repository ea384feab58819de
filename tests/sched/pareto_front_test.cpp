// ParetoFront: every query against the literal sort-and-scan of Algorithm 1 (lines 5-12), on dense tables with
// plateaus, ties and infeasible allocations and on the six synthetic profiles, d = 1..4; the sequential allotment
// against brute force; the front kept with the profile; concurrent queries.
#include "cosched/sched/pareto_front.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>

#include "cosched/sched/cluster.hpp"
#include "cosched/sched/generator.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

using testing::kInf;

void expect_entry(const std::optional<AdmissibleAllocation>& actual, const AdmissibleAllocation* expected,
                  const std::string& where) {
  if (expected == nullptr) {
    EXPECT_FALSE(actual.has_value()) << where << ": expected no entry, got index " << actual->index;
    return;
  }
  ASSERT_TRUE(actual.has_value()) << where << ": expected index " << expected->index << ", got none";
  EXPECT_EQ(actual->index, expected->index) << where;
  EXPECT_EQ(actual->time, expected->time) << where;
  EXPECT_EQ(actual->area, expected->area) << where;
}

// The last entry of `list` with time <= limit, or nullptr.
const AdmissibleAllocation* last_within(const std::vector<AdmissibleAllocation>& list, double limit) {
  const AdmissibleAllocation* found = nullptr;
  for (const auto& entry : list) {
    if (entry.time <= limit) found = &entry;
  }
  return found;
}

// Every query of a fresh front, in an order that mixes cached and new answers, against the reference list.
void check_front(const AllocationSpace& space, const TimeProfile& profile, std::uint64_t seed,
                 const std::string& label) {
  const std::vector<AdmissibleAllocation> list = testing::sort_and_scan_front(space, profile);
  const ParetoFront front(space, profile);
  const AdmissibleAllocation* none = nullptr;
  expect_entry(front.least_area(), list.empty() ? none : &list.back(), label + " least area");
  expect_entry(front.fastest(), list.empty() ? none : &list.front(), label + " fastest");
  // RA_d's walk: from the least area to the fastest, one entry at a time.
  if (!list.empty()) {
    AdmissibleAllocation entry = *front.least_area();
    for (std::size_t k = list.size() - 1; k-- > 0;) {
      const auto shorter = front.shorter_than(entry);
      expect_entry(shorter, &list[k], label + " shorter than entry " + std::to_string(k + 1));
      if (!shorter) break;
      entry = *shorter;
    }
    EXPECT_FALSE(front.shorter_than(list.front()).has_value()) << label;
  }
  // Limits at, just below and just above every entry, and random ones (canonical allotments).
  Random random(seed);
  const double top = list.empty() ? 1.0 : 2 * list.back().time + 1;
  for (std::size_t k = 0; k < 3 * list.size() + 20; ++k) {
    double limit = random.uniform_below(0.0, top);
    if (!list.empty() && k % 2 == 0) {
      const double at = list[random.index(list.size())].time;
      limit = k % 4 == 0 ? at : std::nextafter(at, random.index(2) == 0 ? -kInf : kInf);
    }
    expect_entry(front.within(limit), last_within(list, limit), label + " within " + std::to_string(limit));
  }
  expect_entry(front.within(kInf), list.empty() ? none : &list.back(), label + " within inf");
  const std::vector<AdmissibleAllocation> whole = front.entries();
  ASSERT_EQ(whole.size(), list.size()) << label;
  for (std::size_t k = 0; k < list.size(); ++k) expect_entry(whole[k], &list[k], label + " entries");
}

TEST(ParetoFront, EveryQueryMatchesTheSortedScanOnDenseTables) {
  // Small spaces, and large ones where the search answers queries before the front is scanned whole.
  const std::vector<std::vector<int>> spaces{{1},         {7},          {40},         {3, 2},
                                             {4, 4},      {40, 30},     {3, 2, 2},    {12, 10, 8},
                                             {20, 20, 20}, {2, 2, 2, 2}, {6, 5, 4, 3}, {9, 9, 9, 9}};
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const std::vector<int>& capacities = spaces[seed % spaces.size()];
    const double infeasible = seed % 3 == 0 ? 0.6 : 0.2;
    const Instance instance = testing::random_dense_instance(seed, capacities, 3, infeasible);
    for (const Task& task : instance.tasks()) {
      check_front(instance.space(), *task.profile, seed, "seed " + std::to_string(seed) + " task " + task.id);
    }
  }
}

TEST(ParetoFront, EveryQueryMatchesTheSortedScanOnSyntheticProfiles) {
  const std::vector<std::vector<int>> spaces{{64}, {64, 20}, {16, 16, 16}, {64, 32, 16, 8}};
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    GeneratorConfig config;
    config.capacities = spaces[seed % spaces.size()];
    config.tasks = 2;
    config.profile = all_profiles()[seed % 6];
    const Instance instance = generate_instance(config, seed);
    for (const Task& task : instance.tasks()) {
      check_front(instance.space(), *task.profile, seed,
                  profile_name(*config.profile) + " seed " + std::to_string(seed) + " task " + task.id);
    }
  }
}

TEST(ParetoFront, LeastShareIsTheSmallestAllocationWithAFiniteTime) {
  for (std::uint64_t seed = 0; seed < 80; ++seed) {
    const std::size_t d = 1 + seed % 4;
    std::vector<int> capacities;
    for (std::size_t i = 0; i < d; ++i) capacities.push_back(1 + static_cast<int>((seed / 4 + 3 * i) % 5));
    const Instance instance = testing::random_dense_instance(seed, capacities, 3, 0.5);
    const AllocationSpace& space = instance.space();
    std::vector<double> times(space.size());
    for (const Task& task : instance.tasks()) {
      task.profile->fill_times(space, times);
      std::optional<std::size_t> best;  // lexicographic minimum of (share, time, index) over finite times
      for (std::size_t k = 0; k < space.size(); ++k) {
        if (std::isinf(times[k])) continue;
        const double share = space.share_sum(space.decode(k));
        if (!best) {
          best = k;
          continue;
        }
        const double best_share = space.share_sum(space.decode(*best));
        if (share < best_share || (share == best_share && times[k] < times[*best])) best = k;
      }
      const std::optional<AdmissibleAllocation> found = ParetoFront(space, *task.profile).least_share();
      ASSERT_TRUE(best.has_value()) << "random_dense_instance keeps the full allocation finite";
      ASSERT_TRUE(found.has_value()) << "seed " << seed;
      EXPECT_EQ(found->index, *best) << "seed " << seed << " task " << task.id;
      EXPECT_EQ(found->time, times[*best]) << "seed " << seed;
      EXPECT_EQ(found->area, area(space, space.decode(*best), times[*best])) << "seed " << seed;
    }
  }
}

TEST(ParetoFront, ATaskThatCannotRunHasAnEmptyFront) {
  const Instance instance = testing::dense_instance({2, 1}, {std::vector<double>(6, kInf)});
  const ParetoFront front(instance.space(), *instance.tasks()[0].profile);
  EXPECT_FALSE(front.least_area().has_value());
  EXPECT_FALSE(front.fastest().has_value());
  EXPECT_FALSE(front.within(1e9).has_value());
  EXPECT_FALSE(front.least_share().has_value());
  EXPECT_TRUE(front.entries().empty());
}

// RA_d(d) on many tasks needs each task's least area only: the search reads a small part of a large space.
TEST(ParetoFront, TheLeastAreaOfALargeSpaceReadsFewTimes) {
  GeneratorConfig config;
  config.tasks = 6;  // (64, 32, 16, 8): 328,185 allocation vectors
  const Instance instance = generate_instance(config, 7);
  for (const Task& task : instance.tasks()) {
    const ParetoFront front(instance.space(), *task.profile);
    ASSERT_TRUE(front.least_area().has_value());
    EXPECT_LT(front.evaluations(), instance.space().size() / 10) << task.id;
  }
}

TEST(ParetoFront, TheProfileKeepsOneFrontThatSelectedTasksShare) {
  const Instance instance = testing::random_dense_instance(3, {3, 2}, 4);
  const TimeProfile& profile = *instance.tasks()[1].profile;
  const auto kept = profile.front(instance.space());
  EXPECT_EQ(kept, profile.front(instance.space()));
  const Instance node = select_tasks(instance, {1, 3});
  EXPECT_EQ(kept, node.tasks()[0].profile->front(node.space())) << "a node's task reads the front the split computed";
  const AllocationSpace other({2, 1});  // within the table's own (3, 2): the profile can be read there
  const auto fresh = profile.front(other);
  EXPECT_NE(kept, fresh);
  EXPECT_EQ(fresh->capacities(), other.capacities());
  EXPECT_EQ(kept, profile.front(instance.space())) << "the first space's front stays kept";
}

TEST(ParetoFront, ConcurrentQueriesAgreeWithTheSortedScan) {
  GeneratorConfig config;
  config.capacities = {16, 16, 16};
  config.tasks = 4;
  const Instance instance = generate_instance(config, 11);
  for (const Task& task : instance.tasks()) {
    const std::vector<AdmissibleAllocation> list = testing::sort_and_scan_front(instance.space(), *task.profile);
    const ParetoFront front(instance.space(), *task.profile);
    std::vector<std::optional<AdmissibleAllocation>> answers(2 * list.size());
    const auto ask = [&](std::size_t parity) {
      for (std::size_t k = parity; k < answers.size(); k += 2) answers[k] = front.within(list[k / 2].time);
    };
    std::thread other(ask, 1);
    ask(0);
    other.join();
    for (std::size_t k = 0; k < answers.size(); ++k) expect_entry(answers[k], &list[k / 2], task.id);
  }
}

}  // namespace
}  // namespace cosched::sched
