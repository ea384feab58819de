// This machine through hwloc, and `cosched topo` end to end.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <sys/wait.h>

#include "cosched/platform/binding.hpp"
#include "cosched/platform/topology.hpp"
#include "support/test_data.hpp"

namespace cosched::platform {
namespace {

TEST(TopologySystemTest, ThisSystemMatchesTheBindingView) {
  const auto here = Topology::this_system();
  EXPECT_TRUE(here.is_this_system());
  EXPECT_EQ(here.source(), "this system");
  EXPECT_EQ(here.pus(), allowed_pus());
  ASSERT_EQ(here.cores().size(), allowed_cores().size());
  for (std::size_t i = 0; i < here.cores().size(); ++i) EXPECT_EQ(here.cores()[i].pus, allowed_cores()[i]);
  ASSERT_FALSE(here.numa_nodes().empty());
  for (const auto& node : here.numa_nodes()) EXPECT_GT(node.bytes, 0U);
}

TEST(TopologySystemTest, ThisVmHasOneNodeAndNoFastTier) {
  // The build VM: one NUMA node, no MCDRAM/HBM. On a machine with fast memory this test does not apply.
  const auto here = Topology::this_system();
  if (here.numa_nodes().size() != 1) GTEST_SKIP() << "not the single-node build VM";
  EXPECT_TRUE(here.fast_nodes().empty());
  EXPECT_EQ(here.fast_tier_bytes(), 0U);
  EXPECT_EQ(here.memory_mode(), MemoryMode::none);
}

struct CommandResult {
  int exit_code = -1;
  std::string out;
};

// Runs cosched with `arguments`; `launcher` (e.g. "taskset -c 0") goes in front of it.
CommandResult run(const std::string& arguments, const std::string& launcher = "") {
  const std::string command = launcher + " " + COSCHED_BIN_DIR + "/cosched " + arguments + " 2>/dev/null";
  std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(command.c_str(), "r"), &pclose);
  if (!pipe) return {};
  CommandResult result;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) result.out += buffer.data();
  const int status = pclose(pipe.release());
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(TopoCommandTest, JsonForKnlSnc4) {
  const std::string xml = test::topology_xml("knl-64c-flat-snc4.xml");
  const auto result = run("topo --json --topology-xml " + xml);
  ASSERT_EQ(result.exit_code, 0) << result.out;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["cores"], 64);
  EXPECT_EQ(json["pus"], 256);
  EXPECT_EQ(json["memory_mode"], "flat");
  EXPECT_EQ(json["cluster_mode"], "SNC-4");
  EXPECT_EQ(json["source"], xml);
  EXPECT_EQ(json["tier_backend"], "numa");  // fast nodes found: numa before memkind (docs/memory-tiers.md)
  ASSERT_EQ(json["numa_nodes"].size(), 8U);
  std::uint64_t fast_bytes = 0;
  for (const auto& node : json["numa_nodes"]) {
    const unsigned id = node["os_index"];
    EXPECT_EQ(node["tier"], id >= 4 ? "fast" : "slow") << "node " << id;
    EXPECT_EQ(node["cpus"].size(), 64U);
    if (node["tier"] == "fast") fast_bytes += node["bytes"].get<std::uint64_t>();
  }
  EXPECT_EQ(json["fast_tier_bytes"], fast_bytes);
}

TEST(TopoCommandTest, JsonForXeonMaxPicksNumaAndXeonPicksEmulated) {
  const auto max = run("topo --json --topology-xml " + test::topology_xml("xeonmax-9462-2s-flat-hbm.xml"));
  ASSERT_EQ(max.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(max.out)["tier_backend"], "numa");
  const auto xeon = run("topo --json --topology-xml " + test::topology_xml("xeon-8168-2s-skylake.xml"));
  ASSERT_EQ(xeon.exit_code, 0);
  const auto json = nlohmann::json::parse(xeon.out);
  EXPECT_EQ(json["tier_backend"], "emulated");
  EXPECT_EQ(json["fast_tier_bytes"], 0);
}

TEST(TopoCommandTest, JsonForThisSystem) {
  const auto result = run("topo --json");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["source"], "this system");
  EXPECT_EQ(json["pus"], allowed_pus().size());
  EXPECT_TRUE(json["tier_backend"].is_string());
  EXPECT_FALSE(json["tier_backend"].get<std::string>().empty());
}

TEST(TopoCommandTest, OnlyAllowedPusCount) {
  // taskset narrows the process's cpuset like a cgroup or a Slurm allocation would.
  const auto result = run("topo --json", "taskset -c 0");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["pus"], 1);
  EXPECT_EQ(json["cores"], 1);
}

TEST(TopoCommandTest, TableNamesTheTiers) {
  const auto result = run("topo --topology-xml " + test::topology_xml("knl-7250-68c-flat-quadrant.xml"));
  ASSERT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("fast"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("quadrant"), std::string::npos) << result.out;
}

TEST(TopoCommandTest, BadXmlIsAnInputError) {
  EXPECT_EQ(run("topo --topology-xml /nonexistent/machine.xml").exit_code, 3);
  EXPECT_EQ(run("topo --json --topology-xml " COSCHED_SOURCE_DIR "/CMakeLists.txt").exit_code, 3);
}

}  // namespace
}  // namespace cosched::platform
