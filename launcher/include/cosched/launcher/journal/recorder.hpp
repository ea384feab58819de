#pragma once
// Writes the engine's events to the journal as typed events (journal/events.hpp).
#include <string>
#include <vector>

#include "cosched/launcher/engine.hpp"
#include "cosched/launcher/journal/file.hpp"

namespace cosched::launcher {

class JournalRecorder final : public EngineObserver {
 public:
  // `predicted` holds the predicted start of each task (simulated clock), indexed like plan.tasks.
  JournalRecorder(JournalWriter& journal, const LaunchPlan& plan, std::vector<double> predicted_start);
  void task_started(std::size_t task, const TaskRun& run) override;
  void task_ended(std::size_t task, const TaskRun& run) override;
  void overcommit_refused(std::size_t task, const std::string& why) override;

 private:
  JournalWriter& journal_;
  const LaunchPlan& plan_;
  std::vector<double> predicted_start_;
};

// Fields every event carries: "time_utc" (ISO 8601).
[[nodiscard]] std::string utc_now();
[[nodiscard]] std::string host_name();

}  // namespace cosched::launcher
