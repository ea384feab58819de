#include "cosched/launcher/run_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "cosched/common/stats.hpp"

namespace cosched::launcher {

namespace {

double median_or_zero(const std::vector<double>& values) { return values.empty() ? 0.0 : median(values); }

double mean(const std::vector<double>& values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double largest(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

// observed / predicted_contention, from the report's error (as the results table shows it).
std::optional<double> ratio_contention(const JournalReport& report) {
  const auto error = report.error_contention();
  return error ? std::optional<double>(*error + 1.0) : std::nullopt;
}

}  // namespace

std::string results_csv(const std::vector<ComparedRun>& runs, bool emulated) {
  std::string csv =
      "configuration,algorithm,lower_bound_s,planned_makespan_s,predicted_makespan_s,"
      "predicted_makespan_contention_s,observed_makespan_s,observed_over_predicted,observed_over_lower_bound,"
      "scheduling_time_s,tasks_ok,tasks_failed,emulated,journal\n";
  for (const auto& run : runs) {
    const JournalReport& report = *run.report;
    const double over_bound = report.lower_bound > 0 ? report.observed_makespan / report.lower_bound : 0.0;
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", run.configuration, run.algorithm,
                       report.lower_bound, run.planned, report.predicted_makespan,
                       report.predicted_makespan_contention
                           ? fmt::format("{}", *report.predicted_makespan_contention)
                           : std::string(),
                       report.observed_makespan, report.ratio(), over_bound, run.scheduling_s,
                       report.tasks_completed, report.tasks_failed + report.tasks_killed, emulated,
                       run.journal.filename().string());
  }
  return csv;
}

PredictionFidelity prediction_fidelity(const std::vector<const JournalReport*>& reports) {
  PredictionFidelity fidelity;
  for (const JournalReport* report : reports) {
    fidelity.errors.push_back(std::fabs(report->ratio() - 1.0));
    if (const auto ratio = ratio_contention(*report)) fidelity.errors_contention.push_back(std::fabs(*ratio - 1.0));
  }
  fidelity.median_error = median_or_zero(fidelity.errors);
  fidelity.worst_error = largest(fidelity.errors);
  fidelity.median_error_contention = median_or_zero(fidelity.errors_contention);
  fidelity.worst_error_contention = largest(fidelity.errors_contention);
  return fidelity;
}

DurationSummary duration_summary(const std::vector<DurationRatios>& runs) {
  DurationSummary summary;
  for (const DurationRatios& run : runs) {
    summary.ratios.alone.insert(summary.ratios.alone.end(), run.alone.begin(), run.alone.end());
    summary.ratios.corun.insert(summary.ratios.corun.end(), run.corun.begin(), run.corun.end());
  }
  summary.alone_mean = mean(summary.ratios.alone);
  summary.corun_mean = mean(summary.ratios.corun);
  return summary;
}

LaunchOverheads launch_overheads(const std::vector<const JournalReport*>& reports) {
  std::vector<double> overheads;
  for (const JournalReport* report : reports) {
    for (const auto& task : report->tasks) {
      if (!task.status.empty()) overheads.push_back(task.launch_overhead_s);
    }
  }
  LaunchOverheads result;
  result.launches = overheads.size();
  if (overheads.empty()) return result;
  result.min_s = *std::min_element(overheads.begin(), overheads.end());
  result.median_s = median(overheads);
  result.max_s = *std::max_element(overheads.begin(), overheads.end());
  return result;
}

}  // namespace cosched::launcher
