#include "cosched/platform/topology_report.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cosched/platform/page_movers.hpp"

#include <algorithm>
#include <set>
#include <vector>

namespace cosched::platform {

namespace {

std::size_t distinct_l2_count(const Topology& topology) {
  std::set<unsigned> l2s;
  for (const auto& core : topology.cores()) l2s.insert(core.l2);
  return l2s.size();
}

// Only this machine's kernel can move its pages: a saved topology has no movers to report.
std::vector<PageMover> movers_of(const Topology& topology) {
  return topology.is_this_system() ? detect_page_movers() : std::vector<PageMover>{};
}

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1 << 30)); }

}  // namespace

std::string topology_json(const Topology& topology, const std::string& tier_backend) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& node : topology.numa_nodes()) {
    nodes.push_back({{"os_index", node.os_index},
                     {"bytes", node.bytes},
                     {"tier", to_string(node.tier)},
                     {"cpus", node.cpus},
                     {"subtype", node.subtype},
                     {"reason", node.reason}});
  }
  nlohmann::json movers = nlohmann::json::array();
  for (const PageMover& mover : movers_of(topology)) {
    movers.push_back({{"name", mover.name},
                      {"evidence", mover.evidence},
                      {"moves", mover.moves},
                      {"moves_bound_pages", mover.moves_bound_pages}});
  }
  const nlohmann::json json = {{"source", topology.source()},
                               {"cores", topology.cores().size()},
                               {"pus", topology.pu_count()},
                               {"l2_groups", distinct_l2_count(topology)},
                               {"cpu_model", topology.facts().cpu_model},
                               {"numa_nodes", nodes},
                               {"fast_nodes", topology.fast_nodes()},
                               {"fast_tier_bytes", topology.fast_tier_bytes()},
                               {"memory_mode", to_string(topology.memory_mode())},
                               {"memory_mode_reason", topology.memory_mode_reason()},
                               {"cluster_mode", to_string(topology.cluster_mode())},
                               {"cluster_mode_reason", topology.cluster_mode_reason()},
                               {"tier_backend", tier_backend},
                               {"page_movers", movers}};
  return json.dump(2);
}

std::string format_topology(const Topology& topology, const std::string& tier_backend) {
  std::string text = fmt::format("source        {}\n", topology.source());
  if (!topology.facts().cpu_model.empty()) text += fmt::format("cpu           {}\n", topology.facts().cpu_model);
  text += fmt::format("cores / PUs   {} / {} ({} L2 groups){}\n", topology.cores().size(), topology.pu_count(),
                      distinct_l2_count(topology), topology.is_this_system() ? ", usable by this process" : "");
  text += fmt::format("memory mode   {} ({})\n", to_string(topology.memory_mode()), topology.memory_mode_reason());
  text += fmt::format("cluster mode  {} ({})\n", to_string(topology.cluster_mode()), topology.cluster_mode_reason());
  if (topology.has_fast_tier()) {
    text += fmt::format("fast tier     {} in node(s) {}\n", gib(topology.fast_tier_bytes()),
                        to_range_text(topology.fast_nodes()));
  } else {
    text += "fast tier     none\n";
  }
  text += fmt::format("tier backend  {} (what --tier-backend auto picks)\n", tier_backend);
  if (topology.is_this_system()) {
    const std::vector<PageMover> movers = movers_of(topology);
    if (movers.empty()) text += "page movers   none (no NUMA balancing, demotion, DAMON migration or numad)\n";
    for (std::size_t i = 0; i < movers.size(); ++i) {
      text += fmt::format("{}{}: {} ({}){}\n", i == 0 ? "page movers   " : "              ", movers[i].name,
                          movers[i].moves, movers[i].evidence,
                          movers[i].moves_bound_pages ? " -- real tiers are refused" : "");
    }
  }
  text += "\n";
  std::vector<std::string> cpus;
  std::size_t cpus_width = 4;
  for (const auto& node : topology.numa_nodes()) {
    cpus.push_back(node.cpus.empty() ? "-" : to_range_text(node.cpus));
    cpus_width = std::max(cpus_width, cpus.back().size());
  }
  text += fmt::format("{:>4}  {:>10}  {:<4}  {:<{}}  {}\n", "node", "size", "tier", "cpus", cpus_width, "reason");
  for (std::size_t i = 0; i < topology.numa_nodes().size(); ++i) {
    const auto& node = topology.numa_nodes()[i];
    text += fmt::format("{:>4}  {:>10}  {:<4}  {:<{}}  {}\n", node.os_index, gib(node.bytes), to_string(node.tier),
                        cpus[i], cpus_width, node.reason);
  }
  return text;
}

}  // namespace cosched::platform
