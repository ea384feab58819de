// What `cosched topo` shows of a node (platform/topology_report.hpp), from a saved KNL: the JSON carries the
// topology's own counts, nodes and modes and the backend it is given; the table has a line per fact and a row per
// NUMA node.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "cosched/platform/topology.hpp"
#include "cosched/platform/topology_report.hpp"
#include "support/test_data.hpp"

namespace cosched::platform {
namespace {

Topology knl() { return Topology::from_xml(test::topology_xml("knl-7250-68c-flat-quadrant.xml")); }

TEST(TopologyReport, TheJsonCarriesTheTopologysFacts) {
  const Topology topology = knl();
  const nlohmann::json json = nlohmann::json::parse(topology_json(topology, "a-backend"));
  EXPECT_EQ(json.at("source"), topology.source());
  EXPECT_EQ(json.at("cores"), topology.cores().size());
  EXPECT_EQ(json.at("pus"), topology.pu_count());
  EXPECT_EQ(json.at("numa_nodes").size(), topology.numa_nodes().size());
  EXPECT_EQ(json.at("fast_tier_bytes"), topology.fast_tier_bytes());
  EXPECT_EQ(json.at("memory_mode"), std::string(to_string(topology.memory_mode())));
  EXPECT_EQ(json.at("tier_backend"), "a-backend");
  for (std::size_t i = 0; i < topology.numa_nodes().size(); ++i) {
    EXPECT_EQ(json.at("numa_nodes")[i].at("tier"), std::string(to_string(topology.numa_nodes()[i].tier)));
  }
}

TEST(TopologyReport, TheTableHasAFactPerLineAndARowPerNode) {
  const Topology topology = knl();
  ASSERT_TRUE(topology.has_fast_tier());
  const std::string text = format_topology(topology, "a-backend");
  EXPECT_EQ(text.rfind("source        " + topology.source() + "\n", 0), 0u) << text;
  EXPECT_NE(text.find("fast tier     "), std::string::npos) << text;
  EXPECT_EQ(text.find("fast tier     none"), std::string::npos) << text;
  EXPECT_NE(text.find("tier backend  a-backend (what --tier-backend auto picks)\n\n"), std::string::npos) << text;
  std::istringstream lines(text.substr(text.find("\n\n") + 2));
  std::string line;
  std::size_t rows = 0;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_NE(line.find("node"), std::string::npos) << line;
  while (std::getline(lines, line)) ++rows;
  EXPECT_EQ(rows, topology.numa_nodes().size()) << text;
}

}  // namespace
}  // namespace cosched::platform
