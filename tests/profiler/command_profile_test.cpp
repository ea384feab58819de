// A command profiled end to end through the built `cosched`: tests/programs/memory_probe stands for the user's
// program. Its placeholders are substituted and it runs bound to the point's cores (the probe checks both), a
// [[commands]] entry's environment reaches it, a run that fails, hangs or is not found gives a row marked failed
// and never a time, --resume continues, and the profile gives a command task of a workload its times.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <ostream>

#include "cosched/common/error.hpp"
#include "cosched/profiler/command_spec.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "support/programs.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

using test_support::run_program;

const std::string kProbe = COSCHED_BIN_DIR "/memory_probe";

class CommandProfile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(COSCHED_BIN_DIR "/cosched") || !std::filesystem::exists(kProbe)) {
      GTEST_SKIP() << "cosched or memory_probe not built";
    }
    dir_ = testing::scratch_dir();
  }
  nlohmann::json sidecar(const std::string& name) const {
    std::ifstream in(dir_ / name);
    return nlohmann::json::parse(in);
  }
  std::filesystem::path dir_;
};

TEST_F(CommandProfile, ACommandIsTimedOnItsCoresWithThePlaceholdersSubstituted) {
  const std::string profile = "profile --command '" + kProbe + " --mib 4 --expect-cpus {threads}' --name probe " +
                              "--command-footprint-mib 4 --cores 1..2 --reps 2 --warmup 0 --quiet -o p.csv";
  const auto result = run_program("cosched", profile, dir_);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto contents = read_profile_csv(dir_ / "p.csv");
  ASSERT_GE(contents.rows.size(), 1U);
  for (const auto& row : contents.rows) {
    EXPECT_EQ(row.point.kernel, "command:probe");
    EXPECT_EQ(row.point.footprint_bytes, 4U << 20);
    EXPECT_TRUE(row.ok()) << row.status;
    EXPECT_GT(row.time_s, 0.0);
    EXPECT_EQ(row.reps, 2U);
  }
  const auto json = sidecar("p.json");
  EXPECT_EQ(json["measurer"], "command");
  EXPECT_EQ(json["commands"][0]["name"], "probe");
  ASSERT_TRUE(json.contains("fast_memory"));
  if (json["fast_memory"].get<std::string>().starts_with("not varied")) {
    for (const auto& row : contents.rows) EXPECT_EQ(row.point.chunks, 0U) << "no fast share claimed";
  }
  EXPECT_TRUE(json.contains("placements_applied"));

  // Resume: nothing left to do; another placement would make the points mean something else.
  const auto again = run_program("cosched", profile + " --resume", dir_);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_profile_csv(dir_ / "p.csv").rows.size(), contents.rows.size());
  EXPECT_EQ(run_program("cosched", profile + " --resume --placement bind", dir_).exit_code, 2);

  // The profile gives a command task its times (cores only on a node whose tier cannot place a command).
  std::ofstream(dir_ / "w.json") << R"({"tasks": [{"id": "t0", "command": [")" << kProbe
                                 << R"(", "--mib", "4"], "profile": "probe", "footprint_bytes": 4194304}]})";
  const auto instance = run_program("cosched", "instance --workload w.json --profiles p.csv --platform " +
                                                   std::string(COSCHED_SOURCE_DIR) +
                                                   "/configs/platforms/local.toml -o inst.json",
                                    dir_);
  ASSERT_EQ(instance.exit_code, 0) << instance.err;
  const auto built = sidecar("inst.json");
  EXPECT_EQ(built["tasks"][0]["profile"], "probe");
  EXPECT_EQ(built["tasks"][0]["command"][0], kProbe);
}

TEST_F(CommandProfile, TheEnvironmentOfACommandsEntryReachesIt) {
  std::ofstream(dir_ / "sweep.toml") << "cores = [1]\nreps = 1\nwarmup = 0\n[[commands]]\nname = \"probe\"\n"
                                     << "command = \"" << kProbe << " --mib 1 --expect-env COSCHED_PROBE\"\n"
                                     << "env = { COSCHED_PROBE = \"1\" }\ntimeout_s = 60\n";
  const auto result = run_program("cosched", "profile --config sweep.toml --quiet -o p.csv", dir_);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(read_profile_csv(dir_ / "p.csv").rows.at(0).ok());
  EXPECT_EQ(sidecar("p.json")["commands"][0]["env"][0], "COSCHED_PROBE=1");
}

