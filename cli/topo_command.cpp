// `cosched topo`: what the node offers — cores, NUMA nodes with their tier and why, KNL modes, the tier backend
// "auto" picks. `--json` for scripts, `--topology-xml FILE` to describe a saved machine instead of this one,
// `--platform-toml` to print this machine as a platform file (configs/platforms/, docs/formats.md).
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"

namespace cosched::cli {
namespace {

using platform::Topology;

std::size_t distinct_l2_count(const Topology& topology) {
  std::set<unsigned> l2s;
  for (const auto& core : topology.cores()) l2s.insert(core.l2);
  return l2s.size();
}

nlohmann::json to_json(const Topology& topology, const std::string& tier_backend) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& node : topology.numa_nodes()) {
    nodes.push_back({{"os_index", node.os_index},
                     {"bytes", node.bytes},
                     {"tier", platform::to_string(node.tier)},
                     {"cpus", node.cpus},
                     {"subtype", node.subtype},
                     {"reason", node.reason}});
  }
  return {{"source", topology.source()},
          {"cores", topology.cores().size()},
          {"pus", topology.pu_count()},
          {"l2_groups", distinct_l2_count(topology)},
          {"cpu_model", topology.facts().cpu_model},
          {"numa_nodes", nodes},
          {"fast_nodes", topology.fast_nodes()},
          {"fast_tier_bytes", topology.fast_tier_bytes()},
          {"memory_mode", platform::to_string(topology.memory_mode())},
          {"memory_mode_reason", topology.memory_mode_reason()},
          {"cluster_mode", platform::to_string(topology.cluster_mode())},
          {"cluster_mode_reason", topology.cluster_mode_reason()},
          {"tier_backend", tier_backend}};
}

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1 << 30)); }

void print_for_a_person(const Topology& topology, const std::string& tier_backend) {
  fmt::print("source        {}\n", topology.source());
  if (!topology.facts().cpu_model.empty()) fmt::print("cpu           {}\n", topology.facts().cpu_model);
  fmt::print("cores / PUs   {} / {} ({} L2 groups){}\n", topology.cores().size(), topology.pu_count(),
             distinct_l2_count(topology), topology.is_this_system() ? ", usable by this process" : "");
  fmt::print("memory mode   {} ({})\n", platform::to_string(topology.memory_mode()), topology.memory_mode_reason());
  fmt::print("cluster mode  {} ({})\n", platform::to_string(topology.cluster_mode()),
             topology.cluster_mode_reason());
  if (topology.has_fast_tier()) {
    fmt::print("fast tier     {} in node(s) {}\n", gib(topology.fast_tier_bytes()),
               platform::to_range_text(topology.fast_nodes()));
  } else {
    fmt::print("fast tier     none\n");
  }
  fmt::print("tier backend  {} (what --tier-backend auto picks)\n\n", tier_backend);
  std::vector<std::string> cpus;
  std::size_t cpus_width = 4;
  for (const auto& node : topology.numa_nodes()) {
    cpus.push_back(node.cpus.empty() ? "-" : platform::to_range_text(node.cpus));
    cpus_width = std::max(cpus_width, cpus.back().size());
  }
  fmt::print("{:>4}  {:>10}  {:<4}  {:<{}}  {}\n", "node", "size", "tier", "cpus", cpus_width, "reason");
  for (std::size_t i = 0; i < topology.numa_nodes().size(); ++i) {
    const auto& node = topology.numa_nodes()[i];
    fmt::print("{:>4}  {:>10}  {:<4}  {:<{}}  {}\n", node.os_index, gib(node.bytes), platform::to_string(node.tier),
               cpus[i], cpus_width, node.reason);
  }
}

struct TopoOptions {
  bool json = false;
  bool platform_toml = false;
  std::string topology_xml;
};

const CommandRegistration registration{"topo", [](CLI::App& app) {
  auto options = std::make_shared<TopoOptions>();
  CLI::App* command = app.add_subcommand("topo", "Show the cores, NUMA nodes, memory tiers and modes of the node");
  command->add_flag("--json", options->json, "Print JSON instead of a table");
  auto* xml = command->add_option("--topology-xml", options->topology_xml,
                                  "Describe the machine saved in this hwloc XML file instead of this system");
  command->add_flag("--platform-toml", options->platform_toml,
                    "Print this machine as a platform TOML: its cores, the fast tier \"auto\" picks, 20 chunks")
      ->excludes(xml);
  command->callback([options] {
    if (options->platform_toml) {
      fmt::print("{}", config::to_toml(config::this_machine_platform()));
      return;
    }
    const Topology topology = options->topology_xml.empty() ? Topology::this_system()
                                                            : Topology::from_xml(options->topology_xml);
    const std::string backend = platform::auto_tier_backend_name(topology);
    if (options->json) {
      fmt::print("{}\n", to_json(topology, backend).dump(2));
    } else {
      print_for_a_person(topology, backend);
    }
  });
}};

}  // namespace
}  // namespace cosched::cli
