// Re-planning a launch of `cosched run` as its guessed kinds' first runs, and its kinds' first runs at a second core
// count, come in (launch_replanner.hpp).
#include "cosched/profiler/launch_replanner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/profiler/knowledge_store.hpp"
#include "cosched/profiler/task_kinds.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/resource_kinds.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::profiler {

namespace {

// At most this many moved tasks are named in the note (the rest counted): a re-plan of a long batch is one line.
constexpr std::size_t kMovesNamed = 6;

// A re-plan runs while the cores the ended task freed wait for it: a searching planner gets a quarter of the time
// budget it plans a batch with (sched::kDefaultSearchBudgetMs) and at most 400 candidates — model-search's own stall
// rule evaluated about 2,400 for the README's six tasks, 21 ms on this VM for a plan no better than the first
// candidates'; the cap also makes a re-plan the same on any machine.
constexpr sched::SearchLimits kReplanLimits{sched::kDefaultSearchBudgetMs / 4, 1, 400};

// A re-plan is taken when it predicts the rest of the launch shorter than the plan as it stands by more than this
// share: an equal prediction is not worth a new order.
constexpr double kBetterBy = 1e-6;

// `amounts` over `from`'s resource names as amounts over `to`'s (a name `from` lacks: 0). A plan and the instances
// re-planned for it share resource names, not always their number: a batch whose pending tasks are all commands
// the tier cannot place is planned over cores only.
std::vector<int> by_name(const std::vector<int>& amounts, const std::vector<std::string>& from,
                         const std::vector<std::string>& to) {
  std::vector<int> out(to.size(), 0);
  for (std::size_t i = 0; i < to.size(); ++i) {
    const auto found = std::find(from.begin(), from.end(), to[i]);
    if (found != from.end()) out[i] = amounts.at(static_cast<std::size_t>(found - from.begin()));
  }
  return out;
}

std::vector<std::string> resource_names(const sched::Instance& instance) {
  std::vector<std::string> names;
  for (const sched::Resource& resource : instance.resources()) names.push_back(resource.name);
  return names;
}

// Cores and fast chunks (what a knowledge run records) of amounts over `names`.
std::vector<int> cores_and_chunks(const std::vector<int>& amounts, const std::vector<std::string>& names) {
  return by_name(amounts, names, {std::string(sched::kCoresResource), std::string(sched::kFastChunksResource)});
}

// Task i of `fitted` timed at the allocations its kind ran at only (its fit's times there); the table's closure
// gives larger allocations the same time, smaller ones none.
std::shared_ptr<const sched::TimeProfile> where_it_ran(const sched::Instance& fitted, std::size_t i,
                                                      const KindState& kind) {
  const std::vector<std::string> names = resource_names(fitted);
  std::vector<double> times(fitted.space().size(), std::numeric_limits<double>::infinity());
  for (const knowledge::Measurement& run : kind.known.measurements()) {
    const std::vector<int> alloc = by_name({run.cores, run.fast_chunks},
                                           {std::string(sched::kCoresResource), std::string(sched::kFastChunksResource)},
                                           names);
    if (run.cores > fitted.resources().front().capacity) continue;  // a run of a larger node shape: not here
    times[fitted.space().index_of(alloc)] = fitted.time(i, alloc);
  }
  return std::make_shared<sched::DenseTimeTable>(fitted.space(), std::move(times));
}

}  // namespace

LaunchReplanner::LaunchReplanner(const config::Workload& batch, const sim::LaunchPlan& plan,
                                 std::set<std::string> guessed_tasks, BatchKnowledge known, LearningOptions options,
                                 std::optional<NodeBandwidth> bandwidth, const sched::Algorithm& algorithm,
                                 Reporter* reporter)
    : batch_(batch),
      guessed_tasks_(std::move(guessed_tasks)),
      known_(std::move(known)),
      options_(std::move(options)),
      bandwidth_(std::move(bandwidth)),
      algorithm_(algorithm),
      reporter_(reporter) {
  for (const sim::PlannedTask& planned : plan.tasks) {
    const auto found = std::find_if(batch.tasks.begin(), batch.tasks.end(),
                                    [&](const config::WorkloadTask& task) { return task.id == planned.id; });
    if (found == batch.tasks.end()) throw std::logic_error("a launch plan's task not in its batch: " + planned.id);
    batch_task_.push_back(static_cast<std::size_t>(found - batch.tasks.begin()));
  }
  for (const KindState& state : known_.kinds) {
    if (!state.known_at_all()) guessed_.push_back(&state);
  }
}

