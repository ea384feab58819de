#pragma once
// The profiler's measurer for commands (`cosched profile --command`, `[[commands]]`): every repetition runs the
// program once as `cosched launch` runs a command task — the same placeholder substitution and placement
// (exec::build_task_launch), a child process bound to the point's cores (exec::ChildProcess), its fast
// share given by the placement mechanism — and times it from fork to reap. A run that exits non-zero, is killed by
// a signal, outlives its timeout or cannot start marks the point failed (a row without a time). Registered as
// measurer "command"; a sweep with commands uses it.
//
// The memory-demand probe (issue 24): a command is a closed box whose memory traffic nothing counts, so at one
// allocation — `pair_cores` cores, no fast chunks — its repetitions are followed by as many runs of two copies
// side by side, each on cores of its own; how much the pair slowed down (ProfileRow::paired_s against time_s) is
// what sched::paired_demand turns into the bytes it moves, and the contention-aware prediction then covers it. A
// paired run that fails (two copies may not fit in memory) costs the point nothing: a note says the probe failed.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cosched/exec/child_process.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/platform/core_allocator.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/sweep_config.hpp"

namespace cosched::profiler {

class CommandMeasurer final : public PointMeasurer {
 public:
  // pair_cores: the cores each copy of the probe gets (0: no probe; it needs 2 x pair_cores cores).
  CommandMeasurer(std::vector<CommandProfileSpec> commands, exec::TierSetup tier, unsigned reps,
                  unsigned warmup, unsigned pair_cores = 0);
  ~CommandMeasurer() override;
  CommandMeasurer(const CommandMeasurer&) = delete;
  CommandMeasurer& operator=(const CommandMeasurer&) = delete;

  [[nodiscard]] std::string_view name() const override { return "command"; }
  void check_kernel(const std::string& kernel) const override;
  [[nodiscard]] Measurement measure(const ProfilePoint& point) override;
  [[nodiscard]] nlohmann::json describe() const override;
  [[nodiscard]] bool varies_fast_memory() const override { return tier_.places_commands(); }

 private:
  // One run: its time, or why it has none (status and message) in `failure`.
  double run_once(const CommandProfileSpec& command, const exec::TaskLaunch& launch,
                  const ProfilePoint& point, Measurement& failure);
  // launches_on_own_cores (process/side_by_side.hpp), the command's stderr going to stderr_path_.
  std::vector<exec::TaskLaunch> launches_with_stderr(const config::WorkloadTask& task, const ProfilePoint& point,
                                                     std::size_t copies);
  [[nodiscard]] std::string last_stderr_line() const;

  std::vector<CommandProfileSpec> commands_;
  exec::TierSetup tier_;
  unsigned reps_;
  unsigned warmup_;
  unsigned pair_cores_;
  bool warm_up_;  // the host takes free memory back: a pair's footprints are touched and freed before it runs
  std::shared_ptr<platform::CoreAllocator> cores_;
  std::filesystem::path stderr_path_;
  nlohmann::json applied_ = nlohmann::json::object();  // chunks -> the placement it got  // the last run's stderr, for the message of a failed run
};

}  // namespace cosched::profiler
