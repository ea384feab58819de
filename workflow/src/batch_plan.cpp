// How `cosched run` comes to its plan, predicts it and learns from it (batch_plan.hpp).
#include "batch_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "cosched/exec/task_command.hpp"
#include "cosched/knowledge/makespan_interval.hpp"
#include "cosched/profiler/cached_node_model.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/launch_exploration.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/run_history.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/naive.hpp"
#include "cosched/sim/exploration.hpp"
#include "cosched/sim/gantt.hpp"

namespace cosched::workflow::detail {

namespace {

// What a budget must hold for a quick calibration to be paid from it: one took 2.2-2.8 s on this 2-core VM (load
// 2.6); a larger node streams at more core counts.
constexpr double kQuickCalibrationBudgetS = 5.0;

// How much slower a task may run beside others when no node model predicts it and its times were all measured with
// it alone: the most this VM's co-running batches showed, xz beside an image blur 2.82 s against 1.92 s beside pigz
// (1.47 x, docs/end-to-end.md) — the demo's co-running tasks ran 1.21 x their profile, debian-work's xz beside pigz
// 1.38 x. The interval allows it where the plan runs tasks side by side; a node model (cosched calibrate) predicts it.
constexpr double kUnpredictedCoRunningSlowdown = 1.5;

// The node model the plan predicts contention with: --node, else the cache's when fresh. When there is none, a
// budget the user gave pays for a quick calibration first when it holds kQuickCalibrationBudgetS (the node is part
// of what is known); an automatic budget does not (a calibration costs seconds, more than most batches' share).
std::optional<config::NodeModel> plan_node_model(const RunBatchOptions& run, const profiler::ProfileCache& cache,
                                                 const exec::TierSetup& tier, Reporter& reporter,
                                                 double& calibration_s) {
  std::string origin;
  std::optional<config::NodeModel> model =
      profiler::known_node_model(cache, run.node.empty() ? std::nullopt : std::optional<std::filesystem::path>(run.node),
                                 origin);
  if (model) {
    reporter.note("node model: " + origin);
    return model;
  }
  if (!run.profile_budget_s || *run.profile_budget_s < kQuickCalibrationBudgetS) {
    reporter.note(fmt::format("node model: none ({}): memory contention is not predicted; a run given "
                              "--profile-budget {:g} or more calibrates one first (a few seconds), or: cosched "
                              "calibrate -o {}",
                              origin, kQuickCalibrationBudgetS, cache.node_model_path().string()));
    return std::nullopt;
  }
  const auto begin = std::chrono::steady_clock::now();
  profiler::CalibrationOptions calibration;
  calibration.quick = true;
  calibration.tier_backend = tier.backend;
  const std::string why = origin;
  model = profiler::calibrate_into_cache(cache, calibration, why, reporter, origin);
  calibration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  reporter.note(fmt::format("node model: {} in {:.3g} s of the budget", origin, calibration_s));
  return model;
}

// The launch as a teacher: tasks moved to allocations their kinds never ran at where the plan has room anyway, on
// the cautious side (profiler::exploration_options, sim::explore_in_slack); learn_from_launch keeps what they take.
void explore_in_launch(const config::Workload& batch, const profiler::BatchKnowledge& known, BatchPlan& plan,
                       Reporter& reporter) {
  const std::vector<sim::ExplorationOption> options =
      profiler::exploration_options(batch, known, plan.instance, plan.schedule);
  if (options.empty()) return;
  const sim::ExplorationResult explored = sim::explore_in_slack(plan.instance, plan.schedule, options);
  for (const sim::ExplorationStep& step : explored.steps) {
    reporter.note(fmt::format("explores: {} on {}, not {} (its kind never ran there; the plan has room: its {:.3g} s "
                              "hold even if it takes {:.3g} s there, its fit one sd up); what it takes is kept for "
                              "the next batch",
                              batch.tasks[step.task].id, profiler::allocation_words(step.to), profiler::allocation_words(step.from),
                              explored.makespan_s, step.cautious_s));
  }
}

// The batch run without cosched at `each` per task, in the file's order (sched::naive_schedule), as the plan's
// prediction runs it: nullopt where a task has no time there (a guessed task runs on one core only).
std::optional<double> predicted_naive_way(const BatchPlan& plan, const std::vector<int>& each) {
  const sched::Schedule naive =
      sched::naive_schedule(plan.instance, sched::file_order(plan.instance.task_count()), each);
  if (!std::isfinite(naive.makespan)) return std::nullopt;
  return sim::predict_plan(sim::plan_from_schedule(plan.instance, naive)).leading().observed_makespan;
}

// What the same knowledge predicts for the ways a user runs the batch without cosched — `xargs -P <cores>` one core
// each in the file's order, and one by one on every core (no fast memory: neither places it) — in `json` and in
// words: what the plan is expected to save, said before it runs, and the most any plan could save — the batch's
// lower bound L_min(d) on the same knowledge (on a node the naive ways already keep busy, as xargs -P 2 does a 2-core
// VM's, it is within a few percent of them). Nothing when the plan is the naive way itself.
std::string naive_ways_said(const BatchPlan& plan, double predicted_s, double lower_bound_s, nlohmann::json& json) {
  const int cores = plan.instance.resources().front().capacity;
  std::vector<int> one(plan.instance.dimensions(), 0);
  one.front() = 1;
  std::vector<int> whole(plan.instance.dimensions(), 0);
  whole.front() = cores;
  const struct {
    const char* field;
    std::string words;
    std::optional<double> seconds;
  } naive_ways[] = {{"xargs_s", fmt::format("xargs -P {} (one core each, in the file's order)", cores),
                      predicted_naive_way(plan, one)},
                     {"one_by_one_s", fmt::format("one by one on {} cores", cores), predicted_naive_way(plan, whole)}};
  std::vector<std::string> ways;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& way : naive_ways) {
    json["naive_ways"][way.field] = way.seconds ? nlohmann::json(*way.seconds) : nlohmann::json(nullptr);
    if (!way.seconds) continue;
    ways.push_back(fmt::format("{} {:.3g} s", way.words, *way.seconds));
    best = std::min(best, *way.seconds);
  }
  if (ways.empty()) return "";
  std::string bound;
  if (lower_bound_s > 0.0) {
    json["naive_ways"]["lower_bound_ratio"] = lower_bound_s / best;
    bound = fmt::format(", and no plan can be below {:.2f} x (the lower bound L_min(d))", lower_bound_s / best);
  }
  return fmt::format("without cosched, on what is known: {}; the plan {:.2f} x the better of them{}\n",
                     fmt::join(ways, ", "), predicted_s / best, bound);
}

}  // namespace

