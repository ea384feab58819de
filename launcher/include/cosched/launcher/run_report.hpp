#pragma once
// What `cosched run` shows of its launch: while it runs, a status line — tasks done / running / waiting, the time
// elapsed against the predicted makespan, and when the batch should end — and, at the end, predicted against
// observed for every task and for the batch. The model of the line (RunProgress) is reported through the one
// reporter seam (cosched/common/reporter.hpp), which shows it (a console, JSON lines, a library user's own).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/launcher/launch.hpp"

namespace cosched::launcher {

// A launch at one moment.
struct RunProgress {
  std::size_t tasks = 0;         // in the launch (what is left of a resumed batch)
  std::size_t done = 0;          // ended (ok or not)
  std::size_t failed = 0;        // of those, not ok
  std::size_t running = 0;
  double elapsed_s = 0.0;        // since the launch began
  double predicted_s = 0.0;      // the predicted makespan (contention-aware when the plan has a bandwidth model)
  // How late the last task to end was against its predicted end (negative: early); 0 before any ended.
  double drift_s = 0.0;
  [[nodiscard]] std::size_t waiting() const noexcept { return tasks - done - running; }
  // Seconds left: the predicted end moved by the drift, less the time elapsed; never negative, 0 once all ended.
  [[nodiscard]] double eta_s() const noexcept;
};

// "done 3/12 (1 failed), running 2, waiting 7 | 4.2 s of 10.6 s predicted | ETA 6.9 s"
[[nodiscard]] std::string format_progress(const RunProgress& progress);

// A launch's progress, reported as it happens (cosched/common/reporter.hpp, timeline style): keeps a RunProgress
// from the launch's events and reports each start and end — the event, the state line (format_progress) and their
// figures — and, to a live() reporter, a redraw of the clock twice a second.
class LaunchProgress final : public LaunchObserver {
 public:
  explicit LaunchProgress(Reporter& reporter);
  ~LaunchProgress() override;  // ends the progress (finish)
  LaunchProgress(const LaunchProgress&) = delete;
  LaunchProgress& operator=(const LaunchProgress&) = delete;

  void launching(const sim::LaunchPlan& plan, const sim::EngineResult& predicted) override;
  void task_started(std::size_t task, const sim::TaskRun& run) override;
  void task_ended(std::size_t task, const sim::TaskRun& run) override;
  // A re-plan that says what the rest takes sets the predicted makespan; the tasks' predicted ends are then stale,
  // and a task ending after the new prediction is what moves the ETA.
  void replanned(double now, const sim::Replan& replan) override;
  // Stops the redraws and tells the reporter the launch's progress is over; idempotent.
  void finish();
  [[nodiscard]] RunProgress progress() const;

 private:
  void report_locked(const std::string& event);  // mutex_ held
  void tick();

  Reporter& reporter_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  RunProgress progress_;
  std::vector<std::string> ids_;
  std::vector<double> predicted_end_;  // per task of the plan
  bool replanned_ = false;             // the predicted makespan is a re-plan's, predicted_end_ the plan's
  std::chrono::steady_clock::time_point begin_;
  std::thread ticker_;
};

// Predicted against observed when a launch ended: one row per task that ran — its predicted duration
// (contention-aware when the plan had a bandwidth model, else the paper model's), the observed one and the error
// — the median absolute error over them, then the batch's makespans (both predictions, observed, their errors).
[[nodiscard]] std::string format_run_comparison(const LaunchSummary& summary);
// The same for programs: {"tasks": [{"id", "predicted_s", "observed_s", "status", "replanned", "guessed"}],
// "predicted_makespan_paper",
// "predicted_makespan_contention" (null without a bandwidth model), "replanned_makespan" (null: no re-plan said
// one), "observed_makespan"}.
[[nodiscard]] nlohmann::json run_comparison_json(const LaunchSummary& summary);

}  // namespace cosched::launcher
