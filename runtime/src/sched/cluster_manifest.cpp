// The cluster plan folder: the manifest's one parser and one writer, and the folder written whole or not at all.
#include "cosched/sched/cluster_manifest.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/sched/io.hpp"
#include "sched/json_parts.hpp"

namespace cosched::sched {

using nlohmann::json;

namespace {

std::string file_name_from_json(const json& node, const char* key, const std::string& where,
                                std::unordered_set<std::string>& used) {
  std::string name = json_to_string(json_member(node, key, where), where, fmt::format("\"{}\"", key));
  // A file name, never a path: the plan folder stays self-contained and nothing is written outside it.
  check_identifier(name, fmt::format("{}: \"{}\"", where, key));
  if (!used.insert(name).second) throw InputError(where, fmt::format("\"{}\": file {} is named twice", key, name));
  return name;
}

ClusterManifestNode node_from_json(const json& node, const std::string& where,
                                   std::unordered_map<std::string, std::string>& task_nodes,
                                   std::unordered_set<std::string>& files) {
  require_json_object(node, where);
  ClusterManifestNode result;
  result.schedule = file_name_from_json(node, "schedule", where, files);
  result.instance = file_name_from_json(node, "instance", where, files);
  result.journal = file_name_from_json(node, "journal", where, files);
  result.lower_bound =
      json_to_number(json_member(node, "lower_bound", where), makespan_range(), where, "\"lower_bound\"");
  result.predicted_makespan = json_to_number(json_member(node, "predicted_makespan", where), makespan_range(), where,
                                             "\"predicted_makespan\"");
  const json& tasks = json_to_array(json_member(node, "tasks", where), where, "\"tasks\"");
  if (tasks.empty()) throw InputError(where, "\"tasks\" is empty: every node has at least one task");
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    std::string id = json_to_string(tasks[k], where, fmt::format("tasks[{}]", k));
    check_identifier(id, fmt::format("{}: tasks[{}]", where, k));
    const auto [found, inserted] = task_nodes.emplace(id, where);
    if (!inserted) throw InputError(where, fmt::format("task \"{}\" is also on {}", id, found->second));
    result.tasks.push_back(std::move(id));
  }
  return result;
}

}  // namespace

std::string node_file_name(std::size_t node, std::string_view suffix) {
  return fmt::format("node-{:03}{}", node, suffix);
}

ClusterManifest make_cluster_manifest(const ClusterPlan& plan, const std::string& source_instance) {
  ClusterManifest manifest;
  manifest.algorithm = plan.algorithm;
  manifest.source_instance = source_instance;
  manifest.resources = plan.nodes.front().instance.resources();
  manifest.lower_bound = plan.partition.lower_bound;
  manifest.predicted_makespan = plan.predicted_makespan;
  for (std::size_t k = 0; k < plan.nodes.size(); ++k) {
    const NodePlan& node = plan.nodes[k];
    ClusterManifestNode entry{node_file_name(k, ".schedule.json"), node_file_name(k, ".instance.json"),
                              node_file_name(k, ".journal.jsonl"), node.result.schedule.lower_bound,
                              node.result.schedule.makespan, {}};
    for (const Task& task : node.instance.tasks()) entry.tasks.push_back(task.id);
    manifest.nodes.push_back(std::move(entry));
  }
  return manifest;
}

ClusterManifest parse_cluster_manifest(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  require_json_object(root, source);
  ClusterManifest manifest;
  manifest.version = static_cast<int>(json_to_integer(json_member(root, "version", source), 0, 1'000'000, source,
                                                      "\"version\""));
  if (manifest.version != kClusterManifestVersion) {
    throw InputError(source, fmt::format("manifest version {} is not supported (this cosched reads version {})",
                                         manifest.version, kClusterManifestVersion));
  }
  manifest.algorithm = json_to_string(json_member(root, "algorithm", source), source, "\"algorithm\"");
  if (const json* instance = find_json_member(root, "source_instance", source)) {
    manifest.source_instance = json_to_string(*instance, source, "\"source_instance\"");
  }
  if (const json* partition = find_json_member(root, "partition", source)) {
    manifest.partition = json_to_string(*partition, source, "\"partition\"");
  }
  manifest.resources = detail::resources_from_json(json_member(root, "resources", source), source);
  manifest.lower_bound = json_to_number(json_member(root, "lower_bound", source), makespan_range(), source,
                                        "\"lower_bound\"");
  manifest.predicted_makespan = json_to_number(json_member(root, "predicted_makespan", source), makespan_range(),
                                               source, "\"predicted_makespan\"");
  const json& nodes = json_to_array(json_member(root, "nodes", source), source, "\"nodes\"");
  if (nodes.empty() || nodes.size() > kMaxClusterNodes) {
    throw InputError(source, fmt::format("\"nodes\" must have 1..{} entries, got {}", kMaxClusterNodes, nodes.size()));
  }
  std::unordered_map<std::string, std::string> task_nodes;
  std::unordered_set<std::string> files{std::string(kClusterManifestFile)};
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    manifest.nodes.push_back(node_from_json(nodes[k], fmt::format("{}: nodes[{}]", source, k), task_nodes, files));
  }
  return manifest;
}

