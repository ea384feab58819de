// `cosched run` learning as its launch goes (profiler::LaunchReplanner): the first run of a kind the plan guessed at
// becomes a run of its kind, and the pending tasks are planned again from it while the running ones keep their
// cores. On a simulated clock with ground-truth times, against the same launch without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/profiler/launch_replanner.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sim/resources.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

// A planner whose choices a test can work out by hand: the longest task first (by its time on one core), each in
// the first cores free — on one core, or (`fastest`) on the core count where it is fastest, the fewest among equal
// times. A task with no time on one core (a running task: only where it runs, and more) takes its fewest cores.
class HandPlanner final : public sched::Algorithm {
 public:
  explicit HandPlanner(bool fastest) : fastest_(fastest) {}
  [[nodiscard]] std::string_view name() const override { return fastest_ ? "hand-fastest" : "hand-lpt"; }
  [[nodiscard]] sched::Schedule schedule(const sched::Instance& instance) const override {
    const int cores = instance.resources().front().capacity;
    std::vector<std::vector<int>> allocs;
    std::vector<double> one_core;
    for (std::size_t j = 0; j < instance.task_count(); ++j) {
      std::vector<int> alloc(instance.dimensions(), 0);
      std::vector<int> best;
      for (int p = 1; p <= cores; ++p) {
        alloc[0] = p;
        if (best.empty() ? std::isfinite(instance.time(j, alloc)) : instance.time(j, alloc) < instance.time(j, best)) {
          best = alloc;
        }
        if (!fastest_ && !best.empty()) break;
      }
      alloc[0] = 1;
      one_core.push_back(instance.time(j, alloc));
      allocs.push_back(best);
    }
    std::vector<std::size_t> order(instance.task_count());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto longest = [&](std::size_t j) {
      return std::isfinite(one_core[j]) ? one_core[j] : instance.time(j, allocs[j]);
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return longest(a) > longest(b); });
    sched::Schedule schedule;
    schedule.algorithm = std::string(name());
    schedule.tasks.resize(instance.task_count());
    std::vector<double> free_at(static_cast<std::size_t>(cores), 0.0);  // per core
    for (const std::size_t j : order) {
      // The allocation's cores are the ones free first; it starts when the last of them is.
      std::vector<std::size_t> by_free(free_at.size());
      std::iota(by_free.begin(), by_free.end(), std::size_t{0});
      std::stable_sort(by_free.begin(), by_free.end(), [&](std::size_t a, std::size_t b) { return free_at[a] < free_at[b]; });
      const auto used = static_cast<std::size_t>(allocs[j][0]);
      double start = 0.0;
      for (std::size_t c = 0; c < used; ++c) start = std::max(start, free_at[by_free[c]]);
      const double duration = instance.time(j, allocs[j]);
      for (std::size_t c = 0; c < used; ++c) free_at[by_free[c]] = start + duration;
      schedule.tasks[j] = {allocs[j], start, duration, -1};
    }
    schedule.makespan = sched::completion_time(schedule.tasks);
    return schedule;
  }

 private:
  bool fastest_;
};

// A batch of commands on a 2-core node where nothing is known yet: the tasks named x* run one program, y* another.
struct Batch {
  config::Workload workload;
  LearningOptions options;
  BatchKnowledge known;
  sim::LaunchPlan plan;             // the naive plan (`xargs -P 2` in the file's order)
  std::set<std::string> guessed;  // its tasks timed at a guess
};

// The naive plan of what `batch` knows, and the tasks it guesses at.
void plan_naively(Batch& batch) {
  const KnowledgeInstance made =
      knowledge_instance(batch.workload, batch.known, batch.options.launched.platform, nullptr, false);
  batch.guessed = guessed_tasks(made.instance, "the test's plan");
  batch.plan = sim::plan_from_schedule(made.instance, naive_schedule(made.instance));
}

