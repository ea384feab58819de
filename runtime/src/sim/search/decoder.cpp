#include "sim/search/decoder.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "cosched/sim/clocks/contention_clock.hpp"
#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/policies.hpp"
#include "sim/policies/fits.hpp"

namespace cosched::sim::search {

namespace {

// The decoder's rule: every waiting task in list order that fits and whose partners are not running. Planned
// starts play no part (they are what the decode finds).
class PriorityPolicy final : public Policy {
 public:
  PriorityPolicy(const std::vector<std::size_t>& order, std::vector<std::vector<std::size_t>> partners)
      : order_(order), partners_(std::move(partners)), chosen_(order.size(), false) {}

  [[nodiscard]] std::string_view name() const override { return "model-search priority list"; }

  [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override {
    std::vector<StartChoice> picks;
    std::vector<int> free = view.available;
    for (std::size_t task : order_) {
      if (view.runs[task].state != TaskState::pending) continue;
      const std::vector<int>& demand = view.plan.tasks[task].demand;
      if (!policies::fits(demand, free)) continue;
      const auto busy = [&](std::size_t partner) {
        return view.runs[partner].state == TaskState::running || chosen_[partner];
      };
      if (std::any_of(partners_[task].begin(), partners_[task].end(), busy)) continue;
      policies::take(demand, free);
      chosen_[task] = true;
      picks.push_back({task, demand});
    }
    for (const StartChoice& pick : picks) chosen_[pick.task] = false;
    return picks;
  }

  [[nodiscard]] std::optional<double> next_wakeup(const EngineView& /*view*/) const override { return std::nullopt; }

 private:
  const std::vector<std::size_t>& order_;
  std::vector<std::vector<std::size_t>> partners_;
  std::vector<bool> chosen_;  // picked in this select() call, not running yet
};

constexpr double kTieTolerance = 1e-12;

bool clearly_less(double a, double b) { return a < b - kTieTolerance * std::max(std::abs(a), std::abs(b)); }

}  // namespace

bool Decoded::better_than(const Decoded& other) const {
  if (clearly_less(makespan, other.makespan)) return true;
  if (clearly_less(other.makespan, makespan)) return false;
  return clearly_less(completion_sum, other.completion_sum);
}

Candidate candidate_of(const sched::Instance& instance, const sched::Schedule& schedule) {
  Candidate candidate;
  const std::size_t n = schedule.tasks.size();
  candidate.order.resize(n);
  std::iota(candidate.order.begin(), candidate.order.end(), std::size_t{0});
  std::stable_sort(candidate.order.begin(), candidate.order.end(), [&](std::size_t a, std::size_t b) {
    return schedule.tasks[a].start < schedule.tasks[b].start;
  });
  for (const auto& task : schedule.tasks) candidate.allocation.push_back(instance.space().index_of(task.alloc));
  return candidate;
}

Decoder::Decoder(const sched::Instance& instance) : instance_(instance) {
  for (const auto& resource : instance.resources()) {
    plan_.resource_names.push_back(resource.name);
    plan_.capacities.push_back(resource.capacity);
  }
  plan_.algorithm = "model-search";
  plan_.bandwidth = instance.bandwidth();
  for (const auto& task : instance.tasks()) {
    PlannedTask planned;
    planned.id = task.id;
    plan_.tasks.push_back(std::move(planned));
  }
  pool_ = make_abstract_pool(plan_.resource_names, plan_.capacities);
}

const Decoder::Entry& Decoder::entry(std::size_t task, std::size_t allocation) const {
  const std::size_t key = task * instance_.space().size() + allocation;
  auto found = entries_.find(key);
  if (found == entries_.end()) {
    const std::vector<int> alloc = instance_.space().decode(allocation);
    Entry fresh{instance_.time(task, alloc),
                instance_.bandwidth().empty() ? sched::FlowDemand{} : instance_.demand(task, alloc)};
    found = entries_.emplace(key, std::move(fresh)).first;
  }
  return found->second;
}

double Decoder::time(std::size_t task, std::size_t allocation) const { return entry(task, allocation).time; }

Decoded Decoder::decode(const Candidate& candidate) {
  const std::size_t n = plan_.tasks.size();
  for (std::size_t j = 0; j < n; ++j) {
    PlannedTask& task = plan_.tasks[j];
    const Entry& known = entry(j, candidate.allocation[j]);
    task.demand = instance_.space().decode(candidate.allocation[j]);
    task.predicted_duration = known.time;
    task.flow = known.flow;
  }
  std::vector<std::vector<std::size_t>> partners(n);
  for (const auto& [a, b] : candidate.apart) {
    partners[a].push_back(b);
    partners[b].push_back(a);
  }
  PriorityPolicy priority(candidate.order, std::move(partners));
  SimulatedClock paper(plan_);
  const EngineResult planned = run_engine(plan_, priority, paper, *pool_);
  Decoded decoded;
  decoded.planned_start.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    decoded.planned_start[j] = planned.runs[j].launch.start;
    plan_.tasks[j].planned_start = decoded.planned_start[j];
  }
  const auto list = make_policy("list", plan_);
  ContentionClock contention(plan_);
  const EngineResult predicted = run_engine(plan_, *list, contention, *pool_);
  decoded.makespan = predicted.observed_makespan;
  decoded.start.resize(n);
  decoded.end.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    decoded.start[j] = predicted.runs[j].launch.start;
    decoded.end[j] = predicted.runs[j].completion.end;
    decoded.completion_sum += decoded.end[j];
  }
  return decoded;
}

sched::Schedule Decoder::schedule(const Candidate& candidate, const Decoded& decoded) const {
  sched::Schedule schedule;
  schedule.algorithm = plan_.algorithm;
  for (std::size_t j = 0; j < candidate.allocation.size(); ++j) {
    schedule.tasks.push_back({instance_.space().decode(candidate.allocation[j]), decoded.planned_start[j],
                              time(j, candidate.allocation[j]), -1});
  }
  schedule.makespan = sched::completion_time(schedule.tasks);
  return schedule;
}

}  // namespace cosched::sim::search
