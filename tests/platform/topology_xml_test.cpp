// Every saved machine in tests/data/topologies/ must be classified as its README says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <unistd.h>

#include "cosched/common/error.hpp"
#include "cosched/platform/topology.hpp"
#include "support/test_data.hpp"

namespace cosched::platform {
namespace {

const std::filesystem::path topology_dir = test::test_data_file("topologies");
constexpr double gib = 1024.0 * 1024.0 * 1024.0;

struct Expected {
  std::size_t cores;
  std::size_t pus;
  std::size_t numa_nodes;
  std::vector<unsigned> fast_nodes;
  double fast_node_gib;  // size of each fast node (README value), 0 when none
  MemoryMode memory_mode;
  ClusterMode cluster_mode;
  std::size_t l2_groups;  // distinct L2 caches over cores (KNL: tiles of 2 cores)
};

// From tests/data/README.md.
const std::map<std::string, Expected>& expectations() {
  static const std::map<std::string, Expected> table{
      {"knl-7250-68c-flat-quadrant.xml", {68, 272, 2, {1}, 15.7, MemoryMode::flat, ClusterMode::quadrant, 34}},
      {"knl-64c-flat-quadrant.xml", {64, 256, 2, {1}, 15.7, MemoryMode::flat, ClusterMode::quadrant, 32}},
      {"knl-64c-flat-snc4.xml", {64, 256, 8, {4, 5, 6, 7}, 3.9, MemoryMode::flat, ClusterMode::snc4, 32}},
      {"knl-7250F-68c-cache-quadrant.xml", {68, 272, 1, {}, 0, MemoryMode::cache, ClusterMode::quadrant, 34}},
      {"knl-fake16c-snc4-hybrid50-mcdram-memattrs.xml",
       {16, 64, 8, {4, 5, 6, 7}, 2.0, MemoryMode::hybrid, ClusterMode::snc4, 8}},
      {"knl-fake4c-a2a-hybrid50-mcdram.xml", {4, 8, 2, {1}, 8.0, MemoryMode::hybrid, ClusterMode::all_to_all, 2}},
      {"xeonmax-9462-2s-flat-hbm.xml",
       {64, 128, 16, {8, 9, 10, 11, 12, 13, 14, 15}, 16.0, MemoryMode::flat, ClusterMode::snc4, 64}},
      {"xeon-8168-2s-skylake.xml", {48, 96, 2, {}, 0, MemoryMode::none, ClusterMode::unknown, 48}},
  };
  return table;
}

// The test parameters come from the table, not from listing the folder: test discovery runs this binary at build
// time and must not touch the file system (a missing folder would abort it).
std::vector<std::string> expected_files() {
  std::vector<std::string> names;
  for (const auto& [name, expected] : expectations()) names.push_back(name);
  return names;
}

std::vector<std::string> xml_files_in_folder() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(topology_dir)) {
    if (entry.path().extension() == ".xml") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(TopologyXmlFilesTest, EverySharedXmlHasExpectations) {
  EXPECT_EQ(xml_files_in_folder(), expected_files()) << topology_dir;
}

class TopologyXmlTest : public ::testing::TestWithParam<std::string> {
 protected:
  [[nodiscard]] Topology load() const { return Topology::from_xml((topology_dir / GetParam()).string()); }
  [[nodiscard]] const Expected& expected() const { return expectations().at(GetParam()); }
};

TEST_P(TopologyXmlTest, CountsCoresAndPus) {
  const auto topology = load();
  EXPECT_EQ(topology.cores().size(), expected().cores);
  EXPECT_EQ(topology.pu_count(), expected().pus);
  EXPECT_EQ(topology.pus().size(), expected().pus);
  EXPECT_EQ(topology.numa_nodes().size(), expected().numa_nodes);
  EXPECT_EQ(topology.source(), (topology_dir / GetParam()).string());
  EXPECT_FALSE(topology.is_this_system());
}

TEST_P(TopologyXmlTest, FindsTheFastTier) {
  const auto topology = load();
  EXPECT_EQ(topology.fast_nodes(), expected().fast_nodes);
  for (unsigned id : topology.fast_nodes()) {
    const auto* node = topology.numa_node(id);
    ASSERT_NE(node, nullptr);
    EXPECT_NEAR(static_cast<double>(node->bytes) / gib, expected().fast_node_gib, 0.06) << "node " << id;
  }
  const double total = expected().fast_node_gib * static_cast<double>(expected().fast_nodes.size());
  EXPECT_NEAR(static_cast<double>(topology.fast_tier_bytes()) / gib, total, 0.25);
  EXPECT_EQ(topology.has_fast_tier(), !expected().fast_nodes.empty());
  for (const auto& node : topology.numa_nodes()) EXPECT_FALSE(node.reason.empty()) << "node " << node.os_index;
}

TEST_P(TopologyXmlTest, TellsTheModes) {
  const auto topology = load();
  EXPECT_EQ(topology.memory_mode(), expected().memory_mode) << topology.memory_mode_reason();
  EXPECT_EQ(topology.cluster_mode(), expected().cluster_mode) << topology.cluster_mode_reason();
  EXPECT_FALSE(topology.memory_mode_reason().empty());
  EXPECT_FALSE(topology.cluster_mode_reason().empty());
}

TEST_P(TopologyXmlTest, GroupsCoresByL2) {
  const auto topology = load();
  std::set<unsigned> l2s;
  for (const auto& core : topology.cores()) l2s.insert(core.l2);
  EXPECT_EQ(l2s.size(), expected().l2_groups);
}

TEST_P(TopologyXmlTest, EveryPuBelongsToExactlyOneCore) {
  const auto topology = load();
  std::set<unsigned> seen;
  for (const auto& core : topology.cores()) {
    ASSERT_FALSE(core.pus.empty());
    for (unsigned pu : core.pus) EXPECT_TRUE(seen.insert(pu).second) << "PU " << pu << " twice";
  }
}

INSTANTIATE_TEST_SUITE_P(SharedTopologies, TopologyXmlTest, ::testing::ValuesIn(expected_files()),
                         [](const auto& test_param) {
                           std::string name = test_param.param.substr(0, test_param.param.size() - 4);
                           for (char& c : name) {
                             if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
                           }
                           return name;
                         });

TEST(TopologyXmlSnc4Test, EachFastNodeIsNearestToItsOwnCluster) {
  const auto topology = Topology::from_xml((topology_dir / "knl-64c-flat-snc4.xml").string());
  for (unsigned ddr = 0; ddr < 4; ++ddr) EXPECT_EQ(topology.nearest_fast_node(ddr), ddr + 4);
  EXPECT_EQ(topology.nearest_fast_node(5), 5U);
}

TEST(TopologyXmlFlatQuadrantTest, CpuLessMcdramIsNearestToDdr) {
  const auto topology = Topology::from_xml((topology_dir / "knl-7250-68c-flat-quadrant.xml").string());
  EXPECT_EQ(topology.nearest_fast_node(0), 1U);
  EXPECT_TRUE(topology.numa_node(1)->cpus.empty());
  EXPECT_EQ(topology.numa_node(0)->cpus.size(), 272U);
}

TEST(TopologyXmlErrorsTest, MissingFileIsAnInputErrorNamingIt) {
  const std::string path = "/nonexistent/cosched-topology.xml";
  try {
    (void)Topology::from_xml(path);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
  }
}

TEST(TopologyXmlErrorsTest, UnparsableFileIsAnInputErrorNamingIt) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("cosched-topology-bad-" + std::to_string(getpid()) + ".xml");
  {
    std::ofstream out(path);
    out << "<?xml version=\"1.0\"?>\n<topology><object type=\"Machine\"\n this is not xml";
  }
  try {
    (void)Topology::from_xml(path.string());
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
  }
  std::filesystem::remove(path);
}

TEST(TopologyXmlErrorsTest, DirectoryIsAnInputError) {
  EXPECT_THROW((void)Topology::from_xml(topology_dir.string()), InputError);
}

}  // namespace
}  // namespace cosched::platform
