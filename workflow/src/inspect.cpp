// What a node and a finished run say (cosched/workflow/inspect.hpp).
#include "cosched/workflow/inspect.hpp"

#include <filesystem>

#include "cosched/config/platform.hpp"
#include "cosched/launcher/cluster/cluster_report.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/platform/topology_report.hpp"

namespace cosched::workflow {

void run_topo(const TopoOptions& options, Reporter& reporter) {
  if (options.platform_toml) {
    reporter.result({"platform-toml", config::to_toml(config::this_machine_platform()), nullptr});
    return;
  }
  const platform::Topology topology = options.topology_xml.empty()
                                          ? platform::Topology::this_system()
                                          : platform::Topology::from_xml(options.topology_xml);
  const std::string backend = platform::auto_tier_backend_name(topology);
  const std::string json = platform::topology_json(topology, backend);
  reporter.result({"topology", options.json ? json + "\n" : platform::format_topology(topology, backend),
                   nlohmann::json::parse(json)});
}

void run_report(const ReportOptions& options, Reporter& reporter) {
  // A folder is a cluster plan (or a `demo --slurm` output): its node journals merged.
  std::error_code error;
  if (std::filesystem::is_directory(options.journal, error)) {
    const auto merged = launcher::summarize_cluster(options.journal);
    const nlohmann::json json = launcher::to_json(merged);
    reporter.result(
        {"cluster-report", options.json ? json.dump(2) + "\n" : launcher::format_cluster_report(merged), json});
    return;
  }
  const auto report = launcher::summarize_journal(options.journal);
  const nlohmann::json json = launcher::to_json(report);
  reporter.result({"journal-report", options.json ? json.dump(2) + "\n" : launcher::format_report(report), json});
}

}  // namespace cosched::workflow
