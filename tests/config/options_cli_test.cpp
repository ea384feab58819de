// The inputs of `cosched profile`, `cosched launch`, `cosched instance` and `stream_bench` through the built
// executables: every bad number, repeated value, option that would be ignored and unsafe output fails with the
// documented exit code and one clear line on stderr — before anything runs. Skipped when the executables are not
// built (never passed vacuously).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cosched/config/platform.hpp"
#include "support/programs.hpp"
#include "test_support.hpp"

namespace cosched::config {
namespace {

namespace fs = std::filesystem;

using Outcome = test_support::CommandResult;

// Runs a built program in the temporary folder; exit code -1 when it is not built.
Outcome run(const std::string& program, const std::string& arguments) {
  if (!fs::exists(test_support::built_program(program))) return {};
  return test_support::run_program(program, arguments, fs::temp_directory_path());
}

struct Case {
  const char* program;
  const char* arguments;
  int exit_code;
  const char* fragment;  // in the one stderr line
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.program << " " << c.arguments; }

class RefusedOptions : public ::testing::TestWithParam<Case> {};

TEST_P(RefusedOptions, FailWithTheExitCodeAndOneClearLine) {
  const auto& [program, arguments, exit_code, fragment] = GetParam();
  if (!fs::exists(fs::path(COSCHED_BIN_DIR) / program)) GTEST_SKIP() << program << " not built";
  const fs::path out = testing::scratch_dir() / "p.csv";
  const bool profile = std::string(arguments).starts_with("profile");
  const Outcome outcome = run(program, std::string(arguments) + (profile ? " -o " + out.string() : ""));
  test_support::expect_one_line_error(outcome, exit_code, fragment, arguments);
  EXPECT_FALSE(fs::exists(out)) << "nothing is written for refused options";
}

constexpr const char* kModel = "profile --measurer knl-model --kernels triad --cores 1 --chunks 0";

INSTANTIATE_TEST_SUITE_P(
    Profile, RefusedOptions,
    ::testing::Values(
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib -5", 2,
             "--footprints-mib: value -5"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib nan", 2,
             "--footprints-mib: value nan"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib inf", 2,
             "--footprints-mib: value inf"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-percent-of-fast -1", 2,
             "--footprints-percent-of-fast"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib 64 --reps 4000000000", 2,
             "--reps"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib 64 --warmup 4000000000", 2,
             "--warmup"},
        Case{"cosched", "profile --measurer knl-model --kernels triad,write,triad --footprints-mib 64", 2,
             "kernel 'triad' is given twice"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib 64,32,64", 2, "given twice"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib 64 --emulation-ratio 3", 2,
             "emulated tier backend only"},
        Case{"cosched", "profile --kernels triad --footprints-mib 1 --tier-backend none --emulation-ratio 3", 2,
             "emulated tier backend only"},
        Case{"cosched", "profile --kernels triad --footprints-mib 1 --tier-backend emulated --emulation-ratio 1e9",
             2, "--emulation-ratio: value 1e9"},
        Case{"cosched", "profile --measurer knl-model --kernels triad --footprints-mib 64 --resume --force", 2,
             "--force"}));

INSTANTIATE_TEST_SUITE_P(
    StreamBench, RefusedOptions,
    ::testing::Values(Case{"stream_bench", "--size-mib -1", 2, "--size-mib: value -1"},
                      Case{"stream_bench", "--size-mib nan", 2, "--size-mib: value nan"},
                      Case{"stream_bench", "--size-mib inf", 2, "--size-mib: value inf"},
                      Case{"stream_bench", "--size-mib 1 --reps 4000000000", 2, "--reps"},
                      Case{"stream_bench", "--size-mib 1 --reps 0", 2, "--reps"},
                      Case{"stream_bench", "--size-mib 1 --warmup 4000000000", 2, "--warmup"},
                      Case{"stream_bench", "--size-mib 1 --fast-fraction 1.5", 2, "--fast-fraction: value 1.5"},
                      Case{"stream_bench", "--size-mib 1 --fast-fraction -0.1", 2, "--fast-fraction"},
                      Case{"stream_bench", "--size-mib 1 --fast-fraction nan", 2, "--fast-fraction: value nan"},
                      Case{"stream_bench", "--size-mib 1 --fast-fraction 0.5 --tier-backend emulated "
                                           "--emulation-ratio 1e9",
                           2, "--emulation-ratio: value 1e9"},
                      Case{"stream_bench", "--size-mib 1 --emulation-ratio 3", 2, "emulated tier backend only"}));

INSTANTIATE_TEST_SUITE_P(Launch, RefusedOptions,
                         ::testing::Values(Case{"cosched", "launch s.json --workload w.json --chunks 1000000000", 2,
                                                "--chunks"}));

TEST(ProfileOutput, AnExistingCsvNeedsResumeOrForceAndADirectoryIsRefused) {
  if (!fs::exists(fs::path(COSCHED_BIN_DIR) / "cosched")) GTEST_SKIP() << "cosched not built";
  const fs::path dir = testing::scratch_dir();
  const std::string sweep = std::string(kModel) + " --footprints-mib 64 -o ";
  Outcome outcome = run("cosched", sweep + dir.string());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("is a directory"), std::string::npos) << outcome.err;

