#include "cosched/launcher/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "cosched/common/stats.hpp"
#include "cosched/common/error.hpp"
#include "cosched/launcher/journal.hpp"

namespace cosched::launcher {

using nlohmann::json;

namespace {

double number(const json& event, const char* key) {
  return event.contains(key) && event[key].is_number() ? event[key].get<double>() : 0.0;
}

}  // namespace

JournalReport summarize_journal(const std::filesystem::path& path) {
  const JournalContents contents = read_journal(path);
  JournalReport report;
  report.truncated_tail = contents.truncated_tail.has_value();
  std::map<std::string, TaskReport> tasks;
  std::vector<std::string> order;
  double segment_span = 0;
  const auto close_segment = [&](const json* end_event) {
    report.observed_makespan += end_event != nullptr ? number(*end_event, "observed_makespan") : segment_span;
    segment_span = 0;
  };
  bool segment_open = false;
  for (const auto& event : contents.events) {
    const std::string name = event["event"].get<std::string>();
    if (name == "batch_start") {
      if (segment_open) close_segment(nullptr);
      segment_open = true;
      report.finished = false;
      if (report.segments++ == 0) {
        report.algorithm = event.value("algorithm", "");
        report.policy = event.value("policy", "");
        report.host = event.value("host", "");
        report.tier_backend = event.value("tier_backend", "");
        report.emulated = event.value("emulated", false);
        report.lower_bound = number(event, "lower_bound");
        report.predicted_makespan = number(event, "predicted_makespan");
        for (const auto& planned : event.value("plan", json::array())) {
          TaskReport task;
          task.id = planned.at("task").get<std::string>();
          task.planned_start = number(planned, "planned_start");
          task.planned_end = task.planned_start + number(planned, "predicted_duration");
          task.predicted_start = number(planned, "predicted_start");
          order.push_back(task.id);
          tasks[task.id] = task;
        }
      }
    } else if (name == "start" || name == "end") {
      if (!segment_open) throw InputError(path.string(), fmt::format("\"{}\" before any batch_start", name));
      const std::string id = event["task"].get<std::string>();
      if (tasks.count(id) == 0) order.push_back(id);
      TaskReport& task = tasks[id];
      task.id = id;
      task.segment = report.segments - 1;
      segment_span = std::max(segment_span, number(event, "t"));
      if (name == "start") {
        task.observed_start = number(event, "t");
        task.launch_overhead_s = number(event, "launch_overhead_s");
        task.cores = event.value("cores", std::vector<unsigned>{});
        task.status.clear();
      } else {
        task.observed_end = number(event, "t");
        task.status = event.value("status", "failed");
      }
    } else if (name == "batch_end") {
      close_segment(&event);
      segment_open = false;
      report.finished = true;
    }
  }
  if (report.segments == 0) throw InputError(path.string(), "no batch_start: not a cosched journal");
  if (segment_open) close_segment(nullptr);

  std::vector<double> overheads;
  for (const auto& id : order) {
    const TaskReport& task = tasks[id];
    if (task.status == "ok") ++report.tasks_completed;
    if (task.status == "failed" || task.status == "timeout") ++report.tasks_failed;
    if (task.status == "killed") ++report.tasks_killed;
    if (!task.status.empty()) {
      overheads.push_back(task.launch_overhead_s);
      if (task.segment == 0) {
        report.max_abs_start_deviation_s =
            std::max(report.max_abs_start_deviation_s, std::fabs(task.observed_start - task.predicted_start));
      }
    }
    report.tasks.push_back(task);
  }
  report.tasks_planned = report.tasks.size();
  if (!overheads.empty()) {
    const SampleSummary spread = summarize(std::move(overheads));
    report.median_launch_overhead_s = spread.median;
    report.max_launch_overhead_s = spread.max;
  }
  return report;
}

json to_json(const JournalReport& report) {
  json tasks = json::array();
  for (const auto& task : report.tasks) {
    tasks.push_back({{"task", task.id},
                     {"status", task.status.empty() ? json(nullptr) : json(task.status)},
                     {"planned_start", task.planned_start},
                     {"planned_end", task.planned_end},
                     {"predicted_start", task.predicted_start},
                     {"observed_start", task.observed_start},
                     {"observed_end", task.observed_end},
                     {"segment", task.segment},
                     {"cores", task.cores},
                     {"launch_overhead_s", task.launch_overhead_s}});
  }
  return {{"algorithm", report.algorithm},
          {"policy", report.policy},
          {"host", report.host},
          {"tier_backend", report.tier_backend},
          {"emulated", report.emulated},
          {"lower_bound", report.lower_bound},
          {"predicted_makespan", report.predicted_makespan},
          {"observed_makespan", report.observed_makespan},
          {"observed_over_predicted", report.ratio()},
          {"tasks_planned", report.tasks_planned},
          {"tasks_completed", report.tasks_completed},
          {"tasks_failed", report.tasks_failed},
          {"tasks_killed", report.tasks_killed},
          {"segments", report.segments},
          {"finished", report.finished},
          {"truncated_tail", report.truncated_tail},
          {"median_launch_overhead_s", report.median_launch_overhead_s},
          {"max_launch_overhead_s", report.max_launch_overhead_s},
          {"max_abs_start_deviation_s", report.max_abs_start_deviation_s},
          {"tasks", tasks}};
}

std::string format_report(const JournalReport& report) {
  std::string text;
  text += fmt::format("algorithm {} with the {} policy on {} (tier backend {}{})\n", report.algorithm, report.policy,
                      report.host, report.tier_backend, report.emulated ? ", EMULATED fast tier" : "");
  text += fmt::format("tasks: {} planned, {} completed, {} failed, {} killed{}\n", report.tasks_planned,
                      report.tasks_completed, report.tasks_failed, report.tasks_killed,
                      report.finished ? "" : " — the run did not finish (killed launcher?): resume it");
  if (report.segments > 1) text += fmt::format("resumed: {} segments\n", report.segments);
  if (report.truncated_tail) text += "note: the journal's last line was cut short and is ignored\n";
  text += fmt::format("lower bound L_min(d)   {:.3f} s\n", report.lower_bound);
  text += fmt::format("predicted makespan     {:.3f} s  ({:.3f} x L_min)\n", report.predicted_makespan,
                      report.lower_bound > 0 ? report.predicted_makespan / report.lower_bound : 0.0);
  text += fmt::format("observed makespan      {:.3f} s  ({:.3f} x L_min)\n", report.observed_makespan,
                      report.lower_bound > 0 ? report.observed_makespan / report.lower_bound : 0.0);
  text += fmt::format("observed / predicted   {:.4f}\n", report.ratio());
  text += fmt::format("max |start deviation| {:.3f} s; launch overhead median {:.3f} ms, max {:.3f} ms\n",
                      report.max_abs_start_deviation_s, report.median_launch_overhead_s * 1e3,
                      report.max_launch_overhead_s * 1e3);
  return text;
}

}  // namespace cosched::launcher
