#pragma once
// The kinds of task in a batch (issue 39): tasks that differ only in how much work they run are one kind, and what
// is measured of one serves them all — a STREAM kernel at a footprint (its work: passes), or a command whose argv,
// environment, footprint and placement are the same with {work} left as it is (its work: "work",
// config::WorkScale). A kind is what the knowledge store keeps measurements of (knowledge_store.hpp).
#include <string>
#include <vector>

#include "cosched/config/workload.hpp"
#include "cosched/profiler/profile_cache.hpp"

namespace cosched::profiler {

struct TaskKind {
  std::string name;               // as the run names it: "triad-64MiB", or the command's profile name ("cmd0")
  CachedTask identity;            // what its knowledge is of: the cache's key ({work} left in a command's argv)
  config::WorkloadTask task;      // its first task: what runs ({work} and the grant's placeholders unsubstituted)
  std::vector<double> production;  // the amounts its tasks run, ascending, distinct (passes, or work values)
  std::vector<double> profiling;   // smaller amounts it can be measured at (short runs), ascending
  [[nodiscard]] double largest() const { return production.back(); }
};

// The amount a task runs: a STREAM task's passes, a command's work value (1 for a command without "work").
[[nodiscard]] double work_of(const config::WorkloadTask& task);

// The short-run amounts of a STREAM task of `passes` passes: 1 and a quarter of them (at least 2) when it runs 8
// or more, 1 when it runs 2 to 7, none for one pass — a run's fixed cost (start-up, allocation, first touch,
// validation) is then told apart from its cost per pass, as fixed_cost_passes does at full length.
[[nodiscard]] std::vector<double> stream_profiling_passes(unsigned passes);

// The batch's kinds in order of first appearance. A command's task gets its kind's name as its `profile` (the
// name "profile" gives it, else "cmd<k>"). Throws InputError when a command's program cannot be found
// (cached_task_of) or when one profile name stands for two different commands.
[[nodiscard]] std::vector<TaskKind> task_kinds(config::Workload& workload, const std::string& placement);

// The kind of `task` among `kinds` (by identity); throws std::logic_error when it has none (a bug: kinds are made
// from the batch).
[[nodiscard]] const TaskKind& kind_of(const std::vector<TaskKind>& kinds, const config::WorkloadTask& task,
                                      const std::string& placement);

}  // namespace cosched::profiler
