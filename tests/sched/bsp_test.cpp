// Seed 004 (Dutot, Goldman, Kon, Netto, "Scheduling moldable BSP tasks"): the time model, Table 1, the
// interesting allocations, the Instance JSON fields, the paper's bound and A1-A4. The invariants every algorithm
// shares run in algorithms_test.cpp.
#include "cosched/sched/bsp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/io.hpp"
#include "sched/bsp_support.hpp"

namespace cosched::sched {
namespace {

using testing::bsp_instance;
using testing::close_or_below;
using testing::random_bsp_instance;

TEST(BspProfileTest, ReproducesTable1Exactly) {
  const BspProfile task(7, 1.0);
  const std::vector<int> procs{7, 6, 5, 4, 3, 2, 1};
  const std::vector<double> times{1, 2, 2, 2, 3, 4, 7};
  const std::vector<double> works{7, 12, 10, 8, 9, 8, 7};
  for (std::size_t k = 0; k < procs.size(); ++k) {
    EXPECT_EQ(task.time_on(procs[k]), times[k]) << procs[k] << " processors";
    EXPECT_EQ(procs[k] * task.time_on(procs[k]), works[k]) << procs[k] << " processors";
  }
  EXPECT_EQ(task.time_on(8), 1.0);  // more than req: no gain
  EXPECT_TRUE(std::isinf(task.time_on(0)));
}

TEST(BspProfileTest, InterestingAllocationsOfReq7AreThoseOfTheText) {
  EXPECT_EQ(bsp_interesting_allocations(7), (std::vector<int>{1, 2, 3, 4, 7}));
  EXPECT_EQ(bsp_interesting_allocations(1), (std::vector<int>{1}));
}

// Against the definition ("no smaller allocation has the same time"), and about 2 sqrt(req) of them.
TEST(BspProfileTest, InterestingAllocationsAreTheAllocationsWhereTheTimeDrops) {
  for (int req = 1; req <= 600; ++req) {
    const BspProfile task(req, 1.0);
    std::vector<int> expected;
    for (int p = 1; p <= req; ++p) {
      if (p == 1 || task.time_on(p) < task.time_on(p - 1)) expected.push_back(p);
    }
    ASSERT_EQ(bsp_interesting_allocations(req), expected) << "req " << req;
    EXPECT_LE(static_cast<double>(expected.size()), 2.0 * std::sqrt(static_cast<double>(req))) << "req " << req;
  }
}

// The second resource, when there is one, does not change a BSP task's time; fill_times agrees with time_at.
TEST(BspProfileTest, FillTimesAgreesWithTimeAtAndIgnoresOtherResources) {
  const AllocationSpace space({5, 2});
  const BspProfile task(4, 2.5);
  std::vector<double> times(space.size());
  task.fill_times(space, times);
  for (std::size_t k = 0; k < space.size(); ++k) {
    const std::vector<int> alloc = space.decode(k);
    EXPECT_EQ(times[k], task.time_at(space, alloc));
    EXPECT_EQ(times[k], task.time_on(alloc[0]));
  }
}

TEST(BspInstanceJsonTest, ReadsAndWritesReqAndTimeAtReq) {
  const std::string text = R"({"resources":[{"name":"procs","capacity":8}],"tasks":[
      {"id":"a","req":7,"time_at_req":1.5,"command":["/bin/true"]},{"id":"b","times":[null,4,2,2,2,2,2,2,1]}]})";
  const Instance instance = parse_instance(text, "bsp.json");
  EXPECT_EQ(instance.time(0, std::vector<int>{3}), 4.5);
  EXPECT_EQ(instance.tasks()[0].attributes, nlohmann::json::parse(R"({"command":["/bin/true"]})"));
  const nlohmann::json written = nlohmann::json::parse(instance_to_json(instance));
  EXPECT_EQ(written["tasks"][0]["req"], 7);
  EXPECT_EQ(written["tasks"][0]["time_at_req"], 1.5);
  EXPECT_FALSE(written["tasks"][0].contains("times"));
  EXPECT_TRUE(written["tasks"][1].contains("times"));
  const Instance again = parse_instance(written.dump(), "again.json");
  for (int p = 0; p <= 8; ++p) {
    for (std::size_t j = 0; j < 2; ++j)
      EXPECT_EQ(again.time(j, std::vector<int>{p}), instance.time(j, std::vector<int>{p}));
  }
}

