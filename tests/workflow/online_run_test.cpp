// cosched::workflow's online runs without the command line: the files a run writes agree with the report it
// returns (the metrics JSON is the report's, the jobs CSV recomputes its metrics to the bit, the SWF schedule has
// every job), existing files are replaced only when asked, and a node workload must be an Instance JSON.
#include "cosched/workflow/online_run.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/online/jobs_csv.hpp"
#include "cosched/online/source.hpp"
#include "cosched/online/swf.hpp"
#include "support/files.hpp"
#include "support/online_rows.hpp"

namespace cosched::workflow {
namespace {

// 100 jobs of 22 users (tests/data/README.md): enough for campaigns, small enough for a unit test.
const std::string kUsersTrace = std::string(COSCHED_TEST_DATA_DIR) + "/traces/KTH-SP2-1996-2.1-cln-first100.swf";

OnlineRunOptions trace_run(const std::filesystem::path& dir) {
  OnlineRunOptions options;
  options.policy = "fcfs";
  options.source.trace = kUsersTrace;
  options.source.procs = 100;
  options.campaigns = "last";
  options.replay = "closed";
  options.metrics_out = (dir / "metrics.json").string();
  options.jobs_out = (dir / "jobs.csv").string();
  options.swf_out = (dir / "schedule.swf").string();
  return options;
}

std::shared_ptr<const online::OnlineWorkload> workload_of(const OnlineRunOptions& options) {
  return std::make_shared<const online::OnlineWorkload>(online::workload_from_source(options.source));
}

TEST(OnlineRun, WrittenFilesAgreeWithTheReport) {
  const auto dir = test_support::scratch_dir();
  const OnlineRunOptions options = trace_run(dir);
  const auto workload = workload_of(options);
  const OnlineRunReport report = simulate_online_run(options, workload);

  EXPECT_EQ(report.info.clock, "simulated");
  EXPECT_EQ(report.info.policy, "fcfs");
  EXPECT_EQ(report.info.campaign_rule, "last");
  EXPECT_EQ(report.workload, workload);
  EXPECT_GT(report.metrics.campaigns, 0U) << "the closed replay of a users' trace has campaigns";
  EXPECT_EQ(test_support::read_text(dir / "metrics.json"), report.json());

  const auto rows = online::load_jobs_csv(dir / "jobs.csv");
  ASSERT_EQ(rows.size(), workload->arrivals.size());
  const test_support::RecomputedMetrics again = test_support::recompute_metrics(rows, 100);
  EXPECT_EQ(again.completed, report.metrics.completed);
  EXPECT_EQ(again.max_stretch, report.metrics.max_stretch);
  EXPECT_EQ(again.mean_flow, report.metrics.mean_flow);
  EXPECT_EQ(again.makespan, report.metrics.makespan);
  EXPECT_EQ(again.campaigns, report.metrics.campaigns);
  EXPECT_EQ(online::load_swf(dir / "schedule.swf").records.size(), workload->arrivals.size());
}

TEST(OnlineRun, AnExistingFileIsReplacedOnlyWhenAsked) {
  const auto dir = test_support::scratch_dir();
  OnlineRunOptions options = trace_run(dir);
  options.metrics_out.clear();
  options.swf_out.clear();
  test_support::write_file(dir / "jobs.csv", "an earlier run's rows\n");
  EXPECT_THROW((void)simulate_online_run(options, workload_of(options)), UsageError);
  EXPECT_EQ(test_support::read_text(dir / "jobs.csv"), "an earlier run's rows\n");
  options.overwrite = Overwrite::replace;
  (void)simulate_online_run(options, workload_of(options));
  EXPECT_EQ(online::load_jobs_csv(dir / "jobs.csv").size(), workload_of(options)->arrivals.size());
}

TEST(OnlineRun, ANodeWorkloadIsAnInstanceJson) {
  const auto dir = test_support::scratch_dir();
  // Two jobs of /bin/true on 2 cores and 2 fast chunks, the second released at 0.2 s.
  const auto instance = test_support::write_file(
      dir / "node.json",
      R"({"resources":[{"name":"cores","capacity":2},{"name":"fast_chunks","capacity":2}],"tasks":[)"
      R"({"id":"a","command":["/bin/true"],"times":[null,null,null,0.05,0.05,0.05,0.03,0.03,0.03]},)"
      R"({"id":"b","command":["/bin/true"],"release_s":0.2,"times":[null,null,null,0.05,0.04,0.04,0.03,0.02,0.02]}]})");
  const OnlineNodeWorkload node = read_online_node_workload(instance.string(), std::nullopt);
  ASSERT_NE(node.jobs, nullptr);
  EXPECT_EQ(node.jobs->arrivals.size(), 2U);
  EXPECT_EQ(node.commands.tasks.size(), 2U);

  const auto batch = test_support::write_file(
      dir / "batch.json", R"({"name":"b","tasks":[{"id":"t","command":["/bin/true"]}]})");
  try {
    (void)read_online_node_workload(batch.string(), std::nullopt);
    FAIL() << "a workload JSON without profiled times was read as an online node workload";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("an online node workload is an Instance JSON"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cosched::workflow
