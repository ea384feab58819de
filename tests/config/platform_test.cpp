// Platform files: the repository's load, every class of bad input is refused naming file:line and the key, the
// writer's output reads back to the same platform, and platforms built in code obey the same ranges.
#include "cosched/config/platform.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "cosched/common/error.hpp"
#include "test_support.hpp"

namespace cosched::config {
namespace {

TEST(PlatformFile, RepositoryPlatformsLoad) {
  const auto knl = load_platform_config(COSCHED_SOURCE_DIR "/configs/platforms/knl-7210-flat.toml");
  testing::expect_same_platform(knl, knl_7210_flat_platform());
  const auto local = load_platform_config(COSCHED_SOURCE_DIR "/configs/platforms/local.toml");
  EXPECT_GE(local.cores, 1U);  // "auto": this machine's allowed cores
  EXPECT_EQ(local.tier_backend, "emulated");
  EXPECT_DOUBLE_EQ(local.chunk_bytes(), 16.0 * (1 << 20));
}

TEST(PlatformFile, CapacityUnitsAgree) {
  for (const char* capacity : {"capacity_gib = 0.5", "capacity_mib = 512", "capacity_bytes = 536870912"}) {
    const auto platform = parse_platform_toml(
        std::string("cores = 2\n[fast_memory]\nchunks = 4\n") + capacity + "\n", "p.toml");
    EXPECT_EQ(platform.fast_capacity_bytes, 512ULL << 20) << capacity;
    EXPECT_EQ(platform.name, "p");  // the file's stem without a name key
  }
}

using testing::BadFile;

class PlatformFileErrors : public ::testing::TestWithParam<BadFile> {};

TEST_P(PlatformFileErrors, AreInputErrorsNamingFileLineAndKey) {
  testing::expect_refused(GetParam(), "platform.toml", [](const auto& path) { (void)load_platform_config(path); });
}

INSTANTIATE_TEST_SUITE_P(
    EveryClass, PlatformFileErrors,
    ::testing::Values(
        // unknown keys
        BadFile{"cores = 4\ncolour = 1\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'colour'", 2},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunk = 1\n", "'fast_memory.chunk'", 4},
        // wrong types
        BadFile{"cores = 4.5\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'cores' must be an integer", 1},
        BadFile{"cores = \"all\"\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'cores'", 1},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = \"1\"\nchunks = 1\n", "'fast_memory.capacity_mib' must "
                                                                                  "be a number", 3},
        BadFile{"cores = 4\nfast_memory = 3\n", "'fast_memory' must be a table", 2},
        // out of range
        BadFile{"cores = 0\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'cores' must be an integer from 1", 1},
        BadFile{"cores = 100000\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "'cores'", 1},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 0\n", "'fast_memory.chunks'", 4},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 1000000000\n", "'fast_memory.chunks'", 4},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_bytes = 3\nchunks = 4\n", "a chunk needs at least one byte", 2},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = nan\nchunks = 1\n", "must be finite", 3},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_gib = inf\nchunks = 1\n", "must be finite", 3},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = -5\nchunks = 1\n", "'fast_memory.capacity_mib'", 3},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_gib = 1e9\nchunks = 1\n", "'fast_memory.capacity_gib'", 3},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\nemulation_ratio = 1e9\n",
                    "'fast_memory.emulation_ratio' must be finite, >= 1 and <= 100", 5},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\nemulation_ratio = 0.5\n",
                    "'fast_memory.emulation_ratio'", 5},
        // inconsistent or unknown values
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = 1\ncapacity_gib = 1\nchunks = 1\n", "exactly one", 2},
        BadFile{"cores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 2\ntier_backend = \"fast\"\n",
                    "unknown backend 'fast'", 5},
        BadFile{"name = \"../x\"\ncores = 4\n[fast_memory]\ncapacity_mib = 1\nchunks = 1\n", "\"../x\" is not "
                                                                                             "allowed", 1},
        BadFile{"cores = 4\n", "missing table [fast_memory]", 0},
        // syntax
        BadFile{"cores = 4\n[fast_memory\n", "platform.toml:2:", 2}));

