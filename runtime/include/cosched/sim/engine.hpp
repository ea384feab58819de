#pragma once
// ONE event-driven executor for planned tasks (task ready / started / finished). Two seams:
//   Clock  — where time and task completions come from: SimulatedClock (completions at start + a duration
//            model, instantly) and ContentionClock (co-runners share memory bandwidth) for predictions and tests;
//            the launcher's WallClock (child processes on real cores) for runs. This core has no process code.
//   Policy — what starts when, and with which allocation: the list rule and the pack rule of Sec. 5.3, and the
//            online policies of seed 000 (policies.hpp), which see each task only from its release time on.
// The engine owns the resource ledger: it starts a task only when the pool can grant its whole demand, asserts
// after each grant that no resource type is in use beyond its capacity, and records refusals instead of
// over-committing.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sim/plan.hpp"
#include "cosched/sim/resources.hpp"

namespace cosched::sim {

enum class TaskStatus { ok, failed, timeout, killed };
[[nodiscard]] std::string_view to_string(TaskStatus status) noexcept;
[[nodiscard]] std::optional<TaskStatus> parse_task_status(std::string_view text) noexcept;

// What starting a task produced. An `error` means the task could not start (exec or binding failed); it ends
// at once with status failed.
struct LaunchRecord {
  double start = 0.0;               // engine seconds
  int pid = -1;                     // -1 on the simulated clock
  double overhead_s = 0.0;          // spawn to exec + binding + placement
  std::vector<std::string> argv;
  std::size_t fast_bytes = 0;       // fast-tier bytes the task was given
  std::string placement;            // how the fast share was applied, in words
  std::optional<std::string> error;
};

struct Completion {
  std::size_t task = 0;
  double end = 0.0;
  TaskStatus status = TaskStatus::ok;
  int exit_code = -1;   // when it exited
  int signal = 0;       // when a signal ended it
  std::string message;  // why it failed, in words ("" when ok)
};

class Clock {
 public:
  virtual ~Clock() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;  // "simulated" | "wall"
  [[nodiscard]] virtual double now() = 0;                    // seconds since the batch started
  virtual LaunchRecord launch(std::size_t task, const platform::Grant& grant) = 0;
  // Blocks until a running task ends or engine time `wake_at` is reached (nullopt: until a task ends);
  // returns the tasks that ended, possibly none.
  virtual std::vector<Completion> wait(std::optional<double> wake_at) = 0;
  // Set when the run is asked to stop from outside (SIGINT / SIGTERM on the wall clock).
  [[nodiscard]] virtual bool stop_requested() const { return false; }
  // Ends every running task (status killed) and returns their completions.
  virtual std::vector<Completion> stop_running() = 0;
};

// waiting: not released yet (PlannedTask::release in the future); policies never see it as startable.
enum class TaskState { waiting, pending, running, done };

struct TaskRun {
  TaskState state = TaskState::pending;
  // When it was released: PlannedTask::release, or its gate's opening + delay; until then, PlannedTask::release.
  double release = 0.0;
  platform::Grant grant;
  LaunchRecord launch;
  Completion completion;
};

// What a policy sees: the plan, every task's run so far, the resources still free, and the time.
struct EngineView {
  const LaunchPlan& plan;
  const std::vector<TaskRun>& runs;
  const std::vector<int>& available;
  double now;
};

// A task to start now with an allocation: the plan's demand (offline schedules), or what an online policy chose.
struct StartChoice {
  std::size_t task = 0;
  std::vector<int> demand;
};

class Policy {
 public:
  virtual ~Policy() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // The engine's events, for policies that keep their own view of the batch (the online ones): a task was
  // released (it is pending from now on), started with run.grant, or ended.
  virtual void released(std::size_t /*task*/, const EngineView& /*view*/) {}
  virtual void started(std::size_t /*task*/, const TaskRun& /*run*/) {}
  virtual void ended(std::size_t /*task*/, const TaskRun& /*run*/) {}
  // Pending tasks to start now with their allocations, in the order to start them; together they must fit in
  // view.available.
  [[nodiscard]] virtual std::vector<StartChoice> select(const EngineView& view) = 0;
  // The next time select() may answer differently without a completion (a planned start time), or nullopt.
  [[nodiscard]] virtual std::optional<double> next_wakeup(const EngineView& view) const = 0;
};

class EngineObserver {
 public:
  virtual ~EngineObserver() = default;
  virtual void task_started(std::size_t /*task*/, const TaskRun& /*run*/) {}
  virtual void task_ended(std::size_t /*task*/, const TaskRun& /*run*/) {}
  // The policy picked a task the pool could not grant: refused, never over-committed.
  virtual void overcommit_refused(std::size_t /*task*/, const std::string& /*why*/) {}
};

struct EngineOptions {
  bool fail_fast = false;  // a failed task stops the batch: running tasks are killed, pending ones never start
};

struct EngineResult {
  std::vector<TaskRun> runs;  // indexed like plan.tasks
  double observed_makespan = 0.0;  // last end among tasks that ran
  std::size_t completed = 0;       // status ok
  std::size_t failed = 0;          // failed or timeout
  std::size_t killed = 0;
  std::size_t not_started = 0;
  bool interrupted = false;        // stopped by SIGINT / SIGTERM
  bool stopped_by_failure = false; // --fail-fast
  std::vector<std::string> overcommit_refusals;
  std::vector<int> peak_in_use;    // per resource type, for the never-over-commit checks
  // Time spent deciding: the policy's select() and released() calls, and the events (releases and completions).
  double policy_seconds = 0.0;
  double policy_max_seconds = 0.0;  // the longest single call
  std::size_t events = 0;
};

// Runs `plan` to the end (or until stopped). Throws RuntimeFailure when nothing runs, nothing can start and
// tasks remain (a demand that can never fit: a policy or plan bug, reported, not a hang).
[[nodiscard]] EngineResult run_engine(const LaunchPlan& plan, Policy& policy, Clock& clock, sim::ResourcePool& pool,
                                      EngineObserver* observer = nullptr, const EngineOptions& options = {});

}  // namespace cosched::sim
