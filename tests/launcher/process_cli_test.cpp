// Issue 27, end to end through the built `cosched`: a journal has one writer (a second launch, resume or --force
// of a journal in use is refused at once, naming the holder, and changes nothing), a SIGKILLed launcher's lock and
// task trees go with it, no task or profiled command leaves a process behind, and a resumed task keeps the logs of
// its earlier attempts. Each test states the case, the exit code and what must remain on disk.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cosched/common/host.hpp"
#include "cosched/launcher/journal/file.hpp"
#include "cosched/launcher/journal/recorder.hpp"
#include "cosched/platform/topology.hpp"
#include "support/processes.hpp"
#include "support/programs.hpp"

namespace cosched::launcher {
namespace {

namespace fs = std::filesystem;
using test_support::CommandResult;

// Every file under `dir` with its content (folders as "<folder>").
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(entry.path(), dir).string();
    if (name.rfind("stdout-", 0) == 0 || name.rfind("stderr-", 0) == 0 || name.rfind("bg", 0) == 0) continue;
    files[name] = entry.is_directory() ? "<folder>" : test_support::read_text(entry.path());
  }
  return files;
}

using test_support::running;

// The pids, one a line, in `file`.
std::vector<pid_t> pids_in(const fs::path& file) {
  std::vector<pid_t> pids;
  std::ifstream in(file);
  for (pid_t pid = 0; in >> pid;) pids.push_back(pid);
  return pids;
}

class ProcessCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(test_support::built_program("cosched"))) GTEST_SKIP() << "bin/cosched is not built";
    dir_ = test_support::scratch_dir();
    token_ = "sleep 4" + std::to_string(::getpid() % 1000) + ".5";
  }
  void TearDown() override {
    if (background_ > 0) {
      ::kill(-background_, SIGKILL);
      ::waitpid(background_, nullptr, 0);
    }
  }

  fs::path write(const std::string& name, const std::string& text) const {
    return test_support::write_file(dir_ / name, text);
  }
  CommandResult run(const std::string& arguments) const {
    return test_support::run_program("cosched", arguments, dir_);
  }
  // Starts `cosched arguments...` in the test's folder, in its own process group; stdout and stderr to bg.out.
  void start(const std::vector<std::string>& arguments) {
    std::vector<std::string> argv{test_support::built_program("cosched").string()};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    std::vector<char*> raw;
    for (auto& word : argv) raw.push_back(word.data());
    raw.push_back(nullptr);
    const std::string out = (dir_ / "bg.out").string();
    background_ = ::fork();
    if (background_ == 0) {
      ::setpgid(0, 0);
      const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || ::chdir(dir_.c_str()) != 0) ::_exit(127);
      ::dup2(fd, STDOUT_FILENO);
      ::dup2(fd, STDERR_FILENO);
      ::execv(raw[0], raw.data());
      ::_exit(127);
    }
  }
  // A schedule of tasks a and b, one after the other on one core, and the workload they run.
  void write_batch(const std::string& command_a) {
    write("s.json", R"({"algorithm":"t-list-lpt","tasks":[{"id":"a","alloc":[1],"start":0,"duration":0.1},)"
                    R"({"id":"b","alloc":[1],"start":0.1,"duration":0.1}]})");
    write("w.json", R"({"tasks":[{"id":"a","command":["/bin/sh","-c",")" + command_a +
                        R"("]},{"id":"b","command":["/bin/true"]}]})");
  }

  fs::path dir_;
  std::string token_;  // the command line of the sleeps the tasks leave behind
  pid_t background_ = -1;
};

TEST_F(ProcessCli, ASecondWriterOfAJournalInUseIsRefusedAtOnceNamingTheHolderAndChangesNothing) {
  // Task a, first attempt: leaves a background sleep, says so on stderr and runs until killed; second attempt: ok.
  write_batch("if [ -f again ]; then echo second >&2; exit 0; fi; touch again; echo first >&2; " + token_ +
              " & echo $! >> bg.pids; echo $$ >> bg.pids; exec " + token_);
  start({"launch", "s.json", "--workload", "w.json", "--journal", "r.jsonl"});
  // Once a runs and b (on the other core) has ended, the first launch writes nothing until a ends.
  test_support::wait_until(
      [&] {
        return pids_in(dir_ / "bg.pids").size() == 2 &&
               test_support::read_text(dir_ / "r.jsonl").find(R"("event":"end")") != std::string::npos;
      },
      "two background pids in bg.pids and a task's end in the journal");
  const auto before = snapshot(dir_);

  for (const std::string second : {"launch s.json --workload w.json --resume r.jsonl",
                                   "launch s.json --workload w.json --journal r.jsonl --force"}) {
    const CommandResult refused = run(second);
    test_support::expect_one_line_error(refused, 2, "r.jsonl is in use", second);
    EXPECT_NE(refused.err.find("pid " + std::to_string(background_)), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("host " + host_name()), std::string::npos) << refused.err;
    EXPECT_EQ(snapshot(dir_), before) << second << " changed a file of the run in progress";
  }

  // The holder dies by SIGKILL: its lock goes with it, and so does its task's whole tree (the watchdog).
  ::kill(background_, SIGKILL);
  ::waitpid(background_, nullptr, 0);
  background_ = -1;
  for (const pid_t pid : pids_in(dir_ / "bg.pids")) {
    test_support::wait_until_gone(pid, token_, "a task's process, killed with its SIGKILLed launcher");
  }
  const CommandResult resumed = run("launch s.json --workload w.json --resume r.jsonl");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  // Every attempt kept its logs: the first one's stderr was not overwritten by the second.
  EXPECT_EQ(test_support::read_text(dir_ / "r.jsonl.logs" / "a.err"), "first\n");
  EXPECT_EQ(test_support::read_text(dir_ / "r.jsonl.logs" / "a@attempt2.err"), "second\n");
}

