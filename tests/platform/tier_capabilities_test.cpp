// What every tier backend says about itself through the backend table (capabilities, and how a child process
// gets its fast share), in ONE test parameterized over all registered backends. Pure table lookups: no backend
// is built, so backends that cannot work on this machine (memkind without HBW nodes) are covered too.
#include <gtest/gtest.h>
#include <numaif.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform {
namespace {

// What each backend must answer. A backend added to the table without a row here fails
// EveryRegisteredBackendHasARow, so its capabilities are always pinned down by this test.
struct ExpectedCapabilities {
  std::string name;
  TierCapabilities capabilities;
};

void PrintTo(const ExpectedCapabilities& expected, std::ostream* out) { *out << expected.name; }

const std::vector<ExpectedCapabilities>& expected_rows() {
  static const std::vector<ExpectedCapabilities> rows{
      {"none", {.has_fast_tier = false, .emulated = false, .places_commands = false}},
      {"memkind", {.has_fast_tier = true, .emulated = false, .places_commands = true}},
      {"numa", {.has_fast_tier = true, .emulated = false, .places_commands = true}},
      {"emulated", {.has_fast_tier = true, .emulated = true, .places_commands = false}},
  };
  return rows;
}

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

ChildPlacementRequest stream_request(std::uint64_t granted, std::uint64_t footprint) {
  ChildPlacementRequest request;
  request.program = ChildProgram::stream_bench;
  request.granted_fast_bytes = granted;
  request.footprint_bytes = footprint;
  request.emulation_ratio = 4;
  return request;
}

ChildPlacementRequest command_request(std::uint64_t granted) {
  ChildPlacementRequest request;
  request.program = ChildProgram::command;
  request.granted_fast_bytes = granted;
  request.nodes = {.fast = {4}, .slow = {0, 1}};
  return request;
}

bool contains(const std::vector<std::string>& args, const std::vector<std::string>& run) {
  return std::search(args.begin(), args.end(), run.begin(), run.end()) != args.end();
}

class TierCapabilities : public ::testing::TestWithParam<ExpectedCapabilities> {
 protected:
  [[nodiscard]] const TierBackendInfo& info() const { return tier_backend_info(GetParam().name); }
  [[nodiscard]] const cosched::platform::TierCapabilities& expected() const { return GetParam().capabilities; }
};

TEST_P(TierCapabilities, AnswersForItselfThroughTheTable) {
  EXPECT_EQ(info().name, GetParam().name);
  EXPECT_EQ(info().capabilities.has_fast_tier, expected().has_fast_tier);
  EXPECT_EQ(info().capabilities.emulated, expected().emulated);
  EXPECT_EQ(info().capabilities.places_commands, expected().places_commands);
  // Emulating a fast tier or steering a command into one needs a fast tier.
  if (info().capabilities.emulated || info().capabilities.places_commands) {
    EXPECT_TRUE(info().capabilities.has_fast_tier);
  }
  ASSERT_NE(info().child_placement, nullptr);
}

TEST_P(TierCapabilities, StreamBenchGetsItsFractionOnlyWhereThereIsAFastTier) {
  const ChildPlacement half = info().child_placement(stream_request(48 * kMiB, 96 * kMiB));
  EXPECT_FALSE(half.description.empty());
  EXPECT_TRUE(half.memory.nodes.empty()) << "stream_bench places its arrays itself";
  if (!expected().has_fast_tier) {
    EXPECT_EQ(half.fast_bytes, 0U);
    EXPECT_TRUE(half.stream_bench_args.empty());
    return;
  }
  EXPECT_EQ(half.fast_bytes, 48 * kMiB);
  EXPECT_TRUE(contains(half.stream_bench_args, {"--fast-fraction", "0.5", "--tier-backend", GetParam().name}))
      << ::testing::PrintToString(half.stream_bench_args);
  EXPECT_EQ(contains(half.stream_bench_args, {"--emulation-ratio", "4"}), expected().emulated);
  EXPECT_EQ(half.description.find("EMULATED") != std::string::npos, expected().emulated) << half.description;
  // More chunks than the arrays: capped at all of them.
  const ChildPlacement all = info().child_placement(stream_request(500 * kMiB, 96 * kMiB));
  EXPECT_EQ(all.fast_bytes, 96 * kMiB);
  EXPECT_TRUE(contains(all.stream_bench_args, {"--fast-fraction", "1"}));
}

TEST_P(TierCapabilities, ACommandGetsAMemoryPolicyOnlyFromBackendsThatPlaceCommands) {
  const ChildPlacement slow = info().child_placement(command_request(0));
  const ChildPlacement fast = info().child_placement(command_request(2000));
  EXPECT_FALSE(fast.description.empty());
  EXPECT_TRUE(fast.stream_bench_args.empty());
  EXPECT_EQ(fast.fast_bytes, expected().has_fast_tier ? 2000U : 0U);
  if (!expected().places_commands) {
    EXPECT_TRUE(slow.memory.nodes.empty());
    EXPECT_TRUE(fast.memory.nodes.empty());
    return;
  }
  EXPECT_EQ(slow.memory.mode, MPOL_BIND);
  EXPECT_EQ(slow.memory.nodes, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(fast.memory.mode, MPOL_PREFERRED);
  EXPECT_EQ(fast.memory.nodes, (std::vector<unsigned>{4}));
  // Without the nodes to point at, a command cannot be placed: an error, never a silently unplaced task.
  ChildPlacementRequest nowhere = command_request(2000);
  nowhere.nodes = {};
  EXPECT_THROW((void)info().child_placement(nowhere), ResourceError);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, TierCapabilities, ::testing::ValuesIn(expected_rows()),
                         [](const ::testing::TestParamInfo<ExpectedCapabilities>& test) { return test.param.name; });

TEST(TierBackendTable, EveryRegisteredBackendHasARow) {
  for (const std::string& name : tier_backend_names()) {
    if (name == "auto") continue;
    EXPECT_TRUE(std::ranges::any_of(expected_rows(), [&](const auto& row) { return row.name == name; }))
        << "backend \"" << name << "\" has no row in expected_rows()";
  }
}

TEST(TierBackendTable, AutoAndUnknownNamesHaveNoInfo) {
  EXPECT_THROW((void)tier_backend_info("auto"), UsageError);
  EXPECT_THROW((void)tier_backend_info("mcdram"), UsageError);
}

TEST(TierBackendTable, AutoNeverPicksABackendWithoutAFastTier) {
  EXPECT_TRUE(tier_backend_info(auto_tier_backend_name()).capabilities.has_fast_tier);
}

}  // namespace
}  // namespace cosched::platform
