// What `cosched run` shows of a launch (launcher/run_report): the status line's model (done / running / waiting,
// elapsed against predicted, ETA moved by the drift of the last task to end), the progress events a launch reports,
// and predicted against observed per task and for the batch.
#include "cosched/launcher/run_report.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cosched/sim/prediction.hpp"
#include "support/recording_reporter.hpp"

namespace cosched::launcher {
namespace {

TEST(RunProgress, TheEtaIsThePredictedEndMovedByTheDriftAndNeverNegative) {
  RunProgress progress;
  progress.tasks = 4;
  progress.done = 1;
  progress.running = 2;
  progress.elapsed_s = 3.0;
  progress.predicted_s = 10.0;
  EXPECT_DOUBLE_EQ(progress.eta_s(), 7.0);
  progress.drift_s = 1.5;  // the last task ended 1.5 s late: so will the batch
  EXPECT_DOUBLE_EQ(progress.eta_s(), 8.5);
  progress.drift_s = -20.0;
  EXPECT_DOUBLE_EQ(progress.eta_s(), 0.0);
  EXPECT_EQ(progress.waiting(), 1U);
  EXPECT_EQ(format_progress(progress), "done 1/4, running 2, waiting 1 | 3.0 s of 10.0 s predicted | ETA 0.0 s");
}

TEST(RunProgress, AnEndedBatchHasNothingLeftWhateverThePrediction) {
  RunProgress progress;
  progress.tasks = 2;
  progress.done = 2;
  progress.failed = 1;
  progress.elapsed_s = 1.0;
  progress.predicted_s = 5.0;
  EXPECT_DOUBLE_EQ(progress.eta_s(), 0.0);
  EXPECT_EQ(format_progress(progress),
            "done 2/2 (1 failed), running 0, waiting 0 | 1.0 s of 5.0 s predicted | ETA 0.0 s");
}

sim::PlannedTask planned(const std::string& id, double start, double duration) {
  sim::PlannedTask task;
  task.id = id;
  task.demand = {1};
  task.planned_start = start;
  task.predicted_duration = duration;
  return task;
}

sim::TaskRun ran(double start, double end, sim::TaskStatus status = sim::TaskStatus::ok) {
  sim::TaskRun run;
  run.launch.start = start;
  run.completion.end = end;
  run.completion.status = status;
  return run;
}

TEST(LaunchProgress, EachStartAndEndIsATimelineEventWithTheRunsState) {
  sim::LaunchPlan plan;
  plan.resource_names = {"cores"};
  plan.capacities = {1};
  plan.tasks = {planned("a", 0.0, 1.0), planned("b", 1.0, 1.0)};
  const sim::EngineResult predicted = sim::predict(plan, "auto");
  test_support::RecordingReporter reporter;  // not live: no redraws between events
  {
    LaunchProgress progress(reporter);
    progress.launching(plan, predicted);
    progress.task_started(0, ran(0.0, 0.0));
    progress.task_ended(0, ran(0.0, 1.5));  // half a second late
    EXPECT_DOUBLE_EQ(progress.progress().drift_s, 0.5);
    EXPECT_DOUBLE_EQ(progress.progress().eta_s(), 1.0);
    progress.task_started(1, ran(1.5, 0.0));
    progress.task_ended(1, ran(1.5, 2.0, sim::TaskStatus::failed));
    EXPECT_EQ(progress.progress().failed, 1U);
  }
  ASSERT_EQ(reporter.progresses.size(), 4U);
  const Progress& ended_a = reporter.progresses[1];
  EXPECT_EQ(ended_a.operation, "launch");
  EXPECT_EQ(ended_a.style, ProgressStyle::timeline);
  EXPECT_EQ(ended_a.event, "ended a (ok)");
  EXPECT_EQ(ended_a.state, "done 1/2, running 0, waiting 1 | 1.5 s of 2.0 s predicted | ETA 1.0 s");
  EXPECT_DOUBLE_EQ(ended_a.elapsed_s, 1.5);
  EXPECT_FALSE(ended_a.redraw);
  EXPECT_EQ(reporter.progresses[3].event, "ended b (failed)");
  EXPECT_EQ(reporter.progresses[3].fields.at("failed"), 1);
  EXPECT_EQ(reporter.events.back().type, "progress_done") << "the end of the launch, once";
}

// After a re-plan, the predicted makespan is the re-plan's (its end of the rest), and a task ending after it moves
// the ETA (the tasks' planned ends no longer say anything).
TEST(LaunchProgress, ARePlanSetsThePredictedMakespan) {
  sim::LaunchPlan plan;
  plan.resource_names = {"cores"};
  plan.capacities = {1};
  plan.tasks = {planned("a", 0.0, 1.0), planned("b", 1.0, 1.0), planned("c", 2.0, 1.0)};
  test_support::RecordingReporter reporter;
  LaunchProgress progress(reporter);
  progress.launching(plan, sim::predict(plan, "auto"));
  progress.task_started(0, ran(0.0, 0.0));
  progress.task_ended(0, ran(0.0, 0.5));
  sim::Replan replan;
  replan.rest_s = 4.0;
  progress.replanned(0.5, replan);
  EXPECT_DOUBLE_EQ(progress.progress().predicted_s, 4.5);
  EXPECT_DOUBLE_EQ(progress.progress().eta_s(), 4.0);
  EXPECT_EQ(reporter.progresses.back().event, "re-planned: 4.5 s predicted");
  progress.task_started(1, ran(0.5, 0.0));
  progress.task_ended(1, ran(0.5, 2.5));  // before the re-plan's end: no drift, whatever b's planned end said
  EXPECT_DOUBLE_EQ(progress.progress().drift_s, 0.0);
  EXPECT_DOUBLE_EQ(progress.progress().eta_s(), 2.0);
  sim::Replan silent;  // a re-plan that does not say what the rest takes leaves the prediction as it was
  progress.replanned(2.5, silent);
  EXPECT_DOUBLE_EQ(progress.progress().predicted_s, 4.5);
  progress.task_started(2, ran(2.5, 0.0));
  EXPECT_EQ(progress.progress().running, 1U);
}

TEST(RunComparison, EveryTaskAndTheBatchWithBothPredictions) {
  LaunchSummary summary;
  summary.predicted_makespan = 2.0;
  summary.predicted_makespan_contention = 2.5;
  summary.observed_makespan = 3.0;
  TaskDeviation a;
  a.id = "a";
  a.predicted_end = 1.0;
  a.predicted_contention_start = 0.0;
  a.predicted_contention_end = 2.0;
  a.observed_end = 3.0;
  TaskDeviation b = a;
  b.id = "b";
  b.observed_end = 1.0;
  b.status = sim::TaskStatus::timeout;
  summary.tasks = {a, b};
  const std::string text = format_run_comparison(summary);
  EXPECT_NE(text.find("predicted(c)"), std::string::npos) << text;
  EXPECT_NE(text.find("a                                 2.000 s      3.000 s    +50.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("-50.0%  timeout"), std::string::npos) << text;
  EXPECT_NE(text.find("median |error| 50.0 % over 2 tasks (contention-aware prediction)"), std::string::npos) << text;
  EXPECT_NE(text.find("batch: predicted 2.000 s (paper model, error +50.0 %), 2.500 s (contention-aware, error "
                      "+20.0 %), observed 3.000 s"),
            std::string::npos)
      << text;
}

// A guessed time (nothing known of the task's kind) is shown and said, and left out of the median error, which is of
// what the knowledge predicted; with every time a guess, there is no median to give.
TEST(RunComparison, GuessedTimesAreSaidAndLeftOutOfTheMedianError) {
  LaunchSummary summary;
  TaskDeviation known;
  known.id = "known";
  known.predicted_end = 1.0;
  known.observed_end = 1.1;
  TaskDeviation guessed = known;
  guessed.id = "guessed";
  guessed.observed_end = 0.1;
  guessed.guessed = true;
  summary.tasks = {known, guessed};
  std::string text = format_run_comparison(summary);
  EXPECT_NE(text.find("-90.0%  (guessed)"), std::string::npos) << text;
  EXPECT_NE(text.find("median |error| 10.0 % over 1 tasks (paper model); 1 guessed (nothing known of their kinds)"),
            std::string::npos)
      << text;
  EXPECT_TRUE(run_comparison_json(summary)["tasks"][1]["guessed"].get<bool>());
  summary.tasks = {guessed};
  text = format_run_comparison(summary);
  EXPECT_NE(text.find("task durations: every predicted one was a guess; 1 guessed"), std::string::npos) << text;
  EXPECT_EQ(text.find("median"), std::string::npos) << text;
}

// A task a re-plan moved is compared with what the re-plan predicted of it where it ran, and says so.
TEST(RunComparison, ARePlannedTaskIsComparedWithTheRePlan) {
  LaunchSummary summary;
  summary.predicted_makespan = 2.0;
  summary.observed_makespan = 1.0;
  TaskDeviation moved;
  moved.id = "moved";
  moved.predicted_end = 2.0;  // the plan's guess
  moved.observed_end = 1.0;
  moved.replanned = true;
  moved.replanned_duration = 0.8;
  summary.tasks = {moved};
  const std::string text = format_run_comparison(summary);
  EXPECT_NE(text.find("moved                             0.800 s      1.000 s    +25.0%  (re-planned)"),
            std::string::npos)
      << text;
  summary.replanned_makespan = 1.25;
  EXPECT_NE(format_run_comparison(summary).find("batch: predicted 2.000 s (paper model, error -50.0 %), 1.250 s by the "
                                                "last re-plan (error -20.0 %), observed 1.000 s"),
            std::string::npos)
      << format_run_comparison(summary);
  const nlohmann::json json = run_comparison_json(summary);
  EXPECT_DOUBLE_EQ(json["tasks"][0]["predicted_s"].get<double>(), 0.8);
  EXPECT_TRUE(json["tasks"][0]["replanned"].get<bool>());
  EXPECT_DOUBLE_EQ(json["replanned_makespan"].get<double>(), 1.25);
}

}  // namespace
}  // namespace cosched::launcher