  const fs::path csv = dir / "p.csv";
  testing::write_file(csv, "precious\n");
  outcome = run("cosched", sweep + csv.string());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("exists; --resume continues it, --force replaces it"), std::string::npos)
      << outcome.err;
  EXPECT_EQ(test_support::read_text(csv), "precious\n");
  EXPECT_EQ(run("cosched", sweep + csv.string() + " --force").exit_code, 0);
  EXPECT_EQ(run("cosched", sweep + csv.string() + " --resume").exit_code, 0);
}

// Writes `workload` next to a one-task schedule and launches it; the workload is refused before anything runs.
Outcome launch_with_workload(const std::string& name, const std::string& workload) {
  const fs::path dir = testing::scratch_dir();
  const fs::path schedule = testing::write_file(
      dir / "s.json", R"({"algorithm": "x", "tasks": [{"id": "a", "alloc": [1], "start": 0, "duration": 1}]})");
  const fs::path path = testing::write_file(dir / name, workload);
  const Outcome outcome = run("cosched", "launch " + schedule.string() + " --workload " + path.string() +
                                             " --tier-backend none --journal " + (dir / "j.jsonl").string());
  EXPECT_FALSE(fs::exists(dir / "j.jsonl")) << "no journal for a refused workload";
  return outcome;
}

TEST(LaunchWorkload, UnknownPlaceholdersUnsafeIdsAndUnknownKernelsAreInputErrors) {
  if (!fs::exists(fs::path(COSCHED_BIN_DIR) / "cosched")) GTEST_SKIP() << "cosched not built";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"tasks": [{"id": "a", "command": ["/bin/echo", "{thread}"]}]})", "unknown placeholder {thread}"},
      {R"({"tasks": [{"id": "", "command": ["/bin/true"]}]})", "id \"\" is not allowed"},
      {R"({"tasks": [{"id": "../a", "command": ["/bin/true"]}]})", "id \"../a\" is not allowed"},
      {R"({"tasks": [{"id": "a", "kernel": "fft", "footprint_bytes": 8}]})", "unknown kernel 'fft'"},
      {R"({"tasks": [{"id": "a", "command": ["/bin/true"], "timeout_s": 1e999}]})", "not valid JSON"},
  };
  for (const auto& [workload, fragment] : cases) {
    const Outcome outcome = launch_with_workload("w.json", workload);
    EXPECT_EQ(outcome.exit_code, 3) << workload << " -> " << outcome.err;
    EXPECT_NE(outcome.err.find(fragment), std::string::npos) << workload << " -> " << outcome.err;
    EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
  }
  const Outcome percent = launch_with_workload(
      "w.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_percent_of_fast = 50\n");
  EXPECT_EQ(percent.exit_code, 3) << percent.err;
  EXPECT_NE(percent.err.find("w.toml:3: key 'tasks[0].footprint_percent_of_fast' needs a platform"),
            std::string::npos)
      << percent.err;
}

TEST(TopoPlatformToml, ReadsBackAsThisMachine) {
  const fs::path binary = fs::path(COSCHED_BIN_DIR) / "cosched";
  if (!fs::exists(binary)) GTEST_SKIP() << "cosched not built";
  const fs::path path = testing::scratch_dir() / "this.toml";
  ASSERT_EQ(std::system((binary.string() + " topo --platform-toml >" + path.string()).c_str()), 0);
  testing::expect_same_platform(load_platform_config(path), this_machine_platform());
}

}  // namespace
}  // namespace cosched::config