// `known_x`: the store knew x* before the launch, at 1 core (4 s) and 2 cores (2 s): the truth.
Batch nothing_known(const std::vector<std::string>& ids, test_support::RecordingReporter& reporter,
                    bool known_x = false) {
  Batch batch;
  batch.workload.name = "replan";
  for (const std::string& id : ids) {
    batch.workload.tasks.push_back(testing::command_task(id, {"sh", "-c", "exit 0 # " + id.substr(0, 1)}));
  }
  const ProfileCache cache(testing::scratch_dir("launch-replanner"), NodeFingerprint{"host", "Some CPU", 2, "none", 5.0});
  batch.options.launched.platform = testing::cores_only_platform(2);
  batch.options.launched.tier = exec::TierSetup{};
  batch.options.launched.reporter = &reporter;
  batch.known = learn_batch(batch.workload, cache, batch.options);
  if (known_x) {
    const auto x = std::find_if(batch.workload.tasks.begin(), batch.workload.tasks.end(),
                                [](const config::WorkloadTask& task) { return task.id[0] == 'x'; });
    add_observed_run(batch.known, *x, {1, 0}, 4.0, batch.options);
    add_observed_run(batch.known, *x, {2, 0}, 2.0, batch.options);
  }
  plan_naively(batch);
  return batch;
}

// The ground truth: x* take 4 s on one core and speed up linearly; y* take 1 s whatever their cores. `failing` fail.
sim::EngineResult launch(const Batch& batch, sim::Replanner* replanner, const std::vector<std::string>& failing = {}) {
  auto policy = sim::make_policy("auto", batch.plan, replanner);
  auto pool = sim::make_abstract_pool(batch.plan.resource_names, batch.plan.capacities);
  sim::SimulatedClock clock([&](std::size_t task, const platform::Grant& grant) {
    const std::string& id = batch.plan.tasks[task].id;
    const bool fails = std::find(failing.begin(), failing.end(), id) != failing.end();
    return sim::SimulatedOutcome{id[0] == 'x' ? 4.0 / grant.amounts[0] : 1.0,
                                 fails ? sim::TaskStatus::failed : sim::TaskStatus::ok};
  });
  return sim::run_engine(batch.plan, *policy, clock, *pool);
}

std::size_t index_of(const sim::LaunchPlan& plan, const std::string& id) {
  const auto found = std::find_if(plan.tasks.begin(), plan.tasks.end(), [&](const auto& t) { return t.id == id; });
  return static_cast<std::size_t>(found - plan.tasks.begin());
}

TEST(LaunchReplanner, TheFirstRunOfAGuessedKindPutsItsLongPendingTaskFirst) {
  // Naive: x1 holds one core 0-4 s while y1..y4 run on the other; at 4 s y5 and y6 run, then x2 4 s alone: 9 s.
  // Re-planned: when x1 ends at 4 s its kind is known at 4 s, longer than a y, so x2 starts then beside y5, y6: 8 s.
  // (At y1's end, 1 s, x2 is still at the guess — the median of what is known, 1 s —: the re-plan predicts nothing
  // better than the plan, which stands.)
  test_support::RecordingReporter reporter;
  const Batch batch = nothing_known({"x1", "y1", "y2", "y3", "y4", "y5", "y6", "x2"}, reporter);
  ASSERT_EQ(batch.plan.launch_rule, "greedy");
  EXPECT_DOUBLE_EQ(launch(batch, nullptr).observed_makespan, 9.0) << "the naive launch, as made";

  const HandPlanner planner(false);
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  const sim::EngineResult result = launch(batch, &replanner);
  EXPECT_DOUBLE_EQ(result.observed_makespan, 8.0);
  EXPECT_DOUBLE_EQ(result.runs[index_of(batch.plan, "x2")].launch.start, 4.0);
  EXPECT_EQ(replanner.replans(), 1U) << "x1's end";
  const std::string notes = reporter.text_of("note");
  EXPECT_NE(notes.find("learnt as it ran: y1 took 1 s on 1 core"), std::string::npos) << notes;
  EXPECT_NE(notes.find("the plan stands"), std::string::npos) << notes;
  EXPECT_NE(notes.find("learnt as it ran: x1 took 4 s on 1 core"), std::string::npos) << notes;
  const KindState& x = replanner.known().of(batch.workload.tasks.back());
  ASSERT_TRUE(x.known_at_all());
  EXPECT_DOUBLE_EQ(x.fits.begin()->second->at(1, 0).seconds, 4.0) << "x2 was planned from x1's run";
}

