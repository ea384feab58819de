// `cosched plan --nodes`, `launch PLAN --slurm`, `report PLAN` and `slurm-script` end to end without Slurm: a
// fake `srun` (drops its options, sets SLURMD_NODENAME and SLURM_STEP_ID, runs the command) and a fake `scontrol`
// (prints FAKE_NODES) first on PATH. The real-cluster tests are elsewhere (they need slurmd and root).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/programs.hpp"

namespace cosched::launcher {
namespace {

namespace fs = std::filesystem;
using test_support::CommandResult;

// Sets an environment variable for the test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class ClusterCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(test_support::built_program("cosched"))) GTEST_SKIP() << "bin/cosched is not built";
    dir_ = test_support::scratch_dir();
    // Six tasks, one core each (0.02..0.07 s of /bin/sleep): two nodes of one core.
    std::string tasks;
    for (int i = 0; i < 6; ++i) {
      const std::string t = "0.0" + std::to_string(2 + i);
      tasks += std::string(i == 0 ? "" : ",") + R"({"id":"t)" + std::to_string(i) + R"(","times":[null,)" + t +
               R"(],"command":["/bin/sleep",")" + t + R"("]})";
    }
    write("inst.json", R"({"resources":[{"name":"cores","capacity":1}],"tasks":[)" + tasks + "]}");
    write("plat.toml", "name = \"t\"\ncores = 1\n\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n"
                       "tier_backend = \"none\"\n");
    fs::create_directories(dir_ / "bin");
    script("bin/srun", "#!/bin/sh\nnode=\nwhile [ $# -gt 0 ]; do case \"$1\" in -w) node=$2; shift 2;; --*) shift;; "
                       "*) break;; esac; done\necho \"$node\" >>\"$FAKE_SRUN_LOG\"\n"
                       "SLURMD_NODENAME=$node SLURM_STEP_ID=5 exec \"$@\"\n");
    script("bin/scontrol", "#!/bin/sh\n[ \"$1 $2\" = \"show hostnames\" ] || exit 1\nprintf '%s\\n' $FAKE_NODES\n");
  }

  fs::path write(const std::string& name, const std::string& text) const {
    return test_support::write_file(dir_ / name, text);
  }
  void script(const std::string& name, const std::string& text) const {
    write(name, text);
    fs::permissions(dir_ / name, fs::perms::owner_all);
  }
  CommandResult run(const std::string& arguments) const {
    return test_support::run_program("cosched", arguments, dir_);
  }
  // Runs `arguments` as if inside a two-node allocation, job 42.
  CommandResult run_in_allocation(const std::string& arguments, const std::string& nodes = "n1 n2") const {
    const ScopedEnv path("PATH", (dir_ / "bin").string() + ":" + std::getenv("PATH"));
    const ScopedEnv log("FAKE_SRUN_LOG", (dir_ / "srun.log").string());
    const ScopedEnv names("FAKE_NODES", nodes);
    const ScopedEnv job("SLURM_JOB_ID", "42");
    const ScopedEnv list("SLURM_JOB_NODELIST", "n[1-2]");
    const ScopedEnv cpus("SLURM_JOB_CPUS_PER_NODE", nodes == "n1 n2" ? "1(x2)" : "1");
    return run(arguments);
  }
  nlohmann::json report() const {
    const CommandResult result = run("report plan --json");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return nlohmann::json::parse(result.out);
  }

  fs::path dir_;
};

