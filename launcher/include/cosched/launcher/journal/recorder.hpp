#pragma once
// Writes the engine's events to the journal as typed events (journal/events.hpp).
#include <optional>
#include <string>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/launcher/journal/file.hpp"

namespace cosched::launcher {

// What the predictions said about one task: its start on the simulated clock, its start and end on the
// contention clock when the plan has a bandwidth model.
struct TaskPrediction {
  double start = 0.0;
  std::optional<double> contention_start, contention_end;
};

class JournalRecorder final : public sim::EngineObserver {
 public:
  // `predicted` holds the predictions of each task, indexed like plan.tasks.
  JournalRecorder(JournalWriter& journal, const sim::LaunchPlan& plan, std::vector<TaskPrediction> predicted);
  void task_started(std::size_t task, const sim::TaskRun& run) override;
  void task_ended(std::size_t task, const sim::TaskRun& run) override;
  void overcommit_refused(std::size_t task, const std::string& why) override;

 private:
  JournalWriter& journal_;
  const sim::LaunchPlan& plan_;
  std::vector<TaskPrediction> predicted_;
};

}  // namespace cosched::launcher
