#include "cosched/profiler/profile_session.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/common/stop_signals.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/profiler/progress.hpp"

namespace cosched::profiler {

config::PlatformConfig resolve_sweep_platform(const SweepConfig& sweep) {
  const MeasurerKind& measurer = measurer_kind(sweep.measurer);
  config::PlatformConfig platform;
  if (sweep.platform_file) {
    platform = config::load_platform_config(*sweep.platform_file);
  } else if (measurer.is_model()) {
    platform = measurer.modelled_node();
  } else {
    platform = config::this_machine_platform(sweep.tier_backend.value_or("auto"),
                                             sweep.emulation_ratio.value_or(config::kDefaultEmulationRatio));
  }
  if (sweep.tier_backend) {
    const auto names = platform::tier_backend_names();
    if (std::find(names.begin(), names.end(), *sweep.tier_backend) == names.end()) {
      throw UsageError(fmt::format("unknown tier backend '{}' (known: {})", *sweep.tier_backend,
                                   fmt::join(names, ", ")));
    }
    platform.tier_backend = *sweep.tier_backend;
  }
  if (sweep.emulation_ratio) {
    // A ratio only the emulated tier uses would otherwise be ignored without a word.
    platform::TierOptions tier;
    tier.backend = platform.tier_backend;
    const std::string backend = measurer.is_model() ? "the model of measurer " + sweep.measurer
                                                    : platform::resolve_tier_backend_name(tier);
    if (measurer.is_model() || !platform::tier_backend_info(backend).capabilities.emulated) {
      throw UsageError(fmt::format("--emulation-ratio / emulation_ratio applies to the emulated tier backend only, "
                                   "this sweep uses {}",
                                   backend));
    }
    platform.emulation_ratio = *sweep.emulation_ratio;
  }
  config::check_platform(platform, "the sweep's platform");
  return platform;
}

std::string format_profile_summary(const SweepConfig& sweep, const SweepOutcome& outcome,
                                   const std::filesystem::path& output, bool measures) {
  std::string text = fmt::format("profile: {} points measured, {} already done, into {}\n", outcome.measured,
                                 outcome.skipped, output.string());
  if (!sweep.commands.empty() && outcome.measured > 0) text += format_command_notes(read_profile_sidecar(output));
  if (measures && outcome.measured > 0) {
    const bool kernels = sweep.commands.empty();
    text += fmt::format("profile: sweep {:.1f} s, {} {:.1f} s: overhead {:.1f} % (profiler's own {:.2f} %, the rest is "
                        "{})\n",
                        outcome.wall_s, kernels ? "kernel passes" : "command runs", outcome.kernel_s,
                        100.0 * outcome.overhead(), 100.0 * outcome.profiler_overhead(),
                        kernels ? "allocation, first touch and validation in the stream runs"
                                : "in starting and reaping the processes, and in runs that failed");
  }
  for (const std::string& line : sweep_messages(outcome, 5)) text += "profile: " + line + "\n";
  return text;
}

SweepOutcome run_profile(const SweepConfig& config, const config::PlatformConfig& platform,
                         const ProfileRunOptions& options) {
  MeasurerOptions measurer_options;
  measurer_options.platform = platform;
  measurer_options.reps = config.reps;
  measurer_options.warmup = config.warmup;
  measurer_options.passes = sweep_passes(config);
  measurer_options.commands = config.commands;
  measurer_options.placement = config.placement;
  const auto measurer = make_measurer(config.measurer, measurer_options);
  SweepConfig effective = config;
  // A measurer that cannot give fast chunks here (commands without a tier that places them) measures chunk 0
  // only: its sidecar (describe) says so, and no row claims a fast share it did not get.
  if (!measurer->varies_fast_memory()) effective.chunks = {0};
  const auto points = expand_sweep(effective, platform);
  for (const auto& kernel : config.kernels) measurer->check_kernel(kernel);
  for (const auto& command : config.commands) measurer->check_kernel(command_kernel_name(command.name));
  ProfileSidecar sidecar = make_profile_sidecar(platform, effective, measurer->describe());

  // A device (/dev/null, /dev/full) is written in place, never "an existing profile"; its write errors count.
  const bool exists = std::filesystem::is_regular_file(options.output);
  if (exists && !options.resume && !options.force) {
    throw UsageError(fmt::format("{} exists: --resume continues it, --force overwrites it", options.output.string()));
  }
  const bool resuming = exists && options.resume;
  if (resuming) check_resume_compatible(read_profile_sidecar(options.output), sidecar);
  // The sidecar is written with the CSV's first row: check its path first, so a refused sidecar leaves no CSV.
  // Checked together: `-o p.json` named the sidecar's own file, which then replaced the CSV (issue 41, found by
  // attacking the outputs rule).
  check_output_paths({{options.output, "profile CSV"}, {sidecar_path(options.output), "profile sidecar"}},
                     Overwrite::replace);
  ProfileCsvWriter writer(options.output,
                          resuming ? ProfileCsvWriter::Mode::resume : ProfileCsvWriter::Mode::create);
  // A new CSV appears with its first row, and its sidecar just before it: a sweep whose first point fails (or that
  // is interrupted before it) leaves neither a header-only CSV nor a sidecar, and keeps an old pair it would replace.
  if (writer.published()) {
    write_profile_sidecar(options.output, sidecar);
  } else {
    writer.on_publish([&] { write_profile_sidecar(options.output, sidecar); });
  }

  const std::size_t todo = remaining_points(points, writer.existing_rows()).size();
  std::optional<SweepProgress> progress;
  if (options.reporter != nullptr && todo > 0) progress.emplace(todo, *options.reporter);
  const StopSignals stop;  // Ctrl-C: the point being measured finishes, the CSV stays valid, --resume continues
  const SweepOutcome outcome = run_sweep(points, *measurer, writer, progress ? &*progress : nullptr, &stop.flag());

  sidecar.measurer = measurer->describe();  // now with what the sweep learnt (e.g. the placements applied)
  sidecar.sweep = {{"points", points.size()},
                   {"measured_this_run", outcome.measured},
                   {"skipped_already_done", outcome.skipped},
                   {"interrupted", outcome.interrupted},
                   {"wall_s", outcome.wall_s},
                   {"failed", outcome.failures.size()},
                   {"notes", outcome.notes}};
  if (!measurer_kind(config.measurer).is_model()) {  // a model's "kernel time" is not time anything ran
    sidecar.sweep["measure_s"] = outcome.measure_s;
    sidecar.sweep["kernel_s"] = outcome.kernel_s;
    sidecar.sweep["overhead"] = outcome.overhead();
    sidecar.sweep["profiler_overhead"] = outcome.profiler_overhead();
    sidecar.sweep["allocations"] = outcome.allocations;
    sidecar.sweep["resplits"] = outcome.resplits;
  }
  if (writer.published()) write_profile_sidecar(options.output, sidecar);
  return outcome;
}

}  // namespace cosched::profiler
