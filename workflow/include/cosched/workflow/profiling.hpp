#pragma once
// The pipelines that learn a node and its tasks: `cosched calibrate` (the node's memory bandwidth model),
// `cosched profile` (execution-time tables) and `cosched instance` (a workload and its profiles as the scheduling
// core's instance). Each takes its options and a reporter (cosched/common/reporter.hpp); files are written whole
// or not at all.
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/profiler/calibration.hpp"
#include "cosched/profiler/sweep_overrides.hpp"

namespace cosched::workflow {

struct CalibrateOptions {
  std::string output = "node.toml";  // the node file ("-": stdout)
  bool force = false;                // replace an existing output
  profiler::CalibrationOptions calibration;
  std::string compare;               // an earlier node file; empty: the file `force` replaces, if it is one
  double tolerance = profiler::kDefaultCalibrationTolerance;
};

// Measures the node, writes the node file, reports the table, the run's summary and the agreement with the
// earlier calibration.
void run_calibrate(const CalibrateOptions& options, Reporter& reporter);

struct ProfileOptions {
  profiler::SweepOverrides sweep;  // the sweep file and the flags that override it
  std::string output;              // the profile CSV (its sidecar beside it)
  bool resume = false;             // continue a partial CSV
  bool force = false;              // replace an existing CSV
};

// Sweeps and reports the summary. Throws RuntimeFailure (exit 6) when points failed (their rows are kept, marked
// failed) or the sweep was interrupted (how to resume).
void run_profile(const ProfileOptions& options, Reporter& reporter);

struct InstanceOptions {
  std::string workload;               // workload TOML or JSON
  std::vector<std::string> profiles;  // profile CSVs
  std::string platform;               // platform TOML
  std::string node;                   // node TOML; empty: no bandwidth model
  std::string output = "-";           // the Instance JSON ("-": stdout)
  bool force = false;
};

// Builds and writes the instance; notes what the profiles could not say (fixed costs, probed traffic).
void run_instance(const InstanceOptions& options, Reporter& reporter);

}  // namespace cosched::workflow