BatchPlan plan_batch(const RunBatchOptions& run, config::Workload& batch, const profiler::ProfileCache& cache,
                     const RunNode& node, const sched::Algorithm& algorithm, Reporter& reporter) {
  const config::PlatformConfig& platform = node.platform;
  double calibration_s = 0.0;
  const std::optional<config::NodeModel> model = plan_node_model(run, cache, node.tier, reporter, calibration_s);

  profiler::LearningOptions learning;
  learning.launched.platform = platform;  // the batch profiled as it will be launched
  learning.launched.tier = node.tier;
  learning.launched.stream_bench = exec::default_stream_bench_path();
  learning.launched.reps = run.reps;
  learning.launched.reporter = &reporter;
  learning.launched.command_timeout_s = run.timeout_s;  // one deadline for everything the run starts
  learning.strategy = run.profile_strategy;
  if (run.profile_budget_s) learning.budget.seconds = std::max(0.0, *run.profile_budget_s - calibration_s);
  learning.tier_places_commands = node.tier.places_commands();
  learning.forget = run.reprofile;
  const profiler::BatchKnowledge known = profiler::learn_batch(batch, cache, learning);

  std::optional<profiler::NodeBandwidth> bandwidth;
  if (model) bandwidth = profiler::node_bandwidth(*model);
  profiler::KnowledgeInstance made = profiler::knowledge_instance(
      batch, known, platform, bandwidth ? &*bandwidth : nullptr, node.tier.places_commands());
  for (const std::string& line : profiler::probed_traffic_lines(made.instance)) reporter.note("  " + line);

  BatchPlan plan{std::move(made.instance), {}, std::move(made.log_sd), std::move(made.log_gain_bound), {}, {},
                 {known.share_s, known.spent_s, known.run_overhead_s()}, known, learning, bandwidth};
  std::vector<const profiler::KindState*> kinds;  // one error per kind's fit, one for the guess (group 0)
  // A task is guessed when its instance says so (profiler::guessed_tasks, the one reading of the mark): its kind
  // never measured, or measured but with no fit at the task's amount of work (a run too far from it to carry).
  plan.guessed = profiler::guessed_tasks(plan.instance, "the plan of " + run.batch);
  for (const config::WorkloadTask& task : batch.tasks) {
    const profiler::KindState& kind = known.of(task);
    const bool measured_alone = kind.known.count(profiler::RunSource::observed) == 0;
    plan.co_running_log_bound.push_back(!bandwidth && measured_alone ? std::log(kUnpredictedCoRunningSlowdown) : 0.0);
    if (plan.guessed.count(task.id) > 0) {
      plan.error_groups.push_back(0);
      continue;
    }
    const auto found = std::find(kinds.begin(), kinds.end(), &kind);
    plan.error_groups.push_back(1 + static_cast<std::size_t>(found - kinds.begin()));
    if (found == kinds.end()) kinds.push_back(&kind);
  }
  if (plan.guessed.size() == batch.tasks.size()) {
    plan.schedule = profiler::naive_schedule(plan.instance);
    const int each = sched::naive_cores(static_cast<int>(platform.cores), batch.tasks.size());
    reporter.note(each == 1 ? fmt::format("nothing is known of this batch yet: it runs as `xargs -P {}` would (one "
                                          "core each, in the file's order, each as soon as a core is free), every "
                                          "task's time is kept for the next run{}",
                                          platform.cores,
                                          run.replan ? ", and the first task of each kind to end re-plans the tasks "
                                                       "still pending"
                                                     : "")
                            : fmt::format("nothing is known of this batch yet: its {} tasks run at once on {} cores "
                                          "each, the node shared evenly (`xargs -P {}` would leave {} cores idle), "
                                          "and every task's time is kept for the next run",
                                          batch.tasks.size(), each, platform.cores,
                                          platform.cores - batch.tasks.size()));
    return plan;
  }
  // Chosen on the fits' expected times, predicted on their medians (knowledge::TimeChoice): on the medians the
  // planner favours the allocations whose times were carried farthest from any run, where the fits are least sure.
  const sched::Instance expected =
      profiler::knowledge_instance(batch, known, platform, bandwidth ? &*bandwidth : nullptr,
                                   node.tier.places_commands(), knowledge::kExpectedTimes)
          .instance;
  plan.schedule =
      sched::retimed(plan.instance, sched::plan(algorithm, expected, sched::lower_bound(plan.instance)).schedule);
  // A list plan's times are predictions, some guesses: its tasks start in its order as soon as what they need is
  // free, never idling a core until a planned start a faster task made too late (the list rule waits for them).
  // A pack plan keeps its packs: a pack starts when the previous one has ended, which never waits on a time.
  const bool packed = std::any_of(plan.schedule.tasks.begin(), plan.schedule.tasks.end(),
                                  [](const sched::ScheduledTask& task) { return task.pack >= 0; });
  if (!packed) plan.schedule.launch_rule = "greedy";
  if (run.explore) explore_in_launch(batch, known, plan, reporter);
  if (!plan.guessed.empty()) {
    reporter.note(fmt::format("{} task(s) with no time known (their kinds never measured, or not near their amount "
                              "of work) run on one core at a guessed time; their times are kept for the next run{}",
                              plan.guessed.size(),
                              run.replan ? ", and the first of them to end that gives others of its kind a time "
                                           "re-plans the tasks still pending"
                                         : ""));
  }
  return plan;
}

