// What cosched needs from Slurm, without Slurm: CPU counts per node, node assignment, the srun command of a step,
// the step's identity for the journal, the sbatch script, and which node steps a (resumed) cluster launch runs.
#include "cosched/launcher/cluster/slurm.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "cosched/common/error.hpp"
#include "cosched/launcher/cluster/cluster_launch.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

slurm::Environment fake_environment(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> std::optional<std::string> {
    const auto found = values.find(name);
    return found == values.end() ? std::nullopt : std::optional<std::string>(found->second);
  };
}

TEST(Slurm, CpusPerNodeExpandsRepeats) {
  EXPECT_EQ(slurm::parse_cpus_per_node("2(x3),4", 4, "x"), (std::vector<unsigned>{2, 2, 2, 4}));
  EXPECT_EQ(slurm::parse_cpus_per_node("8", 1, "x"), (std::vector<unsigned>{8}));
  EXPECT_EQ(slurm::parse_cpus_per_node("1(x2)", 2, "x"), (std::vector<unsigned>{1, 1}));
  for (const char* bad : {"", "0", "2(x)", "2(x3", "a", "2,,3", "2(x0)", "-1", "2(x2),1,1"}) {
    EXPECT_THROW((void)slurm::parse_cpus_per_node(bad, 3, "x"), InputError) << bad;
  }
  EXPECT_THROW((void)slurm::parse_cpus_per_node("2(x3)", 2, "x"), InputError);
}

TEST(Slurm, StepFromTheEnvironment) {
  EXPECT_FALSE(slurm::step_from_environment(fake_environment({})).has_value());
  const auto step = slurm::step_from_environment(
      fake_environment({{"SLURM_JOB_ID", "42"}, {"SLURMD_NODENAME", "n2"}, {"SLURM_STEP_ID", "3"}}));
  ASSERT_TRUE(step.has_value());
  EXPECT_EQ(*step, (SlurmStep{"n2", "42", "3"}));
  // In an allocation's shell (salloc) there is no step yet: the fields Slurm did not set are empty.
  EXPECT_EQ(*slurm::step_from_environment(fake_environment({{"SLURM_JOB_ID", "9"}})), (SlurmStep{"", "9", ""}));
}

TEST(Slurm, TheJournalHeaderCarriesTheStep) {
  BatchStart header;
  header.algorithm = "t-list-lpt";
  header.slurm = SlurmStep{"n3", "42", "7"};
  const auto back = std::get<BatchStart>(event_from_json(to_json(JournalEvent(header)), "j.jsonl:1"));
  EXPECT_EQ(back.slurm, header.slurm);
  // Outside Slurm it is written null and read back absent, as in journals written before it existed.
  header.slurm.reset();
  const nlohmann::json written = to_json(JournalEvent(header));
  EXPECT_TRUE(written.at("slurm").is_null());
  EXPECT_FALSE(std::get<BatchStart>(event_from_json(written, "j.jsonl:1")).slurm.has_value());
  nlohmann::json wrong = written;
  wrong["slurm"] = {{"node", 3}};
  EXPECT_THROW((void)event_from_json(wrong, "j.jsonl:1"), InputError);
}

TEST(Slurm, OutsideAnAllocationIsAUsageError) {
  EXPECT_THROW((void)slurm::allocation_from_environment(fake_environment({})), UsageError);
  EXPECT_THROW((void)slurm::allocation_from_environment(fake_environment({{"SLURM_JOB_ID", "1"}})), UsageError);
}

TEST(Slurm, HostnamesComeFromScontrol) {
  const auto dir = testing::scratch_dir("slurm-scontrol");
  const auto fake = dir / "scontrol";
  std::ofstream(fake) << "#!/bin/sh\n[ \"$1 $2\" = \"show hostnames\" ] || exit 1\necho \"$3\" >" << (dir / "asked").string()
                      << "\nprintf 'n1\\nn2\\nn3\\n'\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto allocation = slurm::allocation_from_environment(
      fake_environment({{"SLURM_JOB_ID", "7"}, {"SLURM_JOB_NODELIST", "n[1-3]"}, {"SLURM_JOB_CPUS_PER_NODE", "4(x3)"}}),
      fake.string());
  EXPECT_EQ(allocation.job_id, "7");
  EXPECT_EQ(allocation.nodes, (std::vector<std::string>{"n1", "n2", "n3"}));
  EXPECT_EQ(allocation.cpus, (std::vector<unsigned>{4, 4, 4}));
  EXPECT_EQ(test_support::read_text(dir / "asked"), "n[1-3]\n");
  EXPECT_THROW((void)slurm::expand_hostnames("x", (dir / "missing").string()), PlatformError);
  std::ofstream(dir / "failing") << "#!/bin/sh\necho 'Invalid hostlist' >&2\nexit 1\n";
  std::filesystem::permissions(dir / "failing", std::filesystem::perms::owner_all);
  EXPECT_THROW((void)slurm::expand_hostnames("x", (dir / "failing").string()), PlatformError);
}

