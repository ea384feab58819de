#pragma once
// Which NUMA nodes are the fast tier (MCDRAM / HBM). Pure function of TopologyFacts: no hwloc, so unit tests
// feed it hand-made machines. The rules and the evidence behind them are in docs/platform.md.
#include <string>
#include <vector>

#include "cosched/platform/topology.hpp"

namespace cosched::platform::topology_detail {

struct NodeVerdict {
  MemoryTier tier = MemoryTier::slow;
  std::string reason;
};

// One verdict per facts.numa_nodes entry, same order.
[[nodiscard]] std::vector<NodeVerdict> classify_numa_nodes(const TopologyFacts& facts);

}  // namespace cosched::platform::topology_detail
