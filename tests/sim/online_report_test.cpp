// What an online run reports (sim/online_report.hpp): the metrics with the campaigns' only when there are
// campaigns, the metrics JSON with the run's context, the text for a person, and the SWF schedule's header note.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cosched/online/campaigns.hpp"
#include "cosched/online/swf.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/sim/online_report.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/replay.hpp"

namespace cosched::sim {
namespace {

using online::OnlineWorkload;

struct KthRun {
  LaunchPlan plan;
  EngineResult result;
  std::vector<std::size_t> campaigns;
  OnlineRunInfo info;
};

// KTH's first 100 jobs, FCFS on the simulated clock, campaigns by the LAST rule, closed loop.
KthRun kth_run() {
  online::SwfOptions options;
  options.procs = 100;
  auto workload = std::make_shared<const OnlineWorkload>(online::workload_from_swf(
      online::load_swf(std::string(COSCHED_TEST_DATA_DIR) + "/traces/KTH-SP2-1996-2.1-cln-first100.swf"),
      options));
  KthRun r{online_plan(workload, {}), {}, {}, {}};
  r.campaigns = online::detect_campaigns(*workload, online::CampaignRule::last);
  r.info.policy = "fcfs";
  r.info.clock = "simulated";
  r.info.campaign_rule = "last";
  r.info.from = "1996-09-30";
  r.info.replay = apply_replay(r.plan, "closed", r.campaigns);
  r.result = predict(r.plan, "fcfs");
  return r;
}

TEST(OnlineReport, CampaignMetricsOnlyWithCampaigns) {
  const KthRun r = kth_run();
  const auto with = online_run_metrics(r.plan, r.result, r.campaigns);
  const auto without = online_run_metrics(r.plan, r.result, {});
  EXPECT_GT(with.campaigns, 0u);
  EXPECT_EQ(without.campaigns, 0u);
  EXPECT_EQ(with.max_stretch, without.max_stretch);
  EXPECT_EQ(without.max_stretch, run_metrics(r.plan, r.result).max_stretch);
}

TEST(OnlineReport, TheJsonCarriesTheRunsContextAndOnlyTheGivenDates) {
  const KthRun r = kth_run();
  const auto metrics = online_run_metrics(r.plan, r.result, r.campaigns);
  const nlohmann::json json = online_run_json(metrics, *r.plan.online, r.info);
  EXPECT_EQ(json.at("policy"), "fcfs");
  EXPECT_EQ(json.at("clock"), "simulated");
  EXPECT_EQ(json.at("replay"), "closed");
  EXPECT_EQ(json.at("replay_followers"), r.info.replay.followers);
  EXPECT_EQ(json.at("workload"), r.plan.online->source);
  EXPECT_EQ(json.at("campaign_rule"), "last");
  EXPECT_EQ(json.at("from"), "1996-09-30");
  EXPECT_FALSE(json.contains("to"));
  EXPECT_EQ(json.at("options").at("rho"), 1.0);
  EXPECT_EQ(json.at("max_stretch"), online::to_json(metrics).at("max_stretch"));
}

TEST(OnlineReport, TheTextNamesTheRunAndItsCampaigns) {
  const KthRun r = kth_run();
  const std::string with = format_online_run(online_run_metrics(r.plan, r.result, r.campaigns), *r.plan.online, r.info);
  EXPECT_EQ(with.rfind(r.plan.online->source + " (simulated clock): 100 jobs on 100 procs", 0), 0u) << with;
  EXPECT_NE(with.find("policy fcfs\n"), std::string::npos) << with;
  EXPECT_NE(with.find("  replay          closed: "), std::string::npos) << with;
  EXPECT_NE(with.find("  campaigns       "), std::string::npos) << with;
  const std::string without = format_online_run(online_run_metrics(r.plan, r.result, {}), *r.plan.online, r.info);
  EXPECT_EQ(without.find("  campaigns       "), std::string::npos) << without;
  EXPECT_EQ(without.back(), '\n');
}

TEST(OnlineReport, TheSwfScheduleSaysWhichRunItIs) {
  const KthRun r = kth_run();
  const std::string text = online_schedule_swf(job_records(r.plan, r.result, r.campaigns), r.plan, r.info);
  const auto schedule = online::parse_swf(text, "schedule.swf");
  EXPECT_EQ(schedule.records.size(), 100u);
  ASSERT_FALSE(schedule.header.empty());
  EXPECT_NE(text.find("the simulated schedule of " + r.plan.online->source + " under the online policy fcfs (closed "
                      "replay)"),
            std::string::npos);
}

}  // namespace
}  // namespace cosched::sim
