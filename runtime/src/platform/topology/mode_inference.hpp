#pragma once
// KNL-style memory mode (flat / cache / hybrid) and cluster mode (quadrant / SNC-k / ...): taken from the BIOS
// values hwloc exposes as root infos when present, else inferred from what the topology shows — and "unknown"
// when it cannot be told. Pure function of the facts and the fast-tier verdicts.
#include <string>
#include <vector>

#include "cosched/platform/topology.hpp"

namespace cosched::platform::topology_detail {

struct ModeVerdict {
  MemoryMode memory_mode = MemoryMode::unknown;
  std::string memory_reason;
  ClusterMode cluster_mode = ClusterMode::unknown;
  std::string cluster_reason;
};

// `tiers` holds one entry per facts.numa_nodes entry.
[[nodiscard]] ModeVerdict infer_modes(const TopologyFacts& facts, const std::vector<MemoryTier>& tiers);

}  // namespace cosched::platform::topology_detail
