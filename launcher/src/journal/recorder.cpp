#include "cosched/launcher/journal/recorder.hpp"
#include "cosched/common/utc_time.hpp"
#include "cosched/launcher/launch.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace cosched::launcher {

JournalRecorder::JournalRecorder(JournalWriter& journal, const sim::LaunchPlan& plan,
                                 std::vector<TaskPrediction> predicted)
    : journal_(journal), plan_(plan), predicted_(std::move(predicted)) {}

void JournalRecorder::task_started(std::size_t task, const sim::TaskRun& run) {
  const sim::PlannedTask& planned = plan_.tasks[task];
  TaskStart event;
  event.task = planned.id;
  event.time_utc = iso8601_utc_micro(std::chrono::system_clock::now());
  event.t = run.launch.start;
  event.planned_start = planned.planned_start;
  const TaskPrediction& predicted = predicted_.at(task);
  event.predicted_start = predicted.start;
  event.predicted_contention_start = predicted.contention_start;
  event.predicted_contention_end = predicted.contention_end;
  event.alloc = run.grant.amounts;  // what it was given: an online policy chooses it at start
  event.cores = run.grant.cores.cores;
  event.pus = run.grant.cores.all_pus();
  event.fast_chunks = run.grant.fast_chunks;
  event.fast_bytes = run.launch.fast_bytes;
  event.placement = run.launch.placement;
  event.pid = run.launch.pid;
  event.launch_overhead_s = run.launch.overhead_s;
  event.argv = run.launch.argv;
  if (planned.pack >= 0) event.pack = planned.pack;
  event.launch_error = run.launch.error;
  journal_.append(event);
}

void JournalRecorder::task_ended(std::size_t task, const sim::TaskRun& run) {
  const sim::PlannedTask& planned = plan_.tasks[task];
  const sim::Completion& done = run.completion;
  TaskEnd event;
  event.task = planned.id;
  event.time_utc = iso8601_utc_micro(std::chrono::system_clock::now());
  event.status = done.status;
  event.t = done.end;
  event.actual_start = run.launch.start;
  event.actual_end = done.end;
  event.duration_s = done.end - run.launch.start;
  event.planned_start = planned.planned_start;
  event.planned_end = planned.planned_end();
  event.predicted_duration = plan_.duration(task, run.grant.amounts);
  if (done.exit_code >= 0) event.exit_code = done.exit_code;
  if (done.signal != 0) event.signal = done.signal;
  if (!done.message.empty()) event.message = done.message;
  journal_.append(event);
}

void JournalRecorder::overcommit_refused(std::size_t task, const std::string& why) {
  journal_.append(OvercommitRefused{plan_.tasks[task].id, why, iso8601_utc_micro(std::chrono::system_clock::now())});
}

JournalingReplanner::JournalingReplanner(sim::Replanner& replanner, JournalWriter& journal, LaunchObserver* observer)
    : replanner_(replanner), journal_(journal), observer_(observer) {}

std::optional<sim::Replan> JournalingReplanner::task_ended(std::size_t task, const sim::EngineView& view,
                                                          const sim::StandingList& standing) {
  std::optional<sim::Replan> replan = replanner_.task_ended(task, view, standing);
  if (!replan) return replan;
  Replanned event;
  event.time_utc = iso8601_utc_micro(std::chrono::system_clock::now());
  event.t = view.now;
  event.after = view.plan.tasks.at(task).id;
  event.reason = replan->reason;
  for (const sim::ReplannedTask& moved : replan->tasks) {
    event.tasks.push_back({view.plan.tasks.at(moved.task).id, moved.demand, moved.predicted_seconds, moved.guessed});
    replanned_[moved.task] = moved;
  }
  event.predicted_rest_s = replan->rest_s;
  if (replan->rest_s) predicted_makespan_ = view.now + *replan->rest_s;
  journal_.append(event);
  if (observer_ != nullptr) observer_->replanned(view.now, *replan);
  return replan;
}

}  // namespace cosched::launcher