// A planner that refuses every instance with an error of the kind a real one throws: an algorithm for one resource
// given two (usage), a task that no allocation runs (input: a fit infinite everywhere, sched/allocation.cpp).
class RefusingPlanner final : public sched::Algorithm {
 public:
  explicit RefusingPlanner(ErrorKind kind) : kind_(kind) {}
  [[nodiscard]] std::string_view name() const override { return "refusing"; }
  [[nodiscard]] sched::Schedule schedule(const sched::Instance& instance) const override {
    if (kind_ == ErrorKind::usage) throw UsageError("refusing: one resource only");
    throw InputError("task \"" + instance.tasks().front().id + "\"", "cannot run with any allocation");
  }

 private:
  ErrorKind kind_;
};

class RefusedRePlan : public ::testing::TestWithParam<ErrorKind> {};

TEST_P(RefusedRePlan, LeavesThePlanAndTheLaunchGoesOn) {
  // The first batch of TheFirstRunOfAGuessedKindPutsItsLongPendingTaskFirst: x1's end would re-plan. The planner
  // refuses: the launch runs as planned (9 s), and says why the plan stands.
  test_support::RecordingReporter reporter;
  const Batch batch = nothing_known({"x1", "y1", "y2", "y3", "y4", "y5", "y6", "x2"}, reporter);
  const RefusingPlanner planner(GetParam());
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  const sim::EngineResult result = launch(batch, &replanner);
  EXPECT_DOUBLE_EQ(result.observed_makespan, 9.0);
  EXPECT_EQ(result.failed, 0U);
  EXPECT_EQ(replanner.replans(), 0U);
  const std::string notes = reporter.text_of("note");
  EXPECT_NE(notes.find("learnt as it ran: x1 took 4 s on 1 core"), std::string::npos) << notes;
  EXPECT_NE(notes.find(GetParam() == ErrorKind::usage ? "the plan stands: refusing: one resource only"
                                                      : "\": cannot run with any allocation"),
            std::string::npos)
      << notes;
}

INSTANTIATE_TEST_SUITE_P(LaunchReplanner, RefusedRePlan, ::testing::Values(ErrorKind::usage, ErrorKind::input),
                         [](const ::testing::TestParamInfo<ErrorKind>& param) {
                           return param.param == ErrorKind::usage ? "usage" : "input";
                         });

// Keeps the re-plans a replanner takes (what the journal records of them).
class KeptReplans final : public sim::Replanner {
 public:
  explicit KeptReplans(sim::Replanner& replanner) : replanner_(replanner) {}
  std::optional<sim::Replan> task_ended(std::size_t task, const sim::EngineView& view,
                                        const sim::StandingList& standing) override {
    std::optional<sim::Replan> replan = replanner_.task_ended(task, view, standing);
    if (replan) taken.push_back(*replan);
    return replan;
  }
  std::vector<sim::Replan> taken;

 private:
  sim::Replanner& replanner_;
};

