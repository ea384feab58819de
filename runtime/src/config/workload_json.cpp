// The workload JSON reader and writer, and the per-task fields the Instance JSON carries.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <set>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/config/workload.hpp"
#include "workload_rules.hpp"

namespace cosched::config {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 11> kTaskKeys{"id",        "command",   "kernel", "footprint_bytes", "passes",
                                                     "timeout_s", "release_s", "user",   "profile",         "env",
                                                     "work"};

std::int64_t integer_field(const json& entry, const char* key, std::int64_t min, std::int64_t max,
                           const std::string& where) {
  return json_to_integer(entry.at(key), min, max, where, fmt::format("\"{}\"", key));
}

void reject_other_keys(const json& entry, const std::string& where) {
  for (const auto& [key, value] : entry.items()) {
    if (std::find(kTaskKeys.begin(), kTaskKeys.end(), key) == kTaskKeys.end()) {
      throw InputError(where, fmt::format("unknown key \"{}\" (allowed: {})", key, fmt::join(kTaskKeys, ", ")));
    }
  }
}

// "work": {"value": V, "profile": [a, b]}: V > 0, the profiling amounts ascending and below V.
WorkScale read_work(const json& entry, const std::string& where) {
  if (!entry.is_object()) throw InputError(where, "\"work\" must be an object {\"value\": N, \"profile\": [n, ...]}");
  for (const auto& [key, value] : entry.items()) {
    if (key != "value" && key != "profile") {
      throw InputError(where, fmt::format("\"work\" has the unknown key \"{}\" (allowed: value, profile)", key));
    }
  }
  if (!entry.contains("value")) throw InputError(where, "\"work\" needs \"value\": the amount the batch runs");
  WorkScale work;
  work.value = json_to_number(entry.at("value"), positive_up_to(kMaxWork), where, "\"work\".value");
  if (entry.contains("profile")) {
    const json& amounts = entry.at("profile");
    if (!amounts.is_array() || amounts.empty() || amounts.size() > kMaxProfilingWork) {
      throw InputError(where, fmt::format("\"work\".profile must be an array of 1 to {} amounts", kMaxProfilingWork));
    }
    for (std::size_t k = 0; k < amounts.size(); ++k) {
      const double amount = json_to_number(amounts[k], positive_up_to(kMaxWork), where,
                                           fmt::format("\"work\".profile[{}]", k));
      if (amount >= work.value || (!work.profile.empty() && amount <= work.profile.back())) {
        throw InputError(where, fmt::format("\"work\".profile[{}] = {}: the profiling amounts ascend, each below "
                                            "\"value\" ({})",
                                            k, amount, work.value));
      }
      work.profile.push_back(amount);
    }
  }
  return work;
}

void read_command(const json& entry, WorkloadTask& task, const std::string& where) {
  if (entry.contains("passes")) {
    throw InputError(where, "\"passes\" is not for a command: kernel passes belong to a STREAM task (\"kernel\")");
  }
  if (entry.contains("footprint_bytes")) {  // optional for a command: what its fast fraction is of
    task.footprint_bytes = static_cast<std::uint64_t>(
        integer_field(entry, "footprint_bytes", 1, static_cast<std::int64_t>(kMaxFootprintBytes), where));
  }
  if (entry.contains("profile")) {
    task.profile = json_to_string(entry.at("profile"), where, "\"profile\"");
    check_identifier(task.profile, where + ": \"profile\"");
  }
  if (entry.contains("env")) {
    const json& env = entry.at("env");
    if (!env.is_object()) throw InputError(where, "\"env\" must be an object of NAME: \"value\" strings");
    std::vector<std::pair<std::string, std::string>> variables;
    for (const auto& [name, value] : env.items()) {  // nlohmann keeps object keys sorted
      if (!value.is_string()) throw InputError(where, fmt::format("\"env\".{} must be a string", name));
      variables.emplace_back(name, value.get<std::string>());
    }
    task.environment = environment_entries(variables, where + ": \"env\"");
  }
  if (entry.contains("work")) task.work = read_work(entry.at("work"), where);
  const json& argv = entry.at("command");
  if (!argv.is_array()) throw InputError(where, "\"command\" must be an array of strings (argv; no shell)");
  for (const auto& arg : argv) {
    if (!arg.is_string()) throw InputError(where, "\"command\" must hold strings only");
    task.command.push_back(arg.get<std::string>());
  }
  check_command(task.command, where, task.work.has_value());
  if (task.work && std::none_of(task.command.begin(), task.command.end(), [](const std::string& arg) {
        return arg.find(kWorkPlaceholder) != std::string::npos;
      })) {
    throw InputError(where, "\"work\" scales the amount {work} stands for: the command never uses {work}");
  }
}

void read_stream(const json& entry, WorkloadTask& task, const std::vector<std::string>& known_kernels,
                 const std::string& where) {
  if (!entry.at("kernel").is_string()) throw InputError(where, "\"kernel\" must be a string");
  task.kernel = entry.at("kernel").get<std::string>();
  rules::check_kernel_name(task.kernel, known_kernels, where);
  if (!entry.contains("footprint_bytes")) throw InputError(where, "a STREAM task needs \"footprint_bytes\"");
  task.footprint_bytes = static_cast<std::uint64_t>(
      integer_field(entry, "footprint_bytes", 1, static_cast<std::int64_t>(kMaxFootprintBytes), where));
  if (entry.contains("passes")) {
    task.passes = static_cast<unsigned>(integer_field(entry, "passes", 1, kMaxPasses, where));
  }
}

}  // namespace

