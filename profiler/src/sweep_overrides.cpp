#include "cosched/profiler/sweep_overrides.hpp"

#include <fmt/format.h>

#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/config/count_list.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/command_spec.hpp"
#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler {

namespace {

// --command (repeatable) with its --name, --command-timeout and --command-footprint-mib: commands of the sweep.
void add_flag_commands(const SweepOverrides& flags, SweepConfig& sweep) {
  if (flags.commands.empty()) {
    if (!flags.names.empty() || flags.command_timeout_s || flags.command_footprint_mib) {
      throw UsageError("--name, --command-timeout and --command-footprint-mib go with --command");
    }
    return;
  }
  if (!flags.names.empty() && flags.names.size() != flags.commands.size()) {
    throw UsageError(fmt::format("{} --name for {} --command: give one name per command, in order",
                                 flags.names.size(), flags.commands.size()));
  }
  if (!flags.kernels.empty()) throw UsageError("--kernels and --command: profile them in separate sweeps");
  if (!flags.measurer.empty() && flags.measurer != kCommandMeasurer) {
    throw UsageError(fmt::format("--command is measured by measurer {}, not {}", kCommandMeasurer, flags.measurer));
  }
  for (std::size_t i = 0; i < flags.commands.size(); ++i) {
    const std::string where = fmt::format("--command '{}'", flags.commands[i]);
    CommandProfileSpec command;
    try {
      command.argv = split_command_line(flags.commands[i], where);
      command.name = flags.names.empty() ? default_command_name(command.argv) : flags.names[i];
      command.timeout_s = flags.command_timeout_s;
      if (flags.command_footprint_mib) command.footprint_bytes = config::footprint_bytes_from_mib(*flags.command_footprint_mib);
      add_sweep_command(sweep, std::move(command), where);
    } catch (const InputError& e) {
      throw UsageError(e.what());  // a flag, not a file: a usage error
    }
  }
  sweep.kernels.clear();
  sweep.measurer = std::string(kCommandMeasurer);
}

}  // namespace

SweepConfig sweep_from_overrides(const SweepOverrides& flags) {
  SweepConfig sweep = flags.config.empty() ? SweepConfig{} : load_sweep_config(flags.config);
  if (!flags.kernels.empty()) sweep.kernels = flags.kernels;
  if (!flags.footprints_mib.empty() || !flags.footprints_percent.empty()) {
    sweep.footprints_mib = flags.footprints_mib;
    sweep.footprints_percent_of_fast = flags.footprints_percent;
  }
  if (!flags.cores.empty()) sweep.cores = config::parse_count_list(flags.cores);
  if (!flags.chunks.empty()) sweep.chunks = config::parse_count_list(flags.chunks);
  if (flags.reps) sweep.reps = *flags.reps;
  if (flags.warmup) sweep.warmup = *flags.warmup;
  if (!flags.passes.empty()) sweep.passes = pass_counts(flags.passes, "--passes");
  if (!flags.platform.empty()) sweep.platform_file = flags.platform;
  if (!flags.tier_backend.empty()) sweep.tier_backend = flags.tier_backend;
  if (flags.emulation_ratio) sweep.emulation_ratio = *flags.emulation_ratio;
  if (!flags.measurer.empty()) sweep.measurer = flags.measurer;
  add_flag_commands(flags, sweep);
  // How commands get fast memory: refused for a sweep of kernels, which would ignore it (issue 41).
  if (sweep.commands.empty() && (!flags.placement.empty() || flags.autohbw_threshold_kib || !flags.autohbw_library.empty())) {
    throw UsageError("--placement, --autohbw-threshold-kib and --autohbw-library say how commands get fast memory: "
                     "this sweep profiles kernels (add --command, or a [[commands]] table to the sweep config)");
  }
  if (!flags.placement.empty()) sweep.placement.mechanism = flags.placement;
  if (flags.autohbw_threshold_kib) sweep.placement.autohbw_threshold_bytes = std::size_t{*flags.autohbw_threshold_kib} * 1024;
  if (!flags.autohbw_library.empty()) sweep.placement.autohbw_library = flags.autohbw_library;
  return sweep;
}

}  // namespace cosched::profiler