TEST(LaunchReplanner, ThePendingTasksTakeThePlannersAllocations) {
  // x is known at 1 and 2 cores (4 s, 2 s), y at none. y1 and y2 end at 1 s; y3 is pending: a re-plan. The planner
  // puts x1 on both cores, where it is fastest, then y3: 3 s from then, against 4 s as planned (x1 on one core
  // beside y3). Taken: x1 runs 1-3 s on both cores, y3 3-4 s; the naive way took 5 s.
  test_support::RecordingReporter reporter;
  const Batch batch = nothing_known({"y1", "y2", "y3", "x1"}, reporter, true);
  EXPECT_DOUBLE_EQ(launch(batch, nullptr).observed_makespan, 5.0);
  const HandPlanner planner(true);
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  KeptReplans kept(replanner);
  const sim::EngineResult result = launch(batch, &kept);
  // What the journal records: each pending task where it goes and what it is now predicted to take there (x1: its
  // 2-core run, 2 s; y3: y learnt where y1 ran, 1 s), and why.
  ASSERT_EQ(kept.taken.size(), 1U);
  const sim::Replan& taken = kept.taken.front();
  ASSERT_EQ(taken.tasks.size(), 2U);
  EXPECT_EQ(taken.tasks[0].task, index_of(batch.plan, "x1"));
  EXPECT_EQ(taken.tasks[0].predicted_seconds, 2.0);
  EXPECT_EQ(taken.tasks[1].task, index_of(batch.plan, "y3"));
  EXPECT_EQ(taken.tasks[1].predicted_seconds, 1.0);
  EXPECT_FALSE(taken.tasks[0].guessed || taken.tasks[1].guessed) << "x was known, y learnt";
  EXPECT_NE(taken.reason.find("learnt as it ran: y"), std::string::npos) << taken.reason;
  EXPECT_NE(taken.reason.find("the rest predicted 3 s against 4 s as planned"), std::string::npos) << taken.reason;
  const sim::TaskRun& x1 = result.runs[index_of(batch.plan, "x1")];
  EXPECT_EQ(x1.grant.amounts, std::vector<int>{2});
  EXPECT_DOUBLE_EQ(x1.launch.start, 1.0);
  EXPECT_DOUBLE_EQ(result.observed_makespan, 4.0);
  EXPECT_NE(reporter.text_of("note").find("x1 on 2 cores (planned 1 core)"), std::string::npos)
      << reporter.text_of("note");
}

TEST(LaunchReplanner, ARePlanThatWouldWaitForTheRunningTasksIsNotTaken) {
  // y1 ends at 1 s while x1 runs on one core to 4 s; y2 and x2 are pending. The planner, which does not know x1
  // holds its core, puts x2 on both cores first: it would wait for x1, and y2 behind it — 5 s from then, against
  // 4 s as planned (y2 at once, x2 on the other core after it). The plan stands.
  test_support::RecordingReporter reporter;
  const Batch batch = nothing_known({"y1", "x1", "y2", "x2"}, reporter, true);
  const HandPlanner planner(true);
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  const sim::EngineResult result = launch(batch, &replanner);
  EXPECT_EQ(replanner.replans(), 0U);
  EXPECT_EQ(result.runs[index_of(batch.plan, "x2")].grant.amounts, std::vector<int>{1});
  EXPECT_NE(reporter.text_of("note").find("the plan stands: re-planned by hand-fastest"), std::string::npos)
      << reporter.text_of("note");
  EXPECT_DOUBLE_EQ(result.observed_makespan, launch(batch, nullptr).observed_makespan);
}

TEST(LaunchReplanner, AKindFirstRunInTheLaunchStaysWhereItRan) {
  // y1 ends at 1 s: y is known on one core only, and no faster anywhere else. Planned with the fit's prior for 2
  // cores (t / 1.8 or so, and x1 predicted to end soon: its guess was 1 s), y2 would be put on both cores and wait
  // for x1 to free its core at 4 s, to gain nothing (y does not speed up); it runs where y1 ran, at once. (Two rules
  // see to it: the kind is planned as no faster elsewhere, and a kind the plan guessed at keeps its allocation.)
  test_support::RecordingReporter reporter;
  const Batch batch = nothing_known({"y1", "x1", "y2"}, reporter);
  const HandPlanner planner(true);
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  const sim::EngineResult result = launch(batch, &replanner);
  const sim::TaskRun& y2 = result.runs[index_of(batch.plan, "y2")];
  EXPECT_EQ(y2.grant.amounts, std::vector<int>{1});
  EXPECT_DOUBLE_EQ(y2.launch.start, 1.0);
  EXPECT_EQ(replanner.replans(), 0U) << "the re-plan is the plan: y2 next, on one core";
}

