// Per-job results (online/jobs_csv.hpp, sim::job_records): the jobs CSV and the SWF schedule read back equal
// to what was written, and the summary metrics of every policy, open and closed loop, recompute from the rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/online/campaigns.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/online/swf.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/replay.hpp"
#include "support/online_rows.hpp"

namespace cosched::sim {
namespace {

using online::JobRecord;
using online::OnlineWorkload;

// 100 jobs of 22 users of KTH's 100-processor SP2, with wait times (the policy logged runs) and estimates, on 200
// processors (split's two groups then hold its widest job, 64 processors).
constexpr int kProcs = 200;
std::shared_ptr<const OnlineWorkload> kth_excerpt() {
  online::SwfOptions options;
  options.procs = kProcs;
  return std::make_shared<const OnlineWorkload>(online::workload_from_swf(
      online::load_swf(std::string(COSCHED_TEST_DATA_DIR) + "/traces/KTH-SP2-1996-2.1-cln-first100.swf"),
      options));
}

struct KthRun {
  LaunchPlan plan;
  EngineResult result;
  std::vector<std::size_t> campaigns;
};

KthRun run(const std::string& policy, const std::string& replay) {
  KthRun r{online_plan(kth_excerpt(), {2.0, 2, 3.0}), {}, {}};  // rho 2, reserve 2, threshold 3: every policy runs
  r.campaigns = online::detect_campaigns(*r.plan.online, online::CampaignRule::max);
  (void)apply_replay(r.plan, replay, r.campaigns);
  r.result = predict(r.plan, policy);
  return r;
}

TEST(JobRecords, TheCsvReadsBackEqual) {
  const KthRun r = run("easy", "closed");
  const std::vector<JobRecord> records = job_records(r.plan, r.result, r.campaigns);
  ASSERT_EQ(records.size(), 100u);
  EXPECT_EQ(online::parse_jobs_csv(online::to_jobs_csv(records), "jobs.csv"), records);
  EXPECT_EQ(records[0].final_state, "COMPLETED_SUCCESSFULLY");
  EXPECT_TRUE(records[0].campaign.has_value());

  JobRecord odd = records[0];  // a name with a comma, quotes and a line break; a job that never started
  odd.workload_name = "a,\"b\"\nc";
  odd.final_state = "NOT_STARTED";
  odd.success = false;
  odd.starting_time = odd.finish_time = odd.execution_time = odd.waiting_time = odd.turnaround_time = odd.stretch = -1;
  odd.allocation.clear();
  odd.allocated_resources.clear();
  odd.campaign.reset();
  EXPECT_EQ(online::parse_jobs_csv(online::to_jobs_csv({odd}), "odd.csv"), std::vector<JobRecord>{odd});
}

TEST(JobRecords, ProcessorNumbersAreNeverSharedAtOneTime) {
  const KthRun r = run("easy", "open");
  const std::vector<JobRecord> records = job_records(r.plan, r.result, r.campaigns);
  EXPECT_EQ(online::interval_set({0, 1, 2, 3, 7, 9, 10}), "0-3 7 9-10");
  for (std::size_t a = 0; a < records.size(); ++a) {
    for (std::size_t b = a + 1; b < records.size(); ++b) {
      const bool overlap = records[a].starting_time < records[b].finish_time &&
                           records[b].starting_time < records[a].finish_time;
      if (!overlap) continue;
      EXPECT_NE(records[a].allocated_resources, records[b].allocated_resources) << a << " " << b;
    }
  }
}

TEST(JobRecords, TheSwfScheduleReadsBackThroughTheOneParser) {
  const KthRun r = run("fairshare", "closed");
  const std::vector<JobRecord> records = job_records(r.plan, r.result, r.campaigns);
  const online::SwfTrace trace = online::swf_of_jobs(records, kProcs, {" Note: test"});
  const std::string text = online::to_swf(trace);
  online::SwfTrace back = online::parse_swf(text, "schedule.swf");
  back.source = trace.source;
  EXPECT_EQ(back, trace);
  // As a workload again: the same jobs, released and run as simulated, by the same users.
  const OnlineWorkload again = online::workload_from_swf(back, {});
  ASSERT_EQ(again.arrivals.size(), records.size());
  EXPECT_EQ(*online::swf_header_integer(back, "MaxProcs"), kProcs);
  for (std::size_t k = 0; k < back.records.size(); ++k) {
    const JobRecord& row = records[static_cast<std::size_t>(back.records[k].job_number - 1)];
    EXPECT_EQ(again.reference_time[k], row.execution_time);
    EXPECT_EQ(again.arrivals[k].user, row.user);
    EXPECT_EQ(*again.arrivals[k].logged_start - again.arrivals[k].release, row.waiting_time);
  }
}

// Issue 41 item 11: a mutant giving user "alice" the same SWF id as user "3" was not caught. Numeric users keep
// their number, every other user (and "03", which is not user 3) gets a number no numeric user has.
TEST(JobRecords, TheSwfScheduleNeverGivesTwoUsersOneId) {
  std::vector<JobRecord> records;
  for (const std::string user : {"alice", "3", "bob", "", "03", "3", "alice"}) {
    JobRecord r;
    r.job_id = std::to_string(records.size());
    r.submission_time = static_cast<double>(records.size());
    r.requested_number_of_resources = 1;
    r.final_state = "NOT_STARTED";
    r.user = user;
    records.push_back(r);
  }
  const online::SwfTrace trace = online::swf_of_jobs(records, kProcs, {});
  std::vector<std::int64_t> ids;
  for (const auto& line : trace.records) ids.push_back(line.user_id);
  EXPECT_EQ(ids, (std::vector<std::int64_t>{4, 3, 5, -1, 6, 3, 4}));
  for (const std::string named : {" User: 4 = alice", " User: 5 = bob", " User: 6 = 03"}) {
    EXPECT_NE(std::find(trace.header.begin(), trace.header.end(), named), trace.header.end()) << named;
  }
}

class EveryPolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryPolicy, TheSummaryRecomputesFromTheRowsOpenAndClosedLoop) {
  for (const char* replay : {"open", "closed"}) {
    const KthRun r = run(GetParam(), replay);
    online::OnlineMetrics metrics = run_metrics(r.plan, r.result);
    online::add_campaign_metrics(metrics, *r.plan.online, job_outcomes(r.result), r.campaigns);
    const std::vector<JobRecord> rows =
        online::parse_jobs_csv(online::to_jobs_csv(job_records(r.plan, r.result, r.campaigns)), "j");
    const test_support::RecomputedMetrics again = test_support::recompute_metrics(rows, kProcs);
    EXPECT_EQ(again.completed, metrics.completed) << replay;
    EXPECT_EQ(again.max_stretch, metrics.max_stretch) << replay;
    EXPECT_EQ(again.mean_stretch, metrics.mean_stretch) << replay;
    EXPECT_EQ(again.max_flow, metrics.max_flow) << replay;
    EXPECT_EQ(again.mean_flow, metrics.mean_flow) << replay;
    EXPECT_EQ(again.utilization, metrics.utilization) << replay;
    EXPECT_EQ(again.makespan, metrics.makespan) << replay;
    EXPECT_EQ(again.campaigns, metrics.campaigns) << replay;
    EXPECT_EQ(again.mean_campaign_stretch, metrics.mean_campaign_stretch) << replay;
    EXPECT_EQ(again.max_campaign_stretch, metrics.max_campaign_stretch) << replay;
  }
}

INSTANTIATE_TEST_SUITE_P(Online, EveryPolicy, ::testing::ValuesIn(online::online_policy_names()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(JobRecords, AMalformedCsvIsRefusedWithItsLine) {
  const std::string header = online::to_jobs_csv({});
  EXPECT_THROW((void)online::parse_jobs_csv("job_id,submission_time\n", "h.csv"), InputError);
  const std::string row = "j,w,x,1,-1,1,COMPLETED_SUCCESSFULLY,0,1,1,0,1,1,0,u,,1,1\n";
  try {
    (void)online::parse_jobs_csv(header + row, "bad.csv");
    FAIL() << "a submission time that is not a number was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("submission_time"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)online::parse_jobs_csv(header + "j,w,0,1,-1,1,DONE,0,1,1,0,1,1,0,u,,1,1\n", "s.csv"),
               InputError);
  EXPECT_THROW((void)online::parse_jobs_csv(header + "j,w,0\n", "n.csv"), InputError);
}

}  // namespace
}  // namespace cosched::sim
