#pragma once
// Several launches of one batch compared with their predictions (the demo's results): each launch's row in the
// results CSV, and the figures over a set of launches — how far the observed makespans were from each prediction
// (|observed/predicted - 1|: the paper model's, and the contention-aware one's where recorded), observed over
// predicted task durations alone and co-running, and the launch overhead per task. Every figure is empty-safe (0
// over no values): a comparison where every task failed still has its table.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "cosched/launcher/report.hpp"

namespace cosched::launcher {

// One launch: what its journal's report says, and what only the caller knows.
struct ComparedRun {
  std::string configuration;  // e.g. "cores+fast", "cores-only-slow"
  std::string algorithm;
  double planned = 0, scheduling_s = 0;  // the schedule's makespan and the time the algorithm took
  std::filesystem::path journal;
  const JournalReport* report = nullptr;  // not null; outlives the row
};

// results.csv: a header, then one line per run (configuration, algorithm, bound, planned, both predictions,
// observed, observed/predicted, observed/bound, scheduling time, tasks ok and failed or killed, `emulated`, the
// journal's file name).
[[nodiscard]] std::string results_csv(const std::vector<ComparedRun>& runs, bool emulated);

struct PredictionFidelity {
  std::vector<double> errors;             // |observed/predicted - 1| of the paper model, one per report
  std::vector<double> errors_contention;  // the same for the contention-aware prediction, where recorded
  double median_error = 0, worst_error = 0;
  double median_error_contention = 0, worst_error_contention = 0;
  [[nodiscard]] bool have_contention() const noexcept { return !errors_contention.empty(); }
};
[[nodiscard]] PredictionFidelity prediction_fidelity(const std::vector<const JournalReport*>& reports);

// Observed / predicted task durations (duration_ratios) of several runs together, and their means.
struct DurationSummary {
  DurationRatios ratios;
  double alone_mean = 0, corun_mean = 0;
};
[[nodiscard]] DurationSummary duration_summary(const std::vector<DurationRatios>& runs);

// Spawn to exec, binding and placement of every task that started, over several runs.
struct LaunchOverheads {
  std::size_t launches = 0;
  double min_s = 0, median_s = 0, max_s = 0;
};
[[nodiscard]] LaunchOverheads launch_overheads(const std::vector<const JournalReport*>& reports);

}  // namespace cosched::launcher
