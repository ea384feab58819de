// `cosched online` gives, bit for bit, the metrics it gave before the speed-ups of issue 25 and the release seam of
// issue 26: the 25 runs of tests/data/online/golden_metrics.json (every policy, on the synthetic workload, a rigid
// trace excerpt with users and campaigns, and Downey-moldable jobs), printed by the binary of the commit named in
// tests/data/README.md. Timings are left out; every other number must be equal. Needs bin/cosched of this build.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/programs.hpp"

namespace cosched::launcher {
namespace {

namespace fs = std::filesystem;

nlohmann::json golden_runs() {
  std::ifstream in(std::string(COSCHED_TEST_DATA_DIR) + "/online/golden_metrics.json");
  return nlohmann::json::parse(in);
}

std::string with_data_dir(std::string arguments) {
  const std::string marker = "@DATA@";
  for (auto at = arguments.find(marker); at != std::string::npos; at = arguments.find(marker)) {
    arguments.replace(at, marker.size(), COSCHED_TEST_DATA_DIR);
  }
  return arguments;
}

TEST(OnlineGolden, EveryRunGivesTheMetricsItGaveBefore) {
  if (!fs::exists(test_support::built_program("cosched"))) GTEST_SKIP() << "bin/cosched is not built";
  const fs::path dir = test_support::scratch_dir();
  const nlohmann::json runs = golden_runs();
  ASSERT_EQ(runs.size(), 25u);
  for (const nlohmann::json& run : runs) {
    const std::string arguments = with_data_dir(run["arguments"].get<std::string>());
    const test_support::CommandResult result = test_support::run_program("cosched", "online " + arguments + " --json", dir);
    ASSERT_EQ(result.exit_code, 0) << arguments << "\n" << result.err;
    const nlohmann::json now = nlohmann::json::parse(result.out);
    for (const auto& [key, expected] : run["metrics"].items()) {
      if (expected.is_string()) continue;  // wording (normalisation sentences, names): not a result
      ASSERT_TRUE(now.contains(key)) << arguments << ": " << key;
      // nlohmann compares numbers exactly; the JSON holds every double to the last bit (17 significant digits).
      EXPECT_EQ(now[key], expected) << arguments << ": " << key;
    }
  }
}

}  // namespace
}  // namespace cosched::launcher
