#pragma once
// One timed run of a kind of task (learning.hpp), as the launcher runs it: a STREAM kind through the process
// measurer (a whole stream_bench process, its passes the run's work), a command through the command measurer ({work}
// substituted) — the same placement, pinning and fast share as a launch; and the memory-demand probe (two copies
// side by side) of either.
#include <optional>
#include <string>

#include "cosched/knowledge/measurement.hpp"
#include "cosched/profiler/knowledge_store.hpp"
#include "cosched/profiler/launched_profile.hpp"
#include "cosched/profiler/task_kinds.hpp"

namespace cosched::profiler::detail {

class KindRunner {
 public:
  explicit KindRunner(const LaunchedProfileOptions& node) : node_(node) {}
  // The run's seconds, or nullopt with `why` when it failed, could not start or outlived `deadline_s` (STREAM kinds
  // and commands alike; nullopt: the task's own timeout).
  [[nodiscard]] std::optional<double> run(const TaskKind& kind, const knowledge::PlannedRun& planned,
                                          std::optional<double> deadline_s, std::string& why) const;
  // Two copies side by side on `cores` cores each at `work`, after the same run alone; nullopt with `why` when
  // either failed.
  [[nodiscard]] std::optional<KnownProbe> probe(const TaskKind& kind, unsigned cores, double work,
                                                std::string& why) const;

 private:
  LaunchedProfileOptions node_;
};

}  // namespace cosched::profiler::detail
