// `cosched profile`: execution-time tables (kernel x footprint x cores x fast chunks) measured with whole
// stream_bench processes as launched (the default), with the stream kernels in-process, or produced by the KNL
// bandwidth model (--measurer).
// Flags override the TOML config (docs/profiler.md).
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/platform/command_placement.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/workflow/profiling.hpp"
#include "reporting.hpp"

namespace {

namespace prof = cosched::profiler;
namespace config = cosched::config;

struct ProfileFlags {
  cosched::workflow::ProfileOptions options;
  bool quiet = false;
  std::string progress = "console";
};

const cosched::cli::CommandRegistration profile_registration{"profile", [](CLI::App& app) {
  auto* sub = app.add_subcommand("profile", "Profile kernels over cores x fast-memory chunks (CSV + JSON sidecar)");
  auto flags = std::make_shared<ProfileFlags>();
  sub->add_option("--config", flags->options.sweep.config, "Sweep config TOML (configs/profiles/); flags override it");
  sub->add_option("--kernels", flags->options.sweep.kernels, "Kernels: " + cosched::stream::kernel_names())->delimiter(',');
  sub->add_option("--footprints-mib", flags->options.sweep.footprints_mib, "Task footprints in MiB (all arrays together)")
      ->delimiter(',')
      ->check(cosched::app::finite_positive(static_cast<double>(config::kMaxFootprintBytes) / (1 << 20)));
  sub->add_option("--footprints-percent-of-fast", flags->options.sweep.footprints_percent,
                  "Task footprints as % of the platform's fast capacity (as in Fig. 2 of the paper)")
      ->delimiter(',')
      ->check(cosched::app::finite_positive(config::kMaxFootprintPercentOfFast));
  sub->add_option("--cores", flags->options.sweep.cores, "Core counts: list and ranges, e.g. 1,2,4..8 (default 1..platform)");
  sub->add_option("--chunks", flags->options.sweep.chunks, "Fast chunks: list and ranges, e.g. 0..20 (default 0..platform)");
  sub->add_option("--reps", flags->options.sweep.reps, "Timed repetitions per point (median and spread recorded)")
      ->check(CLI::Range(1U, prof::kMaxSweepReps));
  sub->add_option("--warmup", flags->options.sweep.warmup, "Untimed warm-up repetitions per point")
      ->check(CLI::Range(0U, prof::kMaxSweepWarmup));
  sub->add_option("--platform", flags->options.sweep.platform, "Platform TOML (configs/platforms/)");
  sub->add_option("--tier-backend", flags->options.sweep.tier_backend, "Override the platform's tier backend");
  sub->add_option("--emulation-ratio", flags->options.sweep.emulation_ratio, "Emulated backend only: slow:fast bandwidth ratio")
      ->check(cosched::app::finite_range(config::kMinEmulationRatio, config::kMaxEmulationRatio));
  sub->add_option("--passes", flags->options.sweep.passes,
                  "Kernel passes of each timed task run (process measurer; times stay per pass); two counts LOW,HIGH "
                  "time both and keep a run's fixed cost apart, so any passes are predicted (default 1,20)")
      ->delimiter(',')
      ->check(CLI::Range(1U, config::kMaxPasses));
  sub->add_option("--measurer", flags->options.sweep.measurer,
                  "How times are obtained: process (default: whole stream_bench processes as cosched launch runs "
                  "them, at --passes 1,20, so launched tasks are predicted), stream (warm passes in-process: tables "
                  "of the kernels themselves), knl-model (the KNL 7210 model)")
      ->check(CLI::IsMember(prof::measurer_names()));
  sub->add_option("--command", flags->options.sweep.commands,
                  "Profile a program instead of kernels (repeatable): a command line split like a shell's words, "
                  "no shell; placeholders {threads}, {cpuset}, {cores}, {fast_bytes} as in cosched launch");
  sub->add_option("--name", flags->options.sweep.names, "Name of each --command, in order (default: its program's file name)");
  sub->add_option("--command-timeout", flags->options.sweep.command_timeout_s,
                  "Seconds a command run may take; longer runs are killed and their point marked timeout")
      ->check(cosched::app::finite_positive(cosched::kMaxSeconds));
  sub->add_option("--command-footprint-mib", flags->options.sweep.command_footprint_mib,
                  "The commands' memory footprint in MiB: what a fast fraction is of (weighted-interleave)")
      ->check(cosched::app::finite_positive(static_cast<double>(config::kMaxFootprintBytes) / (1 << 20)));
  sub->add_option("--placement", flags->options.sweep.placement,
                  "How commands get fast memory on a tier that places them: preferred (default), bind, "
                  "weighted-interleave, autohbw, none")
      ->check(CLI::IsMember(cosched::platform::command_placement_names()));
  sub->add_option("--autohbw-threshold-kib", flags->options.sweep.autohbw_threshold_kib,
                  "Placement autohbw: allocations of at least this many KiB go to high-bandwidth memory")
      ->check(CLI::Range(1U, 1U << 30));
  sub->add_option("--autohbw-library", flags->options.sweep.autohbw_library, "Placement autohbw: path of libautohbw.so");
  sub->add_option("-o,--output", flags->options.output, "Profile CSV to write")->required();
  auto* resume = sub->add_flag("--resume", flags->options.resume, "Continue a partial CSV, skipping points already measured");
  sub->add_flag("--force", flags->options.force, "Overwrite an existing CSV")->excludes(resume);
  sub->add_flag("--quiet", flags->quiet, "No progress and no summary: errors only");
  cosched::cli::add_progress_option(*sub, flags->progress);
  sub->callback([flags] {
    // Progress and the summary go to stderr (the CSV may be stdout); --quiet: errors only.
    std::FILE* said = flags->quiet ? nullptr : stderr;
    const auto reporter = cosched::cli::command_reporter(flags->progress, {said, said, said},
                                                         flags->options.output == "-");
    cosched::workflow::run_profile(flags->options, *reporter);
  });
}};

}  // namespace
