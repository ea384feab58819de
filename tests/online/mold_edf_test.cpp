// MoldableEDF (seed 000, Algorithm 2 lines 9-19), the candidate lists in cost order and the profile pieces it uses.
#include <gtest/gtest.h>

#include "cosched/online/moldable.hpp"
#include "online/support.hpp"

namespace cosched::online {
namespace {

using testing::by_processors;
using testing::kInf;
using testing::kSublinear;
using testing::StateFixture;
using testing::table_workload;

std::vector<int> alloc_of(const MoldableEdf& edf, const MoldableEdfPlan& plan, std::size_t k) {
  return edf.placements(plan)[k].alloc;
}

TEST(CandidateListTest, CostOrderIsTheAdmissibleListReversed) {
  const OnlineWorkload workload = table_workload({8}, {by_processors(kSublinear)}, {0.0});
  CandidateCache cache(workload);
  const CandidateList& list = cache.of(0);
  ASSERT_EQ(list.size(), 8U);
  for (std::size_t k = 0; k < list.size(); ++k) {
    EXPECT_EQ(list.alloc(k)[0], static_cast<int>(k + 1));
    EXPECT_EQ(list.time(k), kSublinear[k]);
    if (k > 0) {
      EXPECT_LT(list.time(k), list.time(k - 1));
      EXPECT_GT(list.area(k), list.area(k - 1));
    }
  }
  EXPECT_EQ(list.first_within(5.0), 2U);   // 3 processors, t = 5
  EXPECT_EQ(list.first_within(4.99), 3U);
  EXPECT_EQ(list.first_within(2.0), 8U);   // none
}

TEST(CandidateListTest, PlateausOfAStepSpeedupAreNeverCandidates) {
  // Raw times rise at 2 (non-monotone); the closure makes 1..3 a plateau, 4..8 another.
  const OnlineWorkload workload = table_workload({8}, {by_processors({10, 12, 10, 4, 4, 4, 4, 4})}, {0.0});
  CandidateCache cache(workload);
  const CandidateList& list = cache.of(0);
  ASSERT_EQ(list.size(), 2U);
  EXPECT_EQ(list.alloc(0)[0], 1);
  EXPECT_EQ(list.alloc(1)[0], 4);
}

TEST(CandidateListTest, SteepestStepsMatchAScanOfEveryLaterCandidate) {
  std::size_t checked = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<int> capacities = seed % 2 == 0 ? std::vector<int>{32} : std::vector<int>{8, 6};
    const OnlineWorkload workload = testing::random_moldable_workload(seed, capacities, 10, 1.0);
    CandidateCache cache(workload);
    for (std::size_t job = 0; job < 10; ++job) {
      const CandidateList& list = cache.of(job);
      for (std::size_t from = 0; from < list.size(); ++from) {
        std::size_t best = list.size();
        for (std::size_t k = from + 1; k < list.size(); ++k) {
          if (best == list.size() || list.step_rate(from, k) > list.step_rate(from, best)) best = k;
        }
        EXPECT_EQ(list.steepest_step(from), best) << "seed " << seed << ", job " << job << ", from " << from;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 500U);
}

TEST(CandidateCacheTest, DropsTheListsOfJobsThatStarted) {
  const OnlineWorkload workload = table_workload({8}, {by_processors(kSublinear), by_processors(kSublinear),
                                                       by_processors(kSublinear)}, {0.0, 0.0, 0.0});
  CandidateCache cache(workload);
  for (std::size_t job = 0; job < 3; ++job) (void)cache.of(job);
  EXPECT_EQ(cache.cached(), 3U);
  const std::vector<std::size_t> still_pending{1};
  cache.retain(still_pending);
  EXPECT_EQ(cache.cached(), 1U);
  EXPECT_EQ(cache.of(1).size(), 8U);
  EXPECT_EQ(cache.of(0).size(), 8U);  // computed again on demand
  EXPECT_EQ(cache.cached(), 2U);
}

TEST(MoldableEdfTest, PicksTheCheapestAllocationThatMeetsTheDeadline) {
  StateFixture fixture(table_workload({8}, {by_processors(kSublinear)}, {0.0}), 0.0, {0});
  const OnlineState state = fixture.state();
  CandidateCache cache(fixture.workload);
  MoldableEdf edf(state, cache);
  // D = S * 12: the fewest processors whose time is within it.
  const std::vector<std::pair<double, int>> expected{{1.0, 1}, {0.6, 2}, {0.5, 3}, {0.34, 4}, {0.25, 7}};
  for (const auto& [stretch, processors] : expected) {
    const MoldableEdfPlan plan = edf.run(stretch, WhenLate::stop);
    ASSERT_TRUE(plan.feasible) << "S = " << stretch;
    EXPECT_EQ(alloc_of(edf, plan, 0), std::vector<int>{processors}) << "S = " << stretch;
    EXPECT_EQ(plan.choices[0].start, 0.0);
  }
  EXPECT_FALSE(edf.run(0.2, WhenLate::stop).feasible);  // D = 2.4 < 2.9, the fastest time
  EXPECT_DOUBLE_EQ(edf.stretch_lower_bound(), 2.9 / 12.0);
}

TEST(MoldableEdfTest, StepSpeedupJumpsOverThePlateau) {
  StateFixture fixture(table_workload({8}, {by_processors({10, 12, 10, 4, 4, 4, 4, 4})}, {0.0}), 0.0, {0});
  const OnlineState state = fixture.state();
  CandidateCache cache(fixture.workload);
  MoldableEdf edf(state, cache);
  const MoldableEdfPlan plan = edf.run(0.9, WhenLate::stop);  // D = 9: nothing below 4 processors meets it
  ASSERT_TRUE(plan.feasible);
  EXPECT_EQ(alloc_of(edf, plan, 0), std::vector<int>{4});
}

TEST(MoldableEdfTest, NodeCandidateWithAFastChunkBeatsMoreCores) {
  // Cores 2 x fast chunks 2 (row-major: cores slowest). Cost order: (1,0) t10 area 5, (1,1) t6 area 6,
  // (2,1) t4.5 area 6.75; (2,0) t7 area 7 is beaten by (1,1) on both.
  const std::vector<double> raw{kInf, kInf, kInf, 10, 6, 6, 7, 4.5, 5};
  const OnlineWorkload workload = table_workload({2, 2}, {raw, raw}, {0.0, 0.0});
  {
    StateFixture fixture(workload, 0.0, {0});
    const OnlineState state = fixture.state();
    CandidateCache cache(fixture.workload);
    MoldableEdf edf(state, cache);
    const MoldableEdfPlan plan = edf.run(0.7, WhenLate::stop);  // D = 7: (2,0) would meet it too, at more cost
    ASSERT_TRUE(plan.feasible);
    EXPECT_EQ(alloc_of(edf, plan, 0), (std::vector<int>{1, 1}));
    EXPECT_EQ(plan.choices[0].start, 0.0);
  }
  {
    // Both chunks are held until 3: the chunk allocation waits for them rather than over-committing.
    StateFixture fixture(workload, 0.0, {0});
    fixture.run(1, {1, 2}, 0.0, 3.0);
    const OnlineState state = fixture.state();
    CandidateCache cache(fixture.workload);
    MoldableEdf edf(state, cache);
    const MoldableEdfPlan plan = edf.run(0.9, WhenLate::stop);  // D = 9
    ASSERT_TRUE(plan.feasible);
    EXPECT_EQ(alloc_of(edf, plan, 0), (std::vector<int>{1, 1}));
    EXPECT_EQ(plan.choices[0].start, 3.0);
    testing::expect_valid_plan(state, edf.placements(plan));
  }
}

TEST(MoldableEdfTest, LaterDeadlinesUseTheHolesBeforeEarlierOnes) {
  // now = 100; a running job holds 2 of 4 processors until 110. Job 0 (released 0, p1 = 40) runs on 4 processors
  // only (its other counts have no smaller area); job 1 (released 100) is sequential, 8 s. At S = 3 the deadlines
  // are 120 and 124: job 0 is placed first at 110, then job 1 goes into the hole at 100 before it.
  StateFixture fixture(
      table_workload({4}, {by_processors({40, 20, 14, 10}), by_processors({8, 8, 8, 8}), by_processors({1, 1, 1, 1})},
                     {0.0, 100.0, 0.0}),
      100.0, {0, 1});
  fixture.run(2, {2}, 95.0, 110.0);
  const OnlineState state = fixture.state();
  CandidateCache cache(fixture.workload);
  MoldableEdf edf(state, cache);
  const MoldableEdfPlan plan = edf.run(3.0, WhenLate::stop);
  ASSERT_TRUE(plan.feasible);
  const std::vector<Placement> placements = edf.placements(plan);
  ASSERT_EQ(placements.size(), 2U);
  EXPECT_EQ(placements[0].job, 0U);
  EXPECT_EQ(placements[0].alloc, std::vector<int>{4});
  EXPECT_EQ(placements[0].start, 110.0);
  EXPECT_EQ(placements[1].job, 1U);
  EXPECT_EQ(placements[1].alloc, std::vector<int>{1});
  EXPECT_EQ(placements[1].start, 100.0);
  testing::expect_valid_plan(state, placements);
}

TEST(MoldableEdfTest, AnInfeasibleJobStopsTheTestOrGoesWhereItEndsFirst) {
  // Four processors busy until 50. Job 0 cannot end by its deadline at S = 1 (D = 10).
  StateFixture fixture(table_workload({4}, {by_processors({10, 6, 5, 4}), by_processors({1, 1, 1, 1})}, {0.0, 0.0}),
                       0.0, {0});
  fixture.run(1, {4}, 0.0, 50.0);
  const OnlineState state = fixture.state();
  CandidateCache cache(fixture.workload);
  MoldableEdf edf(state, cache);
  const MoldableEdfPlan stopped = edf.run(1.0, WhenLate::stop);
  EXPECT_FALSE(stopped.feasible);
  EXPECT_TRUE(stopped.choices.empty());
  const MoldableEdfPlan anyway = edf.run(1.0, WhenLate::place_anyway);
  EXPECT_FALSE(anyway.feasible);
  ASSERT_EQ(anyway.choices.size(), 1U);
  EXPECT_EQ(alloc_of(edf, anyway, 0), std::vector<int>{4});  // ends at 54, the earliest completion
  EXPECT_EQ(anyway.choices[0].start, 50.0);
  EXPECT_DOUBLE_EQ(anyway.max_stretch, 5.4);
}

TEST(RunningProfileTest, AJobRunningLateKeepsItsResourcesAtNow) {
  StateFixture fixture(table_workload({4}, {by_processors({4, 2, 2, 1}), by_processors({1, 1, 1, 1})}, {0.0, 0.0}),
                       10.0, {0});
  fixture.run(1, {3}, 0.0, 5.0);  // expected to end at 5: still running at 10 (the wall clock)
  const OnlineState state = fixture.state();
  const AvailabilityProfile profile = running_profile(state);
  EXPECT_EQ(profile.free_at(10.0)[0], 1);
  EXPECT_EQ(profile.free_at(10.5)[0], 4);
  CandidateCache cache(fixture.workload);
  MoldableEdf edf(state, cache);
  const MoldableEdfPlan plan = edf.run(100.0, WhenLate::stop);
  const std::vector<Placement> placements = edf.placements(plan);
  testing::expect_valid_plan(state, placements);
}

TEST(AvailabilityProfileTest, ReleasesBuildTheSameProfileAsHolds) {
  const std::vector<int> capacities{8, 4};
  const std::vector<std::vector<int>> allocs{{2, 1}, {3, 0}, {1, 2}, {2, 1}};
  const std::vector<double> ends{5.0, 3.0, 5.0, 9.0};
  AvailabilityProfile held(1.0, capacities);
  std::vector<AvailabilityProfile::Release> releases;
  std::vector<int> free_now = capacities;
  for (std::size_t k = 0; k < allocs.size(); ++k) {
    held.hold_until(ends[k], allocs[k]);
    releases.push_back({ends[k], allocs[k]});
    for (std::size_t i = 0; i < free_now.size(); ++i) free_now[i] -= allocs[k][i];
  }
  const AvailabilityProfile built =
      AvailabilityProfile::from_releases(1.0, capacities, free_now, std::move(releases));
  EXPECT_EQ(built.segments(), held.segments());
  for (double t : {1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 9.0, 20.0}) {
    const auto a = built.free_at(t);
    const auto b = held.free_at(t);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "t = " << t;
  }
}

TEST(AvailabilityProfileTest, EarliestFitStopsAtTheLatestStart) {
  AvailabilityProfile profile(0.0, {4});
  const std::vector<int> three{3};
  profile.reserve(0.0, 10.0, std::vector<int>{2});
  EXPECT_EQ(profile.earliest_fit(0.0, 5.0, three), 10.0);
  EXPECT_EQ(profile.earliest_fit(0.0, 5.0, three, 10.0), 10.0);
  EXPECT_EQ(profile.earliest_fit(0.0, 5.0, three, 9.5), kInf);
  EXPECT_EQ(profile.earliest_fit(0.0, 5.0, std::vector<int>{2}, 0.0), 0.0);
}

}  // namespace
}  // namespace cosched::online