class BspInstanceJsonRefuses : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(BspInstanceJsonRefuses, AsAnInputErrorNamingTheTask) {
  const std::string text = R"({"resources":[{"name":"procs","capacity":4}],"tasks":[{"id":"a",)" + GetParam().first +
                           "}]}";
  try {
    (void)parse_instance(text, "bad.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("task \"a\""), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().second), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    BadFields, BspInstanceJsonRefuses,
    ::testing::Values(std::pair<std::string, std::string>{R"("req":5,"time_at_req":1)", "\"req\""},
                      std::pair<std::string, std::string>{R"("req":0,"time_at_req":1)", "\"req\""},
                      std::pair<std::string, std::string>{R"("req":2.5,"time_at_req":1)", "\"req\""},
                      std::pair<std::string, std::string>{R"("req":"2","time_at_req":1)", "\"req\""},
                      std::pair<std::string, std::string>{R"("req":2,"time_at_req":0)", "\"time_at_req\""},
                      std::pair<std::string, std::string>{R"("req":2,"time_at_req":-1)", "\"time_at_req\""},
                      std::pair<std::string, std::string>{R"("req":2,"time_at_req":2e9)", "\"time_at_req\""},
                      std::pair<std::string, std::string>{R"("req":2)", "\"time_at_req\" is missing"},
                      std::pair<std::string, std::string>{R"("time_at_req":2)", "\"req\" is missing"},
                      std::pair<std::string, std::string>{R"("req":2,"time_at_req":1,"times":[null,1,1,1,1])",
                                                          "both"}));

TEST(BspLowerBoundTest, IsTheLongestTaskOrTheAverageMinimalWork) {
  // Longest: 10 on 1 processor. Work: 3 * 2 + 1 * 10 + 4 * 1 = 20, on 4 processors 5.
  EXPECT_EQ(bsp_lower_bound(bsp_instance(4, {{3, 2.0}, {1, 10.0}, {4, 1.0}})), 10.0);
  // Longest 2; work 4 * 2 * 3 = 24 over 4 processors: 6.
  EXPECT_EQ(bsp_lower_bound(bsp_instance(4, {{4, 2.0}, {4, 2.0}, {4, 2.0}})), 6.0);
}

// Both are lower bounds of the same instance; L_min(1) minimises max(work/m, longest) over one allotment, so it
// can only be larger.
TEST(BspLowerBoundTest, IsAtMostLminOfTheSameInstance) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const Instance instance =
        random_bsp_instance(seed, 1 + static_cast<int>(seed % 40), 1 + seed % 30, 20, seed % 2 == 0);
    EXPECT_TRUE(close_or_below(bsp_lower_bound(instance), lower_bound(instance))) << "seed " << seed;
  }
}

// Every task of a tiny instance with the exact optimum: A4's rejections are sound (a rejected guess is below OPT,
// i.e. every guess >= OPT is accepted) and an accepted guess w gives a valid schedule of makespan <= 2w.
TEST(BspA4Test, RejectionsAreSoundAgainstTheExactOptimum) {
  for (std::uint64_t seed = 0; seed < 150; ++seed) {
    const int capacity = 2 + static_cast<int>(seed % 3);
    const Instance instance = random_bsp_instance(seed, capacity, 2 + seed % 4, 6, seed % 3 != 0);
    const double optimum = testing::brute_force_optimum(instance);
    ASSERT_TRUE(close_or_below(bsp_lower_bound(instance), optimum)) << "seed " << seed;
    // The guesses where an allotment changes (half a step's time) and a grid between OPT / 2 and 2 OPT.
    std::set<double> guesses;
    for (const BspSteps& steps : bsp_steps(instance)) {
      for (const BspStep& step : steps) guesses.insert(step.time / 2.0);
    }
    for (int k = 0; k <= 48; ++k) guesses.insert(optimum * (0.5 + k / 32.0));
    guesses.insert(optimum);
    for (const double guess : guesses) {
      const auto schedule = bsp_a4_try(instance, guess);
      if (!schedule) {
        EXPECT_LT(guess, optimum) << "seed " << seed << ": guess " << guess << " rejected, OPT " << optimum;
        continue;
      }
      EXPECT_TRUE(find_violations(instance, *schedule).empty()) << "seed " << seed;
      EXPECT_TRUE(close_or_below(schedule->makespan, 2.0 * guess)) << "seed " << seed << " guess " << guess;
    }
    const Schedule a4 = bsp_a4(instance);
    EXPECT_TRUE(close_or_below(a4.makespan, (2.0 + kBspA4Epsilon) * optimum)) << "seed " << seed;
    EXPECT_TRUE(close_or_below(optimum, a4.makespan)) << "seed " << seed;
  }
}

