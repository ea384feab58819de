#pragma once
// The wall clock: tasks are child processes (child_process.hpp), time is the steady clock since construction.
// Waiting is one ppoll over every task's pidfd and a self-pipe that SIGINT / SIGTERM write to, with the timeout
// set to the next planned start or task deadline — no busy loop, no sleep. A task over its timeout gets SIGTERM
// (to its process group), then SIGKILL after the grace period; its status is "timeout".
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "cosched/exec/child_process.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/exec/task_command.hpp"

namespace cosched {
class StopSignals;
}  // namespace cosched

namespace cosched::launcher {

struct WallClockOptions {
  std::optional<double> timeout_s;  // per task, unless the task has its own
  double kill_grace_s = 2.0;        // SIGTERM -> SIGKILL
  bool catch_stop_signals = true;   // SIGINT / SIGTERM stop the batch cleanly (tests may switch it off)
};

// Builds the child of a task from the resources it got.
using TaskLauncher = std::function<exec::TaskLaunch(std::size_t task, const platform::Grant& grant)>;

class WallClock final : public sim::Clock {
 public:
  WallClock(TaskLauncher launcher, WallClockOptions options);
  ~WallClock() override;
  WallClock(const WallClock&) = delete;
  WallClock& operator=(const WallClock&) = delete;

  [[nodiscard]] std::string_view name() const override { return "wall"; }
  [[nodiscard]] double now() override;
  sim::LaunchRecord launch(std::size_t task, const platform::Grant& grant) override;
  std::vector<sim::Completion> wait(std::optional<double> wake_at) override;
  [[nodiscard]] bool stop_requested() const override { return stop_requested_; }
  std::vector<sim::Completion> stop_running() override;

 private:
  struct Running {
    std::size_t task;
    exec::ChildProcess child;
    std::optional<double> deadline;  // SIGTERM at this time
    std::optional<double> kill_at;   // SIGKILL at this time (after SIGTERM)
    bool timed_out = false;
    bool stopping = false;
  };
  [[nodiscard]] std::optional<double> next_timer() const;
  void fire_timers();
  [[nodiscard]] sim::Completion complete(Running& running, const exec::ExitInfo& exit);
  // Polls until a child exits, `until` passes or a stop signal arrives; returns what exited.
  std::vector<sim::Completion> poll_once(std::optional<double> until);

  TaskLauncher launcher_;
  WallClockOptions options_;
  std::chrono::steady_clock::time_point epoch_;
  std::vector<Running> running_;
  std::unique_ptr<StopSignals> signals_;  // SIGINT / SIGTERM: stop the batch cleanly (a second one: at once)
  bool stop_requested_ = false;
};

}  // namespace cosched::launcher