std::optional<sim::Replan> LaunchReplanner::task_ended(std::size_t task, const sim::EngineView& view,
                                                       const sim::StandingList& standing) {
  const sim::TaskRun& run = view.runs.at(task);
  if (run.completion.status != sim::TaskStatus::ok) return std::nullopt;
  const config::WorkloadTask& ended = batch_.tasks[batch_task_.at(task)];
  KindState& state = known_.of(ended);
  // A task the plan guessed at is what its run changes; so is one whose kind had run at one core count only, when
  // it ran at another: its fit over cores said nothing measured of how it speeds up (SpeedupFit::core_counts). A
  // task timed by a fit through several counts was planned from it: one more run moves that little.
  const bool guessed = guessed_tasks_.count(ended.id) > 0;
  const auto one_count = [&](double work) {
    const auto fit = state.fits.find(work);
    return fit != state.fits.end() && fit->second->cores_fit().core_counts() < 2;
  };
  if (!guessed && !one_count(work_of(ended))) return std::nullopt;
  // What a re-plan learns is what the kind's pending tasks take: it is worth its planning time when the run gives
  // a pending task of the kind a fit it lacked — its kind's first run, or a run at an amount of work the kind's
  // earlier runs were too far from to carry — or a second core count. Without one, only the guess of the tasks
  // still unknown moves.
  std::vector<double> unfitted;  // the amounts of work of the kind's pending tasks without a fit
  std::vector<double> one_counted;  // ... with a fit through one core count
  for (std::size_t j = 0; j < view.runs.size(); ++j) {
    const config::WorkloadTask& other = batch_.tasks[batch_task_[j]];
    if (view.runs[j].state != sim::TaskState::pending || &known_.of(other) != &state) continue;
    if (state.fits.count(work_of(other)) == 0) {
      unfitted.push_back(work_of(other));
    } else if (one_count(work_of(other))) {
      one_counted.push_back(work_of(other));
    }
  }
  const bool first_run = !state.known_at_all();
  const std::vector<int> ran = cores_and_chunks(run.grant.amounts, view.plan.resource_names);
  const double seconds = run.completion.end - run.launch.start;
  add_observed_run(known_, ended, ran, seconds, options_);
  const bool fitted_anew =
      std::any_of(unfitted.begin(), unfitted.end(), [&](double work) { return state.fits.count(work) > 0; });
  const bool second_count =
      std::any_of(one_counted.begin(), one_counted.end(), [&](double work) { return !one_count(work); });
  if (!fitted_anew && !second_count) return std::nullopt;
  const std::string learnt =
      fitted_anew ? fmt::format("learnt as it ran: {} took {:.3g} s on {}, the first run of {}{} (guessed {:.3g} s)",
                                ended.id, seconds, allocation_words(ran), state.kind.name,
                                first_run ? "" : fmt::format(" at {:g}", work_of(ended)),
                                view.plan.tasks[task].predicted_duration)
                  : fmt::format("learnt as it ran: {} took {:.3g} s on {}, {}'s first run at a second core count "
                                "({} {:.3g} s)",
                                ended.id, seconds, allocation_words(ran), state.kind.name,
                                guessed ? "guessed" : "predicted from one count",
                                view.plan.tasks[task].predicted_duration);
  const auto begin = std::chrono::steady_clock::now();
  Candidate candidate;
  try {
    candidate = replan(view, standing);
  } catch (const Error& e) {
    // The planner refuses what is left: an algorithm for one resource given two (usage), or a task no allocation
    // runs by its new fit (input). Learning must not end a launch that runs well as planned: the plan stands.
    if (e.kind() != ErrorKind::usage && e.kind() != ErrorKind::input) throw;
    if (reporter_ != nullptr) reporter_->note(fmt::format("{}; the plan stands: {}", learnt, e.what()));
    return std::nullopt;
  }
  const double planning_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  // Taken only when it predicts the rest of the launch shorter than the plan as it stands, both from what is known
  // now: a planner does not know the running tasks hold their resources from now on, and its plan can wait for them.
  if (!(candidate.rest_s < candidate.standing_rest_s * (1.0 - kBetterBy))) {
    if (reporter_ != nullptr) {
      reporter_->note(fmt::format("{}; the plan stands: re-planned by {} in {:.2g} s, the rest would take {:.3g} s "
                                  "against {:.3g} s as planned",
                                  learnt, algorithm_.name(), planning_s, candidate.rest_s, candidate.standing_rest_s));
    }
    return std::nullopt;
  }
  ++replans_;
  candidate.replan.rest_s = candidate.rest_s;
  candidate.replan.reason = fmt::format("{}; the rest predicted {:.3g} s against {:.3g} s as planned (by {})", learnt,
                                        candidate.rest_s, candidate.standing_rest_s, algorithm_.name());
  if (reporter_ != nullptr) {
    const std::vector<std::string>& moves = candidate.moves;
    const auto named = static_cast<std::ptrdiff_t>(std::min(moves.size(), kMovesNamed));
    std::string moved = moves.empty() ? "every allocation kept"
                                      : fmt::format("{}", fmt::join(moves.begin(), moves.begin() + named, ", "));
    if (moves.size() > kMovesNamed) moved += fmt::format(" and {} more", moves.size() - kMovesNamed);
    reporter_->note(fmt::format("{}; the {} pending task(s) re-planned by {} in {:.2g} s, the rest to take {:.3g} s "
                                "against {:.3g} s as planned: {}",
                                learnt, candidate.replan.tasks.size(), algorithm_.name(), planning_s, candidate.rest_s,
                                candidate.standing_rest_s, moved));
  }
  return std::move(candidate.replan);
}

