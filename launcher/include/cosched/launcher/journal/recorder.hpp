#pragma once
// Writes the engine's events to the journal as typed events (journal/events.hpp).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/replanning.hpp"
#include "cosched/launcher/journal/file.hpp"

namespace cosched::launcher {

class LaunchObserver;  // launch.hpp

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

// Records each re-plan the launch takes (a `replan` event) between the tasks' starts and ends: the journal says
// where and when each pending task was moved and what was then predicted of it, so that a report compares a
// re-planned task with the re-plan, not with the plan it left.
class JournalingReplanner final : public sim::Replanner {
 public:
  // `observer` (null: none) is told of each re-plan taken, after the journal.
  JournalingReplanner(sim::Replanner& replanner, JournalWriter& journal, LaunchObserver* observer);
  [[nodiscard]] std::optional<sim::Replan> task_ended(std::size_t task, const sim::EngineView& view,
                                                      const sim::StandingList& standing) override;
  // The tasks a re-plan moved (indexed like the plan's tasks), each as its last re-plan left it.
  [[nodiscard]] const std::map<std::size_t, sim::ReplannedTask>& replanned() const noexcept { return replanned_; }
  // The makespan the last re-plan that said what the rest takes predicted (nullopt: none did).
  [[nodiscard]] std::optional<double> predicted_makespan() const noexcept { return predicted_makespan_; }

 private:
  sim::Replanner& replanner_;
  JournalWriter& journal_;
  LaunchObserver* observer_;
  std::map<std::size_t, sim::ReplannedTask> replanned_;
  std::optional<double> predicted_makespan_;
};

}  // namespace cosched::launcher