TEST(Slurm, PlanNodesGoToAllocatedNodesInOrder) {
  const slurm::Allocation allocation{"5", {"a", "b", "c"}, {1, 1, 1}};
  EXPECT_EQ(slurm::assign_nodes(2, allocation), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(slurm::assign_nodes(3, allocation), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_THROW((void)slurm::assign_nodes(4, allocation), ResourceError);
}

// `cosched run --slurm` plans for the CPUs Slurm gives every node, and says so when that is fewer than the platform's
// cores; a platform file's cores are asked for, so a node with fewer is refused before any work.
TEST(Slurm, TheAllocationsNodeHasTheCoresSlurmGivesEveryNode) {
  const slurm::Allocation allocation{"42", {"a", "b"}, {2, 1}};
  config::PlatformConfig platform = config::this_machine_platform();
  platform.cores = 64;
  test_support::RecordingReporter notes;
  EXPECT_EQ(slurm::allocation_platform(platform, false, allocation, notes).cores, 1U);
  EXPECT_EQ(notes.text_of("note"), "Slurm gives each node 1 CPU(s) (job 42): planning for 1 core(s) per node; salloc "
                                   "--exclusive gives a run every CPU of its nodes\n");
  platform.cores = 1;
  test_support::RecordingReporter none;
  EXPECT_EQ(slurm::allocation_platform(platform, true, allocation, none).cores, 1U) << "as many as asked";
  EXPECT_TRUE(none.events.empty()) << "no note when every core asked for is given";
  platform.cores = 2;
  EXPECT_THROW((void)slurm::allocation_platform(platform, true, allocation, none), ResourceError);
}

TEST(Slurm, SrunCommandOfOneStep) {
  const auto argv = slurm::srun_argv("srun", "n2", 8, "cosched-42-node1", {"/bin/cosched", "launch", "s.json"});
  EXPECT_EQ(argv, (std::vector<std::string>{"srun", "--nodes=1", "--ntasks=1", "--exclusive", "--cpus-per-task=8",
                                            "-w", "n2", "--job-name=cosched-42-node1", "/bin/cosched", "launch",
                                            "s.json"}));
}

TEST(Slurm, TimeLimitRoundsUpToAMinuteWithDays) {
  EXPECT_EQ(slurm::format_time_limit(0.0), "0-00:01:00");
  EXPECT_EQ(slurm::format_time_limit(61.0), "0-00:02:00");
  EXPECT_EQ(slurm::format_time_limit(3600.0), "0-01:00:00");
  EXPECT_EQ(slurm::format_time_limit(90000.0), "1-01:00:00");
  slurm::ScriptOptions options;
  EXPECT_DOUBLE_EQ(slurm::time_limit_seconds(100.0, options), 1.5 * 100.0 + 300.0);
}

TEST(Slurm, ShellQuoting) {
  EXPECT_EQ(slurm::shell_quote("/a/b-c.json"), "/a/b-c.json");
  EXPECT_EQ(slurm::shell_quote("a b"), "'a b'");
  EXPECT_EQ(slurm::shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(slurm::shell_quote(""), "''");
}

sched::ClusterManifest two_node_manifest() {
  sched::ClusterManifest manifest;
  manifest.algorithm = "t-list-lpt";
  manifest.resources = {{"cores", 2}};
  manifest.lower_bound = 10.0;
  manifest.predicted_makespan = 600.0;
  for (std::size_t k = 0; k < 2; ++k) {
    manifest.nodes.push_back({sched::node_file_name(k, ".schedule.json"), sched::node_file_name(k, ".instance.json"),
                              sched::node_file_name(k, ".journal.jsonl"), 10.0, 600.0 - static_cast<double>(k),
                              {k == 0 ? "a" : "b"}});
  }
  return manifest;
}

// The script is not written onto a file its jobs use, whatever the name it is given; elsewhere, and to stdout, it
// is.
TEST(Slurm, TheScriptIsNotWrittenOntoAFileItsJobsUse) {
  const std::filesystem::path plan = std::filesystem::path(::testing::TempDir()) / "script-output-plan";
  slurm::ScriptOptions options;
  options.cosched = "/opt/cosched/bin/cosched";
  options.plan = plan;
  options.launch_options = {"--platform", (plan.parent_path() / "script-output.toml").string()};
  const sched::ClusterManifest manifest = two_node_manifest();
  for (const std::filesystem::path& used :
       {plan / "manifest.json", plan / "." / "manifest.json", plan / sched::node_file_name(1, ".schedule.json"),
        plan / sched::node_file_name(0, ".instance.json"), plan / sched::node_file_name(1, ".journal.jsonl"),
        plan / sched::node_file_name(0, ".step.log"), plan.parent_path() / "script-output.toml",
        std::filesystem::path("/opt/cosched/bin/cosched")}) {
    try {
      slurm::check_script_output(used, manifest, options);
      ADD_FAILURE() << used << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("which the script's jobs use"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find((plan / "job.sbatch").string()), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(slurm::check_script_output("-", manifest, options));
  EXPECT_NO_THROW(slurm::check_script_output(plan / "job.sbatch", manifest, options));
  EXPECT_NO_THROW(slurm::check_script_output(plan / sched::node_file_name(2, ".schedule.json"), manifest, options));
}

TEST(Slurm, SbatchScriptCarriesNodesTimeExclusiveAndTheLaunch) {
  slurm::ScriptOptions options;
  options.cosched = "/opt/cosched/bin/cosched";
  options.plan = "/data/my plan";
  options.launch_options = {"--platform", "/p.toml"};
  const std::string script = slurm::sbatch_script(two_node_manifest(), options);
  EXPECT_EQ(script.rfind("#!/bin/sh\n", 0), 0U);
  EXPECT_NE(script.find("#SBATCH --nodes=2\n"), std::string::npos);
  EXPECT_NE(script.find("#SBATCH --exclusive\n"), std::string::npos);
  EXPECT_NE(script.find("#SBATCH --time=0-00:20:00\n"), std::string::npos);  // 1.5 x 600 + 300 = 1200 s
  EXPECT_NE(script.find("/opt/cosched/bin/cosched launch '/data/my plan' --slurm --platform /p.toml"),
            std::string::npos);
  EXPECT_NE(script.find("cosched report '/data/my plan'"), std::string::npos);
  // Every #SBATCH line comes before the first command (sbatch stops reading them there).
  EXPECT_LT(script.rfind("#SBATCH"), script.find("status=0"));
}

// ---- which steps a cluster launch runs ----------------------------------------------------------------------

class NodeSteps : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir("slurm-steps");
    options_.plan = dir_;
    options_.cosched = "/bin/cosched";
    options_.step_options = {"--timeout", "5"};
  }
  void journal(std::size_t node, const std::string& task, bool finished) const {
    std::ofstream out(dir_ / sched::node_file_name(node, ".journal.jsonl"));
    out << R"({"event":"batch_start","algorithm":"x","plan":[{"task":")" << task
        << R"(","alloc":[1],"planned_start":0,"predicted_duration":1,"predicted_start":0}]})" "\n"
        << R"({"event":"start","task":")" << task << R"(","t":0})" "\n";
    if (finished) {
      out << R"({"event":"end","task":")" << task << R"(","t":1,"status":"ok"})" "\n"
          << R"({"event":"batch_end","status":"ok","observed_makespan":1})" "\n";
    }
  }
  std::filesystem::path dir_;
  ClusterLaunchOptions options_;
  slurm::Allocation allocation_{"42", {"n1", "n2", "n3"}, {2, 4, 4}};
};

