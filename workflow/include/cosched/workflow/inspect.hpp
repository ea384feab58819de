#pragma once
// What a node and a finished run say, read without running anything: `cosched topo` (the node's cores, NUMA nodes,
// memory tiers and modes) and `cosched report` (a launch journal, or a cluster plan folder's journals merged).
#include <string>

#include "cosched/common/reporter.hpp"

namespace cosched::workflow {

struct TopoOptions {
  bool json = false;           // the topology as JSON rather than a table
  bool platform_toml = false;  // this machine as a platform file instead
  std::string topology_xml;    // describe the machine saved in this hwloc XML instead of this one
};

void run_topo(const TopoOptions& options, Reporter& reporter);

struct ReportOptions {
  std::string journal;  // a journal, or a cluster plan folder
  bool json = false;    // one JSON object rather than text
};

void run_report(const ReportOptions& options, Reporter& reporter);

}  // namespace cosched::workflow
