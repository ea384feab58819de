// DBOS (seed 000, Algorithm 2 lines 1-7): the binary search on S, the online factor, the sequential special case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cosched/online/moldable.hpp"
#include "online/brute_force.hpp"

namespace cosched::online {
namespace {

using testing::by_processors;
using testing::kSublinear;
using testing::StateFixture;
using testing::table_workload;

double cost_of(const OnlineWorkload& workload, const Placement& placement) {
  return sched::area(workload.instance.space(), placement.alloc, placement.end - placement.start);
}

TEST(DbosTest, AJobAloneOnAnIdleMachineMeetsTheLowerBoundInOneCall) {
  const StateFixture fixture(table_workload({8}, {by_processors(kSublinear)}, {0.0}), 0.0, {0});
  const OnlineWorkload& workload = fixture.workload;
  const OnlineState state = fixture.state();
  CandidateCache cache(workload);
  const DbosPlan plan = dbos_plan(state, cache, 1.0);
  ASSERT_EQ(plan.placements.size(), 1U);
  EXPECT_EQ(plan.placements[0].alloc, std::vector<int>{8});  // the lower bound asks for the fastest time
  EXPECT_EQ(plan.placements[0].start, 0.0);
  EXPECT_DOUBLE_EQ(plan.found_stretch, 2.9 / 12.0);
  EXPECT_EQ(plan.moldable_edf_calls, 2U);  // the lower bound, then MoldableEDF(rho * S)
}

TEST(DbosTest, TheOnlineFactorNeverPicksCostlierAllocations) {
  // Three jobs released together on an idle machine, with different sizes.
  const StateFixture fixture(
      table_workload({8},
                     {by_processors(kSublinear), by_processors({6, 3.5, 2.5, 2, 1.75, 1.6, 1.5, 1.45}),
                      by_processors(kSublinear)},
                     {0.0, 0.0, 1.0}),
      1.0, {0, 1, 2});
  const OnlineWorkload& workload = fixture.workload;
  const OnlineState state = fixture.state();
  CandidateCache cache(workload);
  const DbosPlan tight = dbos_plan(state, cache, 1.0);
  for (double rho : {1.5, 2.0, 4.0}) {
    const DbosPlan relaxed = dbos_plan(state, cache, rho);
    ASSERT_TRUE(relaxed.relaxed) << "rho " << rho;
    ASSERT_EQ(relaxed.placements.size(), tight.placements.size());
    double tight_cost = 0.0;
    double relaxed_cost = 0.0;
    for (std::size_t job = 0; job < 3; ++job) {
      const auto of_job = [job](const Placement& p) { return p.job == job; };
      const Placement& a = *std::find_if(tight.placements.begin(), tight.placements.end(), of_job);
      const Placement& b = *std::find_if(relaxed.placements.begin(), relaxed.placements.end(), of_job);
      EXPECT_LE(cost_of(workload, b), cost_of(workload, a)) << "job " << job << ", rho " << rho;
      tight_cost += cost_of(workload, a);
      relaxed_cost += cost_of(workload, b);
    }
    EXPECT_LT(relaxed_cost, tight_cost) << "rho " << rho;
  }
}

TEST(DbosTest, SequentialJobsOnOneMachineReachTheOptimalMaxStretch) {
  // p_{i,j} = p_{i,1}: every job is sequential, and on one machine EDF with a binary search on S is optimal.
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    sched::Random random(seed);
    const std::size_t n = 2 + seed % 5;
    std::vector<std::vector<double>> tables;
    std::vector<double> releases;
    for (std::size_t j = 0; j <= n; ++j) {
      tables.push_back(by_processors({1.0 + 9.0 * random.uniform01()}));
      releases.push_back(10.0 * random.uniform01());
    }
    StateFixture fixture(table_workload({1}, tables, releases), 10.0, {});
    const OnlineWorkload& workload = fixture.workload;
    fixture.pending = testing::in_release_order(workload, n);  // all but job n, the running one
    fixture.run(n, {1}, 9.0, 10.0 + 5.0 * random.uniform01());  // the machine is busy for a while
    const OnlineState state = fixture.state();
    CandidateCache cache(workload);
    const DbosPlan plan = dbos_plan(state, cache, 1.0);
    ASSERT_EQ(plan.placements.size(), n) << "seed " << seed;
    testing::expect_valid_plan(state, plan.placements);

    const double optimum = testing::brute_force_max_stretch(fixture);
    const double planned = planned_max_stretch(state, plan.placements);
    EXPECT_GE(planned, optimum * (1 - 1e-12)) << "seed " << seed;
    EXPECT_LE(planned, optimum / (1 - kDbosTolerance)) << "seed " << seed;
  }
}

TEST(DbosTest, SequentialJobsOnSeveralMachinesRunOnOneProcessorEach) {
  std::vector<std::vector<double>> tables;
  std::vector<double> releases;
  for (std::size_t j = 0; j < 12; ++j) {
    const double p = 1.0 + static_cast<double>(j % 5);
    tables.push_back(by_processors({p, p, p, p}));
    releases.push_back(static_cast<double>(j) * 0.5);
  }
  StateFixture fixture(table_workload({4}, tables, releases), 6.0, {});
  const OnlineWorkload& workload = fixture.workload;
  fixture.pending = testing::in_release_order(workload, 12);
  const OnlineState state = fixture.state();
  CandidateCache cache(workload);
  const DbosPlan plan = dbos_plan(state, cache, 1.5);
  ASSERT_EQ(plan.placements.size(), 12U);
  for (const Placement& placement : plan.placements) EXPECT_EQ(placement.alloc, std::vector<int>{1});
  testing::expect_valid_plan(state, plan.placements);
}

TEST(DbosTest, NothingPendingPlansNothing) {
  const StateFixture fixture(table_workload({8}, {by_processors(kSublinear)}, {0.0}), 0.0, {});
  const auto policy = make_online_policy("dbos", {}, fixture.workload);
  EXPECT_TRUE(policy->plan(fixture.state()).empty());
}

TEST(DbosTest, TheFactoryRefusesOnlineFactorsOutsideTheRange) {
  const OnlineWorkload workload = table_workload({8}, {by_processors(kSublinear)}, {0.0});
  for (double rho : {0.99, 0.0, -1.0, std::nan(""), testing::kInf, 2e6}) {
    const std::string message = testing::usage_error_of("dbos", {.rho = rho}, workload);
    EXPECT_NE(message, "accepted") << "rho " << rho;
    EXPECT_NE(message.find("rho"), std::string::npos) << message;
    EXPECT_NE(message.find("[1, 1000000]"), std::string::npos) << message;
  }
  OnlineOptions fine;
  fine.rho = 1.5;
  EXPECT_EQ(make_online_policy("dbos", fine, workload)->name(), "dbos");
}

}  // namespace
}  // namespace cosched::online
