#include "workload_toml.hpp"

#include <map>
#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/profiler/platform_config.hpp"
#include "cosched/profiler/workload.hpp"

namespace cosched::launcher {

Workload load_toml_workload(const std::filesystem::path& path, const std::filesystem::path& platform_path) {
  // Footprints given as a percentage of the fast tier need the platform; without one, such entries are rejected
  // by the reader (capacity 0).
  profiler::PlatformConfig platform;
  if (!platform_path.empty()) platform = profiler::load_platform_config(platform_path);
  const profiler::Workload source = profiler::load_workload(path, platform);
  Workload workload;
  workload.source = path.string();
  // The same numbering as profiler::build_instance: per (kernel, footprint), in file order.
  std::map<std::pair<std::string, std::uint64_t>, unsigned> next_index;
  for (const auto& entry : source.entries) {
    auto& index = next_index[{entry.kernel, entry.footprint_bytes}];
    for (unsigned i = 0; i < entry.count; ++i) {
      WorkloadTask task;
      task.id = stream_task_id(entry.kernel, entry.footprint_bytes, index++);
      task.kernel = entry.kernel;
      task.footprint_bytes = entry.footprint_bytes;
      task.passes = entry.passes;
      workload.tasks.push_back(std::move(task));
    }
  }
  return workload;
}

}  // namespace cosched::launcher
