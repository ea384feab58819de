// `cosched instance`: a workload (kernel x footprint x count) plus profile tables -> the Instance JSON of the
// scheduling core (docs/formats.md), unmeasured grid points filled by monotone interpolation (docs/profiler.md).
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/workflow/profiling.hpp"
#include "reporting.hpp"

namespace {

const cosched::cli::CommandRegistration instance_registration{"instance", [](CLI::App& app) {
  auto* sub = app.add_subcommand("instance", "Turn a workload and profile tables into an Instance JSON");
  auto flags = std::make_shared<cosched::workflow::InstanceOptions>();
  sub->add_option("--workload", flags->workload,
                  "Workload TOML (configs/workloads/) or JSON: STREAM tasks and profiled commands (\"profile\")")
      ->required();
  sub->add_option("--profiles", flags->profiles, "Profile CSVs (each with its JSON sidecar)")
      ->required()
      ->delimiter(',');
  sub->add_option("--platform", flags->platform, "Platform TOML: capacities of cores and fast chunks")->required();
  sub->add_option("--node", flags->node,
                  "Node TOML (`cosched calibrate`, configs/nodes/): adds the memory pools and each task's traffic, "
                  "for the contention-aware prediction and bw-list-lpt");
  sub->add_option("-o,--output", flags->output, "Instance JSON to write (default -: stdout)");
  sub->add_flag("--force", flags->force, "Replace an existing --output file");
  sub->callback([flags] {
    // What it says goes to stderr: the instance may go to stdout.
    const auto reporter = cosched::cli::command_reporter("console", {nullptr, stderr, nullptr});
    cosched::workflow::run_instance(*flags, *reporter);
  });
}};

}  // namespace