TEST(LaunchReplanner, AFailedRunTeachesNothingAndAKnownKindDoesNotRePlan) {
  test_support::RecordingReporter reporter;
  const Batch batch = nothing_known({"x1", "y1", "y2", "y3"}, reporter);
  const HandPlanner planner(false);
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  const sim::EngineResult result = launch(batch, &replanner, {"y1"});
  EXPECT_EQ(result.failed, 1U);
  // y2's run (1-2 s) is y's first good one, y3 pending: a re-plan, which predicts what the plan does (y3 next) and
  // is not taken; y3's run (2-3 s) is of a kind known by then. (x1 ends the batch at 4 s: nothing left to plan.)
  EXPECT_EQ(replanner.replans(), 0U);
  EXPECT_NE(reporter.text_of("note").find("learnt as it ran: y2 took 1 s"), std::string::npos)
      << reporter.text_of("note");
  EXPECT_FALSE(replanner.known().of(batch.workload.tasks.front()).known_at_all()) << "x1's end was not shown";
}

TEST(LaunchReplanner, AFirstRunWithNoTaskOfItsKindPendingIsLearntWithoutARePlan) {
  // y1 ends at 1 s while x1 runs to 4 s and z1 waits: y is known from then on, and no task of it is pending — a
  // re-plan would only move z1's guess. It re-plans nothing and says nothing (the run is stored after the launch).
  test_support::RecordingReporter reporter;
  const Batch batch = nothing_known({"x1", "y1", "z1"}, reporter);
  const HandPlanner planner(false);
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  (void)launch(batch, &replanner);
  EXPECT_EQ(replanner.replans(), 0U);
  EXPECT_TRUE(replanner.known().of(batch.workload.tasks[1]).known_at_all());
  EXPECT_EQ(reporter.text_of("note").find("learnt as it ran"), std::string::npos) << reporter.text_of("note");
}

// A kind known at one amount of work only has no fit for its tasks far from it: a run of 1 unit is more than 4 x
// from 100, and no run separates the fixed cost. The plan guesses at those tasks, and the first of them to end gives
// the others their fit — a re-plan, as a kind's first run makes. Here one command at 1 and 100 units: w0 at 1 unit,
// known from a run of 0.04 s; y1 and x2 at 100 units, guessed. y1 (1 s in truth) ends while x2 waits behind w0.
TEST(LaunchReplanner, ARunThatGivesAGuessedPendingTaskOfAKnownKindItsFitIsLearntForARePlan) {
  test_support::RecordingReporter reporter;
  Batch batch;
  batch.workload.name = "replan";
  const std::vector<std::string> argv{"sh", "-c", "exit 0 # {work}"};
  batch.workload.tasks = {testing::command_task("y1", argv, config::WorkScale{100, {}}),
                          testing::command_task("w0", argv, config::WorkScale{1, {}}),
                          testing::command_task("x2", argv, config::WorkScale{100, {}})};
  const ProfileCache cache(testing::scratch_dir("launch-replanner"),
                           NodeFingerprint{"host", "Some CPU", 2, "none", 5.0});
  batch.options.launched.platform = testing::cores_only_platform(2);
  batch.options.launched.tier = exec::TierSetup{};
  batch.options.launched.reporter = &reporter;
  batch.known = learn_batch(batch.workload, cache, batch.options);
  add_observed_run(batch.known, batch.workload.tasks[1], {1, 0}, 0.04, batch.options);
  plan_naively(batch);
  ASSERT_EQ(batch.guessed, (std::set<std::string>{"y1", "x2"}));

  const HandPlanner planner(false);
  LaunchReplanner replanner(batch.workload, batch.plan, batch.guessed, batch.known, batch.options, std::nullopt,
                            planner, &reporter);
  (void)launch(batch, &replanner);
  const std::string notes = reporter.text_of("note");
  EXPECT_NE(notes.find("learnt as it ran: y1 took 1 s on 1 core, the first run of "), std::string::npos) << notes;
  EXPECT_NE(notes.find(" at 100 (guessed"), std::string::npos) << notes;
  EXPECT_EQ(replanner.known().of(batch.workload.tasks[2]).fits.count(100.0), 1U) << "x2's fit, from y1's run";
}

