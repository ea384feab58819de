// `cosched instance`: a workload (kernel x footprint x count) plus profile tables -> the Instance JSON of the
// scheduling core (docs/formats.md), unmeasured grid points filled by monotone interpolation (docs/profiler.md).
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "workload_reading.hpp"

namespace {

namespace prof = cosched::profiler;

struct InstanceFlags {
  std::string workload;
  std::vector<std::string> profiles;
  std::string platform;
  std::string output;
};

void run_instance_command(const InstanceFlags& flags) {
  const auto platform = cosched::config::load_platform_config(flags.platform);
  const auto workload = cosched::cli::read_workload(flags.workload, platform);
  const std::vector<std::filesystem::path> paths(flags.profiles.begin(), flags.profiles.end());
  const auto instance = prof::build_instance(workload, prof::load_profile_set(paths), platform);
  const std::string text = instance.dump() + "\n";
  if (flags.output.empty() || flags.output == "-") {
    fmt::print("{}", text);
    return;
  }
  std::ofstream out(flags.output);
  if (!(out << text)) throw cosched::InputError(flags.output, "cannot write the instance");
  fmt::print(stderr, "instance: {} tasks, resources cores={} fast_chunks={}, into {}\n",
             instance["tasks"].size(), platform.cores, platform.fast_chunks, flags.output);
}

const cosched::cli::CommandRegistration registration{"instance", [](CLI::App& app) {
  auto* sub = app.add_subcommand("instance", "Turn a workload and profile tables into an Instance JSON");
  auto flags = std::make_shared<InstanceFlags>();
  sub->add_option("--workload", flags->workload, "Workload TOML (configs/workloads/) or JSON of STREAM tasks")
      ->required();
  sub->add_option("--profiles", flags->profiles, "Profile CSVs (each with its JSON sidecar)")
      ->required()
      ->delimiter(',');
  sub->add_option("--platform", flags->platform, "Platform TOML: capacities of cores and fast chunks")->required();
  sub->add_option("-o,--output", flags->output, "Instance JSON to write (default: stdout)");
  sub->callback([flags] { run_instance_command(*flags); });
}};

}  // namespace
