#pragma once
// A profiler measurer that times what the launcher will run: a whole stream_bench child process for the task
// (fork/exec, binding, allocation and first touch, every pass, validation), isolated on its cores with its fast
// share. Its times are what a prediction of a launch needs; what they cannot see is a co-runner's contention.
// Times are reported per kernel pass (the profile convention: the instance multiplies them by the passes).
// Registered as measurer "process" (`cosched profile --measurer process --passes N`); the demo makes its own with
// the passes of each of its tasks.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "cosched/exec/task_command.hpp"
#include "cosched/platform/core_allocator.hpp"
#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler {

// The kernel passes of one task run: the same for every point, or one count per (kernel, footprint) task.
class TaskPasses {
 public:
  using PerTask = std::map<std::pair<std::string, std::uint64_t>, unsigned>;
  TaskPasses(unsigned every_task);  // NOLINT(google-explicit-constructor): a count is the common case
  TaskPasses(PerTask per_task);     // NOLINT(google-explicit-constructor): the demo's pass table as it is
  // Throws UsageError for a task the table does not list.
  [[nodiscard]] unsigned of(const ProfilePoint& point) const;
  // For the sidecar: the count, or "per task".
  [[nodiscard]] nlohmann::json describe() const;

 private:
  unsigned every_task_ = 0;  // 0: look the task up in per_task_
  PerTask per_task_;
};

class ProcessMeasurer final : public PointMeasurer {
 public:
  // `reps` launches are timed after `warmup` untimed ones.
  ProcessMeasurer(config::PlatformConfig platform, exec::TierSetup tier, std::filesystem::path stream_bench,
                  TaskPasses passes, unsigned reps, unsigned warmup);

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
  std::shared_ptr<platform::CoreAllocator> cores_;
};

}  // namespace cosched::profiler
