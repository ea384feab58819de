// The batch-system baselines: EASY never delays the first waiting job's reservation, conservative backfilling never
// delays any reservation it gave, and both backfill where FCFS would leave processors idle.
#include <gtest/gtest.h>

#include <map>

#include "online/support.hpp"

namespace cosched::online {
namespace {

using testing::JobSpec;

// Random rigid and two-resource workloads whose estimates are exact or too long (the jobs end early).
OnlineWorkload backfilling_workload(std::uint64_t seed) {
  const bool vector_jobs = seed % 2 == 1;
  std::vector<JobSpec> specs = testing::random_sequential_jobs(seed, 40, 30.0, 8);
  sched::Random random(seed + 7);
  for (JobSpec& spec : specs) {
    spec.demand = {1 + static_cast<int>(random.index(3)), vector_jobs ? static_cast<int>(random.index(3)) : 0};
    if (seed % 3 != 0) spec.estimate = spec.time * (1.0 + static_cast<double>(random.index(3)));
  }
  return testing::rigid_workload(vector_jobs ? std::vector<int>{4, 3} : std::vector<int>{4}, specs);
}

// Replays `policy_name` and returns, per job, the latest start any plan promised it (its reservations).
std::map<std::size_t, double> promises_and_starts(const std::string& policy_name, const OnlineWorkload& workload,
                                                  testing::Replay& replay) {
  std::map<std::size_t, double> earliest_promise;
  const auto policy = make_online_policy(policy_name, {}, workload);
  replay = testing::replay(workload, *policy, [&](const OnlineState& state, const std::vector<Placement>& plan) {
    for (const Placement& placement : plan) {
      if (placement.start <= state.now) continue;
      auto [it, inserted] = earliest_promise.try_emplace(placement.job, placement.start);
      if (!inserted) it->second = std::min(it->second, placement.start);
    }
  });
  return earliest_promise;
}

// Every reservation a plan shows (EASY: the first waiting job's only) is kept: the job starts by then, however
// many jobs arrive or backfill meanwhile.
TEST(Backfilling, ReservationsAreNeverDelayed) {
  for (const std::string name : {"easy", "conservative"}) {
    std::size_t promises = 0;
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
      const OnlineWorkload workload = backfilling_workload(seed);
      testing::Replay replay;
      const auto promised = promises_and_starts(name, workload, replay);
      promises += promised.size();
      for (const auto& [job, reservation] : promised) {
        EXPECT_LE(replay.start[job], reservation + 1e-9) << name << ", seed " << seed << ": job " << job;
      }
    }
    EXPECT_GT(promises, 100U) << name;
  }
}

// Four processors: a 4-processor job waits for a 3-processor job running until 10. The short sequential job (it
// ends by 10) backfills now on the free processor; a long one would delay the head and waits. FCFS starts nothing.
TEST(Backfilling, BackfillsWithoutDelayingTheHead) {
  const OnlineWorkload workload = testing::rigid_workload(
      {4}, {{0.0, 10.0, {3}}, {0.0, 5.0, {4}}, {0.0, 4.0}, {0.0, 30.0}, {0.0, 30.0}});
  const std::vector<std::size_t> pending{1, 2, 3, 4};
  const std::vector<RunningJob> running{{0, {3}, 0.0, 10.0}};
  const std::vector<int> free{1};
  const OnlineState state{workload, 0.0, pending, running, free};
  const auto starts = [&](const std::string& name) {
    std::map<std::size_t, double> start;
    for (const Placement& placement : make_online_policy(name, {}, workload)->plan(state)) {
      start[placement.job] = placement.start;
    }
    return start;
  };
  for (const std::string name : {"easy", "conservative"}) {
    const auto start = starts(name);
    EXPECT_EQ(start.at(1), 10.0) << name;  // the head's reservation
    EXPECT_EQ(start.at(2), 0.0) << name;   // ends by the shadow time
    EXPECT_TRUE(!start.contains(3) || start.at(3) > 0.0) << name;
  }
  const auto fcfs = starts("fcfs");
  EXPECT_EQ(fcfs.at(1), 10.0);
  EXPECT_EQ(fcfs.at(2), 15.0);  // no overtaking
}

// Issue #27 (mutation testing): EASY with `<` instead of `<=` at the shadow time went unnoticed. A job whose estimate
// ends exactly at the shadow time (10) cannot delay the head, which starts then: it backfills now. One just longer
// (10.5) would take the processor the head needs at 10, and waits.
TEST(Backfilling, EasyBackfillsAJobEndingExactlyAtTheShadowTime) {
  const OnlineWorkload workload =
      testing::rigid_workload({4}, {{0.0, 10.0, {3}}, {0.0, 5.0, {4}}, {0.0, 10.0}, {0.0, 10.5}});
  const std::vector<RunningJob> running{{0, {3}, 0.0, 10.0}};
  const std::vector<int> free{1};
  for (const std::vector<std::size_t>& pending : {std::vector<std::size_t>{1, 2}, std::vector<std::size_t>{1, 3}}) {
    std::map<std::size_t, double> start;
    for (const Placement& placement : make_online_policy("easy", {}, workload)->plan({workload, 0.0, pending, running,
                                                                                       free})) {
      start[placement.job] = placement.start;
    }
    EXPECT_EQ(start.at(1), 10.0);  // the head's reservation: the shadow time
    if (pending[1] == 2) {
      ASSERT_TRUE(start.contains(2)) << "the job ending exactly at the shadow time was not backfilled";
      EXPECT_EQ(start.at(2), 0.0);
    } else {
      EXPECT_FALSE(start.contains(3)) << "a job ending after the shadow time delays the head";
    }
  }
}

// EASY's extra resources: at the shadow time the head leaves one processor free, so one long job may take it now.
TEST(Backfilling, EasyUsesWhatTheHeadLeavesFreeAtTheShadowTime) {
  const OnlineWorkload workload =
      testing::rigid_workload({4}, {{0.0, 10.0, {2}}, {0.0, 5.0, {3}}, {0.0, 30.0}, {0.0, 30.0}});
  const std::vector<std::size_t> pending{1, 2, 3};
  const std::vector<RunningJob> running{{0, {2}, 0.0, 10.0}};
  const std::vector<int> free{2};
  std::map<std::size_t, double> start;
  const auto policy = make_online_policy("easy", {}, workload);
  for (const Placement& placement : policy->plan({workload, 0.0, pending, running, free})) {
    start[placement.job] = placement.start;
  }
  EXPECT_EQ(start.at(1), 10.0);
  EXPECT_EQ(start.at(2), 0.0);       // takes the processor the head does not need at 10
  EXPECT_FALSE(start.contains(3));  // a second one would delay the head
}

}  // namespace
}  // namespace cosched::online