struct FailureCase {
  std::string label;
  std::string command;  // after --command
  std::string status;   // of its row
  std::string message;  // in the one stderr line
};
// Names the case in test listings (ctest shows GetParam(); without this, the bytes of its strings' pointers).
void PrintTo(const FailureCase& param, std::ostream* os) { *os << param.label; }

class CommandFailure : public CommandProfile, public ::testing::WithParamInterface<FailureCase> {};

TEST_P(CommandFailure, GivesARowMarkedFailedAndNeverATime) {
  const auto& param = GetParam();
  const auto result = run_program(
      "cosched", "profile --cores 1 --reps 2 --warmup 0 --quiet -o p.csv --name x --command " + param.command, dir_);
  test_support::expect_one_line_error(result, 6, param.message, param.label);
  EXPECT_NE(result.err.find("marked failed"), std::string::npos) << result.err;
  const auto contents = read_profile_csv(dir_ / "p.csv");
  ASSERT_EQ(contents.rows.size(), 1U);
  const ProfileRow& row = contents.rows[0];
  EXPECT_EQ(row.status, param.status);
  EXPECT_FALSE(row.ok());
  EXPECT_EQ(row.reps, 0U);
  const std::string text = testing::read_text(dir_ / "p.csv");
  EXPECT_NE(text.find("command:x,0,1,0,,,,0,," + param.status), std::string::npos) << text;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CommandFailure,
    ::testing::Values(FailureCase{"fails", "'" + kProbe + " --exit 3'", "exit-3", "ended with exit 3"},
                      FailureCase{"hangs", "'" + kProbe + " --sleep 30' --command-timeout 0.3", "timeout",
                                  "timeout of 0.3 s"},
                      FailureCase{"notfound", "no-such-program-cosched", "not-found", "command not found"}),
    [](const auto& test_info) { return test_info.param.label; });

TEST(CommandLine, IsSplitIntoWordsLikeAShellWithoutExpanding) {
  EXPECT_EQ(split_command_line(R"(prog -a 'b c' "d \"e\"" f\ g {threads} $HOME)", "here"),
            (std::vector<std::string>{"prog", "-a", "b c", "d \"e\"", "f g", "{threads}", "$HOME"}));
  EXPECT_THROW((void)split_command_line("prog 'open", "here"), InputError);
  EXPECT_THROW((void)split_command_line("   ", "here"), InputError);
  EXPECT_EQ(default_command_name({"/usr/bin/my prog"}), "my_prog");
}

TEST(ProfileCsvStatus, AFailedRowRoundTripsAndAFailedRowWithATimeIsRefused) {
  const auto dir = testing::scratch_dir();
  ProfileRow failed;
  failed.point = {"command:x", 0, 1, 0};
  failed.status = "timeout";
  {
    ProfileCsvWriter writer(dir / "p.csv", ProfileCsvWriter::Mode::create);
    writer.append(failed);
  }
  const auto contents = read_profile_csv(dir / "p.csv");
  ASSERT_EQ(contents.rows.size(), 1U);
  EXPECT_EQ(contents.rows[0].status, "timeout");
  testing::write_file(dir / "bad.csv", std::string(kProfileCsvHeaderWithoutFixed) + "\ncommand:x,0,1,0,1,1,1,1,0,timeout\n");
  EXPECT_THROW((void)read_profile_csv(dir / "bad.csv"), InputError);
  // A file from before the status column is read, and resuming it rewrites it with the column.
  testing::write_file(dir / "old.csv", std::string(kProfileCsvHeaderWithoutStatus) + "\ntriad,64,1,0,1,1,1,1,1\n");
  {
    ProfileCsvWriter writer(dir / "old.csv", ProfileCsvWriter::Mode::resume);
    writer.append(failed);
  }
  const auto resumed = read_profile_csv(dir / "old.csv");
  ASSERT_EQ(resumed.rows.size(), 2U);
  EXPECT_TRUE(resumed.rows[0].ok());
  EXPECT_EQ(resumed.rows[1].status, "timeout");
}

}  // namespace
}  // namespace cosched::profiler
