// The kinds of task in a batch (task_kinds.hpp).
#include "cosched/profiler/task_kinds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "cosched/common/error.hpp"

namespace cosched::profiler {

double work_of(const config::WorkloadTask& task) {
  if (task.is_stream()) return task.passes;
  return task.work ? task.work->value : 1.0;
}

std::vector<double> stream_profiling_passes(unsigned passes) {
  if (passes >= 8) return {1.0, static_cast<double>(std::max(2U, passes / 4))};
  if (passes >= 2) return {1.0};
  return {};
}

std::vector<TaskKind> task_kinds(config::Workload& workload, const std::string& placement) {
  std::vector<TaskKind> kinds;
  for (config::WorkloadTask& task : workload.tasks) {
    const CachedTask identity = cached_task_of(task, placement);
    auto same = std::find_if(kinds.begin(), kinds.end(), [&](const TaskKind& kind) {
      return kind.identity == identity && (task.is_stream() || task.profile.empty() || task.profile == kind.name);
    });
    if (same == kinds.end()) {
      TaskKind kind;
      kind.identity = identity;
      kind.task = task;
      if (task.is_stream()) {
        kind.name = config::stream_task_id(task.kernel, task.footprint_bytes, 0);
        kind.name = kind.name.substr(0, kind.name.rfind('-'));  // "triad-64MiB"
      } else {
        std::size_t commands = 0;
        for (const TaskKind& other : kinds) commands += other.task.is_stream() ? 0 : 1;
        kind.name = task.profile.empty() ? fmt::format("cmd{}", commands) : task.profile;
        if (std::any_of(kinds.begin(), kinds.end(), [&](const TaskKind& other) { return other.name == kind.name; })) {
          throw InputError(workload.source, fmt::format("profile \"{}\" names two different commands", kind.name));
        }
      }
      kinds.push_back(std::move(kind));
      same = kinds.end() - 1;
    }
    if (!task.is_stream()) task.profile = same->name;
    const double amount = work_of(task);
    if (std::find(same->production.begin(), same->production.end(), amount) == same->production.end()) {
      same->production.push_back(amount);
      std::sort(same->production.begin(), same->production.end());
    }
  }
  for (TaskKind& kind : kinds) {
    if (kind.task.is_stream()) {
      kind.profiling = stream_profiling_passes(static_cast<unsigned>(kind.production.front()));
    } else if (kind.task.work) {
      // A command's own profiling amounts, below the least amount it runs (a value under a profiling amount is a
      // production run that short: measured at its own size).
      for (const double amount : kind.task.work->profile) {
        if (amount < kind.production.front()) kind.profiling.push_back(amount);
      }
    }
  }
  return kinds;
}

const TaskKind& kind_of(const std::vector<TaskKind>& kinds, const config::WorkloadTask& task,
                        const std::string& placement) {
  const CachedTask identity = cached_task_of(task, placement);
  for (const TaskKind& kind : kinds) {
    if (kind.identity == identity && (task.is_stream() || task.profile == kind.name)) return kind;
  }
  throw std::logic_error("a task of the batch without its kind: " + task.id);
}

}  // namespace cosched::profiler
