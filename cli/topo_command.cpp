// `cosched topo`: what the node offers — cores, NUMA nodes with their tier and why, KNL modes, the tier backend
// "auto" picks. `--json` for scripts, `--topology-xml FILE` to describe a saved machine instead of this one,
// `--platform-toml` to print this machine as a platform file (configs/platforms/, docs/formats.md).
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/workflow/inspect.hpp"
#include "reporting.hpp"

namespace cosched::cli {
namespace {

const CommandRegistration topo_registration{"topo", [](CLI::App& app) {
  auto options = std::make_shared<workflow::TopoOptions>();
  CLI::App* command = app.add_subcommand("topo", "Show the cores, NUMA nodes, memory tiers and modes of the node");
  command->add_flag("--json", options->json, "Print JSON instead of a table");
  auto* xml = command->add_option("--topology-xml", options->topology_xml,
                                  "Describe the machine saved in this hwloc XML file instead of this system");
  command->add_flag("--platform-toml", options->platform_toml,
                    "Print this machine as a platform TOML: its cores, the fast tier \"auto\" picks, 20 chunks")
      ->excludes(xml);
  command->callback([options] {
    const auto reporter = command_reporter("console", {nullptr, stderr, stdout});
    workflow::run_topo(*options, *reporter);
  });
}};

}  // namespace
}  // namespace cosched::cli
