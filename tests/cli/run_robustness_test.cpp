// Issue 41's cases that take more than one command (robustness_cases.cpp holds those one command shows): runs at
// once on one folder, signals during profiling, leftovers a later run removes. Each test is named after its row in
// docs/errors.md ("Robustness v4"). Nothing is timed: a run is held where a test wants it by a gate file its
// profiled command waits for, and the test waits for the file that command touches first.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/node_fixture.hpp"
#include "support/processes.hpp"
#include "support/programs.hpp"

namespace cosched::cli {
namespace {

namespace fs = std::filesystem;
using test_support::CommandResult;

const std::string kPlatformToml =
    "name = \"tiny\"\ncores = \"auto\"\n[fast_memory]\ncapacity_mib = 8\nchunks = 4\ntier_backend = \"emulated\"\n";

// Every file under `dir` with its content.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    files[fs::relative(entry.path(), dir).string()] =
        entry.is_directory() ? "<folder>" : test_support::read_text(entry.path());
  }
  return files;
}

class RunRobustness : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(test_support::built_program("cosched")) || !fs::exists(test_support::built_program("stream_bench"))) {
      GTEST_SKIP() << "bin/cosched or bin/stream_bench is not built";
    }
    dir_ = test_support::scratch_dir();
    write("node.toml", test_support::kOnePoolNodeToml);
    write("p.toml", kPlatformToml);
    write("b.json", R"({"tasks":[{"id":"a","command":["/bin/true"]},{"id":"b","command":["/bin/true"]}]})");
  }
  fs::path write(const std::string& name, const std::string& text) const {
    return test_support::write_file(dir_ / name, text);
  }
  [[nodiscard]] std::string run_line(const std::string& arguments) const {
    return "run " + arguments + " --cache cache --node node.toml --reps 1 --platform p.toml";
  }
  CommandResult run(const std::string& arguments) const {
    return test_support::run_program("cosched", run_line(arguments), dir_);
  }
  // A batch whose one command, while profiled (and run), touches `started` and then waits for `gate`.
  void write_gated_batch(const std::string& name) const {
    write(name, R"({"tasks":[{"id":"g","command":["/bin/sh","-c","touch started; while [ ! -e gate ]; do sleep 0.02; done"]}]})");
  }
  // `cosched <arguments>` started in the test's folder, its output in `log`; returns its pid.
  pid_t start(const std::string& arguments, const std::string& log) const {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int out = ::open((dir_ / log).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out < 0 || ::chdir(dir_.c_str()) != 0) ::_exit(127);
      ::dup2(out, 1);
      ::dup2(out, 2);
      const std::string program = test_support::built_program("cosched").string();
      ::execl("/bin/sh", "sh", "-c", ("exec " + program + " " + arguments).c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    return pid;
  }
  void wait_for_file(const std::string& name) const {
    test_support::wait_until([&] { return fs::exists(dir_ / name); }, name + " to appear");
  }
  // `cosched <arguments>` on a gated batch, sent SIGINT while its command is profiled, then let go: its exit code
  // (the point being measured finishes) and all it said, in `log`, which must be one message holding `message`.
  int interrupted_while_profiling(const std::string& arguments, const std::string& log,
                                  const std::string& message) const {
    write_gated_batch("g.json");
    const pid_t pid = start(arguments, log);
    wait_for_file("started");
    EXPECT_EQ(::kill(pid, SIGINT), 0);
    write("gate", "");
    const int code = exit_code_of(pid);
    const std::string said = test_support::read_text(dir_ / log);
    EXPECT_EQ(said.find("cosched: "), said.rfind("cosched: ")) << "one message:\n" << said;
    EXPECT_NE(said.find(message), std::string::npos) << said;
    return code;
  }
  int exit_code_of(pid_t pid) const {
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  fs::path dir_;
};

// Case 1: a second run into the folder a run is profiling into is refused before it writes anything there; the
// first run goes on, and its plan is its own.
TEST_F(RunRobustness, ASecondRunIntoAFolderInUseIsRefusedBeforeItWrites) {
  write_gated_batch("g.json");
  // A budget: the command, never measured, is profiled before the plan (and waits there).
  const pid_t first = start(run_line("g.json --output D --dry-run --profile-budget 60"), "first.txt");
  wait_for_file("started");
  const auto before = snapshot(dir_ / "D");
  test_support::expect_one_line_error(run("b.json --output D --dry-run"), 2, "in use by another cosched run",
                                      "a second run");
  // Case 2: --force does not take a folder another run holds.
  test_support::expect_one_line_error(run("b.json --output D --force"), 2, "in use by another cosched run",
                                      "--force while a run holds the folder");
  EXPECT_EQ(snapshot(dir_ / "D"), before) << "the refused runs changed the first run's folder";
  write("gate", "");
  ASSERT_EQ(exit_code_of(first), 0) << test_support::read_text(dir_ / "first.txt");
  EXPECT_NE(test_support::read_text(dir_ / "D" / "instance.json").find("sleep"), std::string::npos)
      << "the plan in D is the first run's";
}

// Cases 3 and 4: a folder holding a user's own instance.json or platform.toml is not a dry run's plan.
TEST_F(RunRobustness, UserFilesInTheOutputFolderAreReplacedOnlyWithForce) {
  for (const std::string name : {"instance.json", "platform.toml", "schedule.json"}) {
    fs::remove_all(dir_ / "mine");
    fs::create_directories(dir_ / "mine");
    write("mine/" + name, "my own " + name);
    test_support::expect_one_line_error(run("b.json --output mine --dry-run"), 2, "not a cosched run's folder", name);
    EXPECT_EQ(test_support::read_text(dir_ / "mine" / name), "my own " + name);
    EXPECT_EQ(snapshot(dir_ / "mine").size(), 1U) << "nothing added beside " << name;
    const CommandResult forced = run("b.json --output mine --dry-run --force");
    ASSERT_EQ(forced.exit_code, 0) << forced.err;
  }
}

// Case 3: one deadline for everything a run starts. A command that hangs while it is profiled is killed after
// --timeout (it hung `cosched run`); a failed profiling run is not stored (issue 41 item 11: the mutant that cached
// a failed profile was not caught), the other command's runs are, and the hanging task, launched, times out too.
TEST_F(RunRobustness, ProfilingACommandHonoursTheTimeoutAndAFailedRunIsNotStored) {
  write("h.json", R"({"tasks":[{"id":"h","command":["/bin/sleep","1000"]},{"id":"t","command":["/bin/true"]}]})");
  const CommandResult result = run("h.json --output D --timeout 0.3 --profile-budget 60");
  EXPECT_EQ(result.exit_code, 6) << result.out << result.err;
  EXPECT_NE(result.out.find("still running after its timeout of 0.3 s"), std::string::npos) << result.out;
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir_ / "cache")) {
    if (entry.path().parent_path().filename() == "knowledge") files.push_back(entry.path().filename().string());
  }
  ASSERT_EQ(files.size(), 1U) << "only the command that ran through is known";
  EXPECT_EQ(files.front().rfind("cmd-true-", 0), 0U) << files.front();
}

