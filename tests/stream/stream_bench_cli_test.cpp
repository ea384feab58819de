// Runs the built stream_bench executable (COSCHED_BIN_DIR) with small arrays: its JSON and its exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cosched/platform/binding.hpp"

namespace {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

Outcome run_stream_bench(const std::string& arguments) {
  const auto dir = std::filesystem::temp_directory_path() / ("stream_cli_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string command = std::string(COSCHED_BIN_DIR) + "/stream_bench " + arguments + " >" +
                              (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(command.c_str());
  Outcome outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"), slurp(dir / "err")};
  std::filesystem::remove_all(dir);
  return outcome;
}

// Each roofline kernel reports its own figure of merit next to the time, in the JSON and in the table.
class RooflineCli : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(RooflineCli, ReportsItsFigureOfMerit) {
  const auto [kernel, unit] = GetParam();
  const std::string arguments = std::string("--kernel ") + kernel + " --threads 1 --size-mib 0.25 --reps 2";
  const Outcome json_run = run_stream_bench(arguments + " --json");
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const auto json = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(json.at("kernel"), kernel);
  EXPECT_EQ(json.at("merit_unit"), unit);
  EXPECT_TRUE(json.at("best_merit").is_number());
  EXPECT_TRUE(json.at("median_time_s").is_number());
  EXPECT_EQ(json.at("validated"), true);
  EXPECT_FALSE(json.at("arrays").empty());
  const Outcome table = run_stream_bench(arguments);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find(std::string("best ") + unit), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("validation: passed"), std::string::npos) << table.out;
}

INSTANTIATE_TEST_SUITE_P(Kernels, RooflineCli,
                         ::testing::Values(std::pair{"gemm", "GFLOP/s"}, std::pair{"stencil", "GB/s"},
                                           std::pair{"spmv", "GB/s"}, std::pair{"gups", "GUP/s"}));

TEST(StreamBenchCli, JsonIsOneObjectWithTheRequiredFields) {
  const Outcome run = run_stream_bench("--kernel triad --threads 1 --size-mib 1 --reps 3 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);  // throws if there is anything but one JSON value
  EXPECT_EQ(json.at("kernel"), "triad");
  EXPECT_EQ(json.at("threads"), 1);
  EXPECT_EQ(json.at("cores"), nlohmann::json::array({0}));
  EXPECT_EQ(json.at("array_bytes"), 1 << 20);
  EXPECT_EQ(json.at("reps"), 3);
  EXPECT_TRUE(json.at("best_gbs").is_number());
  EXPECT_TRUE(json.at("median_gbs").is_number());
  EXPECT_TRUE(json.at("min_time_s").is_number());
  EXPECT_TRUE(json.at("median_time_s").is_number());
  EXPECT_EQ(json.at("validated"), true);
  EXPECT_EQ(json.at("tier_backend"), "none");  // no --fast-fraction: plain memory
  EXPECT_EQ(json.at("emulated"), false);
  EXPECT_EQ(json.at("fast_fraction"), 0.0);
  EXPECT_EQ(json.at("fast_bytes"), 0);
  EXPECT_EQ(json.at("slow_bytes"), 3 << 20);
}

TEST(StreamBenchCli, CoreListPinsThreadsToThoseCores) {
  const auto allowed = cosched::platform::allowed_cores();
  const auto last = static_cast<unsigned>(allowed.size() - 1);
  const Outcome run = run_stream_bench("--kernel scale --cores " + std::to_string(last) + " --size-mib 1 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("threads"), 1);  // --cores alone sets the thread count
  EXPECT_EQ(json.at("cores"), nlohmann::json::array({last}));
  EXPECT_EQ(json.at("placements").at(0).at("bound_pus").get<std::vector<unsigned>>(), allowed[last]);
}

TEST(StreamBenchCli, TableIsTheDefaultOutput) {
  const Outcome run = run_stream_bench("--kernel ddot --size-mib 0.5 --reps 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("best GB/s"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("validation: passed"), std::string::npos) << run.out;
}

TEST(StreamBenchCli, EmulatedTierIsSaidAndMeasured) {
  const Outcome table = run_stream_bench("--kernel copy --threads 1 --size-mib 1 --reps 2 --tier-backend emulated "
                                         "--fast-fraction 0.5 --emulation-ratio 3");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("EMULATED fast tier"), std::string::npos) << table.out;
  const Outcome run = run_stream_bench("--kernel copy --threads 1 --size-mib 1 --reps 2 --tier-backend emulated "
                                       "--fast-fraction 0.5 --emulation-ratio 3 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("tier_backend"), "emulated");
  EXPECT_EQ(json.at("emulated"), true);
  EXPECT_EQ(json.at("emulation_ratio"), 3.0);
  EXPECT_EQ(json.at("fast_fraction"), 0.5);
  EXPECT_EQ(json.at("fast_bytes"), 1 << 20);  // half of each of the two 1 MiB arrays
  EXPECT_EQ(json.at("slow_bytes"), 1 << 20);
  EXPECT_EQ(json.at("validated"), true);
}

struct BadArguments {
  const char* arguments;
  int exit_code;  // cosched::exit_code_for: usage 2, resource 4
  const char* fragment;
};

class StreamBenchBadArguments : public ::testing::TestWithParam<BadArguments> {};

TEST_P(StreamBenchBadArguments, OneClearErrorAndNonZeroExit) {
  const BadArguments bad = GetParam();
  const Outcome run = run_stream_bench(std::string("--reps 1 ") + bad.arguments);
  EXPECT_EQ(run.exit_code, bad.exit_code) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find(bad.fragment), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, StreamBenchBadArguments,
    ::testing::Values(BadArguments{"--kernel stream", 2, "unknown kernel"},
                      BadArguments{"--threads 0", 2, "threads must be at least 1"},
                      BadArguments{"--threads 4096", 4, "cores"},
                      BadArguments{"--cores 4096", 4, "does not exist"},
                      BadArguments{"--size-mib 100000000", 4, "available"},
                      BadArguments{"--size-mib -3", 2, "--size-mib: value -3 must be a finite number > 0"},
                      BadArguments{"--fast-fraction 1.5", 2, "fraction"},
                      BadArguments{"--fast-fraction 0.5 --tier-backend quantum", 2, "quantum"},
                      BadArguments{"--tier-backend emulated", 2, "--fast-fraction"},
                      BadArguments{"--stores maybe", 2, "store mode"},
                      BadArguments{"--threads two", 2, "two"}));

}  // namespace