TEST_F(ClusterCli, PlanLaunchReportAcrossTwoNodes) {
  const CommandResult planned = run("plan --instance inst.json --algorithm t-list-lpt --nodes 2 --output plan");
  ASSERT_EQ(planned.exit_code, 0) << planned.err;
  EXPECT_TRUE(fs::exists(dir_ / "plan" / "manifest.json"));
  const CommandResult launched = run_in_allocation("launch plan --slurm --platform plat.toml");
  ASSERT_EQ(launched.exit_code, 0) << launched.err << launched.out;
  EXPECT_EQ(test_support::read_text(dir_ / "srun.log").size(), std::string("n1\nn2\n").size());
  const nlohmann::json merged = report();
  EXPECT_EQ(merged["nodes"], 2);
  EXPECT_EQ(merged["tasks_completed"], 6);
  EXPECT_EQ(merged["tasks_failed"], 0);
  EXPECT_GT(merged["observed_makespan"].get<double>(), 0.0);
  EXPECT_GT(merged["predicted_makespan"].get<double>(), 0.0);
  ASSERT_EQ(merged["rows"].size(), 2U);
  EXPECT_EQ(merged["rows"][0]["slurm_node"], "n1");
  EXPECT_EQ(merged["rows"][1]["slurm_node"], "n2");
  EXPECT_EQ(merged["rows"][1]["slurm_job_id"], "42");
  EXPECT_EQ(merged["rows"][1]["slurm_step_id"], "5");
  std::size_t ran = 0;
  for (const auto& row : merged["rows"]) ran += row["task_ids"].size();
  EXPECT_EQ(ran, 6U);

  // A second launch needs --resume (nothing left: every node is skipped) or --force.
  EXPECT_EQ(run_in_allocation("launch plan --slurm --platform plat.toml").exit_code, 2);
  fs::remove(dir_ / "srun.log");
  const CommandResult resumed = run_in_allocation("launch plan --slurm --platform plat.toml --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_FALSE(fs::exists(dir_ / "srun.log")) << "a finished node is not run again";
}

TEST_F(ClusterCli, ALostStepIsResumedOnItsNodeOnly) {
  ASSERT_EQ(run("plan --instance inst.json --algorithm t-list-lpt --nodes 2 --output plan").exit_code, 0);
  ASSERT_EQ(run_in_allocation("launch plan --slurm --platform plat.toml").exit_code, 0);
  // Node 1's step "lost": its journal cut after the first task's start (no end, no batch_end).
  const fs::path journal = dir_ / "plan" / "node-001.journal.jsonl";
  std::ifstream in(journal);
  std::string header, first_start;
  std::getline(in, header);
  std::getline(in, first_start);
  in.close();
  write("plan/node-001.journal.jsonl", header + "\n" + first_start + "\n");
  EXPECT_FALSE(report()["finished"].get<bool>());
  fs::remove(dir_ / "srun.log");
  const CommandResult resumed = run_in_allocation("launch plan --slurm --platform plat.toml --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err << resumed.out;
  EXPECT_EQ(test_support::read_text(dir_ / "srun.log"), "n2\n");
  const nlohmann::json merged = report();
  EXPECT_TRUE(merged["finished"].get<bool>());
  EXPECT_EQ(merged["tasks_completed"], 6);
  EXPECT_EQ(merged["rows"][1]["segments"], 2);
}

TEST_F(ClusterCli, TooFewAllocatedNodesIsAResourceError) {
  ASSERT_EQ(run("plan --instance inst.json --algorithm t-list-lpt --nodes 2 --output plan").exit_code, 0);
  const CommandResult result = run_in_allocation("launch plan --slurm --platform plat.toml", "n1");
  test_support::expect_one_line_error(result, 4, "the plan needs 2 nodes", "one node");
  EXPECT_FALSE(fs::exists(dir_ / "srun.log")) << "no step may start";
}

TEST_F(ClusterCli, AFailedStepIsExitSixAndNamesItsLog) {
  ASSERT_EQ(run("plan --instance inst.json --algorithm t-list-lpt --nodes 2 --output plan").exit_code, 0);
  // Without --platform the steps detect this machine; a plan of 1 core fits, so break the step instead: a
  // platform file that does not exist fails every node's launch (exit 2 in the step).
  const CommandResult result = run_in_allocation("launch plan --slurm --platform missing.toml");
  EXPECT_EQ(result.exit_code, 6) << result.err;
  EXPECT_NE(result.err.find("node-000.step.log"), std::string::npos) << result.err;
}

TEST_F(ClusterCli, SlurmScriptForThePlan) {
  ASSERT_EQ(run("plan --instance inst.json --algorithm t-list-lpt --nodes 2 --output plan").exit_code, 0);
  const CommandResult result = run("slurm-script plan --platform plat.toml --output job.sh");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string script = test_support::read_text(dir_ / "job.sh");
  EXPECT_NE(script.find("#SBATCH --nodes=2"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --exclusive"), std::string::npos);
  EXPECT_NE(script.find("#SBATCH --time=0-00:06:00"), std::string::npos) << script;  // 1.5 x ~0.1 s + 300 s
  EXPECT_NE(script.find("launch " + (dir_ / "plan").string() + " --slurm --platform " + (dir_ / "plat.toml").string()),
            std::string::npos)
      << script;
  EXPECT_EQ(run("slurm-script plan --output job.sh").exit_code, 2) << "an existing script needs --force";
}

}  // namespace
}  // namespace cosched::launcher
