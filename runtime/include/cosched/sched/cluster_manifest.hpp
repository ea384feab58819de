#pragma once
// The cluster plan folder (docs/cluster.md, docs/formats.md "Cluster manifest"): `manifest.json` and, per node k,
// `node-k.schedule.json` (the Schedule JSON of the node's tasks, the one schedule writer) and
// `node-k.instance.json` (the node's tasks as an Instance JSON, which is also the workload the node's launch
// reads). The manifest is versioned; ONE parser and ONE writer. Journals of a launch land beside them
// (`node-k.journal.jsonl`).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/text_file.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::sched {

inline constexpr int kClusterManifestVersion = 1;
inline constexpr std::string_view kClusterManifestFile = "manifest.json";

struct ClusterManifestNode {
  std::string schedule;  // file names inside the plan folder (safe identifiers: no folder part)
  std::string instance;
  std::string journal;
  double lower_bound = 0.0;         // the node's L_min(d)
  double predicted_makespan = 0.0;  // its planned makespan
  std::vector<std::string> tasks;   // its task ids, in its instance's order
};

struct ClusterManifest {
  int version = kClusterManifestVersion;
  std::string algorithm;
  std::string source_instance;  // the instance the plan was split from, as given (for people)
  std::string partition = "lpt-area";
  std::vector<Resource> resources;  // of every node (identical nodes)
  double lower_bound = 0.0;         // the cluster lower bound L_min(N·d)
  double predicted_makespan = 0.0;  // the slowest node's
  std::vector<ClusterManifestNode> nodes;
};

// The file names of plan node `node`: "node-007" + suffix.
[[nodiscard]] std::string node_file_name(std::size_t node, std::string_view suffix);

[[nodiscard]] ClusterManifest make_cluster_manifest(const ClusterPlan& plan, const std::string& source_instance);

// Validates: an object with "version" == kClusterManifestVersion, a string "algorithm", resources (safe names,
// capacities 1..kMaxCapacity), finite times in [0, kMaxSeconds], 1..kMaxClusterNodes nodes whose file names are
// safe identifiers used once, and task ids that are safe and on exactly one node. Throws InputError naming
// `source` and the field.
[[nodiscard]] ClusterManifest parse_cluster_manifest(std::string_view text, const std::string& source);
// parse_cluster_manifest of `folder`/manifest.json; a folder without one is an InputError saying it is not a plan.
[[nodiscard]] ClusterManifest load_cluster_manifest(const std::filesystem::path& folder);
[[nodiscard]] std::string cluster_manifest_to_json(const ClusterManifest& manifest);

// The plan folder `folder` names: itself when it holds a manifest, else its cluster-plan/ when that does (the
// output folder of `cosched demo --slurm`), else `folder` (whose load then says it is not a plan).
inline constexpr std::string_view kDemoPlanFolder = "cluster-plan";
[[nodiscard]] std::filesystem::path find_cluster_plan_folder(const std::filesystem::path& folder);

// Whether `folder` holds a cluster manifest (report and launch tell a plan folder from a file with it).
[[nodiscard]] bool is_cluster_plan_folder(const std::filesystem::path& folder);

// Before any work: the folder's parent exists, the folder is not a file, and (refuse) it holds no file yet.
// Throws UsageError naming `folder` and --force.
void check_plan_folder(const std::filesystem::path& folder, Overwrite overwrite);

// Writes the manifest, every node's schedule and instance: whole or not at all (everything is written into a
// sibling temporary folder, which then replaces `folder`; with replace, whatever `folder` held is removed).
void write_cluster_plan(const std::filesystem::path& folder, const ClusterPlan& plan,
                        const std::string& source_instance, Overwrite overwrite);

}  // namespace cosched::sched
