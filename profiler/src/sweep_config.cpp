#include "cosched/profiler/sweep_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "cosched/common/checked.hpp"
#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/config/toml_table.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/platform/command_placement.hpp"

namespace cosched::profiler {
namespace {

// `values` without repeats; else InputError at the key naming the repeated value.
template <typename T>
std::vector<T> without_repeats(std::vector<T> values, const config::TomlTable& root, const char* key) {
  std::set<T> seen;
  for (const auto& value : values) {
    if (!seen.insert(value).second) {
      throw InputError(root.where(key), fmt::format("key '{}' lists {} twice", key, value));
    }
  }
  return values;
}

std::vector<std::string> command_argv(const config::TomlTable& entry) {
  if (entry.holds_string("command")) return split_command_line(*entry.string("command"), entry.where("command"));
  auto argv = entry.strings("command");
  if (!argv) throw InputError(entry.where(), fmt::format("'{}' is required", entry.name_of("command")));
  return *argv;
}

std::vector<std::string> command_environment(const config::TomlTable& entry) {
  const auto table = entry.table("env");
  if (!table) return {};
  std::vector<std::pair<std::string, std::string>> variables;
  for (const auto& key : table->keys()) variables.emplace_back(key, *table->string(key));
  return config::environment_entries(variables, table->where());
}

void read_commands(const config::TomlTable& root, SweepConfig& sweep) {
  const auto entries = root.tables("commands");
  if (!entries) return;
  const auto max_mib = static_cast<double>(config::kMaxFootprintBytes) / kBytesPerMiB;
  for (const auto& entry : *entries) {
    entry.allow_only({"name", "command", "env", "timeout_s", "footprint_mib"});
    CommandProfileSpec command;
    command.argv = command_argv(entry);
    command.name = entry.string("name").value_or(default_command_name(command.argv));
    command.environment = command_environment(entry);
    command.timeout_s = entry.number("timeout_s", positive_up_to(kMaxSeconds));
    if (const auto mib = entry.number("footprint_mib", positive_up_to(max_mib))) {
      command.footprint_bytes = config::footprint_bytes_from_mib(*mib);
    }
    add_sweep_command(sweep, std::move(command), entry.where());
  }
}

}  // namespace

void add_sweep_command(SweepConfig& sweep, CommandProfileSpec command, const std::string& where) {
  check_identifier(command.name, where + ": command name");
  config::check_command(command.argv, where + ": command " + command.name);
  for (const auto& other : sweep.commands) {
    if (other.name == command.name) {
      throw InputError(where, fmt::format("two commands are named '{}': give each its own name", command.name));
    }
  }
  if (sweep.commands.size() >= kMaxProfiledCommands) {
    throw InputError(where, fmt::format("more than {} commands", kMaxProfiledCommands));
  }
  sweep.commands.push_back(std::move(command));
}

PassCounts sweep_passes(const SweepConfig& sweep) {
  return sweep.passes.value_or(measurer_kind(sweep.measurer).default_passes);
}

SweepConfig load_sweep_config(const std::filesystem::path& path) {
  const auto root = config::TomlTable::parse_file(path, "sweep config");
  root.allow_only({"description", "kernels", "footprints_mib", "footprints_percent_of_fast", "cores", "chunks", "reps",
                   "warmup", "passes", "platform", "tier_backend", "emulation_ratio", "measurer", "commands",
                   "placement", "autohbw_threshold_kib", "autohbw_library"});
  SweepConfig sweep;
  sweep.kernels = without_repeats(root.strings("kernels").value_or(std::vector<std::string>{}), root, "kernels");
  const auto max_mib = static_cast<double>(config::kMaxFootprintBytes) / kBytesPerMiB;
  sweep.footprints_mib = without_repeats(root.numbers("footprints_mib", positive_up_to(max_mib)).value_or(
                                             std::vector<double>{}), root, "footprints_mib");
  sweep.footprints_percent_of_fast =
      without_repeats(root.numbers("footprints_percent_of_fast", positive_up_to(config::kMaxFootprintPercentOfFast))
                          .value_or(std::vector<double>{}), root, "footprints_percent_of_fast");
  sweep.cores = root.counts("cores", config::kMaxCores).value_or(std::vector<unsigned>{});
  sweep.chunks = root.counts("chunks", config::kMaxFastChunks).value_or(std::vector<unsigned>{});
  sweep.reps = static_cast<unsigned>(root.integer("reps", 1, kMaxSweepReps).value_or(sweep.reps));
  sweep.warmup = static_cast<unsigned>(root.integer("warmup", 0, kMaxSweepWarmup).value_or(sweep.warmup));
  if (root.holds_array("passes")) {
    try {
      sweep.passes = pass_counts(*root.counts("passes", config::kMaxPasses), "key 'passes'");
    } catch (const UsageError& e) {
      throw InputError(root.where("passes"), e.what());
    }
  } else if (const auto passes = root.integer("passes", 1, config::kMaxPasses)) {
    sweep.passes = PassCounts{static_cast<unsigned>(*passes), 0};
  }
  if (const auto platform = root.string("platform")) sweep.platform_file = path.parent_path() / *platform;
  sweep.tier_backend = root.string("tier_backend");
  sweep.emulation_ratio =
      root.number("emulation_ratio", Range{config::kMinEmulationRatio, config::kMaxEmulationRatio, true, true});
  if (const auto measurer = root.string("measurer")) {
    const auto names = measurer_names();
    if (std::find(names.begin(), names.end(), *measurer) == names.end()) {
      throw InputError(root.where("measurer"), fmt::format("key 'measurer': unknown measurer '{}' (known: {})",
                                                           *measurer, fmt::join(names, ", ")));
    }
    sweep.measurer = *measurer;
  }
  if (const auto placement = root.string("placement")) {
    const auto names = platform::command_placement_names();
    if (std::find(names.begin(), names.end(), *placement) == names.end()) {
      throw InputError(root.where("placement"), fmt::format("key 'placement': unknown placement '{}' (known: {})",
                                                            *placement, fmt::join(names, ", ")));
    }
    sweep.placement.mechanism = *placement;
  }
  if (const auto kib = root.integer("autohbw_threshold_kib", 1, 1LL << 30)) {
    sweep.placement.autohbw_threshold_bytes = static_cast<std::size_t>(*kib) * 1024;
  }
  sweep.placement.autohbw_library = root.string("autohbw_library").value_or("");
  read_commands(root, sweep);
  if (!sweep.commands.empty()) {
    if (!sweep.kernels.empty()) {
      throw InputError(root.where("kernels"), "a sweep profiles kernels or [[commands]], not both");
    }
    if (root.contains("measurer") && sweep.measurer != kCommandMeasurer) {
      throw InputError(root.where("measurer"), fmt::format("[[commands]] are measured by measurer '{}'",
                                                           kCommandMeasurer));
    }
    sweep.measurer = std::string(kCommandMeasurer);
  }
  return sweep;
}

std::vector<std::uint64_t> resolve_footprints(const SweepConfig& sweep, const config::PlatformConfig& platform) {
  std::vector<std::pair<std::uint64_t, std::string>> footprints;  // bytes, as given
  for (const double mib : sweep.footprints_mib) {
    footprints.emplace_back(config::footprint_bytes_from_mib(mib), fmt::format("{} MiB", mib));
  }
  for (const double percent : sweep.footprints_percent_of_fast) {
    footprints.emplace_back(config::footprint_from_percent(percent, platform),
                            fmt::format("{} % of the fast tier of platform {}", percent, platform.name));
  }
  std::sort(footprints.begin(), footprints.end());
  std::vector<std::uint64_t> bytes;
  for (std::size_t i = 0; i < footprints.size(); ++i) {
    const auto& [value, given] = footprints[i];
    if (value == 0) throw UsageError(fmt::format("the footprint {} rounds to 0 bytes", given));
    if (i > 0 && footprints[i - 1].first == value) {
      throw UsageError(fmt::format("the footprint of {} bytes is given twice ({} and {})", value,
                                   footprints[i - 1].second, given));
    }
    bytes.push_back(value);
  }
  return bytes;
}

std::vector<ProfilePoint> expand_sweep(const SweepConfig& sweep, const config::PlatformConfig& platform) {
  const bool commands = !sweep.commands.empty();
  if (commands && !sweep.kernels.empty()) {
    throw UsageError("a sweep profiles kernels or commands, not both: run two sweeps");
  }
  if (commands && (!sweep.footprints_mib.empty() || !sweep.footprints_percent_of_fast.empty())) {
    throw UsageError("footprints are for kernels: a command's footprint is its own (footprint_mib in [[commands]], "
                     "--command-footprint-mib)");
  }
  if (sweep.kernels.empty() && !commands) {
    throw UsageError("no kernels to profile (--kernels or 'kernels' in the config; or --command)");
  }
  std::set<std::string> kernels;
  for (const auto& kernel : sweep.kernels) {
    if (!kernels.insert(kernel).second) throw UsageError(fmt::format("kernel '{}' is given twice", kernel));
  }
  const auto footprints = resolve_footprints(sweep, platform);
  if (footprints.empty() && !commands) {
    throw UsageError("no footprints to profile (--footprints-mib, or 'footprints_mib' / "
                     "'footprints_percent_of_fast' in the config)");
  }
  if (sweep.reps < 1 || sweep.reps > kMaxSweepReps) {
    throw UsageError(fmt::format("reps must be from 1 to {}, got {}", kMaxSweepReps, sweep.reps));
  }
  if (sweep.warmup > kMaxSweepWarmup) {
    throw UsageError(fmt::format("warmup must be from 0 to {}, got {}", kMaxSweepWarmup, sweep.warmup));
  }
  if (const PassCounts passes = sweep_passes(sweep); passes.separates_fixed_cost()) {
    (void)pass_counts({passes.low, passes.high}, "passes");
  } else {
    (void)pass_counts({passes.low}, "passes");
  }
  std::vector<unsigned> cores = sweep.cores;
  if (cores.empty()) {
    for (unsigned c = 1; c <= platform.cores; ++c) cores.push_back(c);
  }
  std::vector<unsigned> chunks = sweep.chunks;
  if (chunks.empty()) {
    for (unsigned k = 0; k <= platform.fast_chunks; ++k) chunks.push_back(k);
  }
  for (unsigned c : cores) {
    if (c == 0 || c > platform.cores) {
      throw UsageError(fmt::format("core count {} outside 1..{} (platform {})", c, platform.cores, platform.name));
    }
  }
  for (unsigned k : chunks) {
    if (k > platform.fast_chunks) {
      throw UsageError(fmt::format("chunk count {} outside 0..{} (platform {})", k, platform.fast_chunks,
                                   platform.name));
    }
  }
  const double total = (commands ? static_cast<double>(sweep.commands.size())
                                  : static_cast<double>(sweep.kernels.size()) * static_cast<double>(footprints.size())) *
                       static_cast<double>(cores.size()) * static_cast<double>(chunks.size());
  if (total > kMaxSweepPoints) {
    throw UsageError(fmt::format("the sweep has {:g} points (kernels x footprints x cores x chunks), at most {:g}",
                                 total, kMaxSweepPoints));
  }
  std::vector<ProfilePoint> points;
  for (const auto& command : sweep.commands) {
    for (unsigned c : cores) {
      for (unsigned k : chunks) points.push_back({command_kernel_name(command.name), command.footprint_bytes, c, k});
    }
  }
  for (const auto& kernel : sweep.kernels) {
    for (auto footprint : footprints) {
      for (unsigned c : cores) {
        for (unsigned k : chunks) points.push_back({kernel, footprint, c, k});
      }
    }
  }
  return points;
}

}  // namespace cosched::profiler
