// Campaigns (seed 002): detection from a hand-made trace by the LAST, ARRIVAL and MAX rules (boundary ties
// included, and the logged wait counted in the end), campaigns a node workload gives, the trace window by dates,
// and the campaign metrics of a hand-made outcome (stretch exactly 1, Jain's index of known values).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/online/campaigns.hpp"
#include "cosched/online/metrics.hpp"
#include "cosched/online/swf.hpp"
#include "cosched/online/swf_window.hpp"
#include "online/support.hpp"

namespace cosched::online {
namespace {

// One SWF job line: number, submit, wait, run time, 1 processor, user.
std::string swf_line(int number, double submit, double wait, double run, int user) {
  return std::to_string(number) + " " + std::to_string(submit) + " " + std::to_string(wait) + " " +
         std::to_string(run) + " 1 -1 -1 1 -1 -1 1 " + std::to_string(user) + " 1 -1 1 -1 -1 -1\n";
}

// User 1: a job ending at 10; one submitted at 10 (ties the end) ending at 15; one at 12 ending at 13; one at 14
// (after the previous job's end 13, before the campaign's latest end 15); one at 1500 (a gap longer than the
// ARRIVAL threshold); one exactly the threshold later, at 2700. User 2: a job submitted at 5 that waits 3 and runs
// 2 (logged end 10), and one submitted at 10 — which overlaps it only because of the logged wait.
OnlineWorkload hand_made_trace() {
  const std::string text = "; MaxProcs: 4\n; UnixStartTime: 0\n" + swf_line(1, 0, 0, 10, 1) +
                           swf_line(2, 10, 0, 5, 1) + swf_line(3, 12, 0, 1, 1) + swf_line(4, 14, 0, 1, 1) +
                           swf_line(5, 1500, 0, 1, 1) + swf_line(6, 2700, 0, 1, 1) + swf_line(7, 5, 3, 2, 2) +
                           swf_line(8, 10, 0, 1, 2);
  return workload_from_swf(parse_swf(text, "hand.swf"), {});
}

TEST(Campaigns, TheTraceCarriesUsersAndLoggedEnds) {
  const OnlineWorkload workload = hand_made_trace();
  ASSERT_EQ(workload.arrivals.size(), 8u);
  EXPECT_EQ(workload.arrivals[6].user, "2");
  EXPECT_EQ(workload.arrivals[6].logged_end, 10.0);  // submit 5 + wait 3 + run 2
  EXPECT_EQ(workload.arrivals[1].logged_end, 15.0);
  const OnlineWorkload unknown_wait =
      workload_from_swf(parse_swf("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n", "w.swf"), {});
  EXPECT_FALSE(unknown_wait.arrivals[0].logged_end.has_value());
}

struct RuleCase {
  CampaignRule rule;
  std::vector<std::size_t> expected;
};

class CampaignRules : public ::testing::TestWithParam<RuleCase> {};

TEST_P(CampaignRules, DetectsTheHandMadeCampaigns) {
  EXPECT_EQ(detect_campaigns(hand_made_trace(), GetParam().rule), GetParam().expected);
}

// Ids follow the campaigns' first submissions: user 1's first (0), user 2's (1), then user 1's later ones.
INSTANTIATE_TEST_SUITE_P(
    Rules, CampaignRules,
    ::testing::Values(RuleCase{CampaignRule::last, {0, 0, 0, 2, 3, 4, 1, 1}},   // 14 > 13, the previous job's end
                      RuleCase{CampaignRule::max, {0, 0, 0, 0, 2, 3, 1, 1}},    // 14 <= 15, the campaign's end
                      RuleCase{CampaignRule::arrival, {0, 0, 0, 0, 2, 2, 1, 1}}),  // 2700 - 1500 = the threshold
    [](const auto& test) { return std::string(campaign_rule_name(test.param.rule)); });

TEST(Campaigns, RuleNamesReadBackAndUnknownOnesAreUsageErrors) {
  for (const CampaignRule rule : {CampaignRule::last, CampaignRule::arrival, CampaignRule::max}) {
    EXPECT_EQ(campaign_rule(campaign_rule_name(rule)), rule);
  }
  EXPECT_THROW((void)campaign_rule("MAX"), UsageError);
}

TEST(Campaigns, ANodeWorkloadGivesItsCampaignsPerUser) {
  OnlineWorkload workload = testing::rigid_workload({2}, {{0.0}, {1.0}, {2.0}, {3.0}});
  EXPECT_TRUE(given_campaigns(workload).empty());  // no labels: no campaigns
  const std::vector<std::pair<std::string, std::string>> labels{{"ann", "c1"}, {"bob", "c1"}, {"ann", "c1"}, {"ann", ""}};
  for (std::size_t j = 0; j < labels.size(); ++j) {
    workload.arrivals[j].user = labels[j].first;
    workload.arrivals[j].campaign = labels[j].second;
  }
  // The same label of two users is two campaigns; a job without a label is a campaign of its own.
  EXPECT_EQ(given_campaigns(workload), (std::vector<std::size_t>{0, 1, 0, 2}));
}

TEST(TraceWindow, DatesAreUtcMidnightsAndOnlyRealDaysParse) {
  EXPECT_EQ(parse_utc_date("2004-12-06"), 1102291200);
  EXPECT_EQ(parse_utc_date("1970-01-01"), 0);
  for (const char* bad : {"2004-13-01", "2005-02-29", "04-12-06", "2004-12-6x", "2004/12/06", "", "1969-12-31"}) {
    EXPECT_FALSE(parse_utc_date(bad).has_value()) << bad;
  }
}

TEST(TraceWindow, KeepsTheRecordsSubmittedBetweenTheBounds) {
  const std::string jobs = swf_line(1, 0, 0, 5, 1) + swf_line(2, 86399, 0, 5, 1) + swf_line(3, 86400, 0, 5, 1) +
                           swf_line(4, 3 * 86400, 0, 5, 1);
  const SwfTrace trace = parse_swf("; UnixStartTime: 86400\n" + jobs, "t.swf");
  // From 1970-01-03 (Unix 172800 = log second 86400) to 1970-01-04 excluded (log second 172800).
  const SwfTrace window = swf_window(trace, 2 * 86400, 3 * 86400);
  ASSERT_EQ(window.records.size(), 1u);
  EXPECT_EQ(window.records[0].job_number, 3);
  EXPECT_EQ(swf_window(trace, std::nullopt, 2 * 86400).records.size(), 2u);
  EXPECT_THROW((void)swf_window(parse_swf(jobs, "n.swf"), 0, std::nullopt), InputError);  // no UnixStartTime
}

// m = 2. User a: jobs of 4 s and 2 s released at 0 and done by 4 (W/m = 3, longest 4: stretch exactly 1). User b:
// a 2 s job released at 1 and done at 6 (stretch 2.5), a 1 s job released at 10 and done at 11.5 (1.5). User c:
// a job that never completed (its campaign is left out).
struct HandMadeRun {
  OnlineWorkload workload = testing::rigid_workload({2}, {{0.0, 4.0}, {0.0, 2.0}, {1.0, 2.0}, {10.0, 1.0}, {0.0, 1.0}});
  // {completed, release, start, end, allocation}
  std::vector<JobOutcome> outcomes{{true, 0.0, 0.0, 4.0, {1}}, {true, 0.0, 0.0, 2.0, {1}}, {true, 1.0, 4.0, 6.0, {1}},
                                   {true, 10.0, 10.5, 11.5, {1}}, {false, 0.0, 0.0, 0.0, {}}};
  std::vector<std::size_t> campaigns{0, 0, 1, 2, 3};
  HandMadeRun() {
    const std::vector<std::string> users{"a", "a", "b", "b", "c"};
    for (std::size_t j = 0; j < users.size(); ++j) workload.arrivals[j].user = users[j];
  }
};

TEST(CampaignMetrics, StretchSharesAndJainOnAHandMadeOutcome) {
  const HandMadeRun run;
  OnlineMetrics metrics = online_metrics(run.workload, run.outcomes);
  const double mean_stretch = metrics.mean_stretch;
  add_campaign_metrics(metrics, run.workload, run.outcomes, run.campaigns);
  EXPECT_EQ(metrics.campaigns, 3u);
  EXPECT_EQ(metrics.users, 2u);
  EXPECT_DOUBLE_EQ(metrics.mean_campaign_stretch, (1.0 + 2.5 + 1.5) / 3.0);
  EXPECT_DOUBLE_EQ(metrics.max_campaign_stretch, 2.5);
  EXPECT_DOUBLE_EQ(metrics.campaigns_at_stretch_1, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics.campaigns_below_1_4, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics.campaigns_below_2_15, 2.0 / 3.0);
  ASSERT_EQ(metrics.per_user.size(), 2u);
  EXPECT_EQ(metrics.per_user[1].user, "b");
  EXPECT_DOUBLE_EQ(metrics.per_user[1].mean_stretch, 2.0);
  EXPECT_DOUBLE_EQ(metrics.per_user[1].max_stretch, 2.5);
  EXPECT_DOUBLE_EQ(metrics.jain_fairness, 9.0 / 10.0);  // means 1 and 2: (1 + 2)^2 / (2 (1 + 4))
  EXPECT_EQ(metrics.mean_stretch, mean_stretch);         // the job metrics are untouched
  const nlohmann::json json = to_json(metrics);
  EXPECT_EQ(json["campaigns"], 3);
  EXPECT_EQ(json["users"], 2);
  EXPECT_EQ(json["per_user"].size(), 2u);
  EXPECT_TRUE(json.contains("campaign_stretch_normalisation"));
}

TEST(CampaignMetrics, OutliersAboveTheThresholdLeaveThePapersMeanAndPercentilesSpanTheDistribution) {
  HandMadeRun run;
  run.outcomes[3] = {true, 10.0, 10.0, 10.0 + 1.0 * (kCampaignOutlierStretch + 10.0), {1}};  // b's second: an outlier
  OnlineMetrics metrics = online_metrics(run.workload, run.outcomes);
  add_campaign_metrics(metrics, run.workload, run.outcomes, run.campaigns);
  EXPECT_EQ(metrics.campaign_outliers, 1u);
  EXPECT_DOUBLE_EQ(metrics.mean_campaign_stretch_without_outliers, (1.0 + 2.5) / 2.0);
  ASSERT_EQ(metrics.campaign_stretch_percentiles.size(), 101u);
  EXPECT_DOUBLE_EQ(metrics.campaign_stretch_percentiles[0], 1.0);
  EXPECT_DOUBLE_EQ(metrics.campaign_stretch_percentiles[33], 1.0);   // 1 of 3 campaigns at or below
  EXPECT_DOUBLE_EQ(metrics.campaign_stretch_percentiles[34], 2.5);
  EXPECT_DOUBLE_EQ(metrics.campaign_stretch_percentiles[67], kCampaignOutlierStretch + 10.0);
  EXPECT_DOUBLE_EQ(metrics.campaign_stretch_percentiles[100], kCampaignOutlierStretch + 10.0);
  EXPECT_EQ(to_json(metrics)["campaign_stretch_percentiles"].size(), 101u);
}

TEST(CampaignMetrics, ACampaignsIdealFlowWaitsForItsLastReleaseAndUsersHaveMedians) {
  // User b's two jobs form one campaign: released at 1 (2 s) and 10 (1 s), done at 6 and 11.5. The campaign cannot
  // end before 11 (its last job's release + time): stretch (11.5 - 1) / (11 - 1) = 1.05, not (11.5 - 1) / 2.
  HandMadeRun run;
  run.campaigns = {0, 0, 1, 1, 2};
  OnlineMetrics metrics = online_metrics(run.workload, run.outcomes);
  add_campaign_metrics(metrics, run.workload, run.outcomes, run.campaigns);
  ASSERT_EQ(metrics.per_user.size(), 2u);
  EXPECT_DOUBLE_EQ(metrics.per_user[1].max_stretch, 10.5 / 10.0);
  EXPECT_DOUBLE_EQ(metrics.max_campaign_stretch, 10.5 / 10.0);

  run = HandMadeRun{};  // user b's campaigns at stretch 1.0 (its 2 s job released at 1, done at 3) and 1.5
  run.outcomes[2] = {true, 1.0, 1.0, 3.0, {1}};
  OnlineMetrics three = online_metrics(run.workload, run.outcomes);
  run.campaigns = {0, 0, 1, 2, 3};
  add_campaign_metrics(three, run.workload, run.outcomes, run.campaigns);
  EXPECT_DOUBLE_EQ(three.per_user[1].median_stretch, (1.0 + 1.5) / 2.0);
  EXPECT_DOUBLE_EQ(to_json(three)["per_user"][1]["median_campaign_stretch"], 1.25);
}

TEST(CampaignMetrics, EqualUsersHaveJainIndexOneAndNoCampaignsWriteNoFields) {
  HandMadeRun run;
  run.outcomes[2] = {true, 1.0, 1.0, 3.0, {1}};  // b's first campaign at stretch 1 too
  run.outcomes[3] = {true, 10.0, 10.0, 11.0, {1}};
  OnlineMetrics metrics = online_metrics(run.workload, run.outcomes);
  EXPECT_FALSE(to_json(metrics).contains("campaigns"));
  add_campaign_metrics(metrics, run.workload, run.outcomes, run.campaigns);
  EXPECT_DOUBLE_EQ(metrics.jain_fairness, 1.0);
  EXPECT_DOUBLE_EQ(metrics.campaigns_at_stretch_1, 1.0);
}

}  // namespace
}  // namespace cosched::online
