// `cosched launch`, `report` and `demo` end to end: every bad input ends with its documented exit code and one
// clear line on stderr, and --resume refuses a journal written for other inputs. Needs bin/cosched from the same
// build; without it the tests are skipped, never passed vacuously.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/programs.hpp"

namespace cosched::launcher {
namespace {

namespace fs = std::filesystem;
using test_support::CommandResult;

class LauncherCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(test_support::built_program("cosched"))) GTEST_SKIP() << "bin/cosched is not built";
    dir_ = test_support::scratch_dir();
    write("s.json", R"({"algorithm":"t-list-lpt","tasks":[{"id":"a","alloc":[1],"start":0,"duration":0.1},)"
                    R"({"id":"b","alloc":[1],"start":0.1,"duration":0.1}]})");
    write("w.json", R"({"tasks":[{"id":"a","command":["/bin/true"]},{"id":"b","command":["/bin/true"]}]})");
  }

  fs::path write(const std::string& name, const std::string& text) const {
    return test_support::write_file(dir_ / name, text);
  }

  // Runs cosched in the test's folder.
  CommandResult run(const std::string& arguments) const {
    return test_support::run_program("cosched", arguments, dir_);
  }

  // The command fails with `exit_code` and exactly one stderr line that contains `fragment`.
  void expect_failure(const std::string& arguments, int exit_code, const std::string& fragment) const {
    test_support::expect_one_line_error(run(arguments), exit_code, fragment, arguments);
  }

  void launch_ok(const std::string& arguments) const {
    const CommandResult result = run("launch s.json --workload w.json " + arguments);
    ASSERT_EQ(result.exit_code, 0) << result.err;
  }

  fs::path dir_;
};

// ---- launch: paths and options ----------------------------------------------------------------------------

TEST_F(LauncherCli, AJournalThatIsAFolderIsAUsageError) {
  fs::create_directories(dir_ / "folder");
  expect_failure("launch s.json --workload w.json --journal folder", 2, "folder");
}

TEST_F(LauncherCli, ALogDirThatIsAFileIsAUsageError) {
  expect_failure("launch s.json --workload w.json --journal run.jsonl --log-dir w.json", 2, "--log-dir w.json");
  EXPECT_FALSE(fs::exists(dir_ / "run.jsonl")) << "nothing may start before the paths are checked";
}

TEST_F(LauncherCli, NonFiniteOrNegativeTimesAreUsageErrors) {
  expect_failure("launch s.json --workload w.json --timeout nan", 2, "--timeout");
  expect_failure("launch s.json --workload w.json --timeout inf", 2, "--timeout");
  expect_failure("launch s.json --workload w.json --timeout 0", 2, "--timeout");
  expect_failure("launch s.json --workload w.json --kill-grace -1", 2, "--kill-grace");
  expect_failure("launch s.json --workload w.json --kill-grace nan", 2, "--kill-grace");
}

TEST_F(LauncherCli, AScheduleStartingInAMillionYearsIsRefusedNotWaitedFor) {
  write("far.json", R"({"algorithm":"x","tasks":[{"id":"a","alloc":[1],"start":1e12,"duration":0.1}]})");
  expect_failure("launch far.json --workload w.json --journal far.jsonl", 3, "far.json");
}

TEST_F(LauncherCli, AnExistingJournalIsReplacedOnlyWithForce) {
  launch_ok("--journal run.jsonl");
  expect_failure("launch s.json --workload w.json --journal run.jsonl", 2, "--force");
  launch_ok("--journal run.jsonl --force");
  const CommandResult report = run("report run.jsonl --json");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("\"segments\": 1"), std::string::npos) << "--force starts a new journal";
  expect_failure("launch s.json --workload w.json --resume run.jsonl --force", 2, "--force");
}