// The goal of the issue: A4 <= (2 + eps) x its lower bound on every instance — seeded random batches from 1 to 300
// processors and up to 400 tasks, integral and real times.
TEST(BspA4Test, IsWithinTwoPlusEpsilonOfTheLowerBoundOnRandomInstances) {
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    const int capacity = 1 + static_cast<int>((seed * 37) % 300);
    const Instance instance = random_bsp_instance(1000 + seed, capacity, 1 + (seed * 53) % 400, 1000, seed % 2 == 0);
    const Schedule schedule = bsp_a4(instance);
    const double bound = bsp_lower_bound(instance);
    EXPECT_EQ(schedule.allocation_bound, bound);
    EXPECT_TRUE(find_violations(instance, schedule).empty()) << "seed " << seed;
    EXPECT_TRUE(close_or_below(bound, schedule.makespan)) << "seed " << seed;
    EXPECT_TRUE(close_or_below(schedule.makespan, (2.0 + kBspA4Epsilon) * bound))
        << "seed " << seed << ": " << schedule.makespan << " vs bound " << bound;
  }
}

// Large tasks (a_i > 1) start at 0 side by side; small ones run by LPT on the q processors left.
TEST(BspA4Test, PlacesTheMinimalAllotmentsOfAnAcceptedGuess) {
  // m = 4, guess 1.5 (2w = 3): a = 2 for (4, 1) (t(1) = 4 > 3, t(2) = 2), 1 for (1, 2) and (1, 1); q = 2 and the
  // small work 3 <= q * w = 3.
  const Instance instance = bsp_instance(4, {{4, 1.0}, {1, 2.0}, {1, 1.0}});
  const auto schedule = bsp_a4_try(instance, 1.5);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->tasks[0].alloc, std::vector<int>{2});
  EXPECT_EQ(schedule->tasks[0].start, 0.0);
  EXPECT_EQ(schedule->tasks[1].alloc, std::vector<int>{1});
  EXPECT_EQ(schedule->tasks[2].alloc, std::vector<int>{1});
  EXPECT_EQ(schedule->tasks[2].start, 0.0);  // q = 2: both small tasks at 0
  EXPECT_EQ(schedule->makespan, 2.0);
  // Guess 1.2 (2w = 2.4): the same allotments, but the small work 3 > q * w = 2.4: failure case 3.
  EXPECT_FALSE(bsp_a4_try(instance, 1.2).has_value());
  // Guess 0.9 (2w = 1.8): (1, 2) takes 2 > 1.8 even on its req processors: no allotment, OPT > 0.9.
  EXPECT_FALSE(bsp_a4_try(instance, 0.9).has_value());
  // m = 2, guess 0.5 (2w = 1): (2, 1) needs both processors, (1, 1) is small with none left: failure case 2.
  EXPECT_FALSE(bsp_a4_try(bsp_instance(2, {{2, 1.0}, {1, 1.0}}), 0.5).has_value());
  EXPECT_TRUE(bsp_a4_try(bsp_instance(2, {{2, 1.0}, {1, 1.0}}), 1.5).has_value());  // both small: 3 <= 2 * 1.5
}

// Garey-Graham LTF per cap; the best cap wins and ties keep the smaller cap: caps 2, 3, 4 all reach 2 here.
TEST(BspA1Test, KeepsTheSmallestCapOfTheBestMakespan) {
  const Schedule schedule = bsp_a1(bsp_instance(4, {{4, 1.0}, {1, 1.0}}));
  EXPECT_EQ(schedule.makespan, 2.0);
  EXPECT_EQ(schedule.tasks[0].alloc, std::vector<int>{2});  // cap 2: 2 processors, ceil(4/2) * 1
  EXPECT_EQ(schedule.tasks[1].start, 0.0);
}

