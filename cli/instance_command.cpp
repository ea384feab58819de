// `cosched instance`: a workload (kernel x footprint x count) plus profile tables -> the Instance JSON of the
// scheduling core (docs/formats.md), unmeasured grid points filled by monotone interpolation (docs/profiler.md).
#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/exec/workload_file.hpp"

namespace {

namespace prof = cosched::profiler;

struct InstanceFlags {
  std::string workload;
  std::vector<std::string> profiles;
  std::string platform;
  std::string node;
  std::string output = "-";
  bool force = false;
};

void run_instance_command(const InstanceFlags& flags) {
  const auto overwrite = cosched::overwrite_if_forced(flags.force);
  cosched::check_output_path(flags.output, overwrite, "instance");
  const auto platform = cosched::config::load_platform_config(flags.platform);
  const auto workload = cosched::exec::read_workload(flags.workload, platform);
  const std::vector<std::filesystem::path> paths(flags.profiles.begin(), flags.profiles.end());
  std::optional<prof::NodeBandwidth> bandwidth;
  if (!flags.node.empty()) {
    const auto node = cosched::config::load_node_model(flags.node);
    (void)cosched::config::check_node_model_age(node, stderr);
    bandwidth = prof::node_bandwidth(node);
  }
  const prof::ProfileSet profiles = prof::load_profile_set(paths);
  const auto instance = prof::build_instance(workload, profiles, platform, bandwidth ? &*bandwidth : nullptr);
  cosched::write_text_file(flags.output, cosched::sched::instance_to_json(instance) + "\n", overwrite, "instance");
  // Kernel tasks run as processes when launched: a profile without fixed costs predicts them too short (issue #24).
  fmt::print(stderr, "{}", prof::fixed_cost_note(workload, profiles));
  for (const std::string& line : prof::probed_traffic_lines(instance)) fmt::print(stderr, "traffic: {}\n", line);
  if (flags.output == "-") return;
  fmt::print(stderr, "instance: {} tasks, resources cores={} fast_chunks={}, {}, into {}\n", instance.task_count(),
             platform.cores, platform.fast_chunks,
             bandwidth ? fmt::format("memory pools of {} with every task's traffic", flags.node)
                       : std::string("no bandwidth model (--node FILE from `cosched calibrate` adds one)"),
             flags.output);
}

const cosched::cli::CommandRegistration instance_registration{"instance", [](CLI::App& app) {
  auto* sub = app.add_subcommand("instance", "Turn a workload and profile tables into an Instance JSON");
  auto flags = std::make_shared<InstanceFlags>();
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
  sub->callback([flags] { run_instance_command(*flags); });
}};

}  // namespace
