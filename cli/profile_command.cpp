// `cosched profile`: execution-time tables (kernel x footprint x cores x fast chunks) measured with the stream
// kernels in-process, with whole stream_bench processes, or produced by the KNL bandwidth model (--measurer).
// Flags override the TOML config (docs/profiler.md).
#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/count_list.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile_session.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "run_main.hpp"

namespace {

namespace prof = cosched::profiler;
namespace config = cosched::config;

struct ProfileFlags {
  std::string config;
  std::vector<std::string> kernels;
  std::vector<double> footprints_mib;
  std::vector<double> footprints_percent;
  std::string cores;
  std::string chunks;
  std::optional<unsigned> reps;
  std::optional<unsigned> warmup;
  std::optional<unsigned> passes;
  std::string platform;
  std::string tier_backend;
  std::optional<double> emulation_ratio;
  std::string measurer;
  std::string output;
  bool resume = false;
  bool force = false;
  bool quiet = false;
};

prof::SweepConfig sweep_from_flags(const ProfileFlags& flags) {
  prof::SweepConfig sweep = flags.config.empty() ? prof::SweepConfig{} : prof::load_sweep_config(flags.config);
  if (!flags.kernels.empty()) sweep.kernels = flags.kernels;
  if (!flags.footprints_mib.empty() || !flags.footprints_percent.empty()) {
    sweep.footprints_mib = flags.footprints_mib;
    sweep.footprints_percent_of_fast = flags.footprints_percent;
  }
  if (!flags.cores.empty()) sweep.cores = config::parse_count_list(flags.cores);
  if (!flags.chunks.empty()) sweep.chunks = config::parse_count_list(flags.chunks);
  if (flags.reps) sweep.reps = *flags.reps;
  if (flags.warmup) sweep.warmup = *flags.warmup;
  if (flags.passes) sweep.passes = *flags.passes;
  if (!flags.platform.empty()) sweep.platform_file = flags.platform;
  if (!flags.tier_backend.empty()) sweep.tier_backend = flags.tier_backend;
  if (flags.emulation_ratio) sweep.emulation_ratio = *flags.emulation_ratio;
  if (!flags.measurer.empty()) sweep.measurer = flags.measurer;
  return sweep;
}

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
  const prof::SweepConfig sweep = sweep_from_flags(flags);
  const config::PlatformConfig platform = prof::resolve_sweep_platform(sweep);
  prof::ProfileRunOptions options;
  options.output = flags.output;
  options.resume = flags.resume;
  options.force = flags.force;
  // A model sweep takes milliseconds: a progress line per point would only be noise.
  const bool measures = !prof::measurer_kind(sweep.measurer).is_model();
  options.show_progress = !flags.quiet && measures;
  const auto outcome = prof::run_profile(sweep, platform, options);
  fmt::print(stderr, "profile: {} points measured, {} already done, into {}\n", outcome.measured, outcome.skipped,
             flags.output);
  if (measures && outcome.measured > 0) {
    fmt::print(stderr,
               "profile: sweep {:.1f} s, kernel passes {:.1f} s: overhead {:.1f} % (profiler's own {:.2f} %, the "
               "rest is allocation, first touch and validation in the stream runs)\n",
               outcome.wall_s, outcome.kernel_s, 100.0 * outcome.overhead(), 100.0 * outcome.profiler_overhead());
  }
  if (outcome.interrupted) {
    throw cosched::RuntimeFailure(fmt::format("interrupted: {} holds every finished point; run the same command "
                                              "with --resume to continue",
                                              flags.output));
  }
}

const cosched::cli::CommandRegistration registration{"profile", [](CLI::App& app) {
  auto* sub = app.add_subcommand("profile", "Profile kernels over cores x fast-memory chunks (CSV + JSON sidecar)");
  auto flags = std::make_shared<ProfileFlags>();
  sub->add_option("--config", flags->config, "Sweep config TOML (configs/profiles/); flags override it");
  sub->add_option("--kernels", flags->kernels, "Kernels: write, ddot, copy, scale, add, triad")->delimiter(',');
  sub->add_option("--footprints-mib", flags->footprints_mib, "Task footprints in MiB (all arrays together)")
      ->delimiter(',')
      ->check(cosched::cli::finite_positive(static_cast<double>(config::kMaxFootprintBytes) / (1 << 20)));
  sub->add_option("--footprints-percent-of-fast", flags->footprints_percent,
                  "Task footprints as % of the platform's fast capacity (as in Fig. 2 of the paper)")
      ->delimiter(',')
      ->check(cosched::cli::finite_positive(config::kMaxFootprintPercentOfFast));
  sub->add_option("--cores", flags->cores, "Core counts: list and ranges, e.g. 1,2,4..8 (default 1..platform)");
  sub->add_option("--chunks", flags->chunks, "Fast chunks: list and ranges, e.g. 0..20 (default 0..platform)");
  sub->add_option("--reps", flags->reps, "Timed repetitions per point (median and spread recorded)")
      ->check(CLI::Range(1U, prof::kMaxSweepReps));
  sub->add_option("--warmup", flags->warmup, "Untimed warm-up repetitions per point")
      ->check(CLI::Range(0U, prof::kMaxSweepWarmup));
  sub->add_option("--platform", flags->platform, "Platform TOML (configs/platforms/)");
  sub->add_option("--tier-backend", flags->tier_backend, "Override the platform's tier backend");
  sub->add_option("--emulation-ratio", flags->emulation_ratio, "Emulated backend only: slow:fast bandwidth ratio")
      ->check(cosched::cli::finite_range(config::kMinEmulationRatio, config::kMaxEmulationRatio));
  sub->add_option("--passes", flags->passes,
                  "Kernel passes of each timed task run (process measurer; times stay per pass)")
      ->check(CLI::Range(1U, config::kMaxPasses));
  sub->add_option("--measurer", flags->measurer,
                  "How times are obtained: stream (kernels in-process, default), process (whole stream_bench "
                  "processes, as launched), knl-model (the KNL 7210 model)")
      ->check(CLI::IsMember(prof::measurer_names()));
  sub->add_option("-o,--output", flags->output, "Profile CSV to write")->required();
  auto* resume = sub->add_flag("--resume", flags->resume, "Continue a partial CSV, skipping points already measured");
  sub->add_flag("--force", flags->force, "Overwrite an existing CSV")->excludes(resume);
  sub->add_flag("--quiet", flags->quiet, "No progress output");
  sub->callback([flags] { run_profile_command(*flags); });
}};

}  // namespace
