#pragma once
// Measuring the node bandwidth model (config::NodeModel) of this machine: for each memory pool and each number of
// cores k, the aggregate bandwidth k compactly pinned cores get streaming from it, per kernel, in-process with the
// stream library (docs/calibration.md). `cosched calibrate` writes the result as a node file; the demo calls
// calibrate_node in-process. It lives in the profiler because it composes the stream library and config, which
// must not depend on each other; a library user calibrates a node with the same calls.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/config/node_model.hpp"

namespace cosched::profiler {

inline constexpr double kDefaultCalibrationArrayMib = 128.0;  // per array: 3 x 128 MiB for triad, far beyond an LLC
inline constexpr unsigned kCalibrationWarmupReps = 3;         // a fresh allocation streams slowly at first
inline constexpr unsigned kMaxCalibrationReps = 1000;
inline constexpr unsigned kMaxCalibrationRounds = 1000;

struct CalibrationOptions {
  std::vector<std::string> kernels{"triad", "ddot", "write"};
  std::string tier_backend = "auto";     // the backend whose tiers are measured ("auto": this machine's)
  double array_mib = kDefaultCalibrationArrayMib;  // per array
  bool quick = false;                    // fewer rounds and reps: a few seconds on a 2-core VM
  std::optional<unsigned> reps;          // timed reps per allocation (default 5, --quick 3)
  std::optional<unsigned> rounds;        // fresh allocations per point (default 5, --quick 3)
  std::vector<unsigned> cores;           // core counts to measure; empty: 1 .. all allowed cores
  [[nodiscard]] unsigned timed_reps() const noexcept { return reps.value_or(quick ? 3U : 5U); }
  [[nodiscard]] unsigned round_count() const noexcept { return rounds.value_or(quick ? 3U : 5U); }
};

// One measured point: a pool, a core count, a kernel; the aggregate GB/s of each round (one fresh allocation each,
// the median of its timed reps).
struct CalibrationSample {
  std::string pool;
  unsigned cores = 0;
  std::string kernel;
  std::vector<double> gbs_per_round;
};

struct Calibration {
  config::NodeModel model;                 // provenance.source = "calibrated"
  std::vector<CalibrationSample> samples;  // in pool, cores, kernel order
  double wall_s = 0.0;                     // the whole calibration, priming run included
  double load_average = -1.0;              // of the machine, 1 minute, at the start (-1: unknown)
  unsigned allowed_cores = 0;              // of this process
  // Other work was running (load average above half the allowed cores): the curves measure what it left.
  [[nodiscard]] bool machine_was_busy() const noexcept {
    return load_average > 0.5 * static_cast<double>(allowed_cores);
  }
};

// Checks `options` against this machine (kernels, backend, core counts, memory) before anything is measured;
// throws UsageError / ResourceError naming the option.
void check_calibration_options(const CalibrationOptions& options);

// Measures this machine, reporting what it measures and a progress event per round. Throws like
// check_calibration_options, RuntimeFailure when a stream run fails its validation, and like stream::run_stream.
[[nodiscard]] Calibration calibrate(const CalibrationOptions& options, Reporter& reporter);
[[nodiscard]] config::NodeModel calibrate_node(const CalibrationOptions& options, Reporter& reporter);

// Two calibrations of one node, pool capacity by pool capacity: does `current` agree with `previous` (another run
// of `cosched calibrate`, e.g. the file it replaces) within `tolerance`, |current / previous - 1| <= tolerance at
// every (pool, core count) both measured? This VM's bandwidth is bimodal from one calibration to the next
// (docs/calibration.md): a disagreement says that the node changed state between the two, and that predictions
// made with either file describe one state only.
inline constexpr double kDefaultCalibrationTolerance = 0.15;
struct CapacityComparison {
  std::string pool;
  unsigned cores = 0;
  double previous_gbs = 0.0;
  double current_gbs = 0.0;
  [[nodiscard]] double relative_change() const noexcept { return current_gbs / previous_gbs - 1.0; }
};
struct CalibrationAgreement {
  double tolerance = kDefaultCalibrationTolerance;
  std::vector<CapacityComparison> compared;  // every (pool, cores) in both, in the current model's order
  std::vector<std::string> not_compared;     // pools or core counts only one of them has, in words
  [[nodiscard]] bool agrees() const;          // every compared capacity within the tolerance
};
// Throws UsageError unless 0 < tolerance <= 10 (finite).
[[nodiscard]] CalibrationAgreement compare_calibrations(const config::NodeModel& previous,
                                                        const config::NodeModel& current, double tolerance);
// One line per compared capacity (those beyond the tolerance marked DISAGREES) and a verdict naming `previous`.
[[nodiscard]] std::string agreement_table(const CalibrationAgreement& agreement, const std::string& previous);

// The calibration a new one is compared with, and its file: `compare` (an earlier node file) when given, else the
// node file at `output` this run replaces (a second run in a row with --force), if it is one. Read before anything
// is measured: a `compare` file that is not a node file is an InputError, a replaced file that is not one is only
// not compared (nullopt, as for output "-" or no file there).
[[nodiscard]] std::optional<std::pair<std::string, config::NodeModel>> previous_calibration(
    const std::string& compare, const std::string& output);

// The result as a table for people: per pool and core count, each kernel's median GB/s with its range over the
// rounds, and the model's GB/s; the pool line says EMULATED when the tiers are one emulated pool.
[[nodiscard]] std::string calibration_table(const Calibration& calibration);

}  // namespace cosched::profiler
