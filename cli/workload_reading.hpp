#pragma once
// How the commands read a workload: config's reader, told which kernels a STREAM task may name (stream_bench's
// kernel table; cosched::config itself does not link the kernels) and, when there is one, the platform that sizes
// footprints given as a percentage of the fast tier. An Instance JSON (what `cosched instance` writes) is read by
// the ONE Instance parser (sched), and what each task runs by the workload schema's task reader (config) from the
// task's attributes: this layer composes the two so that config does not depend on sched.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::cli {

// The workload an Instance carries: each task's attributes (as config::to_json wrote them) plus its id. Other
// attributes are the Instance's own (the Instance format keeps any), so they are left alone.
inline config::Workload workload_of_instance(const sched::Instance& instance, const std::string& source,
                                             const std::vector<std::string>& known_kernels) {
  config::check_task_count(instance.task_count(), source);
  config::Workload workload;
  workload.source = source;
  workload.name = std::filesystem::path(source).stem().string();
  const config::TaskJsonRules rules{known_kernels, /*other_keys_allowed=*/true};
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    const sched::Task& task = instance.tasks()[j];
    const std::string where = fmt::format("{}: tasks[{}]", source, j);
    if (!config::has_task_fields(task.attributes)) {
      throw InputError(where, "this Instance JSON does not say what the task runs (no \"kernel\" or \"command\"): "
                              "give the workload it was built from");
    }
    nlohmann::json entry = task.attributes;
    entry["id"] = task.id;
    workload.tasks.push_back(config::task_from_json(entry, where, rules));
  }
  return workload;
}

// A workload file as read: what each task runs and, when the file is an Instance JSON, the instance itself (its
// bandwidth model and traffic are what the contention-aware prediction needs).
struct WorkloadFile {
  config::Workload workload;
  std::optional<sched::Instance> instance;
};

// A workload file: TOML, workload JSON, or an Instance JSON (told apart by its "resources").
inline WorkloadFile read_workload_file(const std::filesystem::path& path,
                                       const std::optional<config::PlatformConfig>& platform) {
  config::WorkloadReadOptions options;
  options.platform = platform;
  for (const auto& kernel : stream::kernel_table()) options.known_kernels.emplace_back(kernel.name);
  if (path.extension() == ".toml") return {config::load_workload(path, options), std::nullopt};
  const std::string source = path.string();
  const nlohmann::json root = parse_json_text(read_text_file(path, "workload"), source);
  if (config::is_instance_json(root)) {
    sched::Instance instance = sched::instance_from_json(root, source);
    config::Workload workload = workload_of_instance(instance, source, options.known_kernels);
    return {std::move(workload), std::move(instance)};
  }
  return {config::workload_from_json(root, source, options), std::nullopt};
}

inline config::Workload read_workload(const std::filesystem::path& path,
                                      const std::optional<config::PlatformConfig>& platform) {
  return read_workload_file(path, platform).workload;
}

}  // namespace cosched::cli