TEST_F(NodeSteps, AFreshLaunchStartsEveryNode) {
  const auto steps = plan_node_steps(two_node_manifest(), allocation_, options_);
  ASSERT_EQ(steps.size(), 2U);
  EXPECT_EQ(steps[0].host, "n1");
  EXPECT_EQ(steps[1].host, "n2");
  EXPECT_EQ(steps[1].action, StepAction::start);
  const auto& argv = steps[1].argv;
  EXPECT_EQ(argv[4], "--cpus-per-task=4");
  const std::vector<std::string> tail(argv.begin() + 8, argv.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"/bin/cosched", "launch", (dir_ / "node-001.schedule.json").string(),
                                            "--workload", (dir_ / "node-001.instance.json").string(), "--instance",
                                            (dir_ / "node-001.instance.json").string(), "--journal",
                                            (dir_ / "node-001.journal.jsonl").string(), "--timeout", "5"}));
}

TEST_F(NodeSteps, AnExistingJournalNeedsResumeOrForce) {
  journal(0, "a", true);
  EXPECT_THROW((void)plan_node_steps(two_node_manifest(), allocation_, options_), UsageError);
  options_.force = true;
  const auto steps = plan_node_steps(two_node_manifest(), allocation_, options_);
  EXPECT_EQ(steps[0].action, StepAction::start);
  EXPECT_NE(std::find(steps[0].argv.begin(), steps[0].argv.end(), "--force"), steps[0].argv.end());
  EXPECT_EQ(std::find(steps[1].argv.begin(), steps[1].argv.end(), "--force"), steps[1].argv.end());
}

