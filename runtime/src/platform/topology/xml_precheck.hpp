#pragma once
// What a saved hwloc XML must pass before hwloc reads it (Topology::from_xml): hwloc trusts its own exports, so a
// hand-edited or hostile file can crash it (an object without complete_nodeset), overflow its stack (objects nested
// thousands deep) or be read wrongly without a word (a negative memory size wraps to 16 EiB, text reads as 0).
#include <string>

namespace cosched::platform::topology_detail {

// Reads `path` with libxml2's streaming reader (no recursion, no network, no entity expansion) and throws
// InputError("path:line", ...) for a file that is not well-formed XML, objects nested deeper than
// kMaxTopologyXmlDepth, a size, count or index attribute that is not a plain decimal number within its limit, or
// no NUMANode object (hwloc would print its own line before refusing it).
void precheck_topology_xml(const std::string& path);

}  // namespace cosched::platform::topology_detail
