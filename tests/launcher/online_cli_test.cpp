// `cosched online` end to end, as a user runs it: a trace excerpt (rigid and Downey-moldable), the synthetic
// workload, and a node workload predicted and then run for real on the wall clock — journaled, resumable, and
// readable by `cosched report`. Needs bin/cosched from the same build; skipped without it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "cosched/online/jobs_csv.hpp"
#include "cosched/online/swf.hpp"
#include "support/online_rows.hpp"
#include "support/programs.hpp"
#include "support/test_data.hpp"

namespace cosched::launcher {
namespace {

namespace fs = std::filesystem;
using test_support::CommandResult;

const std::string kTrace = std::string(COSCHED_TEST_DATA_DIR) + "/traces/SDSC-Par-1996-3.1-cln-first400.swf.gz";
// 100 jobs of 22 users, submitted from 1996-09-30 10:38 to 1996-10-01 03:06 UTC.
const std::string kUsersTrace = std::string(COSCHED_TEST_DATA_DIR) + "/traces/KTH-SP2-1996-2.1-cln-first100.swf";

// Two jobs of /bin/true on 2 cores and 2 fast chunks, the second released at 0.2 s.
const std::string kNodeInstance =
    R"({"resources":[{"name":"cores","capacity":2},{"name":"fast_chunks","capacity":2}],"tasks":[)"
    R"({"id":"a","command":["/bin/true"],"times":[null,null,null,0.05,0.05,0.05,0.03,0.03,0.03]},)"
    R"({"id":"b","command":["/bin/true"],"release_s":0.2,"times":[null,null,null,0.05,0.04,0.04,0.03,0.02,0.02]}]})";

class OnlineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(test_support::built_program("cosched"))) GTEST_SKIP() << "bin/cosched is not built";
    dir_ = test_support::scratch_dir();
    test_support::write_file(dir_ / "node.json", kNodeInstance);
  }

  CommandResult run(const std::string& arguments) const {
    return test_support::run_program("cosched", "online " + arguments, dir_);
  }

  nlohmann::json run_json(const std::string& arguments) const {
    const CommandResult result = run(arguments + " --json");
    EXPECT_EQ(result.exit_code, 0) << arguments << "\n" << result.err;
    return nlohmann::json::parse(result.out);
  }

  fs::path dir_;
};

