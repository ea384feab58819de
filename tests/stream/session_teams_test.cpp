// A StreamSession across teams: arrays first-touched by one team serve another when all their cores share one
// memory locality (written afresh by the new team, no allocation), else they are allocated anew; every kernel
// keeps validating, and the checks around a team change compare everything.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_session.hpp"
#include "stream/session_config.hpp"
#include "stream/test_tier_backend.hpp"

namespace cosched::stream {
namespace {

using namespace testing;  // cosched::stream::testing: the session tests' backend, sizes and configurations

constexpr std::size_t count = kSessionElements;

// Whether this machine lets arrays touched on `touched` serve a team on `team` (both: indices into allowed cores).
bool placement_shared(const std::vector<unsigned>& touched, const std::vector<unsigned>& team) {
  const auto allowed = platform::allowed_cores();
  std::vector<std::vector<unsigned>> pus;
  for (unsigned core : touched) pus.push_back(allowed.at(core));
  for (unsigned core : team) pus.push_back(allowed.at(core));
  return share_first_touch_placement(platform::Topology::this_system(), pus);
}

class EveryKernelAcrossTeams : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryKernelAcrossTeams, KeepsItsArraysWhereThePlacementIsSharedAndValidatesEveryTeam) {
  if (!two_cores_allowed()) GTEST_SKIP() << "needs two allowed cores";
  TestTierBackend backend({2.5, true}, TestTierBackend::Layout::contiguous);
  backend.supports_resplit = true;
  const std::vector<std::vector<unsigned>> teams{{0}, {0, 1}, {0, 1}, {1}, {0}};
  const std::vector<double> fractions{0.0, 0.5, 1.0, 0.25, 0.0};
  StreamSession session(one_core_config(GetParam()), backend);
  std::size_t team_changes = 0;
  for (std::size_t k = 0; k < teams.size(); ++k) {
    if (k > 0 && teams[k] != teams[k - 1]) ++team_changes;
    const StreamResult result = session.measure({fractions[k], 2, 1, teams[k]});
    EXPECT_TRUE(result.validated) << k << ": " << result.validation_message;
    EXPECT_EQ(result.cores, teams[k]);
    EXPECT_EQ(result.threads, teams[k].size());
  }
  const SessionCheck check = session.finish();
  EXPECT_TRUE(check.validated) << check.validation_message;
  // This machine decides: one memory locality keeps the arrays for every team, several allocate per team.
  const bool shared = placement_shared({0}, {0, 1});
  EXPECT_EQ(session.allocations(), shared ? 1U : 1U + team_changes);
  EXPECT_EQ(session.reinitialisations(), shared ? team_changes : 0U);
  EXPECT_GT(session.counts().preparation_s, 0.0);
  EXPECT_GT(session.counts().validation_s, 0.0);
}

std::vector<std::string> every_kernel() {
  std::vector<std::string> names;
  for (const KernelSpec& kernel : kernel_table()) names.emplace_back(kernel.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryKernelAcrossTeams, ::testing::ValuesIn(every_kernel()));

// The new team writes the initial values again, so the old team's last measurement is compared in full first:
// a wrong element no sample looks at is still reported, by the next measurement.
TEST(SessionTeams, ANewTeamChecksTheOldTeamsArraysInFullFirst) {
  if (!two_cores_allowed()) GTEST_SKIP() << "needs two allowed cores";
  TestTierBackend backend;
  StreamSession session(one_core_config("copy"), backend);
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);  // full
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);  // sampled
  backend.allocated_spans.at(1)[1000] = -1.0;           // c (written by copy): neither sampled nor an edge
  const StreamResult moved = session.measure({0.0, 1, 0, {0, 1}});
  EXPECT_FALSE(moved.validated);
  const bool kept = placement_shared({0}, {0, 1});
  EXPECT_NE(moved.validation_message.find(kept ? "before initialising the arrays for a new team"
                                               : "before re-allocating for a new team"),
            std::string::npos)
      << moved.validation_message;
  EXPECT_NE(moved.validation_message.find("c[1000]"), std::string::npos) << moved.validation_message;
  // The new team's arrays hold their initial values again and validate.
  EXPECT_TRUE(session.measure({0.0, 1, 0, {0, 1}}).validated);
  EXPECT_TRUE(session.finish().validated);
}