PredictionInterval report_prediction(const BatchPlan& plan, const launcher::LaunchInputs& inputs,
                                                    const profiler::ProfileCache& cache, Reporter& reporter) {
  const sim::PlanPrediction prediction = sim::predict_plan(inputs.plan);
  nlohmann::json json = sim::to_json(prediction);
  const profiler::LaunchNoise noise = profiler::launch_noise(cache);
  // Each planned task's sd of ln t, and its unknown gain from fast memory, at the allocation it runs with (plan
  // tasks are the instance's, in order).
  std::vector<double> task_log_sd(inputs.plan.tasks.size(), 0.0);
  knowledge::IntervalOptions options;
  options.log_gain_bound.assign(inputs.plan.tasks.size(), 0.0);
  const sched::AllocationSpace& space = plan.instance.space();
  std::size_t unknown_gains = 0;
  for (std::size_t j = 0; j < task_log_sd.size() && j < plan.log_sd.size(); ++j) {
    const std::size_t at = space.index_of(plan.schedule.tasks[j].alloc);
    task_log_sd[j] = plan.log_sd[j][at];
    if (j < plan.log_gain_bound.size()) options.log_gain_bound[j] = plan.log_gain_bound[j][at];
    unknown_gains += options.log_gain_bound[j] > 0.0 ? 1 : 0;
  }
  options.launch_noise_sigma = noise.sigma;
  options.launch_noise_dof = noise.degrees_of_freedom();
  options.error_groups = plan.error_groups;
  options.co_running_log_bound.assign(inputs.plan.tasks.size(), 0.0);  // plan tasks are the batch's, in order
  std::size_t unpredicted_co_running = 0;
  for (std::size_t j = 0; j < inputs.plan.tasks.size() && j < plan.co_running_log_bound.size(); ++j) {
    options.co_running_log_bound[j] = plan.co_running_log_bound[j];
    unpredicted_co_running += plan.co_running_log_bound[j] > 0.0 ? 1 : 0;
  }
  const knowledge::MakespanInterval stated = knowledge::stated_interval(inputs.plan, task_log_sd, options);
  const PredictionInterval interval{prediction.leading().observed_makespan, stated.low_s, stated.high_s,
                                    plan.guessed.size()};
  json["interval_80"] = {{"low_s", interval.low_s}, {"high_s", interval.high_s}};
  json["launch_noise_sigma"] = noise.sigma;
  json["launches_seen"] = noise.launches;
  json["guessed_tasks"] = plan.guessed.size();
  json["fast_memory_unmeasured_tasks"] = unknown_gains;
  json["co_running_unpredicted_tasks"] = unpredicted_co_running;
  std::string text = sim::format_prediction(inputs.plan, prediction);
  if (plan.guessed.size() < plan.instance.task_count()) {  // else the plan is the naive way
    text += naive_ways_said(plan, interval.predicted_s, inputs.plan.lower_bound, json);
  }
  text += fmt::format("80 % interval: {:.3g} .. {:.3g} s (the fits' uncertainty{}{}{} and this node's "
                      "launch-to-launch noise, sd {:.1f} % from {} launch(es) and a prior)\n",
                      interval.low_s, interval.high_s,
                      !plan.guessed.empty() ? fmt::format(", {} guessed task time(s)", plan.guessed.size()) : "",
                      unpredicted_co_running > 0
                          ? fmt::format(", {} task(s) timed alone, beside others up to {:.3g} x slower (no node "
                                        "model predicts it)",
                                        unpredicted_co_running, kUnpredictedCoRunningSlowdown)
                          : "",
                      unknown_gains > 0 ? fmt::format(", {} task(s) on fast memory their kind was never measured on "
                                                      "(up to {:.3g} x faster)",
                                                      unknown_gains,
                                                      std::exp(*std::max_element(options.log_gain_bound.begin(),
                                                                                 options.log_gain_bound.end())))
                                        : "",
                      100.0 * noise.sigma, noise.launches);
  reporter.result({"prediction", text, json});
  return interval;
}

}  // namespace cosched::workflow::detail

