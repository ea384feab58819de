#pragma once
// What a node offers, as `cosched topo` shows it: cores and PUs, L2 groups, memory and cluster modes with their
// reasons, every NUMA node with its tier and why, the fast tier, the tier backend "auto" picks there, and on this
// system what may move a placed task's pages (page_movers.hpp) — as
// JSON for scripts and as a table for a person.
#include <string>

#include "cosched/platform/topology.hpp"

namespace cosched::platform {

// The JSON object (two-space indented text, no final newline): source, cores, pus, l2_groups, cpu_model,
// numa_nodes (os_index, bytes, tier, cpus, subtype, reason), fast_nodes, fast_tier_bytes, memory_mode(_reason),
// cluster_mode(_reason), tier_backend, page_movers (this system only; name, evidence, moves, moves_bound_pages:
// page_movers.hpp).
[[nodiscard]] std::string topology_json(const Topology& topology, const std::string& tier_backend);

// The same facts as lines for a person, then one row per NUMA node.
[[nodiscard]] std::string format_topology(const Topology& topology, const std::string& tier_backend);

}  // namespace cosched::platform
