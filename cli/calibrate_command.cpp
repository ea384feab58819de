// `cosched calibrate`: measures the node bandwidth model of this machine — for each memory pool, the aggregate
// bandwidth 1 .. all cores get streaming from it — and writes it as a node file (docs/calibration.md,
// docs/formats.md "Node TOML"). The table goes to stdout (stderr when the node file itself goes to stdout).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/error.hpp"
#include "cosched/config/count_list.hpp"
#include "cosched/workflow/profiling.hpp"
#include "reporting.hpp"

namespace {

namespace cli = cosched::cli;
namespace profiler = cosched::profiler;

struct CalibrateFlags {
  cosched::workflow::CalibrateOptions options;
  std::vector<std::string> kernels;
  std::optional<double> size_mib;
  std::string cores;
  bool quiet = false;
  std::string progress = "console";
};

// The flags as the pipeline's options: the calibration's kernels, array size and core counts.
cosched::workflow::CalibrateOptions calibrate_options(const CalibrateFlags& flags) {
  cosched::workflow::CalibrateOptions options = flags.options;
  if (!flags.kernels.empty()) options.calibration.kernels = flags.kernels;
  options.calibration.array_mib = flags.size_mib.value_or(profiler::kDefaultCalibrationArrayMib);
  if (!flags.cores.empty()) {
    try {
      options.calibration.cores = cosched::config::parse_count_list(flags.cores);
    } catch (const cosched::UsageError& e) {
      throw cosched::UsageError(std::string("--cores: ") + e.what());
    }
  }
  return options;
}

const cli::CommandRegistration calibrate_registration{"calibrate", [](CLI::App& app) {
  auto* sub = app.add_subcommand("calibrate",
                                 "Measure this node's bandwidth per memory pool vs cores streaming (a node file)");
  auto flags = std::make_shared<CalibrateFlags>();
  sub->add_option("-o,--output", flags->options.output, "Node file to write (default node.toml; - for stdout)");
  sub->add_flag("--force", flags->options.force, "Replace an existing --output file");
  sub->add_flag("--quick", flags->options.calibration.quick, "A few seconds: 3 rounds of 3 timed reps instead of 5 of 5");
  sub->add_option("--kernels", flags->kernels, "Kernels to stream (default triad,ddot,write)")->delimiter(',');
  sub->add_option("--tier-backend", flags->options.calibration.tier_backend,
                  "Backend whose tiers are measured: auto | none | memkind | numa | emulated (default auto)");
  sub->add_option("--size-mib", flags->size_mib, "Size of EACH array in MiB (default 128: far beyond the LLC)")
      ->check(cosched::app::finite_positive(1e9));
  sub->add_option("--reps", flags->options.calibration.reps, "Timed reps per allocation (default 5, --quick 3)")
      ->check(CLI::Range(1U, profiler::kMaxCalibrationReps));
  sub->add_option("--rounds", flags->options.calibration.rounds, "Fresh allocations per point, median taken (default 5, --quick 3)")
      ->check(CLI::Range(1U, profiler::kMaxCalibrationRounds));
  sub->add_option("--cores", flags->cores, "Core counts to measure, e.g. 1,2,4..8 (default 1..all allowed)");
  sub->add_flag("--quiet", flags->quiet, "No progress lines (the table is still printed)");
  sub->add_option("--compare", flags->options.compare,
                  "An earlier node file of this node: say whether every pool capacity agrees with it within "
                  "--tolerance (default: the file --force replaces, if it is a node file)")
      ->check(CLI::ExistingFile);
  sub->add_option("--tolerance", flags->options.tolerance,
                  "Relative change of a pool capacity still taken as agreement (default 0.15)")
      ->capture_default_str()
      ->check(cosched::app::finite_positive(10.0));
  cli::add_progress_option(*sub, flags->progress);
  sub->callback([flags, sub] {
    cosched::app::refuse_unless_applies(*sub, {"--tolerance"}, !flags->options.compare.empty() || flags->options.force,
                                        "only with --compare FILE (or --force, comparing with the node file it "
                                        "replaces): it says when a pool capacity agrees");
    const cosched::workflow::CalibrateOptions options = calibrate_options(*flags);
    // The table goes to stdout, or to stderr when the node file itself goes to stdout.
    const bool file_to_stdout = options.output == "-";
    const auto reporter = cli::command_reporter(
        flags->progress, {flags->quiet ? nullptr : stderr, flags->quiet ? nullptr : stderr,
                          file_to_stdout ? stderr : stdout},
        file_to_stdout);
    cosched::workflow::run_calibrate(options, *reporter);
  });
}};

}  // namespace
