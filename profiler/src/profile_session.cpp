#include "cosched/profiler/profile_session.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/profiler/interrupt.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/profiler/progress.hpp"

namespace cosched::profiler {

PlatformConfig resolve_sweep_platform(const SweepConfig& config) {
  PlatformConfig platform;
  if (config.platform_file) {
    platform = load_platform_config(*config.platform_file);
  } else if (config.model == "knl") {
    platform = knl_7210_flat_platform();
  } else {
    platform = this_machine_platform(config.tier_backend.value_or("auto"), config.emulation_ratio.value_or(5.0));
  }
  if (config.tier_backend) {
    const auto names = platform::tier_backend_names();
    if (std::find(names.begin(), names.end(), *config.tier_backend) == names.end()) {
      throw UsageError(fmt::format("unknown tier backend '{}' (known: {})", *config.tier_backend,
                                   fmt::join(names, ", ")));
    }
    platform.tier_backend = *config.tier_backend;
  }
  if (config.emulation_ratio) platform.emulation_ratio = *config.emulation_ratio;
  return platform;
}

SweepOutcome run_profile(const SweepConfig& config, const PlatformConfig& platform, const ProfileRunOptions& options) {
  const auto points = expand_sweep(config, platform);
  const auto measurer = make_measurer(config.model == "knl" ? "knl-model" : "stream",
                                      MeasurerOptions{platform, config.reps, config.warmup});
  for (const auto& kernel : config.kernels) measurer->check_kernel(kernel);
  ProfileSidecar sidecar = make_profile_sidecar(platform, config, measurer->describe());

  const bool exists = std::filesystem::exists(options.output);
  if (exists && !options.resume && !options.force) {
    throw UsageError(fmt::format("{} exists: --resume continues it, --force overwrites it", options.output.string()));
  }
  const bool resuming = exists && options.resume;
  if (resuming) check_resume_compatible(read_profile_sidecar(options.output), sidecar);
  ProfileCsvWriter writer(options.output,
                          resuming ? ProfileCsvWriter::Mode::resume : ProfileCsvWriter::Mode::create);
  write_profile_sidecar(options.output, sidecar);

  const std::size_t todo = remaining_points(points, writer.existing_rows()).size();
  std::unique_ptr<ProgressReporter> progress;
  if (options.show_progress && todo > 0) {
    progress = std::make_unique<ProgressReporter>(todo, options.progress_out, isatty(fileno(options.progress_out)));
  }
  const InterruptGuard interrupt;
  const SweepOutcome outcome = run_sweep(points, *measurer, writer, progress.get(), &interrupt.flag());

  sidecar.sweep = {{"points", points.size()},
                   {"measured_this_run", outcome.measured},
                   {"skipped_already_done", outcome.skipped},
                   {"interrupted", outcome.interrupted},
                   {"wall_s", outcome.wall_s}};
  if (config.model.empty()) {  // a model's "kernel time" is not time anything ran
    sidecar.sweep["measure_s"] = outcome.measure_s;
    sidecar.sweep["kernel_s"] = outcome.kernel_s;
    sidecar.sweep["overhead"] = outcome.overhead();
    sidecar.sweep["profiler_overhead"] = outcome.profiler_overhead();
    sidecar.sweep["allocations"] = outcome.allocations;
    sidecar.sweep["resplits"] = outcome.resplits;
  }
  write_profile_sidecar(options.output, sidecar);
  return outcome;
}

}  // namespace cosched::profiler
