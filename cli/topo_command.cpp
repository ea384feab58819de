// `cosched topo`: what the node offers — cores, NUMA nodes with their tier and why, KNL modes, the tier backend
// "auto" picks. `--json` for scripts, `--topology-xml FILE` to describe a saved machine instead of this one,
// `--platform-toml` to print this machine as a platform file (configs/platforms/, docs/formats.md).
#include <fmt/core.h>

#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/platform/topology_report.hpp"

namespace cosched::cli {
namespace {

using platform::Topology;

struct TopoOptions {
  bool json = false;
  bool platform_toml = false;
  std::string topology_xml;
};

const CommandRegistration topo_registration{"topo", [](CLI::App& app) {
  auto options = std::make_shared<TopoOptions>();
  CLI::App* command = app.add_subcommand("topo", "Show the cores, NUMA nodes, memory tiers and modes of the node");
  command->add_flag("--json", options->json, "Print JSON instead of a table");
  auto* xml = command->add_option("--topology-xml", options->topology_xml,
                                  "Describe the machine saved in this hwloc XML file instead of this system");
  command->add_flag("--platform-toml", options->platform_toml,
                    "Print this machine as a platform TOML: its cores, the fast tier \"auto\" picks, 20 chunks")
      ->excludes(xml);
  command->callback([options] {
    if (options->platform_toml) {
      fmt::print("{}", config::to_toml(config::this_machine_platform()));
      return;
    }
    const Topology topology = options->topology_xml.empty() ? Topology::this_system()
                                                            : Topology::from_xml(options->topology_xml);
    const std::string backend = platform::auto_tier_backend_name(topology);
    if (options->json) {
      fmt::print("{}\n", platform::topology_json(topology, backend));
    } else {
      fmt::print("{}", platform::format_topology(topology, backend));
    }
  });
}};

}  // namespace
}  // namespace cosched::cli
