#include "platform/tiers/numa_nodes.hpp"

#include <numa.h>

#include <algorithm>
#include <memory>
#include <string>

#include "cosched/common/error.hpp"

namespace cosched::platform::tiers {

namespace {

void check_node(unsigned node, const bitmask& allowed, const char* tier) {
  const std::string what = std::string("tier backend \"numa\": ") + tier + " NUMA node " + std::to_string(node);
  if (node > static_cast<unsigned>(numa_max_node())) {
    throw ResourceError(what + " does not exist (highest node is " + std::to_string(numa_max_node()) + ")");
  }
  if (numa_bitmask_isbitset(&allowed, node) == 0) {
    throw ResourceError(what + " is not in this process's allowed memory nodes (cpuset / cgroup)");
  }
  if (numa_node_size64(static_cast<int>(node), nullptr) <= 0) throw ResourceError(what + " has no memory");
}

}  // namespace

TierNodes numa_tier_nodes(const TierOptions& options) {
  if (numa_available() < 0) throw ResourceError("tier backend \"numa\": the kernel has no NUMA support");
  TierNodes nodes{options.fast_nodes, options.slow_nodes};
  if (nodes.fast.empty()) nodes.fast = detected_tier_nodes().fast;
  if (nodes.slow.empty()) nodes.slow = detected_tier_nodes().slow;
  if (nodes.fast.empty()) {
    throw ResourceError("tier backend \"numa\": no fast NUMA node given or detected on this machine");
  }
  if (nodes.slow.empty()) {
    throw ResourceError("tier backend \"numa\": no slow NUMA node given or detected on this machine");
  }
  const std::unique_ptr<bitmask, decltype(&numa_bitmask_free)> allowed(numa_get_mems_allowed(),
                                                                        &numa_bitmask_free);
  for (unsigned node : nodes.fast) check_node(node, *allowed, "fast");
  for (unsigned node : nodes.slow) check_node(node, *allowed, "slow");
  std::ranges::sort(nodes.fast);
  std::ranges::sort(nodes.slow);
  return nodes;
}

}  // namespace cosched::platform::tiers
