// `cosched report PLAN_DIR`: node journals merged into one report; a missing node journal, a task journaled on
// two nodes and a task on a node the plan did not put it on are clear InputErrors.
#include "cosched/launcher/cluster/cluster_report.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

std::string journal_text(const std::vector<std::string>& tasks, double span, bool finished,
                         const std::string& node) {
  std::string plan;
  for (const auto& task : tasks) {
    plan += (plan.empty() ? "" : ",") +
            std::string(R"({"task":")") + task + R"(","alloc":[1],"planned_start":0,"predicted_duration":1,"predicted_start":0})";
  }
  std::string text = R"({"event":"batch_start","algorithm":"t-list-lpt","predicted_makespan":)" +
                     std::to_string(span - 0.5) + R"(,"slurm":{"node":")" + node +
                     R"(","job_id":"42","step_id":"1"},"plan":[)" + plan + "]}\n";
  for (const auto& task : tasks) {
    text += R"({"event":"start","task":")" + task + R"(","t":0})" "\n";
    if (finished) text += R"({"event":"end","task":")" + task + R"(","t":1,"status":"ok"})" "\n";
  }
  if (finished) text += R"({"event":"batch_end","status":"ok","observed_makespan":)" + std::to_string(span) + "}\n";
  return text;
}

class ClusterReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir("cluster-report");
    manifest_.algorithm = "t-list-lpt";
    manifest_.resources = {{"cores", 1}};
    manifest_.lower_bound = 1.5;
    manifest_.predicted_makespan = 2.0;
    const std::vector<std::vector<std::string>> tasks{{"a", "b"}, {"c"}, {"d"}};
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      manifest_.nodes.push_back({sched::node_file_name(k, ".schedule.json"),
                                 sched::node_file_name(k, ".instance.json"),
                                 sched::node_file_name(k, ".journal.jsonl"), 1.0, 2.0, tasks[k]});
    }
    write_text_file(dir_ / "manifest.json", sched::cluster_manifest_to_json(manifest_), Overwrite::replace, "test");
    journal(0, {"a", "b"}, 2.5, true, "n1");
    journal(1, {"c"}, 1.5, true, "n2");
    journal(2, {"d"}, 3.0, true, "n3");
  }
  void journal(std::size_t node, const std::vector<std::string>& tasks, double span, bool finished,
               const std::string& host) const {
    std::ofstream(dir_ / manifest_.nodes[node].journal) << journal_text(tasks, span, finished, host);
  }
  void expect_error(const std::string& fragment) const {
    try {
      (void)summarize_cluster(dir_);
      ADD_FAILURE() << "merged";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
  }
  std::filesystem::path dir_;
  sched::ClusterManifest manifest_;
};

TEST_F(ClusterReportTest, MergesEveryNode) {
  const ClusterReport report = summarize_cluster(dir_);
  EXPECT_EQ(report.rows.size(), 3U);
  EXPECT_EQ(report.tasks_planned, 4U);
  EXPECT_EQ(report.tasks_completed, 4U);
  EXPECT_EQ(report.tasks_failed, 0U);
  EXPECT_TRUE(report.finished);
  EXPECT_DOUBLE_EQ(report.observed_makespan, 3.0);   // the slowest node
  EXPECT_DOUBLE_EQ(report.predicted_makespan, 2.5);  // the largest node prediction
  EXPECT_DOUBLE_EQ(report.lower_bound, 1.5);
  const auto json = to_json(report);
  EXPECT_EQ(json["nodes"], 3);
  EXPECT_EQ(json["tasks_completed"], 4);
  EXPECT_EQ(json["rows"].size(), 3U);
  EXPECT_EQ(json["rows"][1]["slurm_node"], "n2");
  EXPECT_EQ(json["rows"][1]["slurm_job_id"], "42");
  EXPECT_EQ(json["rows"][0]["task_ids"], nlohmann::json({"a", "b"}));
  EXPECT_NE(format_cluster_report(report).find("n3"), std::string::npos);
}

TEST_F(ClusterReportTest, AnUnfinishedNodeLeavesTheClusterUnfinished) {
  journal(1, {"c"}, 1.5, false, "n2");
  const ClusterReport report = summarize_cluster(dir_);
  EXPECT_FALSE(report.finished);
  EXPECT_EQ(report.tasks_completed, 3U);
}

TEST_F(ClusterReportTest, AMissingNodeJournalIsAnInputError) {
  std::filesystem::remove(dir_ / "node-001.journal.jsonl");
  expect_error("plan node 1 has no journal");
}

TEST_F(ClusterReportTest, ATaskOnTwoNodesIsAnInputError) {
  journal(2, {"d", "a"}, 3.0, true, "n3");
  expect_error("task \"a\" is journaled on plan node 0");
}

TEST_F(ClusterReportTest, ATaskOnAnotherNodeThanPlannedIsAnInputError) {
  journal(2, {"c"}, 3.0, true, "n3");
  journal(1, {"d"}, 3.0, true, "n2");
  expect_error("the plan puts it on node");
}

TEST_F(ClusterReportTest, AFolderWithoutManifestIsNotAPlan) {
  std::filesystem::remove(dir_ / "manifest.json");
  expect_error("not a cluster plan folder");
}

TEST_F(ClusterReportTest, ADemoOutputFolderIsFoundThroughItsPlanFolder) {
  const auto demo = testing::scratch_dir("cluster-report-demo");
  std::filesystem::rename(dir_, demo / "cluster-plan");
  EXPECT_EQ(summarize_cluster(demo).rows.size(), 3U);
  std::filesystem::rename(demo / "cluster-plan", dir_);
}

}  // namespace
}  // namespace cosched::launcher