// y (1 s on any cores in truth) known from one run at `known_cores` only: its fit over cores is through one count
// (SpeedupFit::core_counts), which says it speeds up — from 1 core, 0.63 s on 2; from 2 cores, the prior over
// cores (Amdahl's law, its serial fraction log-uniform) 1.78 s on 1. Planned by HandPlanner(true) on that fit,
// y1..y3 each take both cores, one after the other: 3 s in truth. Launched with a replanner (HandPlanner(false)).
struct ReplannedLaunch {
  sim::LaunchPlan plan;
  sim::EngineResult result;
  std::size_t replans = 0;
  std::size_t y3_core_counts = 0;  // of y3's fit over cores after the launch
  std::string notes;
};
ReplannedLaunch planned_on_one_count(int known_cores) {
  test_support::RecordingReporter reporter;
  Batch batch = nothing_known({"y1", "y2", "y3"}, reporter);
  add_observed_run(batch.known, batch.workload.tasks[0], {known_cores, 0}, 1.0, batch.options);
  const KnowledgeInstance made =
      knowledge_instance(batch.workload, batch.known, batch.options.launched.platform, nullptr, false);
  EXPECT_TRUE(guessed_tasks(made.instance, "the test's plan").empty());
  sched::Schedule schedule = HandPlanner(true).schedule(made.instance);
  schedule.launch_rule = "greedy";
  batch.plan = sim::plan_from_schedule(made.instance, schedule);
  for (const sim::PlannedTask& task : batch.plan.tasks) EXPECT_EQ(task.demand, std::vector<int>{2}) << task.id;
  EXPECT_DOUBLE_EQ(launch(batch, nullptr).observed_makespan, 3.0) << "the plan, as made";

  const HandPlanner planner(false);
  LaunchReplanner replanner(batch.workload, batch.plan, {}, batch.known, batch.options, std::nullopt, planner,
                            &reporter);
  sim::EngineResult result = launch(batch, &replanner);
  return {batch.plan, std::move(result), replanner.replans(),
          replanner.known().of(batch.workload.tasks[2]).fits.at(1.0)->cores_fit().core_counts(),
          reporter.text_of("note")};
}

TEST(LaunchReplanner, AKindsFirstRunAtASecondCoreCountRePlansWhatOneCountPlanned) {
  // y known on 1 core, planned on 2. y1's run there (0-1 s) is its kind's first at a second count: a fit through
  // both says y does not speed up, and y2, y3 are planned again — one core each, side by side: 1 s from then,
  // against 2 s as planned. 2 s in all.
  const ReplannedLaunch launched = planned_on_one_count(1);
  EXPECT_EQ(launched.replans, 1U);
  EXPECT_DOUBLE_EQ(launched.result.observed_makespan, 2.0);
  for (const char* id : {"y2", "y3"}) {
    const sim::TaskRun& run = launched.result.runs[index_of(launched.plan, id)];
    EXPECT_EQ(run.grant.amounts, std::vector<int>{1}) << id;
    EXPECT_DOUBLE_EQ(run.launch.start, 1.0) << id;
  }
  EXPECT_NE(launched.notes.find("learnt as it ran: y1 took 1 s on 2 cores, "), std::string::npos) << launched.notes;
  EXPECT_NE(launched.notes.find("'s first run at a second core count (predicted "), std::string::npos)
      << launched.notes;
  EXPECT_EQ(launched.y3_core_counts, 2U) << "y3's fit is through two core counts now";
}

TEST(LaunchReplanner, ARunAtTheCountItsKindRanAtLeavesThePriorAndThePlan) {
  // y known on 2 cores, planned there. y1's run is one more at the count y ran at: its fit is still the prior,
  // nothing is planned again.
  const ReplannedLaunch launched = planned_on_one_count(2);
  EXPECT_EQ(launched.replans, 0U);
  EXPECT_DOUBLE_EQ(launched.result.observed_makespan, 3.0);
  EXPECT_EQ(launched.notes.find("learnt as it ran"), std::string::npos) << launched.notes;
  EXPECT_EQ(launched.y3_core_counts, 1U);
}

}  // namespace
}  // namespace cosched::profiler
