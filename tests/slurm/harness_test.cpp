// scripts/local-slurm.sh itself, on a cluster of its own (one node, in a scratch folder): `stop` ends every process
// of the cluster — daemons, the job steps and their tasks — even with a job still running, removes the folder, and
// can be repeated; `status` tells a running cluster from a stopped one. Skipped where the harness cannot run (exit
// 77: not root, or no Slurm packages).
#include <fstream>

#include "local_cluster.hpp"
#include "support/files.hpp"

namespace cosched::slurm_test {
namespace {

constexpr int kCannotRunHere = 77;

// Processes whose initial environment carries the harness's mark for `dir` (the daemons and every slurmstepd).
std::vector<std::string> marked_processes(const fs::path& dir) {
  std::vector<std::string> pids;
  const std::string mark = "COSCHED_LOCAL_SLURM=" + dir.string();
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    for (std::string variable; std::getline(in, variable, '\0');) {
      if (variable == mark) pids.push_back(pid);
    }
  }
  return pids;
}

TEST(LocalSlurmHarness, StopEndsEveryProcessOfTheClusterEvenWithAJobRunning) {
  const fs::path dir = test_support::scratch_dir() / "cluster";
  const auto harness = [&](const std::string& arguments) {
    return test_support::run_shell("bash " + harness_script() + " " + arguments + " --dir '" + dir.string() + "'",
                                   dir.parent_path(), 60);
  };
  const CommandResult started = harness("start --nodes 1");
  if (started.exit_code == kCannotRunHere) GTEST_SKIP() << started.err;
  ASSERT_EQ(started.exit_code, 0) << started.err;
  EXPECT_NE(started.out.find("export SLURM_CONF=" + (dir / "slurm.conf").string()), std::string::npos)
      << started.out;
  EXPECT_EQ(harness("status").exit_code, 0);

  // A job with a running step: its slurmstepd carries the mark, its task is the step's child.
  const std::string conf = "SLURM_CONF='" + (dir / "slurm.conf").string() + "'";
  const CommandResult job = test_support::run_shell(
      "env " + conf + " sbatch --parsable --wrap 'srun sleep 60'", dir.parent_path(), 30);
  ASSERT_EQ(job.exit_code, 0) << job.err;
  const bool step_running = eventually(
      [&] {
        return test_support::run_shell("env " + conf + " squeue -h -s -o %i", dir.parent_path(), 10).out.find(".0") !=
               std::string::npos;
      },
      30);
  EXPECT_TRUE(step_running) << "the job's step never started";
  EXPECT_GE(marked_processes(dir).size(), 4U) << "munged, slurmctld, slurmd and at least one slurmstepd";

  const CommandResult stopped = harness("stop");
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  EXPECT_TRUE(marked_processes(dir).empty()) << "left running after stop";
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_EQ(harness("stop").exit_code, 0) << "stop is idempotent";
  EXPECT_EQ(harness("status").exit_code, 3) << "no cluster";
}

TEST(LocalSlurmHarness, RefusesAFolderItDidNotMake) {
  const fs::path dir = test_support::scratch_dir();
  test_support::write_file(dir / "precious.txt", "keep me\n");
  const CommandResult stopped =
      test_support::run_shell("bash " + harness_script() + " stop --dir '" + dir.string() + "'", dir, 30);
  EXPECT_EQ(stopped.exit_code, 1);
  EXPECT_NE(stopped.err.find("not made by this script"), std::string::npos) << stopped.err;
  const CommandResult started = test_support::run_shell(
      "bash " + harness_script() + " start --nodes 1 --dir '" + dir.string() + "'", dir, 30);
  if (started.exit_code == kCannotRunHere) GTEST_SKIP() << started.err;
  EXPECT_EQ(started.exit_code, 1);
  EXPECT_NE(started.err.find("did not make"), std::string::npos) << started.err;
  EXPECT_TRUE(fs::exists(dir / "precious.txt"));
}

}  // namespace
}  // namespace cosched::slurm_test