ClusterManifest load_cluster_manifest(const std::filesystem::path& folder) {
  const std::filesystem::path path = folder / kClusterManifestFile;
  if (!is_cluster_plan_folder(folder)) {
    throw InputError(folder.string(), fmt::format("not a cluster plan folder: it has no {} (make one with `cosched "
                                                  "plan ... --nodes N --output DIR`)",
                                                  kClusterManifestFile));
  }
  return parse_cluster_manifest(read_text_file(path, "cluster manifest"), path.string());
}

std::string cluster_manifest_to_json(const ClusterManifest& manifest) {
  json nodes = json::array();
  for (const auto& node : manifest.nodes) {
    nodes.push_back({{"schedule", node.schedule},
                     {"instance", node.instance},
                     {"journal", node.journal},
                     {"lower_bound", node.lower_bound},
                     {"predicted_makespan", node.predicted_makespan},
                     {"tasks", node.tasks}});
  }
  const json root = {{"version", manifest.version},
                     {"algorithm", manifest.algorithm},
                     {"source_instance", manifest.source_instance},
                     {"partition", manifest.partition},
                     {"resources", detail::resources_to_json<json>(manifest.resources)},
                     {"lower_bound", manifest.lower_bound},
                     {"predicted_makespan", manifest.predicted_makespan},
                     {"nodes", nodes}};
  return root.dump(2) + "\n";
}

bool is_cluster_plan_folder(const std::filesystem::path& folder) {
  std::error_code error;
  return std::filesystem::is_directory(folder, error) &&
         std::filesystem::is_regular_file(folder / kClusterManifestFile, error);
}

std::filesystem::path find_cluster_plan_folder(const std::filesystem::path& folder) {
  if (!is_cluster_plan_folder(folder) && is_cluster_plan_folder(folder / kDemoPlanFolder)) {
    return folder / kDemoPlanFolder;
  }
  return folder;
}

void check_plan_folder(const std::filesystem::path& folder, Overwrite overwrite) {
  std::error_code error;
  const auto parent = folder.parent_path().empty() ? std::filesystem::path(".") : folder.parent_path();
  if (!std::filesystem::is_directory(parent, error)) {
    throw UsageError(fmt::format("plan folder {}: its folder {} does not exist", folder.string(), parent.string()));
  }
  if (!std::filesystem::exists(folder, error)) return;
  if (!std::filesystem::is_directory(folder, error)) {
    throw UsageError(fmt::format("plan folder {} is a file, not a folder", folder.string()));
  }
  if (overwrite == Overwrite::refuse && !std::filesystem::is_empty(folder, error)) {
    throw UsageError(fmt::format("plan folder {} already holds files: pass --force to replace them, or name another "
                                 "folder",
                                 folder.string()));
  }
}

void write_cluster_plan(const std::filesystem::path& folder, const ClusterPlan& plan,
                        const std::string& source_instance, Overwrite overwrite) {
  check_plan_folder(folder, overwrite);
  const ClusterManifest manifest = make_cluster_manifest(plan, source_instance);
  const std::filesystem::path target = folder.has_filename() ? folder : folder.parent_path();
  const std::filesystem::path partial = target.string() + fmt::format(".partial-{}", ::getpid());
  const std::filesystem::path replaced = target.string() + fmt::format(".replaced-{}", ::getpid());
  std::error_code error;
  std::filesystem::remove_all(partial, error);
  if (!std::filesystem::create_directory(partial, error)) {
    throw PlatformError("mkdir", fmt::format("cannot create {}", partial.string()), error.value());
  }
  try {
    for (std::size_t k = 0; k < plan.nodes.size(); ++k) {
      const NodePlan& node = plan.nodes[k];
      write_text_file(partial / manifest.nodes[k].instance, instance_to_json(node.instance) + "\n",
                      Overwrite::refuse, "node instance");
      write_text_file(partial / manifest.nodes[k].schedule,
                      schedule_to_json(node.instance, node.result.schedule) + "\n", Overwrite::refuse,
                      "node schedule");
    }
    write_text_file(partial / kClusterManifestFile, cluster_manifest_to_json(manifest), Overwrite::refuse,
                    "cluster manifest");
    const bool existed = std::filesystem::exists(target, error);
    if (existed) {
      std::filesystem::rename(target, replaced, error);
      if (error) throw PlatformError("rename", fmt::format("cannot move {} aside", target.string()), error.value());
    }
    std::filesystem::rename(partial, target, error);
    if (error) {
      std::error_code ignored;
      if (existed) std::filesystem::rename(replaced, target, ignored);
      throw PlatformError("rename", fmt::format("cannot create {}", target.string()), error.value());
    }
    std::filesystem::remove_all(replaced, error);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(partial, ignored);
    throw;
  }
}

}  // namespace cosched::sched