namespace cosched::workflow {

double de_contention_factor(const launcher::TaskDeviation& task) {
  if (!task.predicted_contention_start || !task.predicted_contention_end) return 1.0;
  const double paper = task.predicted_end - task.predicted_start;
  const double contended = *task.predicted_contention_end - *task.predicted_contention_start;
  return paper > 0.0 && contended > 0.0 ? paper / contended : 1.0;
}

std::vector<profiler::ObservedTask> observed_runs(const launcher::LaunchSummary& summary) {
  std::vector<profiler::ObservedTask> observed;
  for (const launcher::TaskDeviation& task : summary.tasks) {
    if (task.status != sim::TaskStatus::ok) continue;
    const auto planned = std::find_if(summary.plan.tasks.begin(), summary.plan.tasks.end(),
                                      [&](const sim::PlannedTask& p) { return p.id == task.id; });
    if (planned == summary.plan.tasks.end()) continue;
    // A re-plan that kept its allocation still moved it in the order: its predicted co-runners are not the ones it had.
    const bool as_planned =
        !task.replanned && (task.allocation.empty() || task.allocation == planned->demand);
    observed.push_back({task.id, as_planned ? planned->demand : task.allocation, task.observed_end - task.observed_start,
                        as_planned ? de_contention_factor(task) : 1.0});
  }
  return observed;
}

}  // namespace cosched::workflow