// The cap is swept: cap 3 keeps everything (4), cap 2 stretches the widest task (6), cap 1 runs all on one
// processor each (6).
TEST(BspA1Test, SweepsTheCapAndKeepsTheBest) {
  // m = 3: A = (3, 2) work 6, B = (2, 2) work 4, C = (1, 1) work 1. Cap 3: A [0,2), B [2,4), C [2,3) -> 4.
  // Cap 2: A on 2 processors for ceil(3/2) * 2 = 4, C passes B (Garey-Graham): A [0,4), C [0,1), B [4,6) -> 6.
  const Schedule schedule = bsp_a1(bsp_instance(3, {{3, 2.0}, {2, 2.0}, {1, 1.0}}));
  EXPECT_EQ(schedule.makespan, 4.0);
  EXPECT_EQ(schedule.tasks[0].alloc, std::vector<int>{3});
  EXPECT_EQ(schedule.tasks[1].start, 2.0);
  EXPECT_EQ(schedule.tasks[2].start, 2.0);
}

// A2's step 1 accepts a placement only if the idle time does not grow: from an empty schedule a task on all m
// processors (idle 0) is taken; A3 takes the smallest new idle time whatever it is.
TEST(BspIdleTimeTest, A2FallsBackToTheLargestTaskWhenEveryPlacementAddsIdleTime) {
  // m = 2: x = (1, 1), y = (1, 3). Step 1 finds no placement without idle time (x: 1, y: 3), so step 2 places the
  // largest, y, at 0; then x fits beside it (idle 3 -> 2). A3 places x first (idle 1), then y beside it.
  const Instance instance = bsp_instance(2, {{1, 1.0}, {1, 3.0}});
  const Schedule a2 = bsp_a2(instance);
  const Schedule a3 = bsp_a3(instance);
  EXPECT_EQ(a2.makespan, 3.0);
  EXPECT_EQ(a3.makespan, 3.0);
  EXPECT_TRUE(find_violations(instance, a2).empty());
  // The task of req 2 on 2 processors leaves no idle time: both take it first, at 0, on 2 processors.
  const Instance wide = bsp_instance(2, {{1, 1.0}, {2, 2.0}, {1, 1.0}});
  for (const Schedule& schedule : {bsp_a2(wide), bsp_a3(wide)}) {
    EXPECT_EQ(schedule.tasks[1].alloc, std::vector<int>{2});
    EXPECT_EQ(schedule.tasks[1].start, 0.0);
    EXPECT_EQ(schedule.makespan, 3.0);  // then x and z side by side: idle 0
  }
}

// Placements go to the earliest fit, into a hole below the makespan when one is long enough (no frontier).
TEST(BspIdleTimeTest, A2FillsAHoleBelowTheMakespan) {
  // m = 4: a = (2, 6), b = (1, 4), c = (3, 1), d = (2, 1). Round 0: every placement adds idle time (c on 3: 1), so
  // step 2 places the largest, a, on 2 processors [0, 6) (idle 12). Round 1: b on 1 and c on 2 ([0, 2), t 2) both
  // leave 8; the first task wins: b [0, 4). Round 2: c on 2 fits [4, 6) (idle 4). Round 3: d on 1 (t 2) fits the
  // hole [0, 2) on the processor b leaves free (idle 2); d on 2 would end at 7. A frontier that never fills holes
  // would start d at 6 and end at 7.
  const Instance instance = bsp_instance(4, {{2, 6.0}, {1, 4.0}, {3, 1.0}, {2, 1.0}});
  const Schedule schedule = bsp_a2(instance);
  EXPECT_TRUE(find_violations(instance, schedule).empty());
  EXPECT_EQ(schedule.makespan, 6.0);
  const std::vector<std::pair<int, double>> placed{{2, 0.0}, {1, 0.0}, {2, 4.0}, {1, 0.0}};
  for (std::size_t j = 0; j < placed.size(); ++j) {
    EXPECT_EQ(schedule.tasks[j].alloc, std::vector<int>{placed[j].first}) << "task " << j;
    EXPECT_EQ(schedule.tasks[j].start, placed[j].second) << "task " << j;
  }
}

