#pragma once
// One `cosched profile` run, end to end: choose the platform and the measurer, open (or resume) the CSV, write
// the sidecar, sweep with progress and Ctrl-C handling, record the sweep's wall time and overhead.
#include <filesystem>
#include <string>

#include "cosched/common/reporter.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/profiler/sweep.hpp"
#include "cosched/profiler/sweep_config.hpp"

namespace cosched::profiler {

struct ProfileRunOptions {
  std::filesystem::path output;  // the CSV; the sidecar goes next to it (sidecar_path)
  bool resume = false;           // continue an existing CSV (created when missing)
  bool force = false;            // overwrite an existing CSV
  Reporter* reporter = nullptr;  // the sweep's progress; null: none
};

// The platform of a sweep: config.platform_file when set; else the KNL 7210 node for model sweeps, this machine
// otherwise. config.tier_backend / emulation_ratio override the platform's. Throws UsageError for an unknown
// backend, a ratio without the emulated backend (it would be ignored), a platform out of range.
[[nodiscard]] config::PlatformConfig resolve_sweep_platform(const SweepConfig& config);

// Throws UsageError for an existing output without --resume/--force, a resume whose sidecar does not match, a
// kernel the measurer does not know; RuntimeFailure if a run does not validate. An interrupted sweep returns
// normally with outcome.interrupted set (the CSV holds every finished point).
// What `cosched profile` says after a sweep, a line each: the points measured and skipped into `output`, where the
// fast memory of commands went (a measured command sweep: from the sidecar), the overhead (a measured sweep), and
// the failed points and notes (sweep_messages, five of each).
[[nodiscard]] std::string format_profile_summary(const SweepConfig& sweep, const SweepOutcome& outcome,
                                                 const std::filesystem::path& output, bool measures);

SweepOutcome run_profile(const SweepConfig& config, const config::PlatformConfig& platform,
                         const ProfileRunOptions& options);

}  // namespace cosched::profiler
