#include "cosched/launcher/journal_recorder.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace cosched::launcher {

using nlohmann::json;

std::string utc_now() {
  const auto now = std::chrono::system_clock::now();
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:06d}Z", utc, micros);
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

JournalRecorder::JournalRecorder(JournalWriter& journal, const LaunchPlan& plan, std::vector<double> predicted_start)
    : journal_(journal), plan_(plan), predicted_start_(std::move(predicted_start)) {}

void JournalRecorder::task_started(std::size_t task, const TaskRun& run) {
  const PlannedTask& planned = plan_.tasks[task];
  json event = {{"event", "start"},
                {"task", planned.id},
                {"time_utc", utc_now()},
                {"t", run.launch.start},
                {"planned_start", planned.planned_start},
                {"predicted_start", predicted_start_.at(task)},
                {"alloc", planned.demand},
                {"cores", run.grant.cores.cores},
                {"pus", run.grant.cores.all_pus()},
                {"fast_chunks", run.grant.fast_chunks},
                {"fast_bytes", run.launch.fast_bytes},
                {"placement", run.launch.placement},
                {"pid", run.launch.pid},
                {"launch_overhead_s", run.launch.overhead_s},
                {"argv", run.launch.argv}};
  if (planned.pack >= 0) event["pack"] = planned.pack;
  if (run.launch.error) event["launch_error"] = *run.launch.error;
  journal_.append(event);
}

void JournalRecorder::task_ended(std::size_t task, const TaskRun& run) {
  const PlannedTask& planned = plan_.tasks[task];
  const Completion& done = run.completion;
  json event = {{"event", "end"},
                {"task", planned.id},
                {"time_utc", utc_now()},
                {"status", to_string(done.status)},
                {"t", done.end},
                {"actual_start", run.launch.start},
                {"actual_end", done.end},
                {"duration_s", done.end - run.launch.start},
                {"planned_start", planned.planned_start},
                {"planned_end", planned.planned_end()},
                {"predicted_duration", planned.predicted_duration},
                {"exit_code", done.exit_code >= 0 ? json(done.exit_code) : json(nullptr)},
                {"signal", done.signal != 0 ? json(done.signal) : json(nullptr)}};
  if (!done.message.empty()) event["message"] = done.message;
  journal_.append(event);
}

void JournalRecorder::overcommit_refused(std::size_t task, const std::string& why) {
  journal_.append({{"event", "overcommit_refused"}, {"task", plan_.tasks[task].id}, {"why", why},
                   {"time_utc", utc_now()}});
}

}  // namespace cosched::launcher
