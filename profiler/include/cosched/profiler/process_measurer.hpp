#pragma once
// A profiler measurer that times what the launcher will run: a whole stream_bench child process for the task
// (fork/exec, binding, allocation and first touch, every pass, validation), isolated on its cores with its fast
// share. Its times are what a prediction of a launch needs; what they cannot see is a co-runner's contention.
// Times are reported per kernel pass (the profile convention: the instance multiplies them by the passes); with two
// pass counts each point is timed at both and the row also carries the run's fixed cost (ProfileRow::fixed_s).
// With a memory-demand probe (issue 23, as the command measurer's of issue 24), the point of `pair_cores` cores and
// no fast chunks also runs as two copies side by side (ProfileRow::paired_s): how much the pair slowed says how
// much of the bytes the kernel counts reach memory (a cache may serve some), which sched::paired_demand reads.
// Registered as measurer "process" (`cosched profile --measurer process --passes N`); the demo makes its own with
// the passes of each of its tasks.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "cosched/exec/task_command.hpp"
#include "cosched/platform/core_allocator.hpp"
#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler {

// The kernel passes of one task run: the same for every point, or per (kernel, footprint) task.
class TaskPasses {
 public:
  using PerTask = std::map<std::pair<std::string, std::uint64_t>, PassCounts>;
  TaskPasses(PassCounts every_task);  // NOLINT(google-explicit-constructor): one setting is the common case
  TaskPasses(PerTask per_task);       // NOLINT(google-explicit-constructor): a batch's pass table as it is
  // Throws UsageError for a task the table does not list.
  [[nodiscard]] PassCounts of(const ProfilePoint& point) const;
  // For the sidecar: the count or [low, high], or "per task".
  [[nodiscard]] nlohmann::json describe() const;

 private:
  std::optional<PassCounts> every_task_;  // none: look the task up in per_task_
  PerTask per_task_;
};

class ProcessMeasurer final : public PointMeasurer {
 public:
  // `reps` launches are timed after `warmup` untimed ones. pair_cores: the cores each copy of the memory-demand
  // probe gets (0: no probe; it needs 2 x pair_cores cores).
  ProcessMeasurer(config::PlatformConfig platform, exec::TierSetup tier, std::filesystem::path stream_bench,
                  TaskPasses passes, unsigned reps, unsigned warmup, unsigned pair_cores = 0);

  // Every run stopped once it has taken `seconds` (none: runs are not stopped): the point's measurement then fails
  // with "timeout" (Measurement::failure), as a command's run past its timeout does. `cosched run`'s profiling
  // runs end at the budget's end this way.
  void stop_runs_after(std::optional<double> seconds) { run_timeout_s_ = seconds; }
  // Whether each run here first touches and frees its footprint (warm_up_ below): where the host takes free memory
  // back. What a budget prices a run's warm-up by (BatchKnowledge::warm_up_s_per_byte).
  [[nodiscard]] static bool warms_up_memory();

  [[nodiscard]] std::string_view name() const override { return "process"; }
  void check_kernel(const std::string& kernel) const override;
  [[nodiscard]] Measurement measure(const ProfilePoint& point) override;
  [[nodiscard]] nlohmann::json describe() const override;

 private:
  config::PlatformConfig platform_;
  exec::TierSetup tier_;
  std::filesystem::path stream_bench_;
  TaskPasses passes_;
  unsigned reps_;
  unsigned warmup_;
  unsigned pair_cores_;
  std::optional<double> run_timeout_s_;
  // Where the host takes free memory back, each run's footprint (a pair's both) is touched and freed just before it
  // (platform::warm_up_memory), as the launcher does before a batch: a run after a smaller one would otherwise fault
  // the rest back in through the host (docs/fidelity.md, "Memory the hypervisor took back").
  bool warm_up_;
  std::shared_ptr<platform::CoreAllocator> cores_;

  // Seconds of one run of `launch`: fork to reap; nullopt when it was stopped at run_timeout_s_. Throws
  // RuntimeFailure naming the point when it fails.
  [[nodiscard]] std::optional<double> time_run(const exec::TaskLaunch& launch, const ProfilePoint& point) const;
  [[nodiscard]] static config::WorkloadTask task_of(const ProfilePoint& point, unsigned passes);
};

}  // namespace cosched::profiler
