#include "cosched/launcher/run_report.hpp"

#include "cosched/launcher/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cosched/common/stats.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::launcher {

double RunProgress::eta_s() const noexcept {
  if (done >= tasks) return 0.0;  // the batch has ended, whatever the prediction said
  return std::max(0.0, predicted_s + drift_s - elapsed_s);
}

std::string format_progress(const RunProgress& progress) {
  return fmt::format("done {}/{}{}, running {}, waiting {} | {:.1f} s of {:.1f} s predicted | ETA {:.1f} s",
                     progress.done, progress.tasks,
                     progress.failed > 0 ? fmt::format(" ({} failed)", progress.failed) : std::string(),
                     progress.running, progress.waiting(), progress.elapsed_s, progress.predicted_s, progress.eta_s());
}

LaunchProgress::LaunchProgress(Reporter& reporter) : reporter_(reporter) {}

LaunchProgress::~LaunchProgress() { finish(); }

void LaunchProgress::launching(const sim::LaunchPlan& plan, const sim::EngineResult& predicted) {
  std::lock_guard lock(mutex_);
  progress_ = {};
  replanned_ = false;
  progress_.tasks = plan.tasks.size();
  progress_.predicted_s = predicted.observed_makespan;
  ids_.clear();
  predicted_end_.clear();
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    ids_.push_back(plan.tasks[j].id);
    predicted_end_.push_back(predicted.runs[j].completion.end);
  }
  begin_ = std::chrono::steady_clock::now();
  if (reporter_.live() && !ticker_.joinable()) ticker_ = std::thread([this] { tick(); });
}

void LaunchProgress::task_started(std::size_t task, const sim::TaskRun& run) {
  std::lock_guard lock(mutex_);
  ++progress_.running;
  progress_.elapsed_s = run.launch.start;
  report_locked(fmt::format("started {}", ids_.at(task)));
}

void LaunchProgress::task_ended(std::size_t task, const sim::TaskRun& run) {
  std::lock_guard lock(mutex_);
  if (progress_.running > 0) --progress_.running;
  ++progress_.done;
  if (run.completion.status != sim::TaskStatus::ok) ++progress_.failed;
  progress_.elapsed_s = run.completion.end;
  progress_.drift_s = replanned_ ? std::max(0.0, run.completion.end - progress_.predicted_s)
                                 : run.completion.end - predicted_end_.at(task);
  report_locked(fmt::format("ended {} ({})", ids_.at(task), sim::to_string(run.completion.status)));
}

void LaunchProgress::replanned(double now, const sim::Replan& replan) {
  if (!replan.rest_s) return;
  std::lock_guard lock(mutex_);
  replanned_ = true;
  progress_.predicted_s = now + *replan.rest_s;
  progress_.drift_s = 0.0;
  progress_.elapsed_s = now;
  report_locked(fmt::format("re-planned: {:.3g} s predicted", progress_.predicted_s));
}

RunProgress LaunchProgress::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

void LaunchProgress::report_locked(const std::string& event) {
  Progress line;
  line.operation = "launch";
  line.style = ProgressStyle::timeline;
  line.done = progress_.done;
  line.total = progress_.tasks;
  line.elapsed_s = progress_.elapsed_s;
  line.eta_s = progress_.eta_s();
  line.event = event;
  line.state = format_progress(progress_);
  line.redraw = event.empty();
  line.fields = {{"failed", progress_.failed},
                 {"running", progress_.running},
                 {"waiting", progress_.waiting()},
                 {"predicted_s", progress_.predicted_s}};
  reporter_.progress(line);
}

void LaunchProgress::tick() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::milliseconds(500));
    if (stopping_) break;
    progress_.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
    report_locked("");
  }
}

void LaunchProgress::finish() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  if (!ids_.empty()) reporter_.progress_done("launch");
}