// Each task was placed at its earliest fit and later placements only take capacity away, so no task of an A2 or
// A3 schedule can start earlier with the others where they are (a frontier that leaves holes behind breaks this).
TEST(BspIdleTimeTest, NoTaskCanStartEarlier) {
  for (std::uint64_t seed = 0; seed < 80; ++seed) {
    const Instance instance = random_bsp_instance(300 + seed, 2 + static_cast<int>(seed % 12), 2 + seed % 20, 9);
    const int capacity = instance.space().capacity(0);
    for (const Schedule& schedule : {bsp_a2(instance), bsp_a3(instance)}) {
      const auto& tasks = schedule.tasks;
      for (std::size_t j = 0; j < tasks.size(); ++j) {
        // Earlier starts worth trying: 0 and the ends of the other tasks before this one's start.
        std::vector<double> starts{0.0};
        for (const auto& other : tasks) starts.push_back(other.start + other.duration);
        for (const double start : starts) {
          if (start >= tasks[j].start) continue;
          const double end = start + tasks[j].duration;
          // The capacity the others leave at `start` and at each of their starts inside (start, end).
          std::vector<double> probes{start};
          for (const auto& other : tasks) {
            if (other.start > start && other.start < end) probes.push_back(other.start);
          }
          bool fits = true;
          for (const double at : probes) {
            int used = tasks[j].alloc[0];
            for (std::size_t k = 0; k < tasks.size(); ++k) {
              if (k != j && tasks[k].start <= at && at < tasks[k].start + tasks[k].duration) used += tasks[k].alloc[0];
            }
            fits = fits && used <= capacity;
          }
          EXPECT_FALSE(fits) << schedule.algorithm << " seed " << seed << ": task " << j << " at "
                             << tasks[j].start << " could start at " << start;
        }
      }
    }
  }
}

// Only interesting allocations are placed (Sec. 3.2): A2, A3 and A4 never give a task more processors than the
// smallest with the same time.
TEST(BspIdleTimeTest, PlacesOnlyInterestingAllocations) {
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const Instance instance = random_bsp_instance(seed, 2 + static_cast<int>(seed % 30), 1 + seed % 25, 9);
    for (const Schedule& schedule : {bsp_a2(instance), bsp_a3(instance), bsp_a4(instance)}) {
      for (std::size_t j = 0; j < instance.task_count(); ++j) {
        const auto& profile = dynamic_cast<const BspProfile&>(*instance.tasks()[j].profile);
        const std::vector<int> interesting = bsp_interesting_allocations(profile.req());
        EXPECT_TRUE(std::binary_search(interesting.begin(), interesting.end(), schedule.tasks[j].alloc[0]))
            << schedule.algorithm << " seed " << seed << " task " << j;
      }
    }
  }
}

TEST(BspRefusalTest, TwoResourcesOrATaskThatNeedsTwoProcessorsAreUsageErrors) {
  const Instance two = testing::dense_instance({2, 1}, {{testing::kInf, testing::kInf, 2, 1, 1, 1}});
  for (const char* name : {"bsp-a1", "bsp-a2", "bsp-a3", "bsp-a4"}) {
    const Algorithm& algorithm = find_algorithm(name);
    EXPECT_NE(algorithm.refusal(two).find("one resource"), std::string::npos) << name;
    EXPECT_THROW((void)plan(algorithm, two, lower_bound(two)), UsageError) << name;
  }
  const Instance wide = testing::dense_instance({3}, {{testing::kInf, testing::kInf, 2, 1}});
  EXPECT_NE(find_algorithm("bsp-a4").refusal(wide).find("task \"t0\""), std::string::npos);
  // Dense one-resource tables that run on one processor are read through their times.
  const Instance dense = testing::dense_instance({3}, {{testing::kInf, 3, 2, 1}, {testing::kInf, 4, 4, 1}});
  EXPECT_TRUE(find_algorithm("bsp-a4").refusal(dense).empty());
  EXPECT_EQ(bsp_lower_bound(dense), 2.0);  // least works 3 + 3 (1 and 3 processors) over 3; longest 1
}

// The goal's size (1,000 tasks x 256 processors): valid schedules of all four, the bound respected. Their speed is
// measured by bench/bsp_paper.py, never asserted here.
TEST(BspScaleTest, AllFourScheduleAThousandTasksOn256Processors) {
  const Instance instance = random_bsp_instance(2026, 256, 1000, 3600, false);
  const double bound = bsp_lower_bound(instance);
  for (const char* name : {"bsp-a1", "bsp-a2", "bsp-a3", "bsp-a4"}) {
    const PlanResult result = plan(find_algorithm(name), instance, lower_bound(instance));  // validates
    EXPECT_TRUE(close_or_below(bound, result.schedule.makespan)) << name;
  }
}

}  // namespace
}  // namespace cosched::sched
