#pragma once
// Reads a loaded hwloc topology into plain TopologyFacts (no interpretation happens here).
#include <hwloc.h>

#include <string>

#include "cosched/platform/topology.hpp"

namespace cosched::platform::topology_detail {

// Only cores with a PU in `usable` count, and only those PUs: this system passes usable_cpuset(), a saved XML
// its whole topology cpuset.
[[nodiscard]] TopologyFacts read_facts(hwloc_topology_t topology, std::string source, hwloc_const_cpuset_t usable);

}  // namespace cosched::platform::topology_detail
