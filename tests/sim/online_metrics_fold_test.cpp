// The metrics of a run folded straight from the engine's runs (sim::run_metrics, OnlineMetricsFold: no vector of
// outcomes, issue 25) equal, to the bit, the metrics computed over the stored outcomes (online_metrics of
// job_outcomes), for every policy, on a synthetic workload and on a trace window, open and closed loop.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cosched/online/campaigns.hpp"
#include "cosched/online/metrics.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/online/source.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/replay.hpp"

namespace cosched::sim {
namespace {

namespace online = cosched::online;

// 3,000 jobs of the paper's synthetic workload above its load (queues build up, the policies differ), or KTH's
// jobs submitted on 30 September 1996 (a window of the first 100 of the trace) on 200 processors.
online::OnlineSource source_named(const std::string& name) {
  online::OnlineSource source;
  source.procs = 200;
  if (name == "synthetic") {
    source.jobs = 3000;
    source.load = 230.0;
    source.seed = 7;
    return source;
  }
  source.trace = std::string(COSCHED_TEST_DATA_DIR) + "/traces/KTH-SP2-1996-2.1-cln-first100.swf";
  source.from = "1996-09-30";
  source.to = "1996-09-30";
  return source;
}

using FoldCase = std::tuple<std::string, std::string, std::string>;  // policy, workload, replay

class FoldedMetrics : public ::testing::TestWithParam<FoldCase> {};

TEST_P(FoldedMetrics, EqualTheMetricsOfTheStoredOutcomes) {
  const auto& [policy, workload_name, replay] = GetParam();
  online::OnlineWorkload built = online::workload_from_source(source_named(workload_name));
  // The synthetic jobs have no log: as if one had started every job on release, so the policy `logged` runs too.
  for (online::JobArrival& arrival : built.arrivals) {
    if (!arrival.logged_start) arrival.logged_start = arrival.release;
  }
  auto workload = std::make_shared<const online::OnlineWorkload>(std::move(built));
  ASSERT_GT(workload->arrivals.size(), 10u) << workload_name;
  LaunchPlan plan = online_plan(workload, {2.0, 2, 3.0});  // rho 2, reserve 2, threshold 3: every policy runs
  (void)apply_replay(plan, replay, online::detect_campaigns(*workload, online::CampaignRule::max));
  const EngineResult result = predict(plan, policy);

  const online::OnlineMetrics folded = run_metrics(plan, result);
  online::OnlineMetrics stored = online::online_metrics(*workload, job_outcomes(result));
  // The engine's timing figures are added by run_metrics alone.
  stored.scheduling_seconds = folded.scheduling_seconds;
  stored.scheduling_max_seconds = folded.scheduling_max_seconds;
  stored.scheduling_seconds_per_event = folded.scheduling_seconds_per_event;
  stored.events = folded.events;
  EXPECT_GT(folded.completed, 0u);
  EXPECT_GT(folded.max_stretch, 0.0);
  // Every field the JSON carries, doubles written to the last bit.
  EXPECT_EQ(online::to_json(folded).dump(), online::to_json(stored).dump());
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, FoldedMetrics,
                         ::testing::Combine(::testing::ValuesIn(online::online_policy_names()),
                                            ::testing::Values("synthetic", "trace_window"),
                                            ::testing::Values("open", "closed")),
                         [](const ::testing::TestParamInfo<FoldCase>& param) {
                           std::string name = std::get<0>(param.param) + "_" + std::get<1>(param.param) + "_" +
                                              std::get<2>(param.param);
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

// The fold takes the jobs in order, each once, and all of them: anything else would be a wrong metric, not an error
// of the input, so it is refused as a bug.
TEST(OnlineMetricsFold, RefusesJobsOutOfOrderOrMissing) {
  const auto workload = online::workload_from_source(source_named("synthetic"));
  online::OnlineMetricsFold skipped(workload);
  EXPECT_THROW(skipped.completed(1, 0.0, 0.0, 1.0, 1), std::logic_error);
  online::OnlineMetricsFold short_of_jobs(workload);
  short_of_jobs.not_completed(0, 0.0);
  EXPECT_THROW((void)short_of_jobs.finish(), std::logic_error);
}

}  // namespace
}  // namespace cosched::sim
