#include "cosched/profiler/workload.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/profiler/sweep_config.hpp"
#include "toml_fields.hpp"

namespace cosched::profiler {
namespace {

namespace tf = toml_fields;

WorkloadEntry read_entry(const toml::table& task, std::size_t index, const std::filesystem::path& path,
                         const PlatformConfig& platform) {
  const std::string context = fmt::format("tasks[{}].", index);
  tf::reject_unknown_keys(task, {"kernel", "footprint_mib", "footprint_percent_of_fast", "count", "passes"}, path,
                          context);
  const std::string where = tf::where(path, task);
  WorkloadEntry entry;
  const auto kernel = tf::get_string(task, "kernel", path);
  if (!kernel || kernel->empty()) throw InputError(where, fmt::format("{}kernel is missing", context));
  entry.kernel = *kernel;
  const auto mib = tf::get_number(task, "footprint_mib", path);
  const auto percent = tf::get_number(task, "footprint_percent_of_fast", path);
  if (mib.has_value() == percent.has_value()) {
    throw InputError(where, fmt::format("{}: give exactly one of footprint_mib, footprint_percent_of_fast",
                                        context.substr(0, context.size() - 1)));
  }
  if (!(mib.value_or(percent.value_or(0.0)) > 0.0)) {
    throw InputError(where, fmt::format("{}footprint must be positive", context));
  }
  entry.footprint_bytes = mib ? static_cast<std::uint64_t>(std::llround(*mib * 1024.0 * 1024.0))
                              : footprint_from_percent(*percent, platform);
  const auto count = tf::get_integer(task, "count", path).value_or(1);
  const auto passes = tf::get_integer(task, "passes", path).value_or(1);
  if (count < 1 || count > 1'000'000) throw InputError(where, fmt::format("{}count must be >= 1", context));
  if (passes < 1 || passes > 1'000'000) throw InputError(where, fmt::format("{}passes must be >= 1", context));
  entry.count = static_cast<unsigned>(count);
  entry.passes = static_cast<unsigned>(passes);
  return entry;
}

}  // namespace

std::string workload_task_id(const std::string& kernel, std::uint64_t footprint_bytes, unsigned k) {
  return fmt::format("{}-{}MiB-{}", kernel, static_cast<double>(footprint_bytes) / (1024.0 * 1024.0), k);
}

Workload load_workload(const std::filesystem::path& path, const PlatformConfig& platform) {
  const toml::table root = tf::parse_file(path);
  tf::reject_unknown_keys(root, {"name", "description", "tasks"}, path);
  Workload workload;
  workload.name = tf::get_string(root, "name", path).value_or(path.stem().string());
  const auto* tasks = root.get_as<toml::array>("tasks");
  if (tasks == nullptr || tasks->empty()) {
    throw InputError(path.string(), "no [[tasks]] entries (each: kernel, footprint_mib, count)");
  }
  for (std::size_t i = 0; i < tasks->size(); ++i) {
    const auto* task = (*tasks)[i].as_table();
    if (task == nullptr) throw InputError(tf::where(path, (*tasks)[i]), fmt::format("tasks[{}] is not a table", i));
    workload.entries.push_back(read_entry(*task, i, path, platform));
  }
  return workload;
}

}  // namespace cosched::profiler