// A sampled check compares the first and last line of every part of a thread's slice, where the tier split and
// the slices cut the arrays: an element there is caught at the next measurement whatever the sample's offset.
TEST(SessionTeams, SampledCheckComparesTheEdgesOfTheTierSplit) {
  TestTierBackend backend;
  StreamConfig config = one_core_config("triad");
  config.fast_fraction = 0.5;
  StreamSession session(config, backend);
  ASSERT_TRUE(session.measure({0.5, 1, 0}).validated);  // full; the fast part ends at a page boundary
  const platform::TieredSpan b = backend.allocated_spans.at(1);
  ASSERT_GT(b.fast_count, 0U);
  ASSERT_GT(b.slow_count, 0U);
  const std::size_t last_fast = b.fast_count - 1;  // page-aligned split: never on the sample's offset 97
  b[last_fast] = -1.0;
  const StreamResult sampled = session.measure({0.5, 1, 0});
  EXPECT_FALSE(sampled.validated);
  EXPECT_NE(sampled.validation_message.find("sampled"), std::string::npos) << sampled.validation_message;
  EXPECT_NE(sampled.validation_message.find("[" + std::to_string(last_fast) + "]"), std::string::npos)
      << sampled.validation_message;
}

// Past 512 pages in the largest array the sampled stride doubles, so a check costs a few hundred cache misses
// however large the arrays; a wrong region two strides long is still caught.
TEST(SessionTeams, SampledStrideGrowsWithTheArraysAndStillCatchesAWrongRegion) {
  TestTierBackend backend;
  StreamConfig config = one_core_config("triad");
  const std::size_t page = platform::page_bytes() / sizeof(double);
  config.array_bytes = 600 * page * sizeof(double);  // 600 pages: past 512, one element in two pages
  StreamSession session(config, backend);
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);
  const platform::TieredSpan c = backend.allocated_spans.at(2);
  for (std::size_t i = 100 * page; i < 104 * page; ++i) c[i] = -1.0;  // read by triad
  const StreamResult sampled = session.measure({0.0, 1, 0});
  EXPECT_FALSE(sampled.validated);
  EXPECT_NE(sampled.validation_message.find("sampled (one in " + std::to_string(2 * page) + ")"), std::string::npos)
      << sampled.validation_message;
}

TEST(SessionTeams, BadTeamsAreRefusedAndLeaveTheSessionUsable) {
  TestTierBackend backend;
  StreamSession session(one_core_config("scale"), backend);
  const auto allowed = static_cast<unsigned>(platform::allowed_cores().size());
  EXPECT_THROW((void)session.measure({0.0, 1, 0, {allowed}}), ResourceError);  // no such core
  if (two_cores_allowed()) {
    EXPECT_THROW((void)session.measure({0.0, 1, 0, {1, 1}}), UsageError);  // a core twice
  }
  EXPECT_TRUE(session.measure({0.0, 1, 0}).validated);
  EXPECT_EQ(session.allocations(), 1U);
  EXPECT_EQ(session.reinitialisations(), 0U);
}

// share_first_touch_placement on hand-made machines: Core::cluster is the memory locality.
platform::Topology machine(const std::vector<int>& core_clusters) {
  platform::TopologyFacts facts;
  facts.source = "test";
  for (std::size_t k = 0; k < core_clusters.size(); ++k) {
    facts.cores.push_back({.pus = {static_cast<unsigned>(k)}, .l2 = static_cast<int>(k),
                           .cluster = core_clusters[k], .package = core_clusters[k]});
  }
  for (int cluster = 0; cluster <= *std::max_element(core_clusters.begin(), core_clusters.end()); ++cluster) {
    platform::NumaNodeFacts node;
    node.os_index = static_cast<unsigned>(cluster);
    node.bytes = std::uint64_t{16} << 30;
    for (std::size_t k = 0; k < core_clusters.size(); ++k) {
      if (core_clusters[k] == cluster) node.cpus.push_back(static_cast<unsigned>(k));
    }
    facts.numa_nodes.push_back(node);
  }
  return platform::Topology::from_facts(facts);
}

