// Sweep files: valid ones load, and every bad key or value is rejected naming the key and where it is (platform
// and workload files: tests/config).
#include <gtest/gtest.h>

#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/profiler/profile_session.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

using test_support::input_error_of;

const char* kPlatform = R"(name = "tiny"
cores = 4
[fast_memory]
capacity_mib = 100
chunks = 10
tier_backend = "emulated"
)";

TEST(SweepConfigFile, LoadsEveryKey) {
  const auto dir = testing::scratch_dir();
  testing::write_file(dir / "tiny.toml", kPlatform);
  const auto path = testing::write_file(dir / "sweep.toml", R"(kernels = ["triad", "ddot"]
footprints_mib = [64, 256]
footprints_percent_of_fast = [50]
cores = "1..2"
chunks = [0, 5, 10]
reps = 7
warmup = 2
passes = 3
measurer = "knl-model"
platform = "tiny.toml"
tier_backend = "emulated"
emulation_ratio = 4.0
)");
  const auto config = load_sweep_config(path);
  EXPECT_EQ(config.kernels, (std::vector<std::string>{"triad", "ddot"}));
  EXPECT_EQ(config.cores, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(config.chunks, (std::vector<unsigned>{0, 5, 10}));
  EXPECT_EQ(config.reps, 7U);
  EXPECT_EQ(config.warmup, 2U);
  EXPECT_EQ(config.passes, std::optional<PassCounts>(PassCounts{3, 0}));
  EXPECT_EQ(config.measurer, "knl-model");
  EXPECT_EQ(*config.emulation_ratio, 4.0);
  const auto platform = config::load_platform_config(*config.platform_file);
  EXPECT_EQ(platform.name, "tiny");
  EXPECT_EQ(platform.fast_capacity_bytes, 100ULL << 20);
  EXPECT_EQ(resolve_footprints(config, platform), (std::vector<std::uint64_t>{50ULL << 20, 64ULL << 20, 256ULL << 20}));
  const auto points = expand_sweep(config, platform);
  EXPECT_EQ(points.size(), 2U * 3U * 2U * 3U);
  EXPECT_EQ(points.front(), (ProfilePoint{"triad", 50ULL << 20, 1, 0}));
  EXPECT_EQ(points.back(), (ProfilePoint{"ddot", 256ULL << 20, 2, 10}));
}

TEST(SweepConfigFile, UnknownKeyIsNamedWithFileAndLine) {
  const auto path = testing::write_file(testing::scratch_dir() / "sweep.toml",
                                        "kernels = [\"triad\"]\nfootprint_mib = [64]\n");
  const std::string what = input_error_of([&] { (void)load_sweep_config(path); });
  EXPECT_NE(what.find("sweep.toml:2"), std::string::npos) << what;
  EXPECT_NE(what.find("'footprint_mib'"), std::string::npos) << what;
}

TEST(SweepConfigFile, BadValuesAreNamed) {
  const auto dir = testing::scratch_dir();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"kernels = \"triad\"\n", "kernels"},
      {"cores = \"2..1\"\n", "cores"},
      {"chunks = [0, -1]\n", "chunks"},
      {"reps = 0\n", "reps"},
      {"footprints_mib = [0]\n", "footprints_mib"},
      {"measurer = \"knc\"\n", "measurer"},
      {"passes = 0\n", "passes"},
      {"emulation_ratio = 0.5\n", "emulation_ratio"},
      {"kernels = [\n", "sweep.toml:"},  // a TOML syntax error keeps its position
  };
  for (const auto& [text, key] : cases) {
    const auto path = testing::write_file(dir / "sweep.toml", text);
    const std::string what = input_error_of([&] { (void)load_sweep_config(path); });
    EXPECT_NE(what.find(key), std::string::npos) << text << " -> " << what;
  }
}

TEST(SweepConfigFile, PointsOutsideThePlatformAreRejected) {
  const auto platform_path = testing::write_file(testing::scratch_dir() / "tiny.toml", kPlatform);
  const auto platform = config::load_platform_config(platform_path);
  SweepConfig config;
  config.kernels = {"triad"};
  config.footprints_mib = {64};
  config.cores = {5};
  EXPECT_THROW((void)expand_sweep(config, platform), UsageError);
  config.cores = {1};
  config.chunks = {11};
  EXPECT_THROW((void)expand_sweep(config, platform), UsageError);
  config.chunks = {};
  EXPECT_EQ(expand_sweep(config, platform).size(), 11U);  // default chunks 0..10
  config.kernels = {};
  EXPECT_THROW((void)expand_sweep(config, platform), UsageError);
}

TEST(SweepConfigFile, RepeatedAndOutOfRangeValuesAreNamed) {
  const auto dir = testing::scratch_dir();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"kernels = [\"triad\", \"triad\"]\n", "sweep.toml:1: key 'kernels' lists triad twice"},
      {"footprints_mib = [64, 64]\n", "sweep.toml:1: key 'footprints_mib' lists 64 twice"},
      {"footprints_mib = [nan]\n", "sweep.toml:1: key 'footprints_mib' [0] must be finite"},
      {"footprints_percent_of_fast = [inf]\n", "key 'footprints_percent_of_fast' [0] must be finite"},
      {"reps = 4000000000\n", "key 'reps' must be an integer from 1 to 100000"},
      {"warmup = -1\n", "key 'warmup'"},
      {"emulation_ratio = 1e9\n", "key 'emulation_ratio' must be finite, >= 1 and <= 100"},
      {"cores = [5000]\n", "key 'cores'"},
  };
  for (const auto& [text, fragment] : cases) {
    const auto path = testing::write_file(dir / "sweep.toml", text);
    const std::string what = input_error_of([&] { (void)load_sweep_config(path); });
    EXPECT_NE(what.find(fragment), std::string::npos) << text << " -> " << what;
  }
}

TEST(SweepConfigFile, AFootprintGivenTwiceInTwoUnitsIsAUsageError) {
  const auto platform = config::parse_platform_toml(kPlatform, "tiny.toml");  // 100 MiB fast
  SweepConfig sweep;
  sweep.kernels = {"triad"};
  sweep.footprints_mib = {50};
  sweep.footprints_percent_of_fast = {50};
  EXPECT_THROW((void)expand_sweep(sweep, platform), UsageError);
  sweep.footprints_percent_of_fast = {60};
  EXPECT_EQ(resolve_footprints(sweep, platform), (std::vector<std::uint64_t>{50ULL << 20, 60ULL << 20}));
  sweep.kernels = {"triad", "ddot", "triad"};
  EXPECT_THROW((void)expand_sweep(sweep, platform), UsageError);
}

TEST(SweepPlatform, AnEmulationRatioNeedsTheEmulatedBackend) {
  SweepConfig sweep;
  sweep.emulation_ratio = 3.0;
  sweep.measurer = "knl-model";
  EXPECT_THROW((void)resolve_sweep_platform(sweep), UsageError);
  sweep.measurer = "stream";
  sweep.tier_backend = "none";
  EXPECT_THROW((void)resolve_sweep_platform(sweep), UsageError);
  sweep.tier_backend = "emulated";
  EXPECT_DOUBLE_EQ(resolve_sweep_platform(sweep).emulation_ratio, 3.0);
}

}  // namespace
}  // namespace cosched::profiler
