#pragma once
// What `cosched run` shows of its launch: while it runs, a status line — tasks done / running / waiting, the time
// elapsed against the predicted makespan, and when the batch should end — and, at the end, predicted against
// observed for every task and for the batch. The model of the line (RunProgress) is separate from its writer so a
// library user can show it their own way.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

// The status line of a launch: keeps a RunProgress from the launch's events and writes it to `out`. Live (a
// terminal): one line redrawn in place at every event and twice a second; otherwise a plain line per start and
// end, in engine seconds.
class RunStatusLine final : public LaunchObserver {
 public:
  RunStatusLine(std::FILE* out, bool live);
  ~RunStatusLine() override;  // ends the line (finish)
  RunStatusLine(const RunStatusLine&) = delete;
  RunStatusLine& operator=(const RunStatusLine&) = delete;

  void launching(const sim::LaunchPlan& plan, const sim::EngineResult& predicted) override;
  void task_started(std::size_t task, const sim::TaskRun& run) override;
  void task_ended(std::size_t task, const sim::TaskRun& run) override;
  // Stops the redraws and ends a live line with a newline; idempotent.
  void finish();
  [[nodiscard]] RunProgress progress() const;

 private:
  void write_locked(const std::string& event);  // mutex_ held
  void tick();

  std::FILE* out_;
  bool live_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  RunProgress progress_;
  std::vector<std::string> ids_;
  std::vector<double> predicted_end_;  // per task of the plan
  std::chrono::steady_clock::time_point begin_;
  std::thread ticker_;
};

// Predicted against observed when a launch ended: one row per task that ran — its predicted duration
// (contention-aware when the plan had a bandwidth model, else the paper model's), the observed one and the error
// — the median absolute error over them, then the batch's makespans (both predictions, observed, their errors).
[[nodiscard]] std::string format_run_comparison(const LaunchSummary& summary);

}  // namespace cosched::launcher