TEST(PlatformToml, WriterOutputReadsBackToTheSamePlatform) {
  PlatformConfig platform = knl_7210_flat_platform();
  // A newline, quotes, a backslash, a tab and DEL: TOML forbids DEL raw in a string (JSON escaping would not do).
  platform.description = "a \"quoted\" description\nwith a newline, a \\ and a \t tab and a \x7f DEL";
  platform.emulation_ratio = 2.5;
  const PlatformConfig read = parse_platform_toml(to_toml(platform), "knl.toml");
  testing::expect_same_platform(read, platform);
  EXPECT_EQ(read.description, platform.description);
}

TEST(PlatformToml, APlatformWithoutFastTierHasNoTomlForm) {
  PlatformConfig platform = knl_7210_flat_platform();
  platform.fast_chunks = 0;
  platform.fast_capacity_bytes = 0;
  EXPECT_THROW((void)to_toml(platform), UsageError);
}

TEST(PlatformJson, CarriesEveryFieldAndTheChunkSize) {
  const nlohmann::json json = knl_7210_flat_platform();
  EXPECT_EQ(json.at("name"), "knl-7210-flat");
  EXPECT_EQ(json.at("cores"), 64);
  EXPECT_EQ(json.at("fast_capacity_bytes"), 16ULL << 30);
  EXPECT_EQ(json.at("fast_chunks"), 20);
  EXPECT_DOUBLE_EQ(json.at("chunk_bytes").get<double>(), static_cast<double>(16ULL << 30) / 20);
  EXPECT_EQ(json.at("tier_backend"), "memkind");
  EXPECT_EQ(json.at("source"), "built-in");
}

// The platform of a run: the file when given (its backend replaced by a given one), else this machine with the
// given backend and chunks.
TEST(RunPlatform, TheFileWhenGivenElseThisMachine) {
  const std::string knl = COSCHED_SOURCE_DIR "/configs/platforms/knl-7210-flat.toml";
  const RunPlatform from_file = run_platform(knl, "", kDefaultFastChunks);
  ASSERT_TRUE(from_file.platform_file.has_value());
  testing::expect_same_platform(from_file.node, load_platform_config(knl));
  EXPECT_EQ(from_file.node.tier_backend, from_file.platform_file->tier_backend);
  const RunPlatform overridden = run_platform(knl, "emulated", kDefaultFastChunks);
  EXPECT_EQ(overridden.node.tier_backend, "emulated");
  EXPECT_EQ(overridden.platform_file->tier_backend, from_file.platform_file->tier_backend) << "the file as read";
  const RunPlatform machine = run_platform("", "emulated", 10);
  EXPECT_FALSE(machine.platform_file.has_value());
  testing::expect_same_platform(machine.node, this_machine_platform("emulated", kDefaultEmulationRatio, 10));
  EXPECT_EQ(machine.node.tier_backend, "emulated");
  EXPECT_THROW((void)run_platform(knl + ".missing", "", kDefaultFastChunks), InputError);
}

TEST(ThisMachine, ChunksAndRatioOutOfRangeAreUsageErrors) {
  const auto machine = this_machine_platform("emulated", 5.0, 20);
  EXPECT_GE(machine.cores, 1U);
  EXPECT_EQ(machine.fast_chunks, 20U);
  EXPECT_GT(machine.fast_capacity_bytes, 0U);
  EXPECT_THROW((void)this_machine_platform("emulated", 5.0, 1'000'000'000), UsageError);
  EXPECT_THROW((void)this_machine_platform("emulated", 1e9, 20), UsageError);
  EXPECT_THROW((void)this_machine_platform("emulated", std::nan(""), 20), UsageError);
  const auto without_tier = this_machine_platform("none", 5.0, 20);
  EXPECT_EQ(without_tier.fast_chunks, 0U);  // nothing to divide
  EXPECT_EQ(without_tier.chunk_bytes(), 0.0);
}

TEST(Footprints, MibRoundsToBytesAndPercentToWholeMib) {
  EXPECT_EQ(footprint_bytes_from_mib(64), 64ULL << 20);
  EXPECT_EQ(footprint_bytes_from_mib(0.5), 512ULL << 10);
  PlatformConfig platform;
  platform.fast_capacity_bytes = 100ULL << 20;
  EXPECT_EQ(footprint_from_percent(50, platform), 50ULL << 20);
  EXPECT_EQ(footprint_from_percent(33.3, platform), 33ULL << 20);  // 33.3 MiB -> 33 MiB
  EXPECT_EQ(footprint_from_percent(0.5, platform), 0U);
}

}  // namespace
}  // namespace cosched::config
