// Sweep, platform and workload files: valid ones load, and every bad key or value is rejected naming the key
// and where it is.
#include <gtest/gtest.h>

#include "cosched/common/error.hpp"
#include "cosched/profiler/platform_config.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "cosched/profiler/workload.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

// Runs `load` and returns the InputError message; fails the test when nothing is thrown.
template <typename Load>
std::string input_error_of(Load load) {
  try {
    load();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected InputError";
  return {};
}

const char* kPlatform = R"(name = "tiny"
cores = 4
[fast_memory]
capacity_mib = 100
chunks = 10
tier_backend = "emulated"
)";

TEST(CountList, ParsesListsAndRanges) {
  EXPECT_EQ(parse_count_list("0..3"), (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(parse_count_list("8,1,2,4..5,2"), (std::vector<unsigned>{1, 2, 4, 5, 8}));
  EXPECT_EQ(parse_count_list("7"), (std::vector<unsigned>{7}));
  for (const char* bad : {"", "1,,2", "a", "3..1", "1..", "-1", "1.5"}) {
    EXPECT_THROW((void)parse_count_list(bad), UsageError) << bad;
  }
}

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
  EXPECT_EQ(*config.emulation_ratio, 4.0);
  const auto platform = load_platform_config(*config.platform_file);
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
      {"model = \"knc\"\n", "model"},
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
  const auto platform = load_platform_config(platform_path);
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

TEST(PlatformFile, RepositoryPlatformsLoad) {
  const auto knl = load_platform_config(COSCHED_SOURCE_DIR "/configs/platforms/knl-7210-flat.toml");
  const auto builtin = knl_7210_flat_platform();
  EXPECT_EQ(knl.cores, builtin.cores);
  EXPECT_EQ(knl.fast_capacity_bytes, builtin.fast_capacity_bytes);
  EXPECT_EQ(knl.fast_chunks, builtin.fast_chunks);
  const auto local = load_platform_config(COSCHED_SOURCE_DIR "/configs/platforms/local.toml");
  EXPECT_GE(local.cores, 1U);  // "auto": this machine's allowed cores
  EXPECT_EQ(local.tier_backend, "emulated");
  EXPECT_DOUBLE_EQ(local.chunk_bytes(), 16.0 * (1 << 20));
}

TEST(PlatformFile, BadKeysAndValuesAreNamed) {
  const auto dir = testing::scratch_dir();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"cores = 4\ncolour = 1\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'colour'"},
      {"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunk = 1\n", "'fast_memory.chunk'"},
      {"cores = 0\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'cores'"},
      {"cores = \"all\"\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'cores'"},
      {"cores = 4\n[fast_memory]\ncapacity_mib = 1\ncapacity_gib = 1\nchunks = 1\n", "exactly one"},
      {"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 0\n", "chunks"},
      {"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 2\ntier_backend = \"fast\"\n", "tier_backend"},
      {"cores = 4\n", "[fast_memory]"},
  };
  for (const auto& [text, key] : cases) {
    const auto path = testing::write_file(dir / "platform.toml", text);
    const std::string what = input_error_of([&] { (void)load_platform_config(path); });
    EXPECT_NE(what.find(key), std::string::npos) << text << " -> " << what;
    EXPECT_NE(what.find("platform.toml"), std::string::npos) << what;
  }
}

TEST(WorkloadFile, LoadsEntries) {
  const auto dir = testing::scratch_dir();
  const auto platform = load_platform_config(testing::write_file(dir / "tiny.toml", kPlatform));
  const auto path = testing::write_file(dir / "w.toml", R"(name = "w"
[[tasks]]
kernel = "triad"
footprint_mib = 64
count = 3
passes = 10
[[tasks]]
kernel = "write"
footprint_percent_of_fast = 50
)");
  const auto workload = load_workload(path, platform);
  EXPECT_EQ(workload.name, "w");
  ASSERT_EQ(workload.entries.size(), 2U);
  EXPECT_EQ(workload.entries[0].footprint_bytes, 64ULL << 20);
  EXPECT_EQ(workload.entries[0].count, 3U);
  EXPECT_EQ(workload.entries[0].passes, 10U);
  EXPECT_EQ(workload.entries[1].footprint_bytes, 50ULL << 20);
  EXPECT_EQ(workload.entries[1].count, 1U);
}

TEST(WorkloadFile, BadEntriesAreNamed) {
  const auto dir = testing::scratch_dir();
  const auto platform = load_platform_config(testing::write_file(dir / "tiny.toml", kPlatform));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncuont = 2\n", "'tasks[0].cuont'"},
      {"[[tasks]]\nkernel = \"triad\"\n", "footprint"},
      {"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nfootprint_percent_of_fast = 5\n", "exactly one"},
      {"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncount = 0\n", "count"},
      {"name = \"empty\"\n", "[[tasks]]"},
      {"workload = 1\n", "'workload'"},
  };
  for (const auto& [text, key] : cases) {
    const auto path = testing::write_file(dir / "w.toml", text);
    const std::string what = input_error_of([&] { (void)load_workload(path, platform); });
    EXPECT_NE(what.find(key), std::string::npos) << text << " -> " << what;
    EXPECT_NE(what.find("w.toml"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace cosched::profiler
