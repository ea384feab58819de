// OStrich on the engine: a campaign that becomes eligible at its virtual start, an instant no release or completion
// marks, starts then (the policy's wakeup reaches the engine through the online adapter).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cosched/sim/plan.hpp"
#include "cosched/online/profiles.hpp"
#include "online_support.hpp"

namespace cosched::sim {
namespace {

// Sequential jobs (release, time) of the given users on `processors`.
EngineResult run_ostrich(int processors, const std::vector<std::pair<double, double>>& jobs,
                         const std::vector<std::string>& users) {
  std::vector<sched::Task> tasks;
  std::vector<online::JobArrival> arrivals;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    tasks.push_back({fmt::format("j{}", j), std::make_shared<online::SequentialProfile>(jobs[j].second)});
    arrivals.push_back({jobs[j].first, users[j], std::nullopt});
  }
  const LaunchPlan plan = online_plan(
      std::make_shared<const online::OnlineWorkload>(online::make_online_workload(
          "test", "test", sched::Instance({{"procs", processors}}, std::move(tasks)), std::move(arrivals))),
      {});
  EngineResult result = testing::run_online(plan, "ostrich");
  EXPECT_EQ(result.completed, plan.tasks.size());
  EXPECT_TRUE(result.overcommit_refusals.empty());
  return result;
}

// One user on 2 processors: a 10 s job at 0 (C̃ = 5), a 1 s job at 1 — the user's next campaign, eligible at 5
// although a processor is free from 1; the first completion is at 10.
TEST(OstrichOnTheEngine, StartsACampaignAtItsVirtualStart) {
  const EngineResult result = run_ostrich(2, {{0.0, 10.0}, {1.0, 1.0}}, {"", ""});
  EXPECT_DOUBLE_EQ(result.runs[1].launch.start, 5.0);
}

// User b's campaign completes first in V (C̃ = 4/3 against a's 40/3): b's jobs start first; b's job released at 1
// waits for its virtual start.
TEST(OstrichOnTheEngine, DispatchesBySmallestVirtualCompletion) {
  const EngineResult result = run_ostrich(3, {{0.0, 10.0}, {0.0, 10.0}, {0.0, 1.0}, {0.0, 1.0}, {1.0, 1.0}},
                                          {"a", "a", "b", "b", "b"});
  EXPECT_EQ(result.runs[2].launch.start, 0.0);
  EXPECT_EQ(result.runs[3].launch.start, 0.0);
  EXPECT_EQ(result.runs[1].launch.start, 1.0);
  EXPECT_NEAR(result.runs[4].launch.start, 4.0 / 3.0, 1e-9);
}

}  // namespace
}  // namespace cosched::sim