LaunchReplanner::Candidate LaunchReplanner::replan(const sim::EngineView& view,
                                                  const sim::StandingList& standing) const {
  // What is left of the batch: the running tasks (to hold their resources) and the pending ones (to plan).
  config::Workload left = batch_;
  left.tasks.clear();
  std::vector<std::size_t> plan_task;  // per task of `left`
  for (std::size_t j = 0; j < view.runs.size(); ++j) {
    const sim::TaskState state = view.runs[j].state;
    if (state != sim::TaskState::running && state != sim::TaskState::pending) continue;
    left.tasks.push_back(batch_.tasks[batch_task_[j]]);
    plan_task.push_back(j);
  }
  KnowledgeInstance made = knowledge_instance(left, known_, options_.launched.platform,
                                              bandwidth_ ? &*bandwidth_ : nullptr, options_.tier_places_commands);
  const sched::Instance& fitted = made.instance;
  const std::vector<std::string> names = resource_names(fitted);
  // The pending tasks' allocations are chosen on their fits' expected times, as the plan's were
  // (workflow/src/batch_plan.cpp); the rest is weighed on the medians.
  const sched::Instance expected = knowledge_instance(left, known_, options_.launched.platform,
                                                      bandwidth_ ? &*bandwidth_ : nullptr,
                                                      options_.tier_places_commands, knowledge::kExpectedTimes)
                                       .instance;
  // A running task can only go on where it is, for what its fit says is left of it; a kind first run in this
  // launch is no faster than where it ran (launch_replanner.hpp).
  std::vector<sched::Task> tasks = fitted.tasks();
  std::vector<sched::Task> chosen_on = fitted.tasks();
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const sim::TaskRun& run = view.runs[plan_task[i]];
    if (run.state != sim::TaskState::running) {
      const KindState& kind = known_.of(left.tasks[i]);
      if (kind.known_at_all() && std::find(guessed_.begin(), guessed_.end(), &kind) != guessed_.end()) {
        tasks[i].profile = where_it_ran(fitted, i, kind);
        chosen_on[i].profile = tasks[i].profile;
      } else {
        chosen_on[i].profile = expected.tasks()[i].profile;
      }
      continue;
    }
    const std::vector<int> alloc = by_name(run.grant.amounts, view.plan.resource_names, names);
    const double predicted = fitted.time(i, alloc);
    const double elapsed = std::max(0.0, view.now - run.launch.start);
    std::vector<double> times(fitted.space().size(), std::numeric_limits<double>::infinity());
    times[fitted.space().index_of(alloc)] = sim::running_time_left(predicted, elapsed);
    tasks[i].profile = std::make_shared<sched::DenseTimeTable>(fitted.space(), std::move(times));
    chosen_on[i].profile = tasks[i].profile;
  }
  const sched::Instance instance(fitted.resources(), std::move(tasks), fitted.attributes(), fitted.bandwidth());
  // Only its allocations and its order are taken: the rest's time is the medians' (rest_s).
  const sched::Schedule schedule =
      sched::plan(algorithm_,
                  sched::Instance(fitted.resources(), std::move(chosen_on), fitted.attributes(), fitted.bandwidth()),
                  sched::lower_bound(instance), kReplanLimits)
          .schedule;

  // The rest as the greedy rule runs it from now: the running tasks where they are, then the pending ones in order.
  std::vector<sim::RestTask> running;
  for (std::size_t i = 0; i < plan_task.size(); ++i) {
    const sim::TaskRun& run = view.runs[plan_task[i]];
    if (run.state != sim::TaskState::running) continue;
    std::vector<int> alloc = by_name(run.grant.amounts, view.plan.resource_names, names);
    const double seconds = instance.time(i, alloc);
    running.push_back({left.tasks[i].id, std::move(alloc), seconds});
  }
  const auto rest_s = [&](const std::vector<std::pair<std::size_t, std::vector<int>>>& pending) {
    std::vector<sim::RestTask> order;
    for (const auto& [i, alloc] : pending) order.push_back({left.tasks[i].id, alloc, instance.time(i, alloc)});
    return sim::greedy_rest_seconds(names, sched::capacities_of(instance.resources()), running, order);
  };

  std::vector<std::size_t> planned;  // indices into `left` of the pending tasks, in the candidate's order
  for (std::size_t i = 0; i < plan_task.size(); ++i) {
    if (view.runs[plan_task[i]].state == sim::TaskState::pending) planned.push_back(i);
  }
  std::stable_sort(planned.begin(), planned.end(),
                   [&](std::size_t a, std::size_t b) { return schedule.tasks[a].start < schedule.tasks[b].start; });
  Candidate candidate;
  std::vector<std::pair<std::size_t, std::vector<int>>> candidate_rest;
  for (const std::size_t i : planned) {
    const std::size_t j = plan_task[i];
    // A kind the plan guessed at keeps its allocation: what is known of it is one allocation at most, and the
    // planner's other choices for it are ties it broke (the tables are closed), which only widen it — and a wide
    // task at the head of the greedy list holds the tasks behind it (first_run_study: 2-4 % of the cores idle).
    const bool guessed = std::find(guessed_.begin(), guessed_.end(), &known_.of(left.tasks[i])) != guessed_.end();
    std::vector<int> demand =
        guessed ? standing.demands[j] : by_name(schedule.tasks[i].alloc, names, view.plan.resource_names);
    if (demand != standing.demands[j]) {
      const auto words = [&](const std::vector<int>& amounts) {
        return allocation_words(cores_and_chunks(amounts, view.plan.resource_names));
      };
      candidate.moves.push_back(
          fmt::format("{} on {} (planned {})", view.plan.tasks[j].id, words(demand), words(standing.demands[j])));
    }
    candidate_rest.emplace_back(i, by_name(demand, view.plan.resource_names, names));
    const double predicted = instance.time(i, candidate_rest.back().second);
    candidate.replan.tasks.push_back({j, std::move(demand),
                                      std::isfinite(predicted) ? std::optional<double>(predicted) : std::nullopt,
                                      !known_.of(left.tasks[i]).known_at_all()});
  }
  std::vector<std::pair<std::size_t, std::vector<int>>> standing_rest;
  for (const std::size_t j : standing.order) {
    if (view.runs[j].state != sim::TaskState::pending) continue;
    const auto i = static_cast<std::size_t>(std::find(plan_task.begin(), plan_task.end(), j) - plan_task.begin());
    standing_rest.emplace_back(i, by_name(standing.demands[j], view.plan.resource_names, names));
  }
  candidate.rest_s = rest_s(candidate_rest);
  candidate.standing_rest_s = rest_s(standing_rest);
  return candidate;
}

}  // namespace cosched::profiler
