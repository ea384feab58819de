// The closed-loop replay (sim/replay.hpp) on hand-made SWF logs: think times kept, no job released before the
// work it followed has completed, a user's first job and jobs that overlap in the log at their logged times,
// campaigns released as units with their offsets kept, and the log's own schedule replayed exactly. Then random
// logs under several policies, and the release gates' own checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/online/campaigns.hpp"
#include "cosched/online/swf.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/replay.hpp"

namespace cosched::sim {
namespace {

using online::OnlineWorkload;

struct LoggedJob {
  double submit, wait, run;
  int procs = 1;
  int user = 1;  // -1: unknown
};

// An SWF log of `jobs` (numbered from 1, in the order given) on a machine of `procs` processors.
std::shared_ptr<const OnlineWorkload> logged_workload(const std::vector<LoggedJob>& jobs, int procs) {
  std::string text = fmt::format("; MaxProcs: {}\n", procs);
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const LoggedJob& j = jobs[k];
    text += fmt::format("{} {} {} {} {} -1 -1 {} -1 -1 1 {} -1 -1 -1 -1 -1 -1\n", k + 1, j.submit, j.wait, j.run,
                        j.procs, j.procs, j.user);
  }
  return std::make_shared<const OnlineWorkload>(
      online::workload_from_swf(online::parse_swf(text, "hand-made"), {}));
}

struct Replayed {
  LaunchPlan plan;
  EngineResult result;
  ReplaySummary summary;
  [[nodiscard]] double release(std::size_t job) const { return result.runs[job].release; }
  [[nodiscard]] double start(std::size_t job) const { return result.runs[job].launch.start; }
  [[nodiscard]] double end(std::size_t job) const { return result.runs[job].completion.end; }
};

Replayed replay(std::shared_ptr<const OnlineWorkload> workload, const std::string& mode, const std::string& policy,
                const std::vector<std::size_t>& campaigns = {}) {
  Replayed run{online_plan(std::move(workload), {}), {}, {}};
  run.summary = apply_replay(run.plan, mode, campaigns);
  run.result = predict(run.plan, policy);
  return run;
}

// m = 1 while the log ran user 1's job at once on a larger machine: user 2's job (logged first) delays it by 20 s
// in the replay, and user 1's next job, logged 5 s after the first ended, comes 5 s after it ends in the replay.
TEST(ClosedLoop, ASlowerSystemDelaysTheNextJobAndKeepsTheThinkTime) {
  const auto workload = logged_workload({{0, 0, 20, 1, 2}, {0, 0, 10, 1, 1}, {15, 0, 5, 1, 1}}, 1);
  const Replayed open = replay(workload, "open", "fcfs");
  const Replayed closed = replay(workload, "closed", "fcfs");
  EXPECT_EQ(open.release(2), 15.0);
  EXPECT_EQ(closed.end(1), 30.0);
  EXPECT_EQ(closed.release(2), 35.0);  // 30 + the logged think time 15 - 10
  EXPECT_EQ(closed.summary.mode, "closed");
  EXPECT_EQ(closed.summary.followers, 1u);
}

// The log made job 1 wait 100 s; the replay runs it at once, so the next job, logged 10 s after it ended, comes
// earlier than logged.
TEST(ClosedLoop, AFasterSystemBringsTheNextJobForward) {
  const auto workload = logged_workload({{0, 100, 10}, {120, 0, 10}}, 4);
  const Replayed closed = replay(workload, "closed", "easy");
  EXPECT_EQ(closed.end(0), 10.0);
  EXPECT_EQ(closed.release(1), 20.0);
}

// User 1: A (0-100) and B (submitted at 10, while A runs: it overlaps) keep their logged times; C, submitted at
// 50 after B ended at 15 but while A ran, waits for B only; D, submitted at 200 after all three ended, waits for
// all of them and keeps its think time after the last (A, logged end 100).
TEST(ClosedLoop, FirstAndOverlappingJobsKeepTheirTimesLaterOnesWaitForWhatEndedBeforeThem) {
  const auto workload = logged_workload({{0, 0, 100}, {10, 0, 5}, {50, 0, 10}, {200, 0, 10}}, 1);
  const Replayed closed = replay(workload, "closed", "fcfs");
  EXPECT_EQ(closed.release(0), 0.0);
  EXPECT_EQ(closed.release(1), 10.0);
  EXPECT_EQ(closed.end(1), 105.0);               // after A on the one processor
  EXPECT_EQ(closed.release(2), 105.0 + 35.0);   // B's end + (50 - 15), not held back by A
  EXPECT_EQ(closed.end(2), 150.0);
  EXPECT_EQ(closed.release(3), 150.0 + 100.0);  // the latest end of A, B, C + (200 - 100)
  EXPECT_EQ(closed.summary.followers, 2u);
}

TEST(ClosedLoop, JobsWithoutAUserKeepTheirLoggedTimes) {
  const auto workload = logged_workload({{0, 0, 100, 1, -1}, {150, 0, 10, 1, -1}}, 1);
  const Replayed closed = replay(workload, "closed", "fcfs");
  EXPECT_EQ(closed.release(1), 150.0);
  EXPECT_EQ(closed.summary.followers, 0u);
}

// MAX campaigns of user 1: {A 0-100, B 10-15} and {C 150-250, D 200-210, E 215-225}. The replay runs B after A
// (m = 1), so the first campaign completes at 105, not 100: the second comes 5 s later than logged, its jobs at
// their logged offsets (E too, though D ended before E was submitted).
TEST(ClosedLoop, CampaignsAreReleasedAsUnitsWithTheirOffsets) {
  const auto workload = logged_workload({{0, 0, 100}, {10, 0, 5}, {150, 0, 100}, {200, 0, 10}, {215, 0, 10}}, 1);
  const auto campaigns = online::detect_campaigns(*workload, online::CampaignRule::max);
  ASSERT_EQ(campaigns, (std::vector<std::size_t>{0, 0, 1, 1, 1}));
  const Replayed closed = replay(workload, "closed", "fcfs", campaigns);
  EXPECT_EQ(closed.end(1), 105.0);
  EXPECT_EQ(closed.release(2), 155.0);
  EXPECT_EQ(closed.release(3), 205.0);
  EXPECT_EQ(closed.release(4), 220.0);
  EXPECT_EQ(closed.summary.followers, 3u);
  EXPECT_EQ(closed.summary.gates, 1u);
}

// On the log's own machine the policy `logged` replays the log: every job ends as logged, so the closed loop
// releases every job exactly at its logged time and the run is the open loop's, bit for bit.
TEST(ClosedLoop, TheLogsOwnScheduleIsReplayedExactly) {
  const auto workload = std::make_shared<const OnlineWorkload>(online::workload_from_swf(
      online::load_swf(std::string(COSCHED_TEST_DATA_DIR) + "/traces/KTH-SP2-1996-2.1-cln-first100.swf"), {}));
  const Replayed open = replay(workload, "open", "logged");
  const Replayed closed = replay(workload, "closed", "logged");
  EXPECT_GT(closed.summary.followers, 0u);
  for (std::size_t j = 0; j < workload->arrivals.size(); ++j) {
    EXPECT_EQ(closed.release(j), workload->arrivals[j].release) << j;
    EXPECT_EQ(closed.start(j), open.start(j)) << j;
    EXPECT_EQ(closed.end(j), open.end(j)) << j;
  }
}

// Random logs of 4 users under several policies: a job that followed earlier work in the log is released no
// earlier than that work's last completion, exactly its logged think time later; the others at their logged
// times; nothing starts before its release; and the replay is deterministic.
TEST(ClosedLoop, RandomLogsKeepEveryRuleUnderEveryPolicy) {
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> gap(0.0, 30.0), wait(0.0, 40.0), run(1.0, 60.0);
    std::uniform_int_distribution<int> user(1, 4), procs(1, 3);
    std::vector<LoggedJob> jobs;
    double submit = 0.0;
    for (int k = 0; k < 60; ++k) {
      if (k > 0) submit += std::round(gap(rng));  // the first at 0: the workload's origin
      jobs.push_back({submit, std::round(wait(rng)), std::round(run(rng)), procs(rng), user(rng)});
    }
    const auto workload = logged_workload(jobs, 4);
    for (const char* policy : {"fcfs", "easy", "conservative", "dasedf", "fairshare", "ostrich"}) {
      const Replayed closed = replay(workload, "closed", policy);
      const Replayed again = replay(workload, "closed", policy);
      const std::string context = fmt::format("seed {}, {}", seed, policy);
      for (std::size_t j = 0; j < jobs.size(); ++j) {
        EXPECT_EQ(closed.release(j), again.release(j)) << context;
        EXPECT_GE(closed.start(j), closed.release(j)) << context;
        double logged_last = -1.0, simulated_last = -1.0;
        for (std::size_t p = 0; p < jobs.size(); ++p) {
          const double logged_end = jobs[p].submit + jobs[p].wait + jobs[p].run;
          if (p == j || jobs[p].user != jobs[j].user || logged_end > jobs[j].submit) continue;
          logged_last = std::max(logged_last, logged_end);
          simulated_last = std::max(simulated_last, closed.end(p));
        }
        if (logged_last < 0.0) {
          EXPECT_EQ(closed.release(j), jobs[j].submit) << context << ", job " << j;
          continue;
        }
        EXPECT_GE(closed.release(j), simulated_last) << context << ", job " << j;
        EXPECT_NEAR(closed.release(j) - simulated_last, jobs[j].submit - logged_last, 1e-9) << context << ", job " << j;
      }
    }
  }
}

TEST(ReleaseGates, ACycleAnUnknownModeAndAResumedClosedLoopAreRefused) {
  const auto workload = logged_workload({{0, 0, 10}, {20, 0, 10}}, 1);
  LaunchPlan plan = online_plan(workload, {});
  plan.gates.push_back({kNoGate, {1}, 10.0});
  plan.tasks[1].gate = 0;  // task 1 waits for itself
  EXPECT_THROW((void)predict(plan, "fcfs"), UsageError);

  LaunchPlan unknown = online_plan(workload, {});
  EXPECT_THROW((void)apply_replay(unknown, "feedback"), UsageError);

  LaunchPlan closed = online_plan(workload, {});
  (void)apply_replay(closed, "closed");
  EXPECT_THROW((void)apply_replay(closed, "closed"), UsageError);  // one replay per plan
  EXPECT_EQ(remaining_plan(closed, {}).gates.size(), 1u);
  EXPECT_THROW((void)remaining_plan(closed, {closed.tasks[0].id}), UsageError);
}

}  // namespace
}  // namespace cosched::sim
