#pragma once
// The profiler's measurer for commands (`cosched profile --command`, `[[commands]]`): every repetition runs the
// program once as `cosched launch` runs a command task — the same placeholder substitution and placement
// (exec::build_task_launch), a child process bound to the point's cores (exec::ChildProcess), its fast
// share given by the placement mechanism — and times it from fork to reap. A run that exits non-zero, is killed by
// a signal, outlives its timeout or cannot start marks the point failed (a row without a time). Registered as
// measurer "command"; a sweep with commands uses it.
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
  CommandMeasurer(std::vector<CommandProfileSpec> commands, exec::TierSetup tier, unsigned reps,
                  unsigned warmup);
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
  [[nodiscard]] std::string last_stderr_line() const;

  std::vector<CommandProfileSpec> commands_;
  exec::TierSetup tier_;
  unsigned reps_;
  unsigned warmup_;
  std::shared_ptr<platform::CoreAllocator> cores_;
  std::filesystem::path stderr_path_;
  nlohmann::json applied_ = nlohmann::json::object();  // chunks -> the placement it got  // the last run's stderr, for the message of a failed run
};

}  // namespace cosched::profiler