TEST_F(LauncherCli, AnInstanceJsonServesAsTheWorkloadThroughTheInstanceParser) {
  // What `cosched instance` writes: the Instance's own fields, and per task what it runs (attributes).
  write("inst.json", R"({"resources":[{"name":"cores","capacity":1}],"workload":"w","tasks":[)"
                     R"({"id":"a","command":["/bin/true"],"times":[null,0.1]},)"
                     R"({"id":"b","command":["/bin/true"],"timeout_s":30,"times":[null,0.1]}]})");
  const CommandResult result = run("launch s.json --workload inst.json --journal run.jsonl");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The Instance parser checks what the workload reader used to skip: here, a time that overflows a double.
  write("bad.json", R"({"resources":[{"name":"cores","capacity":1}],"tasks":[)"
                    R"({"id":"a","command":["/bin/true"],"times":[null,1e999]}]})");
  expect_failure("launch s.json --workload bad.json", 3, "bad.json");
  write("bare.json", R"({"resources":[{"name":"cores","capacity":1}],"tasks":[{"id":"a","times":[null,1]}]})");
  expect_failure("launch s.json --workload bare.json", 3, "bare.json: tasks[0]: this Instance JSON does not say");
}

TEST_F(LauncherCli, SaysWhichPredictionsItShowsAndReportsBoth) {
  // Runs `cosched <arguments>`, which must succeed, and checks that its output has `fragment`.
  const auto expect_output = [this](const std::string& arguments, const std::string& fragment) {
    const CommandResult result = run(arguments);
    ASSERT_EQ(result.exit_code, 0) << arguments << ": " << result.err;
    EXPECT_NE(result.out.find(fragment), std::string::npos) << arguments << " printed\n" << result.out;
  };
  // An Instance JSON with a bandwidth model and traffic: both predictions, in the launch and in the report.
  write("inst.json", R"({"resources":[{"name":"cores","capacity":1}],)"
                     R"("bandwidth":{"pools":[{"name":"dram","cores":[1],"bytes_per_s":[1e10]}]},"tasks":[)"
                     R"({"id":"a","command":["/bin/true"],"times":[null,0.1],"traffic_bytes":{"dram":[0,5e8]}},)"
                     R"({"id":"b","command":["/bin/true"],"times":[null,0.1]}]})");
  expect_output("launch s.json --workload inst.json --journal model.jsonl",
                "predictions: paper model and contention-aware (fluid model over the memory pools dram; 1 of 2 "
                "tasks with known traffic)");
  expect_output("report model.jsonl", "(contention-aware)");
  expect_output("report model.jsonl --json", "\"predicted_makespan_contention\": 0.2");
  const CommandResult report = run("report model.jsonl --json");
  EXPECT_EQ(report.out.find("\"error_contention\": null"), std::string::npos) << report.out;

  // A schedule planned from that instance carries its model: launched alone (a workload that only says what the
  // tasks run, no --instance), it predicts contention too, and so does its report.
  expect_output("plan --instance inst.json --algorithm t-list-lpt --output planned.json", "");
  expect_output("launch planned.json --workload w.json --journal carried.jsonl",
                "predictions: paper model and contention-aware (fluid model over the memory pools dram; 1 of 2 "
                "tasks with known traffic)");
  expect_output("report carried.jsonl --json", "\"predicted_makespan_contention\": 0.2");

  // The same instance without its model: one line says why the second prediction is missing.
  write("plain.json", R"({"resources":[{"name":"cores","capacity":1}],"tasks":[)"
                      R"({"id":"a","command":["/bin/true"],"times":[null,0.1]},)"
                      R"({"id":"b","command":["/bin/true"],"times":[null,0.1]}]})");
  expect_output("launch s.json --workload plain.json --journal plain.jsonl",
                "contention-aware prediction unavailable: the instance has no bandwidth model (build it with "
                "`cosched instance --node FILE`; make FILE with `cosched calibrate`)");
  expect_output("report plain.jsonl --json", "\"error_contention\": null");
  expect_output("launch s.json --workload w.json --journal none.jsonl",
                "contention-aware prediction unavailable: the schedule carries no bandwidth model and no "
                "instance was given");
}

TEST_F(LauncherCli, AScheduleTaskTheInstanceDoesNotHaveIsAnInputError) {
  write("other.json", R"({"algorithm":"x","tasks":[{"id":"a","alloc":[1],"start":0,"duration":0.1},)"
                      R"({"id":"c","alloc":[1],"start":0.1,"duration":0.1}]})");
  write("inst.json", R"({"resources":[{"name":"cores","capacity":1}],)"
                     R"("bandwidth":{"pools":[{"name":"dram","cores":[1],"bytes_per_s":[1e10]}]},"tasks":[)"
                     R"({"id":"a","command":["/bin/true"],"times":[null,0.1]},)"
                     R"({"id":"b","command":["/bin/true"],"times":[null,0.1]}]})");
  expect_failure("launch other.json --workload inst.json --journal other.jsonl", 3, "\"c\"");
}