TEST_F(NodeSteps, ResumeSkipsFinishedNodesAndResumesLostOnes) {
  journal(0, "a", true);
  journal(1, "b", false);  // its step was lost: a start without an end, no batch_end
  options_.resume = true;
  const auto steps = plan_node_steps(two_node_manifest(), allocation_, options_);
  EXPECT_EQ(steps[0].action, StepAction::skip);
  EXPECT_TRUE(steps[0].argv.empty());
  EXPECT_EQ(steps[1].action, StepAction::resume);
  const auto resume = std::find(steps[1].argv.begin(), steps[1].argv.end(), "--resume");
  ASSERT_NE(resume, steps[1].argv.end());
  EXPECT_EQ(*(resume + 1), (dir_ / "node-001.journal.jsonl").string());
  // A node without a journal starts afresh on resume.
  std::filesystem::remove(dir_ / "node-001.journal.jsonl");
  EXPECT_EQ(plan_node_steps(two_node_manifest(), allocation_, options_)[1].action, StepAction::start);
}

TEST_F(NodeSteps, TooSmallAnAllocationIsAResourceError) {
  const slurm::Allocation one{"42", {"n1"}, {2}};
  EXPECT_THROW((void)plan_node_steps(two_node_manifest(), one, options_), ResourceError);
}

TEST_F(NodeSteps, StepsRunAndReportTheirExitCodes) {
  // A fake srun: a script that drops srun's options and runs the command (here /bin/sh -c 'exit N').
  const auto fake = dir_ / "srun";
  std::ofstream(fake) << "#!/bin/sh\nwhile [ $# -gt 0 ]; do case \"$1\" in -w) shift 2;; --*) shift;; *) break;; "
                         "esac; done\nexec \"$@\"\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  std::vector<NodeStep> steps{
      {0, "n1", StepAction::start, slurm::srun_argv(fake.string(), "n1", 1, "j", {"/bin/sh", "-c", "echo hi; exit 0"}),
       dir_ / "0.log"},
      {1, "n2", StepAction::skip, {}, dir_ / "1.log"},
      {2, "n3", StepAction::resume, slurm::srun_argv(fake.string(), "n3", 1, "j", {"/bin/sh", "-c", "exit 3"}),
       dir_ / "2.log"}};
  const auto outcomes = run_node_steps(steps);
  ASSERT_EQ(outcomes.size(), 3U);
  EXPECT_EQ(outcomes[0].exit_code, 0);
  EXPECT_EQ(outcomes[1].exit_code, 0);
  EXPECT_EQ(outcomes[2].exit_code, 3);
  EXPECT_EQ(test_support::read_text(dir_ / "0.log"), "hi\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "1.log"));
}

}  // namespace
}  // namespace cosched::launcher
