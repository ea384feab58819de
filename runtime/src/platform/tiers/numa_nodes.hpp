#pragma once
// Which NUMA nodes the numa backend binds to: the ones given in TierOptions, else the fast and slow tiers the
// topology classification found on this system. Validated against what this process may allocate from.
#include <vector>

#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform::tiers {

// Nodes for the numa backend. Throws ResourceError when libnuma is unavailable, no fast node is given or
// detected, or a node is absent, memory-less or not in this process's allowed memory (cgroup cpuset).
[[nodiscard]] TierNodes numa_tier_nodes(const TierOptions& options);

}  // namespace cosched::platform::tiers
