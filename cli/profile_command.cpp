// `cosched profile`: execution-time tables (kernel x footprint x cores x fast chunks) measured with the stream
// kernels in-process, with whole stream_bench processes, or produced by the KNL bandwidth model (--measurer).
// Flags override the TOML config (docs/profiler.md).
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/platform/command_placement.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile_session.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "cosched/profiler/sweep_overrides.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/app/run_main.hpp"

namespace {

namespace prof = cosched::profiler;
namespace config = cosched::config;

struct ProfileFlags {
  prof::SweepOverrides sweep;  // the sweep file and the flags that override it
  std::string output;
  bool resume = false;
  bool force = false;
  bool quiet = false;
};

// Before any work: the CSV is a file in an existing folder, and an existing one is continued (--resume) or
// replaced (--force) only when asked.
void check_profile_output(const ProfileFlags& flags) {
  cosched::check_output_path(flags.output, cosched::Overwrite::replace, "profile CSV");
  if (!flags.resume && !flags.force && std::filesystem::is_regular_file(flags.output)) {
    throw cosched::UsageError(flags.output + ": exists; --resume continues it, --force replaces it");
  }
}


void run_profile_command(const ProfileFlags& flags) {
  check_profile_output(flags);
  const prof::SweepConfig sweep = prof::sweep_from_overrides(flags.sweep);
  const config::PlatformConfig platform = prof::resolve_sweep_platform(sweep);
  prof::ProfileRunOptions options;
  options.output = flags.output;
  options.resume = flags.resume;
  options.force = flags.force;
  // A model sweep takes milliseconds: a progress line per point would only be noise.
  const bool measures = !prof::measurer_kind(sweep.measurer).is_model();
  options.show_progress = !flags.quiet && measures;
  const auto outcome = prof::run_profile(sweep, platform, options);
  if (!flags.quiet) fmt::print(stderr, "{}", prof::format_profile_summary(sweep, outcome, flags.output, measures));
  if (!outcome.failures.empty()) {
    throw cosched::RuntimeFailure(fmt::format("{} of {} points failed (first: {}); their rows in {} are marked "
                                              "failed, without a time",
                                              outcome.failures.size(), outcome.measured, outcome.failures.front(),
                                              flags.output));
  }
  if (outcome.interrupted && outcome.measured + outcome.skipped == 0) {
    throw cosched::RuntimeFailure(fmt::format("interrupted before the first point finished: {} was not written",
                                              flags.output));
  }
  if (outcome.interrupted) {
    throw cosched::RuntimeFailure(fmt::format("interrupted: {} holds every finished point; run the same command "
                                              "with --resume to continue",
                                              flags.output));
  }
}

const cosched::cli::CommandRegistration profile_registration{"profile", [](CLI::App& app) {
  auto* sub = app.add_subcommand("profile", "Profile kernels over cores x fast-memory chunks (CSV + JSON sidecar)");
  auto flags = std::make_shared<ProfileFlags>();
  sub->add_option("--config", flags->sweep.config, "Sweep config TOML (configs/profiles/); flags override it");
  sub->add_option("--kernels", flags->sweep.kernels, "Kernels: " + cosched::stream::kernel_names())->delimiter(',');
  sub->add_option("--footprints-mib", flags->sweep.footprints_mib, "Task footprints in MiB (all arrays together)")
      ->delimiter(',')
      ->check(cosched::app::finite_positive(static_cast<double>(config::kMaxFootprintBytes) / (1 << 20)));
  sub->add_option("--footprints-percent-of-fast", flags->sweep.footprints_percent,
                  "Task footprints as % of the platform's fast capacity (as in Fig. 2 of the paper)")
      ->delimiter(',')
      ->check(cosched::app::finite_positive(config::kMaxFootprintPercentOfFast));
  sub->add_option("--cores", flags->sweep.cores, "Core counts: list and ranges, e.g. 1,2,4..8 (default 1..platform)");
  sub->add_option("--chunks", flags->sweep.chunks, "Fast chunks: list and ranges, e.g. 0..20 (default 0..platform)");
  sub->add_option("--reps", flags->sweep.reps, "Timed repetitions per point (median and spread recorded)")
      ->check(CLI::Range(1U, prof::kMaxSweepReps));
  sub->add_option("--warmup", flags->sweep.warmup, "Untimed warm-up repetitions per point")
      ->check(CLI::Range(0U, prof::kMaxSweepWarmup));
  sub->add_option("--platform", flags->sweep.platform, "Platform TOML (configs/platforms/)");
  sub->add_option("--tier-backend", flags->sweep.tier_backend, "Override the platform's tier backend");
  sub->add_option("--emulation-ratio", flags->sweep.emulation_ratio, "Emulated backend only: slow:fast bandwidth ratio")
      ->check(cosched::app::finite_range(config::kMinEmulationRatio, config::kMaxEmulationRatio));
  sub->add_option("--passes", flags->sweep.passes,
                  "Kernel passes of each timed task run (process measurer; times stay per pass); two counts LOW,HIGH "
                  "time both and keep a run's fixed cost apart, so any passes are predicted")
      ->delimiter(',')
      ->check(CLI::Range(1U, config::kMaxPasses));
  sub->add_option("--measurer", flags->sweep.measurer,
                  "How times are obtained: stream (kernels in-process, default), process (whole stream_bench "
                  "processes, as launched), knl-model (the KNL 7210 model)")
      ->check(CLI::IsMember(prof::measurer_names()));
  sub->add_option("--command", flags->sweep.commands,
                  "Profile a program instead of kernels (repeatable): a command line split like a shell's words, "
                  "no shell; placeholders {threads}, {cpuset}, {cores}, {fast_bytes} as in cosched launch");
  sub->add_option("--name", flags->sweep.names, "Name of each --command, in order (default: its program's file name)");
  sub->add_option("--command-timeout", flags->sweep.command_timeout_s,
                  "Seconds a command run may take; longer runs are killed and their point marked timeout")
      ->check(cosched::app::finite_positive(cosched::kMaxSeconds));
  sub->add_option("--command-footprint-mib", flags->sweep.command_footprint_mib,
                  "The commands' memory footprint in MiB: what a fast fraction is of (weighted-interleave)")
      ->check(cosched::app::finite_positive(static_cast<double>(config::kMaxFootprintBytes) / (1 << 20)));
  sub->add_option("--placement", flags->sweep.placement,
                  "How commands get fast memory on a tier that places them: preferred (default), bind, "
                  "weighted-interleave, autohbw, none")
      ->check(CLI::IsMember(cosched::platform::command_placement_names()));
  sub->add_option("--autohbw-threshold-kib", flags->sweep.autohbw_threshold_kib,
                  "Placement autohbw: allocations of at least this many KiB go to high-bandwidth memory")
      ->check(CLI::Range(1U, 1U << 30));
  sub->add_option("--autohbw-library", flags->sweep.autohbw_library, "Placement autohbw: path of libautohbw.so");
  sub->add_option("-o,--output", flags->output, "Profile CSV to write")->required();
  auto* resume = sub->add_flag("--resume", flags->resume, "Continue a partial CSV, skipping points already measured");
  sub->add_flag("--force", flags->force, "Overwrite an existing CSV")->excludes(resume);
  sub->add_flag("--quiet", flags->quiet, "No progress and no summary: errors only");
  sub->callback([flags] { run_profile_command(*flags); });
}};

}  // namespace
