// The numa backend's default nodes: the fast and slow tiers the topology classification finds on this system
// (hwloc facts + our fast-tier rules, see cosched/platform/topology.hpp).
#include "cosched/platform/topology.hpp"
#include "platform/tiers/numa_nodes.hpp"

namespace cosched::platform {

const TierNodes& detected_tier_nodes() {
  // Loading hwloc costs milliseconds and "auto" asks on every backend choice; the hardware does not change.
  static const TierNodes nodes = [] {
    const Topology topology = Topology::this_system();
    return TierNodes{topology.fast_nodes(), topology.slow_nodes()};
  }();
  return nodes;
}

}  // namespace cosched::platform
