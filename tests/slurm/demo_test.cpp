// `cosched demo --slurm --quick` inside an allocation of the local cluster's three nodes: the demo batch runs across
// all of them, its last line names its output folder, and `cosched report` merges that folder's node journals. Both
// with whole nodes (--exclusive) and with a plain `salloc -N3` as docs/cluster.md shows it, which gives each node
// one CPU (issue #24: every task then failed; the demo now plans for the CPUs Slurm gives, and says so).
#include <nlohmann/json.hpp>
#include <set>

#include "local_cluster.hpp"
#include "support/files.hpp"

namespace cosched::slurm_test {
namespace {

class SlurmDemo : public ::testing::TestWithParam<std::string> {};

TEST_P(SlurmDemo, QuickDemoRunsAcrossTheAllocationAndItsFolderIsReported) {
  COSCHED_REQUIRE_SLURM_CLUSTER(3);
  const fs::path dir = test_support::scratch_dir();
  const bool whole_nodes = GetParam().find("--exclusive") != std::string::npos;
  const CommandResult demo =
      run_in_cluster(GetParam() + " " + cosched_program() + " demo --slurm --quick --output demo", dir, 280);
  ASSERT_EQ(demo.exit_code, 0) << demo.out << demo.err;
  EXPECT_EQ(demo.out.find("Slurm gives each node 1 CPU(s): planning for 1 core(s) per node") == std::string::npos,
            whole_nodes)
      << demo.out;

  // The last line names the folder, as the one-node demo's does: "demo output: DIR" (DIR as given).
  std::string last_line = demo.out.substr(0, demo.out.find_last_not_of('\n') + 1);
  last_line = last_line.substr(last_line.find_last_of('\n') + 1);
  const std::string prefix = "demo output: ";
  ASSERT_EQ(last_line.rfind(prefix, 0), 0U) << "the last line does not name the output folder: " << last_line;
  const fs::path folder = dir / last_line.substr(prefix.size());
  ASSERT_TRUE(fs::is_directory(folder)) << last_line;
  EXPECT_TRUE(fs::equivalent(folder, dir / "demo")) << last_line;

  const CommandResult report =
      test_support::run_program("cosched", "report '" + folder.string() + "' --json", dir);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto merged = nlohmann::json::parse(report.out, nullptr, false);
  ASSERT_TRUE(merged.is_object()) << report.out;
  EXPECT_EQ(merged["nodes"], 3);
  EXPECT_GT(merged["tasks_completed"].get<int>(), 0);
  EXPECT_EQ(merged["tasks_completed"], merged["tasks_planned"]);
  EXPECT_EQ(merged["tasks_failed"], 0);
  // One row per node, each run in a step on a node of its own.
  std::set<std::string> slurm_nodes;
  for (const auto& row : merged["rows"]) {
    ASSERT_TRUE(row["slurm_node"].is_string()) << row.dump();
    slurm_nodes.insert(row["slurm_node"].get<std::string>());
  }
  EXPECT_EQ(slurm_nodes.size(), 3U);
}

INSTANTIATE_TEST_SUITE_P(WholeNodesAndPlainSalloc, SlurmDemo,
                         ::testing::Values("salloc --nodes=3 --exclusive", "salloc -N3"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param.find("--exclusive") != std::string::npos ? "Exclusive" : "Plain";
                         });

}  // namespace
}  // namespace cosched::slurm_test
