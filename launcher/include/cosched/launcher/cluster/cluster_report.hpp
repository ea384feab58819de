#pragma once
// The report of a cluster plan's launch (docs/cluster.md): every node's journal summarised (report.hpp) and
// merged — one row per plan node, the cluster's task counts, the predicted makespan (the slowest node's) and
// the observed one (the slowest node's span). A node without a journal, a journal of a task the plan put on
// another node, and a task journaled on two nodes are InputErrors: the merge never guesses.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/launcher/report.hpp"
#include "cosched/sched/cluster_manifest.hpp"

namespace cosched::launcher {

struct ClusterNodeReport {
  std::size_t node = 0;
  std::string schedule;
  std::string journal;
  double planned_makespan = 0.0;  // the manifest's
  JournalReport report;
  std::vector<std::string> tasks_run;  // ids with a start event in this node's journal
};

struct ClusterReport {
  std::string algorithm;
  double lower_bound = 0.0;        // the cluster lower bound L_min(N·d)
  double planned_makespan = 0.0;   // the manifest's: the slowest node's planned makespan
  double predicted_makespan = 0.0; // the slowest node's prediction (paper model) as its launch recorded it
  std::optional<double> predicted_makespan_contention;  // the slowest node's, when every node has one
  double observed_makespan = 0.0;  // the slowest node's observed span (steps start within the launch's overhead)
  std::size_t tasks_planned = 0, tasks_completed = 0, tasks_failed = 0, tasks_killed = 0;
  bool finished = false;  // every node's last segment finished
  std::vector<ClusterNodeReport> rows;
};

// Merges the journals of the plan in `folder` (or in its cluster-plan/: a `demo --slurm` output). Throws InputError for a folder without a manifest, a missing or
// malformed node journal, a task journaled on a node the plan did not put it on, or on two nodes.
[[nodiscard]] ClusterReport summarize_cluster(const std::filesystem::path& folder);
[[nodiscard]] ClusterReport merge_node_reports(const sched::ClusterManifest& manifest,
                                               std::vector<ClusterNodeReport> rows);

[[nodiscard]] nlohmann::json to_json(const ClusterReport& report);
[[nodiscard]] std::string format_cluster_report(const ClusterReport& report);

}  // namespace cosched::launcher