// Case 4: leftovers a later run removes. `profile -o o.csv` killed (SIGKILL) before its first row leaves its hidden
// temporary; the next write of o.csv removes it.
TEST_F(RunRobustness, AKilledProfilesHiddenTemporaryIsRemovedByTheNextProfile) {
  const pid_t first = start(R"(profile --command '/bin/sh -c "touch started; while [ ! -e gate ]; do sleep 0.02; done"' )"
                            "--platform p.toml --reps 1 -o o.csv",
                            "first.txt");
  wait_for_file("started");
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  (void)exit_code_of(first);
  write("gate", "");
  const auto hidden = [&] {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      if (entry.path().filename().string().rfind(".o.csv.", 0) == 0) names.push_back(entry.path().filename());
    }
    return names;
  };
  ASSERT_EQ(hidden().size(), 1U) << "the killed profile's temporary (what this test is about)";
  const CommandResult again = test_support::run_program("cosched", "profile --command /bin/true --platform p.toml "
                                                        "--reps 1 -o o.csv", dir_);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(hidden().empty()) << hidden().front();
}

// Case 5: Ctrl-C during the demo's profiling: the point being measured finishes, the run ends with one message
// (it died by the signal, silently) and the sidecar says the profile is partial.
TEST_F(RunRobustness, CtrlCDuringTheDemosProfilingEndsWithOneMessageAndAPartialSidecar) {
  EXPECT_EQ(interrupted_while_profiling("demo --quick --workload g.json --output O", "demo.txt",
                                        "interrupted while profiling"),
            6);
  const std::string sidecar = test_support::read_text(dir_ / "O" / "profile-commands.json");
  EXPECT_NE(sidecar.find("\"partial\": true"), std::string::npos) << sidecar;
  EXPECT_NE(sidecar.find("\"interrupted\": true"), std::string::npos) << sidecar;
}