bool has_task_fields(const json& entry) {
  return entry.is_object() && (entry.contains("kernel") || entry.contains("command"));
}

WorkloadTask task_from_json(const json& entry, const std::string& where, const TaskJsonRules& rules) {
  if (!entry.is_object()) throw InputError(where, "a task is an object");
  if (!entry.contains("id") || !entry.at("id").is_string()) throw InputError(where, "a task needs a string \"id\"");
  WorkloadTask task;
  task.id = entry.at("id").get<std::string>();
  check_identifier(task.id, where);
  const std::string at =
      where.empty() ? fmt::format("task \"{}\"", task.id) : fmt::format("{} (task \"{}\")", where, task.id);
  if (!rules.other_keys_allowed) reject_other_keys(entry, at);
  const bool command = entry.contains("command");
  const bool kernel = entry.contains("kernel");
  if (command && kernel) throw InputError(at, "give \"command\" or \"kernel\", not both");
  if (kernel && entry.contains("profile")) throw InputError(at, "\"profile\" names a profiled command, not a kernel");
  if (kernel && entry.contains("work")) {
    throw InputError(at, "\"work\" is for a command: a kernel task's work is its \"passes\"");
  }
  if (kernel && entry.contains("env")) {
    throw InputError(at, "\"env\" is for a command: a kernel task runs stream_bench as the launcher sets it up");
  }
  if (command) {
    read_command(entry, task, at);
  } else if (kernel) {
    read_stream(entry, task, rules.known_kernels, at);
  } else {
    throw InputError(at, "needs \"command\" (argv) or \"kernel\" + \"footprint_bytes\"");
  }
  if (entry.contains("timeout_s")) {
    const json& timeout = entry.at("timeout_s");
    if (!timeout.is_number()) throw InputError(at, "\"timeout_s\" must be a number of seconds");
    task.timeout_s = checked_number(timeout.get<double>(), positive_up_to(kMaxSeconds), at, "\"timeout_s\"");
  }
  if (entry.contains("release_s")) {
    task.release_s = json_to_number(entry.at("release_s"), non_negative_up_to(kMaxSeconds), at, "\"release_s\"");
  }
  if (entry.contains("user")) {
    task.user = json_to_string(entry.at("user"), at, "\"user\"");
    check_identifier(task.user, at + ": \"user\"");
  }
  return task;
}

