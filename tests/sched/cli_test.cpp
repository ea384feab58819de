// `cosched plan` and `cosched simulate` end to end. Needs bin/cosched from the same build (a full build makes it
// before ctest runs); without it the tests are skipped, never passed vacuously.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cosched/sched/io.hpp"

namespace cosched::sched {
namespace {

namespace fs = std::filesystem;

const fs::path kBinary = fs::path(COSCHED_BIN_DIR) / "cosched";

struct CommandResult {
  int exit_code;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// ctest runs tests in parallel processes: every scratch file carries the test's name.
fs::path scratch(const std::string& name) {
  return fs::path(::testing::TempDir()) /
         (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" + name);
}

CommandResult run(const std::string& arguments) {
  const fs::path out = scratch("stdout.txt"), err = scratch("stderr.txt");
  const std::string command = kBinary.string() + " " + arguments + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
}

fs::path write_instance(const std::string& name, const std::string& text) {
  const fs::path path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

const char* const kInstance = R"({"resources": [{"name": "cores", "capacity": 2}, {"name": "fast", "capacity": 1}],
  "tasks": [{"id": "a", "times": [null, null, 4.0, 3.0, 2.0, 1.5]},
            {"id": "b", "times": [null, 5, 2.5, 2.5, 2.0, 2.0]},
            {"id": "c", "times": [null, null, 3.0, 2.0, 2.0, 1.0]}]})";

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kBinary)) GTEST_SKIP() << kBinary << " is not built";
  }
};

TEST_F(CliTest, PlanPrintsAValidScheduleJson) {
  const fs::path instance_path = write_instance("cli_inst.json", kInstance);
  const CommandResult result = run("plan --instance " + instance_path.string() + " --algorithm t-pack-ff");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Instance instance = parse_instance(kInstance, "inst");
  const Schedule schedule = parse_schedule(result.out, instance, "stdout");
  EXPECT_EQ(schedule.algorithm, "t-pack-ff");
  EXPECT_TRUE(find_violations(instance, schedule).empty());
  EXPECT_EQ(schedule.lower_bound, 2.625);  // L_min(2) of this instance
}

TEST_F(CliTest, PlanWritesOutputFileAndComparesAll) {
  const fs::path instance_path = write_instance("cli_inst.json", kInstance);
  const fs::path output = scratch("sched.json");
  ASSERT_EQ(run("plan --instance " + instance_path.string() + " --algorithm d-list-lpt --output " + output.string())
                .exit_code,
            0);
  EXPECT_EQ(nlohmann::json::parse(read_file(output))["algorithm"], "d-list-lpt");
  const CommandResult all = run("plan --instance " + instance_path.string() + " --algorithm all");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  for (const char* name : {"d-list-spt", "t-list-lpt", "d-pack-nf", "t-pack-ff"}) {
    EXPECT_NE(all.out.find(name), std::string::npos) << all.out;
  }
}

TEST_F(CliTest, PlanReportsBadInputAndBadUsage) {
  const fs::path bad = write_instance(
      "cli_bad.json", R"({"resources": [{"name": "c", "capacity": 1}], "tasks": [{"id": "t3", "times": [1, -1]}]})");
  const CommandResult input = run("plan --instance " + bad.string() + " --algorithm t-pack-ff");
  EXPECT_EQ(input.exit_code, 3);
  EXPECT_NE(input.err.find("task \"t3\": times[1] is negative"), std::string::npos) << input.err;
  const fs::path instance_path = write_instance("cli_inst.json", kInstance);
  const CommandResult usage = run("plan --instance " + instance_path.string() + " --algorithm fastest");
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_NE(usage.err.find("unknown algorithm"), std::string::npos) << usage.err;
}

TEST_F(CliTest, SimulatePrintsJsonSummariesAndWritesCsv) {
  const fs::path csv = scratch("sim.csv");
  const CommandResult result = run("simulate --resources 8,4 --tasks 20 --instances 2 --seed 3 --json --csv " + csv.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  ASSERT_EQ(json["algorithms"].size(), 4u);
  for (const auto& [name, summary] : json["algorithms"].items()) {
    EXPECT_GE(summary["mean_ratio"].get<double>(), 1.0) << name;
    EXPECT_LE(summary["mean_ratio"].get<double>(), summary["max_ratio"].get<double>()) << name;
  }
  std::istringstream lines(read_file(csv));
  std::string line;
  std::size_t rows = 0;
  std::getline(lines, line);
  EXPECT_EQ(line, "instance,d,resources,tasks,profile,algorithm,makespan,lower_bound,ratio,seconds");
  while (std::getline(lines, line)) ++rows;
  EXPECT_EQ(rows, 8u);  // 2 instances x 4 algorithms
  // Same seed, same numbers.
  EXPECT_EQ(nlohmann::json::parse(run("simulate --resources 8,4 --tasks 20 --instances 2 --seed 3 --json").out)
                ["algorithms"]["t-pack-ff"]["mean_ratio"],
            json["algorithms"]["t-pack-ff"]["mean_ratio"]);
}

}  // namespace
}  // namespace cosched::sched
