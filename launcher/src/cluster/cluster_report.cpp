#include "cosched/launcher/cluster/cluster_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "cosched/common/error.hpp"
#include "cosched/launcher/journal/replay.hpp"
#include "cosched/common/json_fields.hpp"

namespace cosched::launcher {

using nlohmann::json;

namespace {

ClusterNodeReport read_node(const std::filesystem::path& folder, const sched::ClusterManifest& manifest,
                            std::size_t k) {
  const sched::ClusterManifestNode& node = manifest.nodes[k];
  const std::filesystem::path journal = folder / node.journal;
  std::error_code error;
  if (!std::filesystem::exists(journal, error)) {
    throw InputError(journal.string(), fmt::format("plan node {} has no journal: it never ran, or its step was lost "
                                                   "before it started (run the rest with `cosched launch {} --slurm "
                                                   "--resume`)",
                                                   k, folder.string()));
  }
  const JournalReplay replay = replay_journal(journal);
  ClusterNodeReport row{k, node.schedule, node.journal, node.predicted_makespan, summarize_replay(replay), {}};
  for (const TaskReplay& task : replay.tasks) {
    if (task.start) row.tasks_run.push_back(task.id);
  }
  return row;
}

}  // namespace

ClusterReport merge_node_reports(const sched::ClusterManifest& manifest, std::vector<ClusterNodeReport> rows) {
  std::unordered_map<std::string, std::size_t> planned_on;
  for (std::size_t k = 0; k < manifest.nodes.size(); ++k) {
    for (const auto& id : manifest.nodes[k].tasks) planned_on.emplace(id, k);
  }
  std::unordered_map<std::string, std::size_t> journaled_on;
  ClusterReport merged;
  merged.algorithm = manifest.algorithm;
  merged.lower_bound = manifest.lower_bound;
  merged.planned_makespan = manifest.predicted_makespan;
  merged.finished = true;
  bool every_contention = true;
  for (const ClusterNodeReport& row : rows) {
    for (const auto& id : row.tasks_run) {
      const auto [other, first] = journaled_on.emplace(id, row.node);
      if (!first) {
        throw InputError(row.journal, fmt::format("task \"{}\" is journaled on plan node {} ({}) and on plan node {} "
                                                  "({}): every task runs on exactly one node",
                                                  id, other->second, rows[other->second].journal, row.node,
                                                  row.journal));
      }
      const auto planned = planned_on.find(id);
      if (planned == planned_on.end() || planned->second != row.node) {
        throw InputError(row.journal,
                         planned == planned_on.end()
                             ? fmt::format("task \"{}\" ran on plan node {} but is not in the plan", id, row.node)
                             : fmt::format("task \"{}\" ran on plan node {} but the plan puts it on node {}", id,
                                           row.node, planned->second));
      }
    }
    const JournalReport& report = row.report;
    merged.predicted_makespan = std::max(merged.predicted_makespan, report.predicted_makespan);
    if (report.predicted_makespan_contention) {
      merged.predicted_makespan_contention =
          std::max(merged.predicted_makespan_contention.value_or(0.0), *report.predicted_makespan_contention);
    } else {
      every_contention = false;
    }
    merged.observed_makespan = std::max(merged.observed_makespan, report.observed_makespan);
    merged.tasks_planned += manifest.nodes[row.node].tasks.size();
    merged.tasks_completed += report.tasks_completed;
    merged.tasks_failed += report.tasks_failed;
    merged.tasks_killed += report.tasks_killed;
    merged.finished = merged.finished && report.finished;
  }
  if (!every_contention) merged.predicted_makespan_contention.reset();
  merged.rows = std::move(rows);
  return merged;
}

ClusterReport summarize_cluster(const std::filesystem::path& given) {
  const std::filesystem::path folder = sched::find_cluster_plan_folder(given);
  const sched::ClusterManifest manifest = sched::load_cluster_manifest(folder);
  std::vector<ClusterNodeReport> rows;
  for (std::size_t k = 0; k < manifest.nodes.size(); ++k) rows.push_back(read_node(folder, manifest, k));
  return merge_node_reports(manifest, std::move(rows));
}

json to_json(const ClusterReport& report) {
  json rows = json::array();
  for (const ClusterNodeReport& row : report.rows) {
    const JournalReport& r = row.report;
    rows.push_back({{"node", row.node},
                    {"schedule", row.schedule},
                    {"journal", row.journal},
                    {"slurm_node", r.slurm ? json(r.slurm->node) : json(nullptr)},
                    {"slurm_job_id", r.slurm ? json(r.slurm->job_id) : json(nullptr)},
                    {"slurm_step_id", r.slurm ? json(r.slurm->step_id) : json(nullptr)},
                    {"host", r.host},
                    {"planned_makespan", row.planned_makespan},
                    {"predicted_makespan", r.predicted_makespan},
                    {"predicted_makespan_contention", optional_json(r.predicted_makespan_contention)},
                    {"observed_makespan", r.observed_makespan},
                    {"lower_bound", r.lower_bound},
                    {"tasks_planned", r.tasks_planned},
                    {"tasks_completed", r.tasks_completed},
                    {"tasks_failed", r.tasks_failed},
                    {"tasks_killed", r.tasks_killed},
                    {"segments", r.segments},
                    {"finished", r.finished},
                    {"task_ids", row.tasks_run}});
  }
  return {{"algorithm", report.algorithm},
          {"nodes", report.rows.size()},
          {"lower_bound", report.lower_bound},
          {"planned_makespan", report.planned_makespan},
          {"predicted_makespan", report.predicted_makespan},
          {"predicted_makespan_contention", optional_json(report.predicted_makespan_contention)},
          {"observed_makespan", report.observed_makespan},
          {"observed_over_predicted",
           report.predicted_makespan > 0 ? json(report.observed_makespan / report.predicted_makespan) : json(nullptr)},
          {"tasks_planned", report.tasks_planned},
          {"tasks_completed", report.tasks_completed},
          {"tasks_failed", report.tasks_failed},
          {"tasks_killed", report.tasks_killed},
          {"finished", report.finished},
          {"rows", rows}};
}

std::string format_cluster_report(const ClusterReport& report) {
  std::string text = fmt::format("cluster plan: {} on {} nodes; tasks: {} planned, {} completed, {} failed, {} killed{}\n",
                                 report.algorithm, report.rows.size(), report.tasks_planned, report.tasks_completed,
                                 report.tasks_failed, report.tasks_killed,
                                 report.finished ? "" : " — not finished: resume with cosched launch DIR --slurm --resume");
  text += fmt::format("{:>5} {:<12} {:>6} {:>10} {:>12} {:>12} {:>9}\n", "node", "slurm node", "tasks", "completed",
                      "predicted", "observed", "finished");
  for (const ClusterNodeReport& row : report.rows) {
    const JournalReport& r = row.report;
    text += fmt::format("{:>5} {:<12} {:>6} {:>10} {:>12.4f} {:>12.4f} {:>9}\n", row.node,
                        r.slurm && !r.slurm->node.empty() ? r.slurm->node : std::string("-"), r.tasks_planned,
                        r.tasks_completed, r.predicted_makespan, r.observed_makespan, r.finished ? "yes" : "no");
  }
  text += fmt::format("cluster lower bound {:.4f} s; predicted makespan {:.4f} s (slowest node); observed {:.4f} s{}\n",
                      report.lower_bound, report.predicted_makespan, report.observed_makespan,
                      report.predicted_makespan > 0
                          ? fmt::format(" ({:.3f}x predicted)", report.observed_makespan / report.predicted_makespan)
                          : std::string());
  return text;
}

}  // namespace cosched::launcher
