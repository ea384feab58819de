// The two commands end to end through the `cosched` executable: a model profile, then an instance from it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cosched/profiler/profile_csv.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

const std::filesystem::path kCosched = COSCHED_BIN_DIR "/cosched";

int run(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

TEST(Cli, ModelProfileThenInstance) {
  if (!std::filesystem::exists(kCosched)) GTEST_SKIP() << "cosched executable not built";
  const auto dir = testing::scratch_dir();
  const auto csv = dir / "knl.csv";
  const std::string profile = kCosched.string() + " profile --measurer knl-model --kernels triad,write " +
                              "--footprints-percent-of-fast 60,100 --cores 1,8,64 --chunks 0,10,20 -o " + csv.string();
  ASSERT_EQ(run(profile), 0);
  EXPECT_EQ(read_profile_csv(csv).rows.size(), 2U * 2U * 3U * 3U);
  EXPECT_NE(run(profile), 0) << "an existing profile must not be overwritten silently";
  EXPECT_EQ(run(profile + " --resume"), 0);
  EXPECT_EQ(read_profile_csv(csv).rows.size(), 36U);

  std::ofstream(dir / "w.toml") << "[[tasks]]\nkernel = \"triad\"\nfootprint_percent_of_fast = 60\ncount = 2\n";
  const auto json = dir / "inst.json";
  ASSERT_EQ(run(kCosched.string() + " instance --workload " + (dir / "w.toml").string() + " --profiles " +
                csv.string() + " --platform " COSCHED_SOURCE_DIR "/configs/platforms/knl-7210-flat.toml -o " +
                json.string()),
            0);
  std::ifstream in(json);
  const auto instance = nlohmann::json::parse(in);
  ASSERT_EQ(instance["tasks"].size(), 2U);
  EXPECT_EQ(instance["tasks"][0]["times"].size(), 65U * 21U);

  std::ofstream(dir / "bad.toml") << "kernels = [\"triad\"]\nrepetitions = 3\n";
  EXPECT_NE(run(kCosched.string() + " profile --config " + (dir / "bad.toml").string() + " -o " +
                (dir / "x.csv").string()),
            0);
}

}  // namespace
}  // namespace cosched::profiler