void from_json(const json& in, WorkloadTask& task) { task = task_from_json(in, ""); }

void to_json(json& out, const WorkloadTask& task) {
  out = {{"id", task.id}};
  if (task.is_stream()) {
    out["kernel"] = task.kernel;
    out["footprint_bytes"] = task.footprint_bytes;
    out["passes"] = task.passes;
  } else {
    out["command"] = task.command;
    if (task.footprint_bytes > 0) out["footprint_bytes"] = task.footprint_bytes;
    if (!task.profile.empty()) out["profile"] = task.profile;
    if (!task.environment.empty()) {
      json env = json::object();
      for (const auto& variable : task.environment) {
        const std::size_t equals = variable.find('=');
        env[variable.substr(0, equals)] = variable.substr(equals + 1);
      }
      out["env"] = std::move(env);
    }
    if (task.work) {
      out["work"] = {{"value", task.work->value}};
      if (!task.work->profile.empty()) out["work"]["profile"] = task.work->profile;
    }
  }
  if (task.timeout_s) out["timeout_s"] = *task.timeout_s;
  if (task.release_s != 0.0) out["release_s"] = task.release_s;
  if (!task.user.empty()) out["user"] = task.user;
}

void to_json(json& out, const Workload& workload) {
  out = {{"name", workload.name}};
  if (!workload.description.empty()) out["description"] = workload.description;
  out["tasks"] = workload.tasks;
}

Workload parse_workload_json(std::string_view text, const std::string& source, const WorkloadReadOptions& options) {
  return workload_from_json(parse_json_text(text, source), source, options);
}

Workload workload_from_json(const json& root, const std::string& source, const WorkloadReadOptions& options) {
  if (is_instance_json(root)) {
    // One parser per format: an Instance's tasks are read by sched's Instance parser, their attributes then by
    // task_from_json (exec/workload_file.hpp composes the two; config does not depend on sched).
    throw InputError(source, "this is an Instance JSON (it has \"resources\"), not a workload: read it with the "
                             "Instance reader (sched::load_instance), then task_from_json on each task's attributes");
  }
  if (!root.is_object() || !root.contains("tasks") || !root.at("tasks").is_array()) {
    throw InputError(source, "a JSON workload is an object with a \"tasks\" array");
  }
  Workload workload;
  workload.source = source;
  workload.name = std::filesystem::path(source).stem().string();
  for (const auto& [key, value] : root.items()) {
    if (key != "name" && key != "description" && key != "tasks") {
      throw InputError(source, fmt::format("unknown key \"{}\" (allowed: name, description, tasks)", key));
    }
  }
  if (root.contains("name")) {
    workload.name = json_to_string(root.at("name"), source, "\"name\"");
    check_identifier(workload.name, source + ": name");
  }
  if (root.contains("description")) workload.description = json_to_string(root.at("description"), source, "\"description\"");
  const json& tasks = root.at("tasks");
  check_task_count(tasks.size(), source);
  const TaskJsonRules rules{options.known_kernels, false};
  std::set<std::string> ids;
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    const std::string where = fmt::format("{}: tasks[{}]", source, k);
    WorkloadTask task = task_from_json(tasks[k], where, rules);
    if (!ids.insert(task.id).second) throw InputError(where, fmt::format("task id \"{}\" appears twice", task.id));
    workload.tasks.push_back(std::move(task));
  }
  return workload;
}

bool is_instance_json(const json& root) { return root.is_object() && root.contains("resources"); }

void check_task_count(std::size_t count, const std::string& source) {
  if (count == 0) throw InputError(source, "\"tasks\" is empty");
  if (count > kMaxWorkloadTasks) throw InputError(source, fmt::format("{} tasks, at most {}", count, kMaxWorkloadTasks));
}

}  // namespace cosched::config
