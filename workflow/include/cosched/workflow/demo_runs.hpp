#pragma once
// The demo's runs (cosched/workflow/demo.hpp): one plan launched and summarised, the noise floor, and the results
// written (tables to the reporter, results.csv / results.json, the plots). The node and batch they run
// on are the profiler's DemoSetup (cosched/profiler/demo_batch.hpp).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/launcher/run_comparison.hpp"
#include "cosched/profiler/demo_batch.hpp"
#include "cosched/profiler/run_history.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::workflow::demo {

using profiler::demo::DemoSetup;

struct RunRow {
  std::string configuration;  // "cores+fast", "cores-only-slow", "cores-only-system"
  std::string algorithm;
  double planned = 0, scheduling_s = 0;  // the schedule's makespan and the time the algorithm took
  std::filesystem::path journal;
  launcher::JournalReport report;     // the run's journal summarised: bound, both predictions, observed, tasks
  launcher::DurationRatios durations;  // observed / predicted task durations, alone and co-running
  [[nodiscard]] double lower_bound() const noexcept { return report.lower_bound; }
  [[nodiscard]] double predicted() const noexcept { return report.predicted_makespan; }
  [[nodiscard]] std::optional<double> predicted_contention() const { return report.predicted_makespan_contention; }
  [[nodiscard]] double observed() const noexcept { return report.observed_makespan; }
  [[nodiscard]] double ratio() const noexcept { return report.ratio(); }
  [[nodiscard]] std::optional<double> ratio_contention() const {
    const auto error = report.error_contention();
    return error ? std::optional<double>(*error + 1.0) : std::nullopt;
  }
  [[nodiscard]] std::size_t tasks_ok() const noexcept { return report.tasks_completed; }
  [[nodiscard]] std::size_t tasks_failed() const noexcept { return report.tasks_failed + report.tasks_killed; }
};

// The demo's launches so far as predicted and observed: the spread of the next launch's interval. A profile's
// times carry no fit uncertainty, so the whole interval is this node's launch-to-launch noise
// (profiler::launch_noise: the demo's own earlier launches, pooled with the prior before there are any) through
// knowledge::stated_interval, as `cosched run` states its own.
class LaunchHistory {
 public:
  [[nodiscard]] profiler::LaunchNoise noise() const { return profiler::launch_noise(log_errors_); }
  // ln(observed / the prediction its interval was of: the contention-aware one where there is one).
  void add(const launcher::JournalReport& report);

 private:
  std::vector<double> log_errors_;
};

// Plans the instance with `algorithm` and launches it with `tier`, its journal stating the 80 % interval of its
// makespan from `history` (which then hears of it); writes the schedule and the journal (a `repeat` > 0 is a
// relaunch of the same plan for the noise floor: its files get a ".repeat<N>" suffix).
[[nodiscard]] RunRow plan_and_launch(const DemoSetup& setup, const sched::Instance& instance,
                                     const std::string& configuration, const std::string& algorithm,
                                     const exec::TierSetup& tier, LaunchHistory& history, unsigned repeat = 0);

// ", 80 % 2.1 .. 2.9 s: inside" (empty when the run states no interval).
[[nodiscard]] std::string describe_interval(const RunRow& row);

// How many of the rows' observed makespans fell inside their stated intervals, of how many stated one.
struct IntervalCoverage {
  std::size_t inside = 0;
  std::size_t stated = 0;
};
[[nodiscard]] IntervalCoverage interval_coverage(const std::vector<RunRow>& rows);

// The same plan launched several times in a row: how far observed makespans spread with nothing changed.
struct NoiseFloor {
  std::string algorithm;
  std::vector<double> observed;  // every launch's makespan
  // Half the range over the median: (max - min) / (2 median). A prediction error below it cannot be told
  // from the run-to-run noise of this machine.
  [[nodiscard]] double relative_half_range() const;
};

// The runs as the launcher's comparison of runs sees them (results.csv's one writer; the rows outlive them).
[[nodiscard]] std::vector<launcher::ComparedRun> compared_runs(const std::vector<RunRow>& rows);

// Table, CSV, JSON and plots (the fidelity summary is also in the JSON). The plotting scripts are looked for in
// DemoOptions::scripts_dir, else next to an installed executable (<bin>/../share/cosched/scripts), else in the
// scripts/ of the source tree this library was built from; a missing one skips its plot, saying so.
void write_results(const DemoSetup& setup, const std::vector<RunRow>& rows, const NoiseFloor& noise, double total_s,
                   Reporter& reporter);

// The mixed batch's Fig. 3(a)/(b): observed (predicted) makespan per algorithm and memory configuration, on the
// reporter and as results.csv in the mixed setup's folder.
void write_mixed_results(const DemoSetup& mixed, const std::vector<RunRow>& rows, Reporter& reporter);

}  // namespace cosched::workflow::demo
