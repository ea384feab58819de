// The one place that lists the algorithms: the eight of Sec. 5.1 (direct / transform x list SPT / LPT, pack NF /
// FF) and the bandwidth-aware list algorithm of issue 10.
#include <fmt/format.h>

#include <chrono>

#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "sched/bandwidth_list.hpp"
#include "sched/bsp/algorithms.hpp"
#include "sched/bicriteria/algorithms.hpp"
#include "sched/two_phase.hpp"

namespace cosched::sched {

namespace {

std::vector<std::unique_ptr<Algorithm>> make_registry() {
  using detail::Approach;
  using detail::TwoPhaseAlgorithm;
  const auto list = [](ListOrder order) {
    return [order](const RigidTasks& tasks) { return list_schedule(tasks, order); };
  };
  const auto pack = [](PackFit fit) { return [fit](const RigidTasks& tasks) { return pack_schedule(tasks, fit); }; };
  std::vector<std::unique_ptr<Algorithm>> registry;
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("d-list-spt", Approach::direct,
                                                         list(ListOrder::shortest_first)));
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("d-list-lpt", Approach::direct,
                                                         list(ListOrder::longest_first)));
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("t-list-spt", Approach::transform,
                                                         list(ListOrder::shortest_first)));
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("t-list-lpt", Approach::transform,
                                                         list(ListOrder::longest_first)));
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("d-pack-nf", Approach::direct, pack(PackFit::next_fit)));
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("d-pack-ff", Approach::direct, pack(PackFit::first_fit)));
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("t-pack-nf", Approach::transform,
                                                         pack(PackFit::next_fit)));
  registry.push_back(std::make_unique<TwoPhaseAlgorithm>("t-pack-ff", Approach::transform,
                                                         pack(PackFit::first_fit)));
  // Issue 10: the list algorithm with the memory pools' bandwidth as resources (bandwidth_list.hpp).
  registry.push_back(std::make_unique<detail::BandwidthListAlgorithm>());
  // Issue 13, seed 004: the moldable BSP algorithms of Dutot et al. (bsp.hpp), one resource only.
  registry.push_back(std::make_unique<detail::BspAlgorithm>("bsp-a1", &bsp_a1));
  registry.push_back(std::make_unique<detail::BspAlgorithm>("bsp-a2", &bsp_a2));
  registry.push_back(std::make_unique<detail::BspAlgorithm>("bsp-a3", &bsp_a3));
  registry.push_back(std::make_unique<detail::BspAlgorithm>(
      "bsp-a4", [](const Instance& instance) { return bsp_a4(instance); }));
  // Issue 13, seed 001: the bi-criteria algorithm (makespan and sum w_j C_j) and its baselines (bicriteria.hpp).
  registry.push_back(std::make_unique<detail::BicriteriaAlgorithm>());
  for (const auto& [name, decide] : {std::pair{"gang", &detail::gang_list},
                                     std::pair{"sequential-lptf", &detail::sequential_lptf_list},
                                     std::pair{"list-mrt", &detail::list_mrt_list},
                                     std::pair{"list-wlptf", &detail::list_wlptf_list},
                                     std::pair{"list-saf", &detail::list_saf_list}}) {
    registry.push_back(std::make_unique<detail::AllottedListAlgorithm>(name, decide));
  }
  return registry;
}

}  // namespace

const std::vector<std::unique_ptr<Algorithm>>& algorithms() {
  static const std::vector<std::unique_ptr<Algorithm>> registry = make_registry();
  return registry;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& algorithm : algorithms()) names.emplace_back(algorithm->name());
  return names;
}

const Algorithm& find_algorithm(std::string_view name) {
  for (const auto& algorithm : algorithms()) {
    if (algorithm->name() == name) return *algorithm;
  }
  throw UsageError(fmt::format("unknown algorithm \"{}\" (known: {})", name, fmt::join(algorithm_names(), ", ")));
}

void check_search_limits(const SearchLimits& limits) {
  if (!(limits.budget_ms > 0.0) || !(limits.budget_ms <= kMaxSearchBudgetMs)) {
    throw UsageError(fmt::format("the search budget must be a finite number of milliseconds > 0 and at most {}, "
                                 "got {}",
                                 kMaxSearchBudgetMs, limits.budget_ms));
  }
}

PlanResult plan(const Algorithm& algorithm, const Instance& instance, double lower_bound,
                const SearchLimits& limits) {
  if (std::string reason = algorithm.refusal(instance); !reason.empty()) throw UsageError(std::move(reason));
  check_search_limits(limits);
  const auto begin = std::chrono::steady_clock::now();
  PlanResult result{algorithm.schedule_within(instance, limits), 0.0};
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  result.schedule.lower_bound = lower_bound;
  require_valid(instance, result.schedule);
  return result;
}

}  // namespace cosched::sched
