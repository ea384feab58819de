#pragma once
// The demo's pieces: the node and batch it chooses, the profiles it measures, the runs it makes.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "demo/demo.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/launcher/run_comparison.hpp"
#include "cosched/profiler/demo_batch.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::demo {

// The demo's batch is library code (cosched/profiler/demo_batch.hpp); the demo's runs and results are here.
using profiler::demo::calibrate_bandwidth;
using profiler::demo::demo_kernels;
using profiler::demo::demo_mixed_groups;
using profiler::demo::DemoSetup;
using profiler::demo::make_instance;
using profiler::demo::make_mixed_setup;
using profiler::demo::make_setup;
using profiler::demo::PassTable;
using profiler::demo::profile_tasks;

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

// Plans the instance with `algorithm` and launches it with `tier`; writes the schedule and the journal (a
// `repeat` > 0 is a relaunch of the same plan for the noise floor: its files get a ".repeat<N>" suffix).
[[nodiscard]] RunRow plan_and_launch(const DemoSetup& setup, const sched::Instance& instance,
                                     const std::string& configuration, const std::string& algorithm,
                                     const exec::TierSetup& tier, unsigned repeat = 0);

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

// Table, CSV, JSON and plots (the fidelity summary is also in the JSON).
void write_results(const DemoSetup& setup, const std::vector<RunRow>& rows, const NoiseFloor& noise, double total_s);

// The mixed batch's Fig. 3(a)/(b): observed (predicted) makespan per algorithm and memory configuration, on stdout
// and as results.csv in the mixed setup's folder.
void write_mixed_results(const DemoSetup& mixed, const std::vector<RunRow>& rows);

}  // namespace cosched::demo