TEST(SessionTeams, FirstTouchPlacementIsSharedWithinOneMemoryLocalityOnly) {
  const platform::Topology one_node = machine({0, 0, 0, 0});
  EXPECT_TRUE(share_first_touch_placement(one_node, {{0}, {1}, {2}, {3}}));
  const platform::Topology two_sockets = machine({0, 0, 1, 1});
  EXPECT_TRUE(share_first_touch_placement(two_sockets, {{0}, {1}}));
  EXPECT_TRUE(share_first_touch_placement(two_sockets, {{2}, {3}, {2}}));
  EXPECT_FALSE(share_first_touch_placement(two_sockets, {{1}, {2}}));
  EXPECT_FALSE(share_first_touch_placement(two_sockets, {{0}, {4}}));     // not a core of this machine
  EXPECT_FALSE(share_first_touch_placement(two_sockets, {{0}, {0, 1}}));  // PUs of no one core
  EXPECT_TRUE(share_first_touch_placement(two_sockets, {}));
}

// The cores that may fault a team's fresh pages in: every allowed core of the team's one memory locality.
TEST(SessionTeams, FirstTouchMatesAreTheAllowedCoresOfTheTeamsLocality) {
  const platform::Topology one_node = machine({0, 0, 0, 0});
  const std::vector<std::vector<unsigned>> all{{0}, {1}, {2}, {3}};
  EXPECT_EQ(first_touch_mates(one_node, all, {{1}}), (std::vector<unsigned>{0, 1, 2, 3}));
  const platform::Topology two_sockets = machine({0, 0, 1, 1});
  EXPECT_EQ(first_touch_mates(two_sockets, all, {{2}}), (std::vector<unsigned>{2, 3}));
  EXPECT_EQ(first_touch_mates(two_sockets, all, {{0}, {1}}), (std::vector<unsigned>{0, 1}));
  EXPECT_TRUE(first_touch_mates(two_sockets, all, {{1}, {2}}).empty());  // the team spans two localities
  EXPECT_TRUE(first_touch_mates(two_sockets, all, {}).empty());
  // Indices into the allowed cores, which a cpuset may thin out.
  EXPECT_EQ(first_touch_mates(two_sockets, {{0}, {2}, {3}}, {{3}}), (std::vector<unsigned>{1, 2}));
}

// A one-core team's fresh arrays are faulted in by every core of its locality first (and spmv's matrix built by
// them, in pieces: 8 MiB arrays are many); a team that already has them all faults its own. Either way every
// kernel validates.
TEST(SessionTeams, WiderMatesFaultTheFreshPagesInAndTheKernelsStillValidate) {
  const auto allowed = platform::allowed_cores();
  const std::size_t mates =
      first_touch_mates(platform::Topology::this_system(), allowed, {allowed.at(0)}).size();
  for (const char* kernel : {"triad", "stencil", "spmv"}) {
    TestTierBackend backend({2.5, true}, TestTierBackend::Layout::contiguous);
    StreamConfig config = one_core_config(kernel);
    config.array_bytes = std::size_t{8} << 20;
    StreamSession session(config, backend);
    EXPECT_EQ(session.counts().prefaulted, mates > 1 ? 1U : 0U) << kernel;
    const StreamResult result = session.measure({0.5, 2, 1});
    EXPECT_TRUE(result.validated) << kernel << ": " << result.validation_message;
    EXPECT_TRUE(session.finish().validated) << kernel;
  }
  if (!two_cores_allowed() || mates < 2) return;
  StreamConfig both = one_core_config("triad");
  both.threads = 2;
  both.cores = {0, 1};
  TestTierBackend backend;
  StreamSession session(both, backend);
  EXPECT_EQ(session.counts().prefaulted, mates > 2 ? 1U : 0U);
  EXPECT_TRUE(session.measure({0.0, 1, 0}).validated);
}

}  // namespace
}  // namespace cosched::stream