namespace cosched::workflow::detail {

void learn_from_launch(const launcher::LaunchSummary& summary, const config::Workload& batch,
                       const std::optional<PredictionInterval>& predicted, const profiler::LaunchProfiling& profiling,
                       const profiler::ProfileCache& cache, const std::string& placement, Reporter& reporter) {
  const std::vector<profiler::ObservedTask> observed = observed_runs(summary);
  const std::size_t learnt = profiler::learn_from_launch(batch, observed, cache, placement);
  if (learnt > 0) {
    reporter.note(fmt::format("learnt: {} observed run(s) kept in {} for the next batch", learnt,
                              (cache.node_folder() / "knowledge").string()));
  }
  if (!predicted || !summary.already_completed.empty()) return;  // a resumed launch is not the predicted one
  // The node's history is its launch-to-launch noise (a plan of guessed times is kept, and passed over there) and
  // what its profiling spent and paid per run.
  profiler::RecordedLaunch launch{batch.name, predicted->predicted_s, predicted->low_s, predicted->high_s,
                                  summary.observed_makespan, predicted->guessed_tasks, std::nullopt, std::nullopt};
  if (summary.memory_warm_up) {
    launch.warm_up_bytes = summary.memory_warm_up->bytes;
    launch.warm_up_s = summary.memory_warm_up->seconds;
  }
  profiler::record_launch(cache, launch, profiling);
  const bool inside = summary.observed_makespan >= predicted->low_s && summary.observed_makespan <= predicted->high_s;
  reporter.note(fmt::format("observed {:.3g} s: {} the 80 % interval {:.3g} .. {:.3g} s", summary.observed_makespan,
                            inside ? "inside" : "outside", predicted->low_s, predicted->high_s));
}

}  // namespace cosched::workflow::detail
