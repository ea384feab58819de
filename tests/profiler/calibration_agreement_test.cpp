// Two calibrations of one node, compared pool capacity by pool capacity (profiler/calibration.hpp), and `cosched
// calibrate` run twice in a row: the second run says whether it agrees with the file it replaces.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>

#include "cosched/common/error.hpp"
#include "cosched/profiler/calibration.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

config::NodeModel node(std::vector<config::MemoryPool> pools) {
  config::NodeModel model;
  model.pools = std::move(pools);
  return model;
}

config::MemoryPool pool(const char* name, std::vector<unsigned> cores, std::vector<double> gbs) {
  return {name, {"slow"}, {std::move(cores), std::move(gbs)}, {}};
}

// What a calibration is compared with: --compare's file (which must be a node file), else the node file the run
// replaces when it is one; nothing for stdout, a missing file or a file that is not a node file.
TEST(CalibrationAgreement, ThePreviousCalibrationIsTheComparedOrTheReplacedNodeFile) {
  const std::string knl = std::string(COSCHED_SOURCE_DIR) + "/configs/nodes/knl-7210-flat.toml";
  const std::filesystem::path not_a_node = std::filesystem::path(::testing::TempDir()) / "previous-not-a-node.toml";
  std::ofstream(not_a_node) << "this is not = [a node file\n";
  const auto compared = previous_calibration(knl, "-");
  ASSERT_TRUE(compared.has_value());
  EXPECT_EQ(compared->first, knl);
  EXPECT_FALSE(compared->second.pools.empty());
  const auto replaced = previous_calibration("", knl);
  ASSERT_TRUE(replaced.has_value());
  EXPECT_EQ(replaced->first, knl);
  EXPECT_FALSE(previous_calibration("", "-").has_value());
  EXPECT_FALSE(previous_calibration("", not_a_node.string() + ".missing").has_value());
  EXPECT_FALSE(previous_calibration("", not_a_node.string()).has_value());
  EXPECT_THROW((void)previous_calibration(not_a_node.string(), "-"), InputError);
}

TEST(CalibrationAgreement, EveryCapacityWithinTheToleranceAgrees) {
  const auto before = node({pool("dram", {1, 2}, {45.0, 90.0})});
  const auto after = node({pool("dram", {1, 2}, {49.5, 81.0})});  // +10 %, -10 %
  const CalibrationAgreement agreement = compare_calibrations(before, after, 0.15);
  ASSERT_EQ(agreement.compared.size(), 2U);
  EXPECT_NEAR(agreement.compared[0].relative_change(), 0.10, 1e-12);
  EXPECT_NEAR(agreement.compared[1].relative_change(), -0.10, 1e-12);
  EXPECT_TRUE(agreement.agrees());
  EXPECT_NE(agreement_table(agreement, "a.toml").find("agrees with a.toml within ±15 %"), std::string::npos);
  EXPECT_FALSE(compare_calibrations(before, after, 0.05).agrees());
}

// This VM's bimodal 2-core point (docs/calibration.md): 95 GB/s in one calibration, 52 in the next.
TEST(CalibrationAgreement, ABimodalPointDisagreesAndIsNamed) {
  const auto before = node({pool("dram", {1, 2}, {45.7, 95.5})});
  const auto after = node({pool("dram", {1, 2}, {45.7, 52.1})});
  const CalibrationAgreement agreement = compare_calibrations(before, after, kDefaultCalibrationTolerance);
  EXPECT_FALSE(agreement.agrees());
  const std::string table = agreement_table(agreement, "node.toml");
  EXPECT_NE(table.find("dram           2 cores      95.50 ->     52.10 GB/s   -45.4 %  DISAGREES"), std::string::npos)
      << table;
  EXPECT_NE(table.find("DISAGREE beyond ±15 %"), std::string::npos) << table;
}

TEST(CalibrationAgreement, PoolsAndCoreCountsInOnlyOneAreListedNotCompared) {
  const auto before = node({pool("dram", {1, 2}, {40.0, 80.0}), pool("old", {1}, {10.0})});
  const auto after = node({pool("dram", {1, 4}, {40.0, 150.0}), pool("hbm", {1}, {100.0})});
  const CalibrationAgreement agreement = compare_calibrations(before, after, 0.1);
  ASSERT_EQ(agreement.compared.size(), 1U);
  EXPECT_TRUE(agreement.agrees());
  EXPECT_EQ(agreement.not_compared,
            (std::vector<std::string>{"pool dram: 4 cores measured only now", "pool hbm is new", "pool old is gone"}));
  EXPECT_FALSE(compare_calibrations(node({pool("a", {1}, {1.0})}), node({pool("b", {1}, {1.0})}), 0.1)
                   .compared.size());
  for (const double tolerance : {0.0, -0.1, 11.0, std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_THROW((void)compare_calibrations(before, after, tolerance), UsageError) << tolerance;
  }
}

std::string output_of(const std::string& command) {
  std::array<char, 4096> buffer{};
  std::string text;
  const std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
  while (pipe && fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) text += buffer.data();
  return text;
}

// `cosched calibrate` twice in a row: the second run (--force) compares with the file it replaces; --compare names
// another file, here one whose capacities no machine matches, so the run must say that it disagrees.
TEST(CalibrationAgreement, CalibrateTwiceInARowSaysWhetherItAgrees) {
  const std::filesystem::path cosched = COSCHED_BIN_DIR "/cosched";
  if (!std::filesystem::exists(cosched)) GTEST_SKIP() << "cosched executable not built";
  const auto dir = testing::scratch_dir();
  const std::string calibrate = cosched.string() + " calibrate --quick --quiet --cores 1 --size-mib 8 --kernels triad"
                                " --tier-backend none -o " + (dir / "node.toml").string();
  const std::string first = output_of(calibrate);
  EXPECT_EQ(first.find("compared with"), std::string::npos) << first;
  const std::string second = output_of(calibrate + " --force");
  EXPECT_NE(second.find("compared with " + (dir / "node.toml").string() + " (tolerance ±15 %)"), std::string::npos)
      << second;
  EXPECT_TRUE(second.find("every pool capacity agrees") != std::string::npos ||
              second.find("the calibrations DISAGREE") != std::string::npos)
      << second;
  std::ofstream(dir / "absurd.toml") << "format_version = 1\n[provenance]\nhost = \"elsewhere\"\n"
                                        "date = \"2026-11-22T13:50:00Z\"\nmethod = \"test\"\n"
                                        "cosched_version = \"0\"\ntier_backend = \"none\"\nemulated = false\n"
                                        "[[pools]]\nname = \"dram\"\ntiers = [\"slow\"]\ncores = [1]\n"
                                        "gbs = [100000.0]\n";
  const std::string compared = output_of(calibrate + " --force --compare " + (dir / "absurd.toml").string());
  EXPECT_NE(compared.find("DISAGREES"), std::string::npos) << compared;
  EXPECT_NE(compared.find("the calibrations DISAGREE beyond ±15 %"), std::string::npos) << compared;
}

}  // namespace
}  // namespace cosched::profiler
