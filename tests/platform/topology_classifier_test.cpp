// The fast-tier and mode rules on hand-made machines (no hwloc involved).
#include <gtest/gtest.h>

#include "cosched/platform/topology.hpp"

namespace cosched::platform {
namespace {

constexpr std::uint64_t gib = std::uint64_t{1} << 30;

std::vector<unsigned> range(unsigned first, unsigned end) {
  std::vector<unsigned> values;
  for (unsigned i = first; i < end; ++i) values.push_back(i);
  return values;
}

NumaNodeFacts node(unsigned os_index, double size_gib, std::vector<unsigned> cpus, std::string subtype = "") {
  return {.os_index = os_index,
          .bytes = static_cast<std::uint64_t>(size_gib * static_cast<double>(gib)),
          .cpus = std::move(cpus),
          .subtype = std::move(subtype),
          .bandwidth_mib_s = std::nullopt};
}

TopologyFacts two_socket_xeon() {
  TopologyFacts facts;
  facts.source = "hand-made 2-socket Xeon";
  facts.numa_nodes = {node(0, 45.3, range(0, 24)), node(1, 47.2, range(24, 48))};
  facts.distances = {{10, 21}, {21, 10}};
  facts.packages = 2;
  return facts;
}

TopologyFacts flat_quadrant_knl() {
  TopologyFacts facts;
  facts.source = "hand-made KNL flat quadrant";
  facts.numa_nodes = {node(0, 94.1, range(0, 272)), node(1, 15.7, {})};
  facts.distances = {{10, 31}, {31, 10}};
  facts.packages = 1;
  return facts;
}

TEST(TopologyClassifierTest, TwoSocketXeonHasNoFastNode) {
  const auto topology = Topology::from_facts(two_socket_xeon());
  EXPECT_TRUE(topology.fast_nodes().empty());
  EXPECT_EQ(topology.fast_tier_bytes(), 0U);
  EXPECT_EQ(topology.memory_mode(), MemoryMode::none);
  EXPECT_EQ(topology.cluster_mode(), ClusterMode::unknown);
  EXPECT_EQ(topology.nearest_fast_node(0), std::nullopt);
}

TEST(TopologyClassifierTest, SmallSocketsAreStillNotFast) {
  auto facts = two_socket_xeon();
  for (auto& n : facts.numa_nodes) n.bytes = 8 * gib;  // HBM-sized, but each node has its own CPUs
  EXPECT_TRUE(Topology::from_facts(facts).fast_nodes().empty());
}

TEST(TopologyClassifierTest, CpuLessSmallFarNodeIsFast) {
  const auto topology = Topology::from_facts(flat_quadrant_knl());
  EXPECT_EQ(topology.fast_nodes(), std::vector<unsigned>{1});
  EXPECT_EQ(topology.memory_mode(), MemoryMode::flat);
  EXPECT_EQ(topology.cluster_mode(), ClusterMode::quadrant);
  EXPECT_NE(topology.numa_node(1)->reason.find("CPU-less"), std::string::npos) << topology.numa_node(1)->reason;
  EXPECT_NE(topology.numa_node(1)->reason.find("SLIT 31"), std::string::npos) << topology.numa_node(1)->reason;
}

TEST(TopologyClassifierTest, LargeCpuLessNodeIsNotFast) {
  auto facts = flat_quadrant_knl();
  facts.numa_nodes[1].bytes = 128 * gib;  // CXL-like memory expander: CPU-less and far, but big
  const auto topology = Topology::from_facts(facts);
  EXPECT_TRUE(topology.fast_nodes().empty());
  EXPECT_NE(topology.numa_node(1)->reason.find("too large"), std::string::npos) << topology.numa_node(1)->reason;
}

TEST(TopologyClassifierTest, CpuLessNodeAtLocalDistanceIsNotFast) {
  auto facts = flat_quadrant_knl();
  facts.distances = {{10, 10}, {10, 10}};
  EXPECT_TRUE(Topology::from_facts(facts).fast_nodes().empty());
}

TEST(TopologyClassifierTest, WithoutSlitStructureAndSizeDecide) {
  auto facts = flat_quadrant_knl();
  facts.distances.clear();
  EXPECT_EQ(Topology::from_facts(facts).fast_nodes(), std::vector<unsigned>{1});
}

TEST(TopologyClassifierTest, SubtypeDecidesAlone) {
  auto facts = two_socket_xeon();
  facts.numa_nodes[1].subtype = "HBM";
  EXPECT_EQ(Topology::from_facts(facts).fast_nodes(), std::vector<unsigned>{1});
  auto dram = flat_quadrant_knl();
  dram.numa_nodes[1].subtype = "DRAM";  // hwloc says it is ordinary memory: believe it over the shape
  EXPECT_TRUE(Topology::from_facts(dram).fast_nodes().empty());
}

TEST(TopologyClassifierTest, BandwidthAttributesDecideWhenPresent) {
  auto facts = two_socket_xeon();
  facts.numa_nodes[0].bandwidth_mib_s = 90000;
  facts.numa_nodes[1].bandwidth_mib_s = 360000;
  EXPECT_EQ(Topology::from_facts(facts).fast_nodes(), std::vector<unsigned>{1});
  auto knl = flat_quadrant_knl();  // equal bandwidth overrules the KNL-like shape
  knl.numa_nodes[0].bandwidth_mib_s = 100000;
  knl.numa_nodes[1].bandwidth_mib_s = 110000;
  EXPECT_TRUE(Topology::from_facts(knl).fast_nodes().empty());
}

TEST(TopologyClassifierTest, SncClustersWithSharedCpusets) {
  TopologyFacts facts;
  facts.packages = 1;
  for (unsigned c = 0; c < 4; ++c) facts.numa_nodes.push_back(node(c, 23.6, range(16 * c, 16 * c + 16)));
  for (unsigned c = 0; c < 4; ++c) facts.numa_nodes.push_back(node(c + 4, 3.9, range(16 * c, 16 * c + 16)));
  facts.distances.assign(8, std::vector<unsigned>(8, 0));
  for (unsigned i = 0; i < 8; ++i) {
    for (unsigned j = 0; j < 8; ++j) {
      const bool same_cluster = i % 4 == j % 4;
      const bool j_mcdram = j >= 4 || i >= 4;
      facts.distances[i][j] = i == j ? 10 : (j_mcdram ? (same_cluster ? 31 : 41) : 21);
    }
  }
  const auto topology = Topology::from_facts(facts);
  EXPECT_EQ(topology.fast_nodes(), (std::vector<unsigned>{4, 5, 6, 7}));
  EXPECT_EQ(topology.cluster_mode(), ClusterMode::snc4);
  EXPECT_EQ(topology.memory_mode(), MemoryMode::flat);
  EXPECT_EQ(topology.nearest_fast_node(2), 6U);
}

TEST(TopologyClassifierTest, MemorySideCacheWithoutFastNodeIsCacheMode) {
  TopologyFacts facts;
  facts.numa_nodes = {node(0, 94.0, range(0, 272))};
  facts.memory_side_cache_bytes = 16 * gib;
  facts.packages = 1;
  const auto topology = Topology::from_facts(facts);
  EXPECT_TRUE(topology.fast_nodes().empty());
  EXPECT_EQ(topology.memory_mode(), MemoryMode::cache);
  EXPECT_EQ(topology.cluster_mode(), ClusterMode::quadrant);
}

TEST(TopologyClassifierTest, FastNodeAndMemorySideCacheIsHybrid) {
  auto facts = flat_quadrant_knl();
  facts.memory_side_cache_bytes = 8 * gib;
  EXPECT_EQ(Topology::from_facts(facts).memory_mode(), MemoryMode::hybrid);
}

TEST(TopologyClassifierTest, BiosInfoWinsOverInference) {
  auto facts = flat_quadrant_knl();
  facts.memory_mode_info = "Hybrid25";
  facts.cluster_mode_info = "SNC-2";
  const auto topology = Topology::from_facts(facts);
  EXPECT_EQ(topology.memory_mode(), MemoryMode::hybrid);
  EXPECT_EQ(topology.cluster_mode(), ClusterMode::snc2);
  facts.cluster_mode_info = "Hemisphere";
  EXPECT_EQ(Topology::from_facts(facts).cluster_mode(), ClusterMode::hemisphere);
}

TEST(TopologyClassifierTest, UnrecognisedBiosInfoFallsBackToInference) {
  auto facts = flat_quadrant_knl();
  facts.memory_mode_info = "Mystery";
  const auto topology = Topology::from_facts(facts);
  EXPECT_EQ(topology.memory_mode(), MemoryMode::flat);
  EXPECT_NE(topology.memory_mode_reason().find("Mystery"), std::string::npos);
}

TEST(TopologyClassifierTest, CoresGetDenseIdsAndUnknownL2sStaySeparate) {
  TopologyFacts facts;
  facts.numa_nodes = {node(0, 16, range(0, 4))};
  facts.cores = {{.pus = {0}, .l2 = 7, .cluster = 3, .package = 0},
                 {.pus = {1}, .l2 = 7, .cluster = 3, .package = 0},
                 {.pus = {2}, .l2 = -1, .cluster = -1, .package = -1},
                 {.pus = {3}, .l2 = -1, .cluster = -1, .package = -1}};
  const auto topology = Topology::from_facts(facts);
  ASSERT_EQ(topology.cores().size(), 4U);
  EXPECT_EQ(topology.cores()[0].l2, topology.cores()[1].l2);
  EXPECT_NE(topology.cores()[2].l2, topology.cores()[3].l2);
  EXPECT_NE(topology.cores()[2].l2, topology.cores()[0].l2);
  EXPECT_EQ(topology.cores()[3].index, 3U);
  EXPECT_EQ(topology.pus(), range(0, 4));
}

TEST(TopologyClassifierTest, RangeText) {
  EXPECT_EQ(to_range_text({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(to_range_text({}), "");
  EXPECT_EQ(to_range_text({5}), "5");
}

}  // namespace
}  // namespace cosched::platform
