#include "cosched/launcher/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cosched/common/stats.hpp"
#include "cosched/common/error.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/common/json_fields.hpp"

namespace cosched::launcher {

using nlohmann::json;

JournalReport summarize_journal(const std::filesystem::path& path) { return summarize_replay(replay_journal(path)); }

JournalReport summarize_replay(const JournalReplay& replay) {
  JournalReport report;
  const BatchStart& first = replay.segments.front().header;
  report.algorithm = first.algorithm;
  report.policy = first.policy;
  report.host = first.host;
  report.tier_backend = first.tier_backend;
  report.emulated = first.emulated;
  report.lower_bound = first.lower_bound;
  report.predicted_makespan = first.predicted_makespan;
  report.predicted_makespan_contention = first.predicted_makespan_contention;
  report.predicted_interval = first.predicted_interval;
  report.observed_makespan = replay.observed_makespan();
  report.segments = replay.segments.size();
  for (const JournalSegment& segment : replay.segments) {
    report.replans.insert(report.replans.end(), segment.replans.begin(), segment.replans.end());
  }
  report.finished = replay.finished();
  report.truncated_tail = replay.truncated_tail.has_value();
  report.inputs = first.inputs;
  report.slurm = replay.segments.back().header.slurm;
  for (const auto& segment : replay.segments) {
    const std::optional<MemoryWarmUp>& warm_up = segment.header.memory_warm_up;
    if (!warm_up) continue;
    if (!report.memory_warm_up) {
      report.memory_warm_up = warm_up;
    } else {
      report.memory_warm_up->bytes += warm_up->bytes;
      report.memory_warm_up->seconds += warm_up->seconds;
    }
  }

  std::vector<double> overheads;
  for (const TaskReplay& replayed : replay.tasks) {
    TaskReport task;
    task.id = replayed.id;
    if (replayed.planned) {
      task.planned_start = replayed.planned->planned_start;
      task.planned_end = task.planned_start + replayed.planned->predicted_duration;
      task.predicted_start = replayed.planned->predicted_start;
    }
    task.segment = replayed.segment;
    task.replanned = replayed.replanned;
    if (replayed.start) {
      task.observed_start = replayed.start->t;
      task.launch_overhead_s = replayed.start->launch_overhead_s;
      task.cores = replayed.start->cores;
      task.predicted_contention_start = replayed.start->predicted_contention_start;
      task.predicted_contention_end = replayed.start->predicted_contention_end;
    }
    if (replayed.end) {
      task.observed_end = replayed.end->t;
      task.status = std::string(to_string(replayed.end->status));
      switch (replayed.end->status) {
        case sim::TaskStatus::ok: ++report.tasks_completed; break;
        case sim::TaskStatus::failed:
        case sim::TaskStatus::timeout: ++report.tasks_failed; break;
        case sim::TaskStatus::killed: ++report.tasks_killed; break;
      }
      overheads.push_back(task.launch_overhead_s);
      if (task.segment == 0) {
        report.max_abs_start_deviation_s =
            std::max(report.max_abs_start_deviation_s, std::fabs(task.observed_start - task.predicted_start));
      }
    }
    report.tasks.push_back(std::move(task));
  }
  report.tasks_planned = report.tasks.size();
  if (!overheads.empty()) {
    const SampleSummary spread = summarize(std::move(overheads));
    report.median_launch_overhead_s = spread.median;
    report.max_launch_overhead_s = spread.max;
  }
  return report;
}

double TaskReport::predicted_duration() const noexcept {
  if (replanned) return replanned->predicted_duration.value_or(0.0);
  return planned_end - planned_start;
}

std::optional<double> JournalReport::error_paper() const {
  return sim::prediction_error(observed_makespan, predicted_makespan);
}

std::optional<double> JournalReport::error_contention() const {
  return sim::prediction_error(observed_makespan, predicted_makespan_contention);
}

std::optional<bool> JournalReport::inside_interval() const {
  if (!predicted_interval || segments > 1 || !finished) return std::nullopt;
  return observed_makespan >= predicted_interval->low_s && observed_makespan <= predicted_interval->high_s;
}

DurationRatios duration_ratios(const JournalReport& report) {
  DurationRatios ratios;
  for (const TaskReport& task : report.tasks) {
    if (task.status.empty()) continue;  // never ended: no observed duration
    bool corun = false;
    for (const TaskReport& other : report.tasks) {
      if (&other == &task || other.status.empty() || other.segment != task.segment) continue;
      const double overlap = std::min(task.observed_end, other.observed_end) -
                             std::max(task.observed_start, other.observed_start);
      if (overlap > 0.01 * (task.observed_end - task.observed_start)) corun = true;
    }
    const double predicted = task.predicted_duration();
    if (predicted <= 0) continue;
    (corun ? ratios.corun : ratios.alone).push_back((task.observed_end - task.observed_start) / predicted);
  }
  return ratios;
}

json to_json(const JournalReport& report) {
  json tasks = json::array();
  for (const auto& task : report.tasks) {
    tasks.push_back({{"task", task.id},
                     {"status", task.status.empty() ? json(nullptr) : json(task.status)},
                     {"planned_start", task.planned_start},
                     {"planned_end", task.planned_end},
                     {"predicted_start", task.predicted_start},
                     {"predicted_contention_start", optional_json(task.predicted_contention_start)},
                     {"predicted_contention_end", optional_json(task.predicted_contention_end)},
                     {"observed_start", task.observed_start},
                     {"observed_end", task.observed_end},
                     {"segment", task.segment},
                     {"replanned", task.replanned ? json{{"alloc", task.replanned->alloc},
                                                         {"predicted_duration",
                                                          optional_json(task.replanned->predicted_duration)}}
                                                  : json(nullptr)},
                     {"cores", task.cores},
                     {"launch_overhead_s", task.launch_overhead_s}});
  }
  json replans = json::array();
  for (const Replanned& replan : report.replans) {
    replans.push_back({{"t", replan.t},
                       {"after", replan.after},
                       {"reason", replan.reason},
                       {"tasks", replan.tasks.size()},
                       {"predicted_rest_s", optional_json(replan.predicted_rest_s)}});
  }
  return {{"algorithm", report.algorithm},
          {"policy", report.policy},
          {"host", report.host},
          {"tier_backend", report.tier_backend},
          {"emulated", report.emulated},
          {"lower_bound", report.lower_bound},
          {"predicted_makespan", report.predicted_makespan},
          {"predicted_makespan_contention", optional_json(report.predicted_makespan_contention)},
          {"observed_makespan", report.observed_makespan},
          {"predicted_interval",
           report.predicted_interval ? json{{"low_s", report.predicted_interval->low_s},
                                            {"high_s", report.predicted_interval->high_s},
                                            {"coverage", report.predicted_interval->coverage}}
                                     : json(nullptr)},
          {"inside_interval", optional_json(report.inside_interval())},
          {"observed_over_predicted", report.ratio()},
          {"error_paper", optional_json(report.error_paper())},
          {"error_contention", optional_json(report.error_contention())},
          {"tasks_planned", report.tasks_planned},
          {"tasks_completed", report.tasks_completed},
          {"tasks_failed", report.tasks_failed},
          {"tasks_killed", report.tasks_killed},
          {"segments", report.segments},
          {"replans", replans},
          {"finished", report.finished},
          {"truncated_tail", report.truncated_tail},
          {"median_launch_overhead_s", report.median_launch_overhead_s},
          {"max_launch_overhead_s", report.max_launch_overhead_s},
          {"max_abs_start_deviation_s", report.max_abs_start_deviation_s},
          {"inputs", report.inputs ? to_json(*report.inputs) : json(nullptr)},
          {"slurm", report.slurm ? to_json(*report.slurm) : json(nullptr)},
          {"memory_warm_up", report.memory_warm_up
                                 ? json{{"bytes", report.memory_warm_up->bytes},
                                        {"seconds", report.memory_warm_up->seconds},
                                        {"reason", report.memory_warm_up->reason}}
                                 : json(nullptr)},
          {"tasks", tasks}};
}

namespace {

// "80 % interval of the predicted makespan: 2.1 .. 2.9 s; observed 2.5 s: inside\n".
std::string describe_interval(const PredictedInterval& interval, const JournalReport& report) {
  const std::optional<bool> inside = report.inside_interval();
  return fmt::format("{:.0f} % interval of the predicted makespan: {:.3g} .. {:.3g} s; {}\n", 100.0 * interval.coverage,
                     interval.low_s, interval.high_s,
                     inside ? fmt::format("observed {:.3g} s: {}", report.observed_makespan,
                                          *inside ? "inside" : "outside")
                            : std::string("not compared (the launch was resumed or did not finish)"));
}

// At most this many re-plans are told one by one in the text (the rest counted): a long batch's report stays short.
constexpr std::size_t kReplansTold = 5;

// "re-planned 2 time(s) as results arrived: 3 task(s) ran as re-planned, observed / re-predicted duration
// 0.92 .. 1.31\n", then each re-plan: "  at 0.402 s, after x1: <reason>\n".
std::string describe_replans(const JournalReport& report) {
  std::vector<double> ratios;
  std::size_t ran = 0;
  for (const TaskReport& task : report.tasks) {
    if (!task.replanned || task.status.empty()) continue;
    ++ran;
    const double predicted = task.predicted_duration();
    if (predicted > 0) ratios.push_back((task.observed_end - task.observed_start) / predicted);
  }
  std::string ratio_words;
  if (!ratios.empty()) {
    const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
    ratio_words = fmt::format(", observed / re-predicted duration {:.2f} .. {:.2f}", *low, *high);
  }
  std::string text = fmt::format("re-planned {} time(s) as results arrived: {} task(s) ran as re-planned{}\n",
                                 report.replans.size(), ran, ratio_words);
  for (std::size_t k = 0; k < report.replans.size() && k < kReplansTold; ++k) {
    const Replanned& replan = report.replans[k];
    text += fmt::format("  at {:.3f} s, after {}: {}\n", replan.t, replan.after,
                        replan.reason.empty() ? fmt::format("{} pending task(s)", replan.tasks.size()) : replan.reason);
  }
  if (report.replans.size() > kReplansTold) {
    text += fmt::format("  and {} more (cosched report --json: replans)\n", report.replans.size() - kReplansTold);
  }
  return text;
}

}  // namespace

std::string format_report(const JournalReport& report) {
  std::string text;
  text += fmt::format("algorithm {} with the {} policy on {} (tier backend {}{})\n", report.algorithm, report.policy,
                      report.host, report.tier_backend, report.emulated ? ", EMULATED fast tier" : "");
  text += fmt::format("tasks: {} planned, {} completed, {} failed, {} killed{}\n", report.tasks_planned,
                      report.tasks_completed, report.tasks_failed, report.tasks_killed,
                      report.finished ? "" : " — the run did not finish (killed launcher?): resume it");
  if (report.segments > 1) text += fmt::format("resumed: {} segments\n", report.segments);
  if (!report.replans.empty()) text += describe_replans(report);
  if (report.truncated_tail) text += "note: the journal's last line was cut short and is ignored\n";
  text += sim::format_makespans({report.lower_bound, report.predicted_makespan, report.predicted_makespan_contention,
                            report.observed_makespan});
  if (report.predicted_interval) text += describe_interval(*report.predicted_interval, report);
  text += fmt::format("max |start deviation| {:.3f} s; launch overhead median {:.3f} ms, max {:.3f} ms\n",
                      report.max_abs_start_deviation_s, report.median_launch_overhead_s * 1e3,
                      report.max_launch_overhead_s * 1e3);
  if (report.memory_warm_up) text += describe_memory_warm_up(*report.memory_warm_up);
  return text;
}

std::string describe_memory_warm_up(const MemoryWarmUp& warm_up) {
  return fmt::format("memory warm-up before the first tasks: {:.0f} MiB touched and freed in {:.2f} s ({})\n",
                     static_cast<double>(warm_up.bytes) / (1 << 20), warm_up.seconds, warm_up.reason);
}

}  // namespace cosched::launcher