// Attack (issue 41, "signals at every phase"): Ctrl-C while `cosched run` measures the batch's kinds (it died by the
// signal, silently, and lost every run it had measured). The run being measured finishes, what was measured is
// stored, the run ends with one message and exit 6, its folder is left as it was found (none), and the same command
// continues from the stored runs.
TEST_F(RunRobustness, CtrlCWhileARunMeasuresKeepsWhatItMeasuredAndLeavesNoFolder) {
  EXPECT_EQ(interrupted_while_profiling(run_line("g.json --profile-budget 60 --output O"), "run.txt",
                                        "interrupted while measuring"),
            6);
  EXPECT_FALSE(fs::exists(dir_ / "O")) << "nothing of the batch ran: no folder";
  std::size_t profiled = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir_ / "cache")) {
    if (entry.path().parent_path().filename() != "knowledge") continue;
    const std::string text = test_support::read_text(entry.path());
    for (std::size_t at = text.find("\"profiled\""); at != std::string::npos; at = text.find("\"profiled\"", at + 1)) {
      ++profiled;
    }
    EXPECT_EQ(text.find("\"probe\""), std::string::npos) << "after Ctrl-C nothing more is measured, not a probe either";
  }
  EXPECT_EQ(profiled, 1U) << "the run that was being measured is kept";
  const CommandResult again = run("g.json --dry-run --output O");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("1 profiled"), std::string::npos) << again.out;
}

// Attack (issue 41, "signals at every phase"): `cosched run` killed (SIGKILL) while it measures the batch's kinds.
// Every run is stored as soon as it is measured, so the kill loses only the run in progress: here the command's
// first profiling run ends at once and its second waits at a gate, and the kill comes while the second runs.
TEST_F(RunRobustness, ARunKilledWhileItMeasuresLosesOnlyTheRunInProgress) {
  write("k.json", R"({"tasks":[{"id":"k","command":["/bin/sh","-c","if [ -e first ]; then touch second; )"
                  R"(while [ ! -e gate ]; do sleep 0.02; done; else touch first; fi"]}]})");
  const pid_t pid = start(run_line("k.json --profile-budget 60 --output O"), "run.txt");
  wait_for_file("second");
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  EXPECT_EQ(exit_code_of(pid), 128 + SIGKILL);
  write("gate", "");  // the orphaned second run ends
  std::size_t profiled = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir_ / "cache")) {
    if (entry.path().parent_path().filename() != "knowledge" || entry.path().filename().string().front() == '.') {
      continue;
    }
    const std::string text = test_support::read_text(entry.path());
    for (std::size_t at = text.find("\"profiled\""); at != std::string::npos; at = text.find("\"profiled\"", at + 1)) {
      ++profiled;
    }
  }
  EXPECT_EQ(profiled, 1U) << "the first run, measured before the kill, is kept";
  const CommandResult again = run("k.json --dry-run --output O2");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("1 profiled"), std::string::npos) << again.out;
}

// Attack (issue 41, "full disks"): `cosched run` whose output folder cannot be written (a file size limit of 0 fails
// its first write as a full disk does). One line, exit 5, and neither the folder nor its marker left (both were).
TEST_F(RunRobustness, ARunOnAFullDiskIsOneLineWithExit5AndLeavesNoFolder) {
  // The limit is the inner shell's: its output goes through a pipe (no limit) to the file the test reads.
  const CommandResult result = test_support::run_shell(
      "sh -c '(ulimit -f 0; trap \"\" XFSZ; " + test_support::built_program("cosched").string() + " " +
          run_line("b.json --output O") + "; echo \"exit $?\") 2>&1 | cat'",
      dir_);
  EXPECT_NE(result.out.find("cosched: platform error: write: O/.cosched-run"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("exit 5"), std::string::npos) << result.out;
  EXPECT_FALSE(fs::exists(dir_ / "O"));
  EXPECT_FALSE(fs::exists(dir_ / "cache")) << "the cache is not touched before the folder is claimed";
}

}  // namespace
}  // namespace cosched::cli
