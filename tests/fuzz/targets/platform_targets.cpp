// hwloc topology XML (`cosched topo --topology-xml`): hwloc parses it, the platform layer classifies it.
#include "cosched/platform/topology.hpp"
#include "scratch_file.hpp"
#include "targets.hpp"

namespace cosched::fuzz {

void topology_xml(std::string_view input) {
  (void)platform::Topology::from_xml(scratch_file("topology.xml", input).string());
}

}  // namespace cosched::fuzz
