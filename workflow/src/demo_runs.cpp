#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "cosched/common/error.hpp"
#include "cosched/common/stats.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/knowledge/makespan_interval.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/workflow/node_launch.hpp"
#include "demo_setup.hpp"

namespace cosched::workflow::demo {

namespace {

config::Workload workload_of(const sched::Instance& instance, const DemoSetup& setup) {
  // The instance's ids are config::stream_task_id's, as in setup.workload.
  config::Workload workload = setup.workload;
  workload.source = "demo batch";
  for (const auto& task : instance.tasks()) (void)workload.find(task.id);
  return workload;
}

}  // namespace

void LaunchHistory::add(const launcher::JournalReport& report) {
  const double predicted = report.predicted_makespan_contention.value_or(report.predicted_makespan);
  if (predicted > 0.0 && report.observed_makespan > 0.0 && report.finished) {
    log_errors_.push_back(std::log(report.observed_makespan / predicted));
  }
}

RunRow plan_and_launch(const DemoSetup& setup, const sched::Instance& instance, const std::string& configuration,
                       const std::string& algorithm, const exec::TierSetup& tier, LaunchHistory& history,
                       unsigned repeat) {
  RunRow row;
  row.configuration = configuration;
  row.algorithm = algorithm;
  const sched::PlanResult planned =
      sched::plan(sim::find_algorithm(algorithm), instance, sched::lower_bound(instance));
  row.planned = planned.schedule.makespan;
  row.scheduling_s = planned.seconds;
  const std::string stem = configuration + "-" + algorithm + (repeat > 0 ? fmt::format(".repeat{}", repeat) : "");
  const std::filesystem::path schedule_path = setup.output / "runs" / (stem + ".schedule.json");
  write_text_file(schedule_path, sched::schedule_to_json(instance, planned.schedule) + "\n", setup.overwrite(),
                  "schedule");

  const sim::LaunchPlan plan = sim::plan_from_schedule(instance, planned.schedule);
  LaunchOptions options;
  options.force = setup.options.force;
  options.memory_warm_up = setup.options.memory_warm_up;
  options.log_dir = (setup.output / "runs" / (stem + ".logs")).string();
  double longest = 0;
  for (const auto& task : plan.tasks) longest = std::max(longest, task.predicted_duration);
  options.timeout_s = std::max(60.0, 10.0 * longest);  // only a hung task is stopped
  launcher::LaunchSettings settings =
      launch_settings(options, {setup.platform, std::nullopt, tier}, setup.output / "runs" / (stem + ".jsonl"));
  settings.stream_bench = setup.stream_bench;
  settings.schedule_source = schedule_path.string();
  settings.workload_source = "demo batch";
  settings.label = configuration;
  knowledge::IntervalOptions interval;
  const profiler::LaunchNoise noise = history.noise();
  interval.launch_noise_sigma = noise.sigma;
  interval.launch_noise_dof = noise.degrees_of_freedom();
  const std::vector<double> no_fit_uncertainty(plan.tasks.size(), 0.0);
  const knowledge::MakespanInterval stated = knowledge::stated_interval(plan, no_fit_uncertainty, interval);
  settings.predicted_interval = launcher::PredictedInterval{stated.low_s, stated.high_s, knowledge::kStatedCoverage};
  const launcher::LaunchSummary summary = launch_on_node(plan, workload_of(instance, setup), settings, nullptr);
  require_completed(summary, {"the demo does not resume; the journal of the run in progress is " +
                                  settings.journal.string(),
                              ""});  // failed tasks are the demo's rows

  row.journal = settings.journal;
  row.report = launcher::summarize_journal(settings.journal);
  row.durations = launcher::duration_ratios(row.report);
  history.add(row.report);
  return row;
}

std::string describe_interval(const RunRow& row) {
  const auto& interval = row.report.predicted_interval;
  const std::optional<bool> inside = row.report.inside_interval();
  if (!interval) return "";
  return fmt::format(", {:.0f} % {:.3g} .. {:.3g} s: {}", 100.0 * interval->coverage, interval->low_s,
                     interval->high_s, inside ? (*inside ? "inside" : "outside") : "not compared");
}

IntervalCoverage interval_coverage(const std::vector<RunRow>& rows) {
  IntervalCoverage coverage;
  for (const RunRow& row : rows) {
    const std::optional<bool> inside = row.report.inside_interval();
    if (!inside) continue;
    ++coverage.stated;
    if (*inside) ++coverage.inside;
  }
  return coverage;
}

double NoiseFloor::relative_half_range() const { return cosched::relative_half_range(observed); }

}  // namespace cosched::workflow::demo