TEST_F(ProcessCli, ATasksBackgroundChildDoesNotOutliveTheLaunch) {
  write_batch(token_ + " & echo $! >> bg.pids");
  const CommandResult launched = run("launch s.json --workload w.json --journal r.jsonl");
  ASSERT_EQ(launched.exit_code, 0) << launched.err;
  const auto pids = pids_in(dir_ / "bg.pids");
  ASSERT_EQ(pids.size(), 1U);
  test_support::wait_until_gone(pids.front(), token_, "the task's background child, killed with it");
}

TEST_F(ProcessCli, WithCgroupContainmentEvenADaemonThatLeftTheGroupDoesNotOutliveItsTask) {
  // setsid: the daemon's own session and group; only a cgroup still holds it (process-group lets it escape, as
  // docs/launcher.md says).
  write_batch("setsid /bin/sh -c 'echo $$ >> bg.pids; exec " + token_ +
              "' & while [ ! -s bg.pids ]; do sleep 0.01; done");
  const CommandResult launched = run("launch s.json --workload w.json --journal r.jsonl --containment cgroup");
  if (launched.exit_code == 4) GTEST_SKIP() << "no usable cgroup v2 here: " << launched.err;
  ASSERT_EQ(launched.exit_code, 0) << launched.err;
  const auto pids = pids_in(dir_ / "bg.pids");
  ASSERT_EQ(pids.size(), 1U);
  test_support::wait_until_gone(pids.front(), token_, "the daemon, killed with its task in its cgroup");
}

TEST_F(ProcessCli, AProfiledCommandLeavesNoProcessBehind) {
  const CommandResult profiled =
      run("profile --command \"/bin/sh -c '" + token_ + " & echo \\$! >> bg.pids'\" --name bg --cores 1 --reps 3 "
          "--warmup 0 --quiet -o p.csv");
  ASSERT_EQ(profiled.exit_code, 0) << profiled.err;
  // 3 repetitions, each alone and then as two copies side by side (the memory-demand probe at half the node's
  // cores, here 1 core): 9 runs, each leaving a background child that must not outlive it.
  const auto pids = pids_in(dir_ / "bg.pids");
  const bool probed = platform::Topology::this_system().cores().size() >= 2;
  EXPECT_EQ(pids.size(), probed ? 9U : 3U);
  for (const pid_t pid : pids) {
    test_support::wait_until_gone(pid, token_, "a profiled command's background child, killed with it");
  }
  // The probe's time and spread are the row's last three columns, paired_s, paired_min_s and paired_max_s (empty
  // without a probe).
  const std::string csv = test_support::read_text(dir_ / "p.csv");
  const std::string row = csv.substr(csv.find("\ncommand:bg,") + 1);
  std::vector<std::string> fields;
  std::istringstream line(row.substr(0, row.find('\n')));
  for (std::string field; std::getline(line, field, ',');) fields.push_back(field);
  if (!row.empty() && row[row.find('\n') - 1] == ',') fields.emplace_back();  // getline drops a last empty field
  ASSERT_EQ(fields.size(), 14U) << csv;
  for (std::size_t column = 11; column < 14; ++column) EXPECT_EQ(fields[column].empty(), !probed) << csv;
}

TEST_F(ProcessCli, APlanThatWouldIdleLongerThanMaxWaitIsRefusedBeforeAnyWork) {
  // b starts at 10^9 s: in range (kMaxSeconds), but 31 years of waiting. Refused with exit 3, nothing written.
  write("far.json", R"({"algorithm":"t-list-lpt","tasks":[{"id":"a","alloc":[1],"start":0,"duration":0.1},)"
                    R"({"id":"b","alloc":[1],"start":1e9,"duration":0.1}]})");
  write("w.json", R"({"tasks":[{"id":"a","command":["/bin/true"]},{"id":"b","command":["/bin/true"]}]})");
  const auto before = snapshot(dir_);
  test_support::expect_one_line_error(run("launch far.json --workload w.json --journal r.jsonl"), 3, "--max-wait",
                                      "a start of 1e9 s");
  test_support::expect_one_line_error(run("launch far.json --workload w.json --journal r.jsonl --max-wait 60"), 3,
                                      "more than --max-wait 60 s", "--max-wait 60");
  EXPECT_EQ(snapshot(dir_), before);
  // A wait within the bound runs: b starts 0.2 s after a ends.
  write("near.json", R"({"algorithm":"t-list-lpt","tasks":[{"id":"a","alloc":[1],"start":0,"duration":0.1},)"
                     R"({"id":"b","alloc":[1],"start":0.3,"duration":0.1}]})");
  EXPECT_EQ(run("launch near.json --workload w.json --journal r.jsonl --max-wait 60").exit_code, 0);
}

}  // namespace
}  // namespace cosched::launcher