TEST_F(OnlineCli, ATraceReplayReportsEveryMetricTheIssueNames) {
  const auto json = run_json("--policy easy --trace " + kTrace + " --jobs 200");
  for (const char* key : {"jobs", "procs", "load", "max_stretch", "mean_stretch", "max_flow", "mean_flow",
                          "utilization", "scheduling_seconds", "fairness", "stretch_normalisation"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_EQ(json["jobs"], 200);
  EXPECT_EQ(json["completed"], 200);
  EXPECT_EQ(json["procs"], 400);  // the excerpt's MaxProcs header
  EXPECT_GE(json["max_stretch"].get<double>(), 1.0);  // rigid jobs: stretch against their own runtime
  EXPECT_EQ(json["clock"], "simulated");
}

TEST_F(OnlineCli, DowneyMoldableJobsCanRunFasterThanSequentially) {
  const auto json = run_json("--policy dbos --rho 1.5 --trace " + kTrace + " --procs 512 --downey-seed 3");
  EXPECT_EQ(json["procs"], 512);
  // Stretch is normalised by the sequential time: jobs given several processors finish in less.
  EXPECT_LT(json["mean_stretch"].get<double>(), 1.0);
  EXPECT_EQ(json["options"]["rho"], 1.5);
}

TEST_F(OnlineCli, TheSyntheticWorkloadIsDeterministicForASeed) {
  const std::string arguments = "--policy dasedf --synthetic --delta 20 --load 250 --jobs 500 --seed 4";
  const auto first = run_json(arguments), second = run_json(arguments);
  EXPECT_EQ(first["max_stretch"], second["max_stretch"]);
  EXPECT_EQ(first["mean_flow"], second["mean_flow"]);
  EXPECT_EQ(first["procs"], 300);
}

TEST_F(OnlineCli, ANodeWorkloadRunsForRealJournaledAndResumable) {
  const auto predicted = run_json("--policy dbos --workload node.json");
  EXPECT_EQ(predicted["clock"], "simulated");
  EXPECT_EQ(predicted["completed"], 2);

  const CommandResult launched =
      run("--policy dbos --workload node.json --launch --chunks 2 --tier-backend emulated --journal run.jsonl "
          "--output metrics.json");
  ASSERT_EQ(launched.exit_code, 0) << launched.err;
  const auto metrics = nlohmann::json::parse(test_support::read_text(dir_ / "metrics.json"));
  EXPECT_EQ(metrics["clock"], "wall");
  EXPECT_EQ(metrics["completed"], 2);
  // Job b is released at 0.2 s: it cannot end before 0.2 s after the batch began.
  EXPECT_GE(metrics["makespan"].get<double>(), 0.2);

  const CommandResult report = test_support::run_program("cosched", "report run.jsonl --json", dir_);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto summary = nlohmann::json::parse(report.out);
  EXPECT_EQ(summary["policy"], "dbos");

  // Everything completed: a resume runs nothing and succeeds.
  const CommandResult resumed =
      run("--policy dbos --workload node.json --launch --chunks 2 --tier-backend emulated --resume run.jsonl");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("2 tasks already completed"), std::string::npos) << resumed.out;
}

TEST_F(OnlineCli, CampaignsOfATraceReportTheirStretchAndFairness) {
  const auto json = run_json("--policy fairshare --trace " + kUsersTrace + " --campaigns max");
  EXPECT_EQ(json["jobs"], 100);
  EXPECT_EQ(json["campaign_rule"], "max");
  const auto campaigns = json["campaigns"].get<std::size_t>();
  EXPECT_GT(campaigns, 22u);  // MAX splits some users' jobs into several campaigns
  EXPECT_LT(campaigns, 100u);
  EXPECT_EQ(json["users"], 22);
  EXPECT_EQ(json["per_user"].size(), 22u);
  // Rigid jobs on m processors: a campaign lasts at least its longest job and its work over m.
  EXPECT_GE(json["mean_campaign_stretch"].get<double>(), 1.0 - 1e-9);
  EXPECT_GT(json["jain_fairness"].get<double>(), 1.0 / 22.0 - 1e-9);
  EXPECT_LE(json["jain_fairness"].get<double>(), 1.0 + 1e-9);
  EXPECT_LE(json["campaigns_below_1_4"].get<double>(), json["campaigns_below_2_15"].get<double>());
  EXPECT_TRUE(json.contains("campaign_stretch_normalisation"));

  const CommandResult text = run("--policy fcfs --trace " + kUsersTrace + " --campaigns last");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("campaigns "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Jain"), std::string::npos) << text.out;
}

TEST_F(OnlineCli, ADateWindowKeepsTheJobsSubmittedInIt) {
  const auto window = run_json("--policy easy --trace " + kUsersTrace + " --from 1996-10-01 --to 1996-10-01");
  EXPECT_EQ(window["jobs"], 6);
  const auto before = run_json("--policy easy --trace " + kUsersTrace + " --to 1996-09-30");
  EXPECT_EQ(before["jobs"], 94);
  EXPECT_FALSE(before.contains("campaigns"));  // no --campaigns: no campaign fields
}

TEST_F(OnlineCli, ANodeWorkloadGivesItsCampaigns) {
  test_support::write_file(
      dir_ / "users.json",
      R"({"resources":[{"name":"cores","capacity":2},{"name":"fast_chunks","capacity":2}],"tasks":[)"
      R"({"id":"a","command":["/bin/true"],"user":"ann","campaign":"c1","times":[null,null,null,1,1,1,1,1,1]},)"
      R"({"id":"b","command":["/bin/true"],"user":"ann","campaign":"c1","times":[null,null,null,1,1,1,1,1,1]},)"
      R"({"id":"c","command":["/bin/true"],"user":"bob","campaign":"c1","times":[null,null,null,1,1,1,1,1,1]}]})");
  const auto json = run_json("--policy fairshare --workload users.json");
  EXPECT_EQ(json["campaigns"], 2);
  EXPECT_EQ(json["users"], 2);
}

// Issue 26's goal: the per-job CSV of a 20,000-job DASEDF run read back gives the summary metrics, to the bit.
TEST_F(OnlineCli, TheJobsCsvOfTwentyThousandJobsRecomputesTheSummary) {
  const auto json = run_json("--policy dasedf --synthetic --delta 20 --load 290 --jobs 20000 --seed 1 --jobs-out "
                             "jobs.csv --swf-out schedule.swf");
  const auto rows = online::load_jobs_csv(dir_ / "jobs.csv");
  ASSERT_EQ(rows.size(), 20000u);
  const test_support::RecomputedMetrics again = test_support::recompute_metrics(rows, json["procs"].get<int>());
  EXPECT_EQ(again.completed, json["completed"].get<std::size_t>());
  EXPECT_EQ(again.max_stretch, json["max_stretch"].get<double>());
  EXPECT_EQ(again.mean_stretch, json["mean_stretch"].get<double>());
  EXPECT_EQ(again.max_flow, json["max_flow"].get<double>());
  EXPECT_EQ(again.mean_flow, json["mean_flow"].get<double>());
  EXPECT_EQ(again.utilization, json["utilization"].get<double>());
  EXPECT_EQ(again.makespan, json["makespan"].get<double>());
  // The SWF schedule replays as a trace: the same jobs, each run for as long as it ran.
  const online::SwfTrace schedule = online::load_swf(dir_ / "schedule.swf");
  EXPECT_EQ(schedule.records.size(), 20000u);
  const auto replayed = run_json("--policy fcfs --trace schedule.swf");
  EXPECT_EQ(replayed["jobs"], 20000);
  EXPECT_EQ(replayed["procs"], 300);
}

// The documented closed-loop command (docs/online.md), on the KTH excerpt: every output written, and the replay
// named in the JSON; an existing output is kept unless --force.
TEST_F(OnlineCli, AClosedLoopReplayWritesItsPerJobOutputs) {
  const std::string arguments = "--policy ostrich --trace " + kUsersTrace +
                                " --campaigns max --replay closed --jobs-out ostrich_jobs.csv --swf-out ostrich.swf";
  const auto json = run_json(arguments);
  EXPECT_EQ(json["replay"], "closed");
  EXPECT_GT(json["replay_followers"].get<int>(), 0);
  EXPECT_EQ(online::load_jobs_csv(dir_ / "ostrich_jobs.csv").size(), 100u);
  EXPECT_EQ(run(arguments).exit_code, 2);  // outputs exist: refused before any work
  EXPECT_EQ(run(arguments + " --force").exit_code, 0);
  EXPECT_EQ(run("--policy fcfs --synthetic --jobs 5 --replay feedback").exit_code, 2);
}

// The documented plot (docs/online.md): bench/online_jobs_plot.py over a run's jobs CSV.
TEST_F(OnlineCli, ThePlotScriptDrawsAJobsCsv) {
  ASSERT_EQ(run("--policy ostrich --trace " + kUsersTrace + " --campaigns max --replay closed --jobs-out "
                "ostrich_jobs.csv").exit_code, 0);
  const CommandResult plot = test_support::run_shell(
      "/usr/bin/python3 " + std::string(COSCHED_SOURCE_DIR) +
          "/bench/online_jobs_plot.py --procs 140 ostrich=ostrich_jobs.csv --out jobs.png",
      dir_);
  ASSERT_EQ(plot.exit_code, 0) << plot.err;
  if (plot.out.find("matplotlib not installed") != std::string::npos) GTEST_SKIP() << plot.out;
  EXPECT_TRUE(fs::exists(dir_ / "jobs.png")) << plot.out;
}

// docs/online.md's closed-loop commands, exactly as written, in a folder holding the LPC-EGEE log (shared/).
TEST_F(OnlineCli, TheDocumentedClosedLoopCommandsRunAsWritten) {
  COSCHED_SHARED_DATA_OR_SKIP(trace, "traces/LPC-EGEE-2004-1.2-cln.swf.gz");
  fs::create_symlink(trace, dir_ / "LPC-EGEE-2004-1.2-cln.swf.gz");
  const std::string cosched = test_support::built_program("cosched").string();
  const CommandResult replay = test_support::run_shell(
      cosched + " online --policy ostrich --trace LPC-EGEE-2004-1.2-cln.swf.gz --campaigns max --from 2004-12-06 "
                "--to 2005-01-24 --procs 140 --replay closed --jobs-out ostrich_jobs.csv --swf-out ostrich.swf",
      dir_, 300);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("replay          closed"), std::string::npos) << replay.out;
  EXPECT_EQ(online::load_jobs_csv(dir_ / "ostrich_jobs.csv").size(), 46373u);
  fs::create_directory_symlink(fs::path(COSCHED_SOURCE_DIR) / "bench", dir_ / "bench");  // as from the repository
  const CommandResult plot =
      test_support::run_shell("bench/online_jobs_plot.py --procs 140 ostrich=ostrich_jobs.csv --out jobs.png", dir_, 300);
  ASSERT_EQ(plot.exit_code, 0) << plot.err;
  if (plot.out.find("matplotlib not installed") == std::string::npos) {
    EXPECT_TRUE(fs::exists(dir_ / "jobs.png")) << plot.out;
  }
}

}  // namespace
}  // namespace cosched::launcher
