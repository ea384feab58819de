#include "cosched/sim/model_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

#include "cosched/sched/allocation.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/pareto_front.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/prediction.hpp"
#include "sim/search/decoder.hpp"

namespace cosched::sim {

namespace {

using SteadyClock = std::chrono::steady_clock;

// How long the search goes on and how far it may stray. History: late acceptance hill climbing (Burke & Bykov,
// EJOR 2017) accepts a candidate no worse than the current one or than the one `history` evaluations ago, so the
// walk can cross the ridges that single moves cannot (two tasks whose allocations must both shrink before they
// fit side by side); a longer history strays further. Stall: evaluations without improving the best candidate,
// after which a round has converged. Both grow with the task count, since a candidate has about n^2 list
// moves. Rounds: walks, the later ones from the best so far after a kick (on the demo batches of 2026-11-25/26,
// 4 rounds found plans 0-2 % shorter than one, in 2-4 x the time). The cap only stops a search on a huge
// instance that the budget would stop anyway.
struct Tuning {
  std::size_t history;
  std::size_t stall;
  std::size_t rounds;
  std::size_t max_evaluations;
};

Tuning tuning_for(std::size_t tasks) {
  return {std::max<std::size_t>(32, tasks), std::max<std::size_t>(600, 40 * tasks), 4, 100'000};
}

// The walk's cost: the makespan, and a little of the mean completion time, which moves while the makespan sits
// on a plateau (tasks ending earlier leave room for the ones after them). The best candidate is still chosen by
// the makespan first (Decoded::better_than).
double walk_cost(const search::Decoded& decoded) {
  const double tasks = static_cast<double>(std::max<std::size_t>(1, decoded.end.size()));
  return decoded.makespan + 0.01 * decoded.completion_sum / tasks;
}

struct StartingPlan {
  std::string algorithm;
  sched::Schedule schedule;
  double predicted = 0.0;
};

// L(p, d) of a schedule's allocations.
double allocation_bound_of(const sched::Instance& instance, const sched::Schedule& schedule) {
  std::vector<std::size_t> allocation;
  std::vector<double> time;
  for (const auto& task : schedule.tasks) {
    allocation.push_back(instance.space().index_of(task.alloc));
    time.push_back(task.duration);
  }
  return sched::allocation_bound(instance, allocation, time);
}

double predicted_makespan(const sched::Instance& instance, const sched::Schedule& schedule) {
  return predict_contention(plan_from_schedule(instance, schedule), "auto").observed_makespan;
}

// Every other registered algorithm that applies (the sched layer's table: the sim core's planners are not
// starting points of each other), planned and predicted on the contention clock with its own launch policy.
std::vector<StartingPlan> starting_plans(const sched::Instance& instance) {
  std::vector<StartingPlan> plans;
  for (const auto& algorithm : sched::algorithms()) {
    if (!algorithm->refusal(instance).empty()) continue;
    StartingPlan plan{std::string(algorithm->name()), algorithm->schedule(instance), 0.0};
    plan.predicted = predicted_makespan(instance, plan.schedule);
    plans.push_back(std::move(plan));
  }
  return plans;
}

// The moves of the local search on a candidate. Each returns false when it changed nothing (then another is drawn).
class Moves {
 public:
  Moves(const sched::Instance& instance, const search::Decoder& decoder, sched::Random& random)
      : instance_(instance), decoder_(decoder), random_(random) {
    for (const auto& task : instance.tasks()) fronts_.push_back(task.profile->front(instance.space()));
  }

  // One random move that changes the candidate, drawn again when one changes nothing (at most kDraws times: false
  // when none did, e.g. one task with one allocation).
  bool apply(search::Candidate& candidate, const search::Decoded& decoded) {
    for (int draw = 0; draw < kDraws; ++draw) {
      if (apply_one(candidate, decoded)) return true;
    }
    return false;
  }

 private:
  static constexpr int kDraws = 32;

  // One random move; `decoded` is the candidate as decoded (which tasks co-run).
  bool apply_one(search::Candidate& candidate, const search::Decoded& decoded) {
    const double draw = random_.uniform01();
    if (draw < 0.25) return reinsert(candidate);
    if (draw < 0.375) return swap(candidate);
    if (draw < 0.50) return faster(candidate);
    if (draw < 0.625) return less_area(candidate);
    if (draw < 0.775) return resize(candidate);
    if (draw < 0.90) return keep_apart(candidate, decoded);
    return let_co_run(candidate);
  }

  std::size_t pick(std::size_t count) { return random_.index(count); }

  // Two different positions of the list, drawn uniformly.
  std::pair<std::size_t, std::size_t> two_positions(std::size_t size) {
    const std::size_t first = pick(size);
    std::size_t second = pick(size - 1);
    if (second >= first) ++second;
    return {first, second};
  }

  // A task moves to another place in the list.
  bool reinsert(search::Candidate& candidate) {
    auto& order = candidate.order;
    if (order.size() < 2) return false;
    const auto [from, to] = two_positions(order.size());
    const std::size_t task = order[from];
    order.erase(order.begin() + static_cast<std::ptrdiff_t>(from));
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(to), task);
    return true;
  }

  bool swap(search::Candidate& candidate) {
    auto& order = candidate.order;
    if (order.size() < 2) return false;
    const auto [a, b] = two_positions(order.size());
    std::swap(order[a], order[b]);
    return true;
  }

  // One step along the task's Pareto front towards shorter times: the least area among the allocations faster
  // than its current one.
  bool faster(search::Candidate& candidate) {
    const std::size_t task = pick(candidate.allocation.size());
    const double now = decoder_.time(task, candidate.allocation[task]);
    const auto entry = fronts_[task]->shorter_than({now, 0.0, candidate.allocation[task]});
    return entry && assign(candidate, task, entry->index);
  }

  // Along the front towards less area: the least area among the allocations at most (1, 2] times longer.
  bool less_area(search::Candidate& candidate) {
    const std::size_t task = pick(candidate.allocation.size());
    const double now = decoder_.time(task, candidate.allocation[task]);
    const auto entry = fronts_[task]->within(now * random_.uniform_above(1.0, 2.0));
    return entry && assign(candidate, task, entry->index);
  }

  // One resource of one task to another amount (one step, or any amount), off the Pareto front too: an allocation
  // of more area can still shorten the plan by running on what the others leave idle — a 96 MiB STREAM task on 1
  // core beside a 1-core task that holds most of the fast chunks, where the front offers it only 2 cores. Its
  // other resources are then trimmed to the least that keeps its time (a profile is flat past what a task uses).
  bool resize(search::Candidate& candidate) {
    const sched::AllocationSpace& space = instance_.space();
    const std::size_t task = pick(candidate.allocation.size());
    const std::size_t resource = pick(space.dimensions());
    std::vector<int> alloc = space.decode(candidate.allocation[task]);
    const int capacity = space.capacity(resource);
    const int amount = random_.uniform01() < 0.5
                           ? alloc[resource] + (random_.uniform01() < 0.5 ? -1 : 1)
                           : static_cast<int>(random_.index(static_cast<std::size_t>(capacity) + 1));
    if (amount < 0 || amount > capacity || amount == alloc[resource]) return false;
    alloc[resource] = amount;
    const double time = instance_.time(task, alloc);
    if (!std::isfinite(time)) return false;
    for (std::size_t other = 0; other < space.dimensions(); ++other) {
      if (other != resource) alloc[other] = least_keeping_time(task, alloc, other, time);
    }
    return assign(candidate, task, space.index_of(alloc));
  }

  // The least amount of `resource` at which the task still takes `time`, the rest of `alloc` kept (times are
  // non-increasing in every resource: a bisection).
  int least_keeping_time(std::size_t task, std::vector<int> alloc, std::size_t resource, double time) const {
    int low = 0;
    int high = alloc[resource];  // takes `time`
    while (low < high) {
      const int middle = low + (high - low) / 2;
      alloc[resource] = middle;
      if (instance_.time(task, alloc) <= time) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return high;
  }

  bool assign(search::Candidate& candidate, std::size_t task, std::size_t allocation) {
    if (candidate.allocation[task] == allocation) return false;
    candidate.allocation[task] = allocation;
    return true;
  }

  // Two tasks that run at the same time in the decoded candidate may not any more.
  bool keep_apart(search::Candidate& candidate, const search::Decoded& decoded) {
    const std::size_t n = candidate.order.size();
    if (n < 2) return false;
    const std::size_t task = pick(n);
    std::vector<std::size_t> beside;
    for (std::size_t other = 0; other < n; ++other) {
      const double overlap = std::min(decoded.end[task], decoded.end[other]) -
                             std::max(decoded.start[task], decoded.start[other]);
      if (other != task && overlap > 0.0) beside.push_back(other);
    }
    if (beside.empty()) return false;
    const std::size_t other = beside[pick(beside.size())];
    const std::pair pair{std::min(task, other), std::max(task, other)};
    auto& apart = candidate.apart;
    const auto at = std::lower_bound(apart.begin(), apart.end(), pair);
    if (at != apart.end() && *at == pair) return false;
    apart.insert(at, pair);
    return true;
  }

  bool let_co_run(search::Candidate& candidate) {
    auto& apart = candidate.apart;
    if (apart.empty()) return false;
    apart.erase(apart.begin() + static_cast<std::ptrdiff_t>(pick(apart.size())));
    return true;
  }

  const sched::Instance& instance_;
  const search::Decoder& decoder_;
  sched::Random& random_;
  std::vector<std::shared_ptr<const sched::ParetoFront>> fronts_;
};

}  // namespace

SearchOutcome model_search(const sched::Instance& instance, const sched::SearchLimits& limits) {
  sched::check_search_limits(limits);
  const auto begin = SteadyClock::now();
  const auto deadline = begin + std::chrono::duration_cast<SteadyClock::duration>(
                                    std::chrono::duration<double, std::milli>(limits.budget_ms));
  SearchOutcome outcome;
  std::vector<StartingPlan> starts = starting_plans(instance);
  for (const auto& start : starts) outcome.starts.push_back({start.algorithm, start.predicted});
  // The best starting plan (the first in registry order among equals): what the search must not be worse than.
  const auto best_start = std::min_element(starts.begin(), starts.end(), [](const auto& a, const auto& b) {
    return a.predicted < b.predicted;
  });
  const auto finish = [&](sched::Schedule schedule, double predicted, std::string chosen) {
    schedule.algorithm = std::string(kModelSearchName);
    schedule.allocation_bound = allocation_bound_of(instance, schedule);  // of this allocation, whoever chose it
    outcome.schedule = std::move(schedule);
    outcome.predicted_makespan = predicted;
    outcome.chosen = std::move(chosen);
    outcome.seconds = std::chrono::duration<double>(SteadyClock::now() - begin).count();
    return outcome;
  };
  // The eight apply to every instance (d resources, any tasks): an empty list is a registry bug, not bad input.
  if (best_start == starts.end()) throw std::logic_error("model-search: no registered algorithm plans this instance");

  search::Decoder decoder(instance);
  sched::Random random(limits.seed);
  Moves moves(instance, decoder, random);
  Tuning tuning = tuning_for(instance.task_count());
  if (limits.max_evaluations > 0) tuning.max_evaluations = std::min(tuning.max_evaluations, limits.max_evaluations);

  // Every starting plan as a candidate; the search starts from the best of them.
  search::Candidate best;
  search::Decoded best_decoded;
  for (const auto& start : starts) {
    search::Candidate candidate = search::candidate_of(instance, start.schedule);
    search::Decoded decoded = decoder.decode(candidate);
    ++outcome.evaluations;
    if (best.order.empty() || decoded.better_than(best_decoded)) {
      best = std::move(candidate);
      best_decoded = std::move(decoded);
    }
  }
  // The best candidate so far becomes `candidate` when it is better; true when it did.
  const auto keep_if_best = [&](const search::Candidate& candidate, const search::Decoded& decoded) {
    if (!decoded.better_than(best_decoded)) return false;
    best = candidate;
    best_decoded = decoded;
    ++outcome.improvements;
    return true;
  };
  // One walk of late acceptance from `current`, until it stalls (false) or the search must stop (true: the cap or
  // the budget, said in outcome.stopped_by, or no move changes the candidate — there is nothing to search).
  const auto walk = [&](search::Candidate& current, search::Decoded& current_decoded) {
    (void)keep_if_best(current, current_decoded);
    double current_cost = walk_cost(current_decoded);
    std::vector<double> history(tuning.history, current_cost);
    std::size_t since_best = 0;
    for (std::size_t step = 0;; ++step) {
      if (outcome.evaluations >= tuning.max_evaluations) {
        outcome.stopped_by = "evaluations";
        return true;
      }
      if (since_best >= tuning.stall) return false;
      if (SteadyClock::now() >= deadline) {
        outcome.stopped_by = "budget";
        return true;
      }
      search::Candidate next = current;
      if (!moves.apply(next, current_decoded)) return true;
      search::Decoded decoded = decoder.decode(next);
      ++outcome.evaluations;
      const double cost = walk_cost(decoded);
      double& late = history[step % history.size()];
      if (cost <= current_cost || cost <= late) {
        current = std::move(next);
        current_decoded = std::move(decoded);
        current_cost = cost;
      }
      late = current_cost;
      since_best = keep_if_best(current, current_decoded) ? 0 : since_best + 1;
    }
  };

  // Rounds of late acceptance, each until it stalls: the first from the best starting plan, every later one from
  // the best candidate so far after a kick (a few random moves taken whatever they cost), so that a walk caught in
  // one valley is not the whole search.
  outcome.stopped_by = "converged";
  search::Candidate current = best;
  search::Decoded current_decoded = best_decoded;
  for (std::size_t round = 0; round < tuning.rounds; ++round) {
    if (round > 0) {
      current = best;
      for (std::size_t kick = 0; kick < 2 + round; ++kick) (void)moves.apply(current, best_decoded);
      current_decoded = decoder.decode(current);
      ++outcome.evaluations;
    }
    if (walk(current, current_decoded)) break;
  }
  // The best candidate as a launch would run it (list policy on the contention clock), kept only when it is
  // valid and predicted no later than the best starting plan.
  sched::Schedule searched = decoder.schedule(best, best_decoded);
  if (sched::find_violations(instance, searched).empty()) {
    const double predicted = predicted_makespan(instance, searched);
    if (predicted <= best_start->predicted) return finish(std::move(searched), predicted, "search");
  }
  return finish(std::move(best_start->schedule), best_start->predicted, best_start->algorithm);
}

std::string ModelSearch::refusal(const sched::Instance& instance) const {
  if (instance.task_count() <= kModelSearchMaxTasks) return {};
  return fmt::format("model-search plans batches of up to {} tasks (each starting plan is predicted on the "
                     "contention clock before its --budget-ms can stop it); this instance has {}: use another "
                     "algorithm, e.g. bw-list-lpt or t-pack-ff",
                     kModelSearchMaxTasks, instance.task_count());
}

sched::Schedule ModelSearch::schedule(const sched::Instance& instance) const {
  return model_search(instance, sched::SearchLimits{}).schedule;
}

sched::Schedule ModelSearch::schedule_within(const sched::Instance& instance,
                                             const sched::SearchLimits& limits) const {
  return model_search(instance, limits).schedule;
}

}  // namespace cosched::sim
