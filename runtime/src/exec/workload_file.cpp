#include "cosched/exec/workload_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/kernels/kernels.hpp"

namespace cosched::exec {

std::vector<std::string> stream_kernel_names() {
  std::vector<std::string> names;
  for (const auto& kernel : kernels::kernel_table()) names.emplace_back(kernel.name);
  return names;
}

config::Workload workload_of_instance(const sched::Instance& instance, const std::string& source,
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

WorkloadFile read_workload_file(const std::filesystem::path& path,
                                const std::optional<config::PlatformConfig>& platform) {
  config::WorkloadReadOptions options;
  options.platform = platform;
  options.known_kernels = stream_kernel_names();
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

config::Workload read_workload(const std::filesystem::path& path, const std::optional<config::PlatformConfig>& platform) {
  return read_workload_file(path, platform).workload;
}

void check_batch_before_work(const config::Workload& workload, std::optional<std::uint64_t> memory_bytes) {
  for (const config::WorkloadTask& task : workload.tasks) {
    if (!task.command.empty() && task.command.front().find('{') == std::string::npos) {
      (void)resolve_executable(task.command.front());
    }
    if (memory_bytes && task.footprint_bytes > *memory_bytes) {
      constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
      throw ResourceError(fmt::format("{}: task \"{}\" has a footprint of {:.4g} GiB, more than this node's memory "
                                      "({:.4g} GiB): it cannot run here",
                                      workload.source, task.id, static_cast<double>(task.footprint_bytes) / kGiB,
                                      static_cast<double>(*memory_bytes) / kGiB));
    }
  }
}

}  // namespace cosched::exec