namespace {

// What was predicted of a task where it ran: a re-plan's prediction when one moved it and said one, else the
// launch's (the contention-aware one when the plan had a bandwidth model); 0 when a re-plan said none.
double predicted_duration(const TaskDeviation& task, bool contention) {
  if (task.replanned) return task.replanned_duration.value_or(0.0);
  return contention && task.predicted_contention_end ? *task.predicted_contention_end - *task.predicted_contention_start
                                                     : task.predicted_end - task.predicted_start;
}

}  // namespace

std::string format_run_comparison(const LaunchSummary& summary) {
  const bool contention = summary.predicted_makespan_contention.has_value();
  std::string text = fmt::format("{:<28} {:>12} {:>12} {:>9}\n", "task",
                                 contention ? "predicted(c)" : "predicted", "observed", "error");
  std::vector<double> errors;  // of the tasks whose time was not a guess
  std::size_t guessed = 0;
  for (const TaskDeviation& task : summary.tasks) {
    const double predicted = predicted_duration(task, contention);
    const double observed = task.observed_end - task.observed_start;
    const double error = predicted > 0 ? observed / predicted - 1.0 : 0.0;
    if (task.guessed) {
      ++guessed;
    } else if (predicted > 0) {
      errors.push_back(std::abs(error));
    }
    const std::string marks = std::string(task.replanned ? "  (re-planned)" : "") + (task.guessed ? "  (guessed)" : "");
    text += fmt::format("{:<28} {:>10.3f} s {:>10.3f} s {:>+8.1f}%{}{}\n", task.id, predicted, observed, 100.0 * error,
                        task.status == sim::TaskStatus::ok ? "" : fmt::format("  {}", sim::to_string(task.status)),
                        marks);
  }
  const std::string guesses =
      guessed > 0 ? fmt::format("; {} guessed (nothing known of their kinds)", guessed) : std::string();
  if (!errors.empty()) {
    text += fmt::format("task durations: median |error| {:.1f} % over {} tasks ({}){}\n", 100.0 * median(errors),
                        errors.size(), contention ? "contention-aware prediction" : "paper model", guesses);
  } else if (guessed > 0) {
    text += fmt::format("task durations: every predicted one was a guess{}\n", guesses);
  }
  const auto error_text = [](std::optional<double> error) {
    return error ? fmt::format("{:+.1f} %", 100.0 * *error) : std::string("-");
  };
  text += fmt::format("batch: predicted {:.3f} s (paper model, error {}){}{}, observed {:.3f} s\n",
                      summary.predicted_makespan, error_text(summary.error_paper()),
                      contention ? fmt::format(", {:.3f} s (contention-aware, error {})",
                                               *summary.predicted_makespan_contention,
                                               error_text(summary.error_contention()))
                                 : std::string(),
                      summary.replanned_makespan
                          ? fmt::format(", {:.3f} s by the last re-plan (error {})", *summary.replanned_makespan,
                                        error_text(sim::prediction_error(summary.observed_makespan,
                                                                         summary.replanned_makespan)))
                          : std::string(),
                      summary.observed_makespan);
  if (summary.memory_warm_up) text += describe_memory_warm_up(*summary.memory_warm_up);
  return text;
}

nlohmann::json run_comparison_json(const LaunchSummary& summary) {
  const bool contention = summary.predicted_makespan_contention.has_value();
  nlohmann::json tasks = nlohmann::json::array();
  for (const TaskDeviation& task : summary.tasks) {
    tasks.push_back({{"id", task.id},
                     {"predicted_s", predicted_duration(task, contention)},
                     {"replanned", task.replanned},
                     {"guessed", task.guessed},
                     {"observed_s", task.observed_end - task.observed_start},
                     {"status", sim::to_string(task.status)}});
  }
  return {{"tasks", std::move(tasks)},
          {"predicted_makespan_paper", summary.predicted_makespan},
          {"predicted_makespan_contention",
           contention ? nlohmann::json(*summary.predicted_makespan_contention) : nlohmann::json()},
          {"replanned_makespan", summary.replanned_makespan ? nlohmann::json(*summary.replanned_makespan)
                                                            : nlohmann::json()},
          {"observed_makespan", summary.observed_makespan}};
}

}  // namespace cosched::launcher
