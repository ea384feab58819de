// DASEDF (seed 000, Sec. 3.2): Theorem 3.3 and Lemma 3.2 against the exact optimum of tiny instances, EDF's
// optimality on one machine, and the check's handling of running jobs and rigid jobs.
#include "cosched/online/dasedf.hpp"

#include <gtest/gtest.h>

#include "online/brute_force.hpp"

namespace cosched::online {
namespace {

using testing::StateFixture;

constexpr double kSlack = 1e-9;

double start_of(const std::vector<Placement>& plan, std::size_t job) {
  for (const Placement& placement : plan) {
    if (placement.job == job) return placement.start;
  }
  return testing::kInf;
}

// Theorem 3.3: at the S* the search returns, EDF's maximum stretch is at most S* + 1 - 1/m, and no schedule has a
// maximum stretch below S*'s grid predecessor (the exact optimum is at least S* / (1 + tolerance)). The policy,
// whose search starts from the previous event's S, plans exactly EDF at S*.
TEST(Dasedf, Theorem33AgainstTheExactOptimum) {
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const int m = 1 + static_cast<int>(seed % 3);
    const StateFixture fixture = testing::random_sequential_state(seed, m, 5);
    const OnlineState state = fixture.state();
    const double stretch = dasedf_stretch(state);
    const std::vector<Placement> plan = edf_plan(state, stretch);
    const double planned = planned_max_stretch(state, plan);
    const double optimum = testing::brute_force_max_stretch(fixture);
    EXPECT_LE(planned, stretch + 1.0 - 1.0 / m + kSlack) << "seed " << seed;
    EXPECT_GE(planned, optimum - kSlack) << "seed " << seed;
    EXPECT_LE(stretch, optimum * (1.0 + kDasedfTolerance) * (1.0 + kSlack)) << "seed " << seed;
    EXPECT_FALSE(dasedf_check(state, stretch / (1.0 + kDasedfTolerance) * (1.0 - kSlack))) << "seed " << seed;
    EXPECT_TRUE(dasedf_check(state, stretch)) << "seed " << seed;

    // The policy's search starts from the previous event's S: first a later instant (larger S), then this one.
    const auto policy = make_online_policy("dasedf", {}, fixture.workload);
    (void)policy->plan({fixture.workload, fixture.now + 20.0, fixture.pending, fixture.running, fixture.free});
    const std::vector<Placement> policy_plan = policy->plan(state);
    ASSERT_EQ(policy_plan.size(), plan.size());
    for (const Placement& placement : plan) {
      EXPECT_EQ(start_of(policy_plan, placement.job), placement.start) << "seed " << seed;
    }
  }
}

// Lemma 3.2: whenever a schedule meets the deadlines r_i + S p_i, the check passes at S (it is necessary), and
// whenever the check passes, EDF completes every job by d_i + (1 - 1/m) p_i.
TEST(Dasedf, Lemma32) {
  sched::Random random(7);
  int feasible = 0;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const int m = 1 + static_cast<int>(seed % 3);
    const StateFixture fixture = testing::random_sequential_state(1000 + seed, m, 5);
    const OnlineState state = fixture.state();
    const double optimum = testing::brute_force_max_stretch(fixture);
    const double stretch = random.uniform_below(1.0, 2.0 * optimum);
    if (optimum <= stretch) {
      ++feasible;
      EXPECT_TRUE(dasedf_check(state, stretch)) << "seed " << seed << ": optimum " << optimum << ", S " << stretch;
    }
    if (!dasedf_check(state, stretch)) continue;
    for (const Placement& placement : edf_plan(state, stretch)) {
      const double time = fixture.workload.reference_time[placement.job];
      const double deadline = fixture.workload.arrivals[placement.job].release + stretch * time;
      EXPECT_LE(placement.end, deadline + (1.0 - 1.0 / m) * time + kSlack) << "seed " << seed;
    }
  }
  EXPECT_GT(feasible, 50);  // both sides of the optimum are exercised
}

// On one machine EDF meets every deadline a schedule can meet ([21]), and the check is exact: DASEDF's plan is
// optimal up to the grid's tolerance.
TEST(Dasedf, EdfIsOptimalOnOneMachine) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const StateFixture fixture = testing::random_sequential_state(5000 + seed, 1, 6);
    const OnlineState state = fixture.state();
    const double optimum = testing::brute_force_max_stretch(fixture);
    EXPECT_LE(planned_max_stretch(state, edf_plan(state, optimum)), optimum + kSlack) << "seed " << seed;
    const auto policy = make_online_policy("dasedf", {}, fixture.workload);
    const double planned = planned_max_stretch(state, policy->plan(state));
    EXPECT_LE(planned, optimum * (1.0 + kDasedfTolerance) + kSlack) << "seed " << seed;
  }
}

// A processor busy long past a deadline adds no capacity before it, and takes none: one idle processor runs the
// pending job now at stretch 1. (Counting the busy one's residual work against every prefix would ask S ~ 50.)
TEST(Dasedf, AProcessorBusyPastTheDeadlinesDoesNotInflateTheStretch) {
  const StateFixture fixture = testing::sequential_state(2, 0.0, {{0.0, 1.0}}, {100.0});
  EXPECT_EQ(dasedf_stretch(fixture.state()), 1.0);
  const auto policy = make_online_policy("dasedf", {}, fixture.workload);
  const std::vector<Placement> plan = policy->plan(fixture.state());
  ASSERT_EQ(plan.size(), 1U);
  EXPECT_EQ(plan[0].start, 0.0);
}

// Sequential jobs: the first f jobs in deadline order start now on the f idle processors, the others as processors
// free up, in deadline order.
TEST(Dasedf, EdfStartsTheEarliestDeadlinesOnTheIdleProcessors) {
  // Three processors, one busy until 4; at S = 2 the deadlines are 20, 2, 6, 4.
  const StateFixture fixture =
      testing::sequential_state(3, 0.0, {{0.0, 10.0}, {0.0, 1.0}, {0.0, 3.0}, {0.0, 2.0}}, {4.0});
  const std::vector<Placement> plan = edf_plan(fixture.state(), 2.0);
  EXPECT_EQ(start_of(plan, 1), 0.0);
  EXPECT_EQ(start_of(plan, 3), 0.0);
  EXPECT_EQ(start_of(plan, 2), 1.0);
  EXPECT_EQ(start_of(plan, 0), 2.0);
}

// Rigid jobs: the check counts processors x time. Two processors, a 2-processor job of time 2 and a sequential one
// of time 1: 1 + 2 * 2 <= 2 * (2 S) first holds at S = 1.25; EDF runs the short job first, the rigid one at 1.
TEST(Dasedf, RigidJobsCountTheirProcessorTimeInTheCheck) {
  const StateFixture fixture(testing::rigid_workload({2}, {{0.0, 2.0, {2}}, {0.0, 1.0}}), 0.0, {0, 1});
  const double stretch = dasedf_stretch(fixture.state());
  EXPECT_GE(stretch, 1.25);
  EXPECT_LE(stretch, 1.25 * (1.0 + kDasedfTolerance));
  const auto policy = make_online_policy("dasedf", {}, fixture.workload);
  const std::vector<Placement> plan = policy->plan(fixture.state());
  EXPECT_EQ(start_of(plan, 1), 0.0);
  EXPECT_EQ(start_of(plan, 0), 1.0);
}

}  // namespace
}  // namespace cosched::online
