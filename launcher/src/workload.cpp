#include "cosched/launcher/workload.hpp"
#include "cosched/profiler/workload.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cosched/common/error.hpp"
#include "cosched/stream/kernels.hpp"
#include "workload_toml.hpp"

namespace cosched::launcher {

using nlohmann::json;

const WorkloadTask& Workload::find(const std::string& id) const {
  for (const auto& task : tasks) {
    if (task.id == id) return task;
  }
  throw InputError(source, fmt::format("the schedule names task \"{}\", which the workload does not have", id));
}

std::string stream_task_id(const std::string& kernel, std::uint64_t footprint_bytes, unsigned k) {
  return profiler::workload_task_id(kernel, footprint_bytes, k);
}

namespace {

WorkloadTask read_json_task(const json& entry, const std::string& where) {
  if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string()) {
    throw InputError(where, "needs a string \"id\"");
  }
  WorkloadTask task;
  task.id = entry["id"].get<std::string>();
  const std::string at = fmt::format("{} (task \"{}\")", where, task.id);
  if (entry.contains("command")) {
    if (!entry["command"].is_array() || entry["command"].empty()) {
      throw InputError(at, "\"command\" must be a non-empty array of strings (argv; no shell)");
    }
    for (const auto& arg : entry["command"]) {
      if (!arg.is_string()) throw InputError(at, "\"command\" must hold strings only");
      task.command.push_back(arg.get<std::string>());
    }
  } else if (entry.contains("kernel")) {
    if (!entry["kernel"].is_string()) throw InputError(at, "\"kernel\" must be a string");
    task.kernel = entry["kernel"].get<std::string>();
    try {
      (void)stream::find_kernel(task.kernel);
    } catch (const UsageError& e) {
      throw InputError(at, e.what());
    }
    if (!entry.contains("footprint_bytes") || !entry["footprint_bytes"].is_number_unsigned() ||
        entry["footprint_bytes"].get<std::uint64_t>() == 0) {
      throw InputError(at, "a STREAM task needs \"footprint_bytes\" > 0");
    }
    task.footprint_bytes = entry["footprint_bytes"].get<std::uint64_t>();
    if (entry.contains("passes")) {
      if (!entry["passes"].is_number_unsigned() || entry["passes"].get<unsigned>() == 0) {
        throw InputError(at, "\"passes\" must be an integer >= 1");
      }
      task.passes = entry["passes"].get<unsigned>();
    }
  } else {
    throw InputError(at, "needs \"command\" (argv) or \"kernel\" + \"footprint_bytes\"");
  }
  if (entry.contains("timeout_s")) {
    if (!entry["timeout_s"].is_number() || !(entry["timeout_s"].get<double>() > 0)) {
      throw InputError(at, "\"timeout_s\" must be a positive number of seconds");
    }
    task.timeout_s = entry["timeout_s"].get<double>();
  }
  return task;
}

Workload load_json_workload(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string(), "cannot open workload");
  std::stringstream text;
  text << in.rdbuf();
  const json root = json::parse(text.str(), nullptr, false);
  if (root.is_discarded() || !root.is_object() || !root.contains("tasks") || !root["tasks"].is_array()) {
    throw InputError(path.string(), "a JSON workload is an object with a \"tasks\" array");
  }
  Workload workload;
  workload.source = path.string();
  std::set<std::string> ids;
  for (std::size_t k = 0; k < root["tasks"].size(); ++k) {
    const std::string where = fmt::format("{}: tasks[{}]", path.string(), k);
    WorkloadTask task = read_json_task(root["tasks"][k], where);
    if (!ids.insert(task.id).second) throw InputError(where, fmt::format("task id \"{}\" appears twice", task.id));
    workload.tasks.push_back(std::move(task));
  }
  return workload;
}

}  // namespace

Workload load_workload(const std::filesystem::path& path, const std::filesystem::path& platform_path) {
  if (path.extension() == ".toml") return load_toml_workload(path, platform_path);
  return load_json_workload(path);
}

}  // namespace cosched::launcher
