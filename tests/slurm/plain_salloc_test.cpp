// Slurm without surprises (issue #24): a plain `salloc -N3` gives each node one CPU (cons_tres, no --exclusive, no
// -c). `cosched run --slurm` then plans for one core per node and completes every task (the demo: demo_test.cpp),
// and a platform that asks for more CPUs than Slurm gives is refused before any work, with one line naming the
// salloc options that give them.
#include <nlohmann/json.hpp>

#include "local_cluster.hpp"
#include "support/files.hpp"
#include "support/node_fixture.hpp"

namespace cosched::slurm_test {
namespace {

const std::string& kNodeToml = test_support::kOnePoolNodeToml;
const std::string kBatch = R"({"tasks":[{"id":"a","command":["/bin/true"]},{"id":"b","command":["/bin/true"]},)"
                           R"({"id":"c","command":["/bin/true"]}]})";

TEST(SlurmPlainSalloc, RunPlansForTheCpusSlurmGivesOrRefusesBeforeAnyWork) {
  COSCHED_REQUIRE_SLURM_CLUSTER(3);
  const fs::path dir = test_support::scratch_dir();
  test_support::write_file(dir / "node.toml", kNodeToml);
  test_support::write_file(dir / "b.json", kBatch);
  test_support::write_file(dir / "two.toml", "name = \"two\"\ncores = 2\n[fast_memory]\ncapacity_mib = 8\nchunks = 4\n"
                                               "tier_backend = \"emulated\"\n");
  const std::string run = cosched_program() + " run b.json --slurm --cache cache --node node.toml --reps 1";

  // A platform of 2 cores per node: refused at once, nothing written.
  const CommandResult refused = run_in_cluster("salloc -N3 " + run + " --platform two.toml", dir, 120);
  EXPECT_EQ(refused.exit_code, 4) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("salloc --exclusive"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "cache")) << "refused before any profiling";
  EXPECT_FALSE(fs::exists(dir / "cosched-run-b"));

  // This machine's node: planned for the one CPU each node gets, every task completed.
  const CommandResult ran = run_in_cluster("salloc -N3 " + run, dir, 280);
  ASSERT_EQ(ran.exit_code, 0) << ran.out << ran.err;
  EXPECT_NE(ran.out.find("Slurm gives each node 1 CPU(s)"), std::string::npos) << ran.out;
  const CommandResult report = test_support::run_program("cosched", "report cosched-run-b/cluster-plan --json", dir);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto merged = nlohmann::json::parse(report.out, nullptr, false);
  ASSERT_TRUE(merged.is_object()) << report.out;
  EXPECT_EQ(merged["tasks_completed"], 3);
  EXPECT_EQ(merged["tasks_failed"], 0);
}

}  // namespace
}  // namespace cosched::slurm_test
