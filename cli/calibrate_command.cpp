// `cosched calibrate`: measures the node bandwidth model of this machine — for each memory pool, the aggregate
// bandwidth 1 .. all cores get streaming from it — and writes it as a node file (docs/calibration.md,
// docs/formats.md "Node TOML"). The table goes to stdout (stderr when the node file itself goes to stdout).
#include <fmt/core.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosched/profiler/calibration.hpp"
#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/count_list.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/app/run_main.hpp"

namespace {

namespace cli = cosched::cli;
namespace profiler = cosched::profiler;

struct CalibrateFlags {
  std::string output = "node.toml";
  bool force = false;
  bool quick = false;
  std::vector<std::string> kernels;
  std::string tier_backend = "auto";
  std::optional<double> size_mib;
  std::optional<unsigned> reps;
  std::optional<unsigned> rounds;
  std::string cores;
  bool quiet = false;
  std::string compare;  // an earlier node file; empty: the file --force replaces, if any
  double tolerance = profiler::kDefaultCalibrationTolerance;
};

void run_calibrate_command(const CalibrateFlags& flags) {
  const auto overwrite = cosched::overwrite_if_forced(flags.force);
  cosched::check_output_path(flags.output, overwrite, "node file");
  profiler::CalibrationOptions options;
  if (!flags.kernels.empty()) options.kernels = flags.kernels;
  options.tier_backend = flags.tier_backend;
  options.array_mib = flags.size_mib.value_or(profiler::kDefaultCalibrationArrayMib);
  options.quick = flags.quick;
  options.reps = flags.reps;
  options.rounds = flags.rounds;
  if (!flags.cores.empty()) {
    try {
      options.cores = cosched::config::parse_count_list(flags.cores);
    } catch (const cosched::UsageError& e) {
      throw cosched::UsageError(std::string("--cores: ") + e.what());
    }
  }
  profiler::check_calibration_options(options);  // before the output is touched or anything measured
  const auto previous = profiler::previous_calibration(flags.compare, flags.output);

  const profiler::Calibration calibration = profiler::calibrate(options, flags.quiet ? nullptr : stderr);
  cosched::write_text_file(flags.output, cosched::config::to_toml(calibration.model), overwrite, "node file");
  std::FILE* table = flags.output == "-" ? stderr : stdout;
  fmt::print(table, "{}", profiler::calibration_table(calibration));
  fmt::print(table, "node model of {} in {:.1f} s (load average {:.2f} on {} cores at the start{}){}\n",
             calibration.model.provenance.host, calibration.wall_s, calibration.load_average,
             calibration.allowed_cores, calibration.machine_was_busy() ? ": BUSY, the curves are what other work left"
                                                                        : "",
             flags.output == "-" ? "" : ", written to " + flags.output);
  if (previous) {
    const auto agreement = profiler::compare_calibrations(previous->second, calibration.model, flags.tolerance);
    fmt::print(table, "{}", profiler::agreement_table(agreement, previous->first));
  }
}

const cli::CommandRegistration calibrate_registration{"calibrate", [](CLI::App& app) {
  auto* sub = app.add_subcommand("calibrate",
                                 "Measure this node's bandwidth per memory pool vs cores streaming (a node file)");
  auto flags = std::make_shared<CalibrateFlags>();
  sub->add_option("-o,--output", flags->output, "Node file to write (default node.toml; - for stdout)");
  sub->add_flag("--force", flags->force, "Replace an existing --output file");
  sub->add_flag("--quick", flags->quick, "A few seconds: 3 rounds of 3 timed reps instead of 5 of 5");
  sub->add_option("--kernels", flags->kernels, "Kernels to stream (default triad,ddot,write)")->delimiter(',');
  sub->add_option("--tier-backend", flags->tier_backend,
                  "Backend whose tiers are measured: auto | none | memkind | numa | emulated (default auto)");
  sub->add_option("--size-mib", flags->size_mib, "Size of EACH array in MiB (default 128: far beyond the LLC)")
      ->check(cosched::app::finite_positive(1e9));
  sub->add_option("--reps", flags->reps, "Timed reps per allocation (default 5, --quick 3)")
      ->check(CLI::Range(1U, profiler::kMaxCalibrationReps));
  sub->add_option("--rounds", flags->rounds, "Fresh allocations per point, median taken (default 5, --quick 3)")
      ->check(CLI::Range(1U, profiler::kMaxCalibrationRounds));
  sub->add_option("--cores", flags->cores, "Core counts to measure, e.g. 1,2,4..8 (default 1..all allowed)");
  sub->add_flag("--quiet", flags->quiet, "No progress lines (the table is still printed)");
  sub->add_option("--compare", flags->compare,
                  "An earlier node file of this node: say whether every pool capacity agrees with it within "
                  "--tolerance (default: the file --force replaces, if it is a node file)")
      ->check(CLI::ExistingFile);
  sub->add_option("--tolerance", flags->tolerance,
                  "Relative change of a pool capacity still taken as agreement (default 0.15)")
      ->capture_default_str()
      ->check(cosched::app::finite_positive(10.0));
  sub->callback([flags] { run_calibrate_command(*flags); });
}};

}  // namespace