// ---- launch --resume: the journal must be the one of these inputs ------------------------------------------

TEST_F(LauncherCli, ResumeWithTheSameInputsContinuesTheJournal) {
  launch_ok("--journal run.jsonl");
  launch_ok("--resume run.jsonl");
  const CommandResult report = run("report run.jsonl --json");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("\"segments\": 2"), std::string::npos) << report.out;
}

TEST_F(LauncherCli, ResumeRefusesAnotherSchedule) {
  launch_ok("--journal run.jsonl");
  write("other.json", R"({"algorithm":"t-list-spt","tasks":[{"id":"a","alloc":[1],"start":0,"duration":0.1},)"
                      R"({"id":"b","alloc":[1],"start":0.1,"duration":0.1}]})");
  expect_failure("launch other.json --workload w.json --resume run.jsonl", 3,
                 "schedule: the journal was written for algorithm t-list-lpt");
}

TEST_F(LauncherCli, ResumeRefusesAnotherWorkload) {
  launch_ok("--journal run.jsonl");
  write("w2.json", R"({"tasks":[{"id":"a","command":["/bin/echo"]},{"id":"b","command":["/bin/true"]}]})");
  expect_failure("launch s.json --workload w2.json --resume run.jsonl", 3, "workload: the journal was written for");
}

TEST_F(LauncherCli, ResumeRefusesAnotherPlatform) {
  launch_ok("--journal run.jsonl");
  expect_failure("launch s.json --workload w.json --tier-backend none --resume run.jsonl", 3,
                 "platform: the journal was written for");
}

TEST_F(LauncherCli, ResumeWithoutAJournalIsAUsageError) {
  expect_failure("launch s.json --workload w.json --resume missing.jsonl", 2, "missing.jsonl");
}

// ---- report: a journal that does not make sense is an input error naming file:line -------------------------

TEST_F(LauncherCli, ReportRefusesJournalsThatDoNotMakeSenseNamingTheLine) {
  const std::string header = R"({"event":"batch_start","algorithm":"x"})" "\n";
  const std::string start = R"({"event":"start","task":"a","t":0})" "\n";
  const std::string end = R"({"event":"end","task":"a","t":1,"status":"ok"})" "\n";
  const struct {
    std::string text, where, fragment;
  } cases[] = {
      {header + R"({"event":"start","task":"a","t":"0"})" "\n", "j.jsonl:2", "must be a number"},
      {header + start + R"({"event":"end","task":"a","t":1,"status":"done"})" "\n", "j.jsonl:3", "unknown task status"},
      {header + end, "j.jsonl:2", "never started"},
      {header + start + end + end, "j.jsonl:4", "duplicate end"},
      {header + start + end + start, "j.jsonl:4", "starts again"},
  };
  for (const auto& bad : cases) {
    write("j.jsonl", bad.text);
    expect_failure("report j.jsonl", 3, bad.where);
    expect_failure("report j.jsonl --json", 3, bad.fragment);
  }
}

TEST_F(LauncherCli, ReportToleratesACutShortLastLine) {
  write("j.jsonl", R"({"event":"batch_start","algorithm":"x"})" "\n" R"({"event":"start","task":"a","t":0})" "\n"
                   R"({"event":"end","task":"a","t":1,"sta)");
  const CommandResult result = run("report j.jsonl --json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("\"truncated_tail\": true"), std::string::npos) << result.out;
}

// ---- demo: its output folder is checked before any work ----------------------------------------------------

TEST_F(LauncherCli, DemoOutputThatIsAFileOrAFullFolderIsAUsageError) {
  expect_failure("demo --quick --output w.json", 2, "--output w.json");
  fs::create_directories(dir_ / "earlier");
  write("earlier/results.json", "{}");
  expect_failure("demo --quick --output earlier", 2, "--force");
}

}  // namespace
}  // namespace cosched::launcher
