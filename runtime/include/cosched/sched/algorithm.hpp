#pragma once
// The moldable scheduling algorithms, each behind one small interface and registered by name (Sec. 4.5, 5.1):
//   d-list-spt  d-list-lpt  d-pack-nf  d-pack-ff   direct:    RA_d(d) + LS_d / PS_d
//   t-list-spt  t-list-lpt  t-pack-nf  t-pack-ff   transform: TF + RA_1(d) + LS_1 / PS_1
// Adding an algorithm means adding one entry to the registry in src/sched/registry.cpp. Algorithms that evaluate
// plans on the simulation core's clocks live above this layer, in the sim core's extension of this table
// (cosched/sim/algorithms.hpp: every caller that lists or finds algorithms by name uses that one).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sched {

// What a caller may give an algorithm that searches (the simulation core's model-driven planner): a wall-time
// budget for the whole schedule() call and the seed of its random choices. Every other algorithm ignores it.
inline constexpr double kDefaultSearchBudgetMs = 400.0;
inline constexpr double kMaxSearchBudgetMs = 3'600'000.0;  // an hour: beyond it a typo, not a budget
struct SearchLimits {
  double budget_ms = kDefaultSearchBudgetMs;
  std::uint64_t seed = 1;
  // At most this many candidates evaluated (0: the searcher's own cap): a stop that does not depend on the
  // machine's speed, so a study that gives a generous budget gets the same plan for a seed on any machine.
  std::size_t max_evaluations = 0;
};
// Throws UsageError unless the budget is finite, > 0 and at most kMaxSearchBudgetMs.
void check_search_limits(const SearchLimits& limits);

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Whether it searches, and so reads SearchLimits (its budget and seed): a caller refuses them for one that does not.
  [[nodiscard]] virtual bool searches() const { return false; }
  // Why the algorithm cannot schedule `instance` (empty: it can), e.g. an algorithm defined for one resource given
  // two. plan() throws it as a UsageError; comparisons (`plan --algorithm all`, the demo) skip the algorithm.
  [[nodiscard]] virtual std::string refusal(const Instance& /*instance*/) const { return {}; }
  // A schedule of every task; lower_bound is left 0 (see plan()), allocation_bound is set. Requires an empty
  // refusal().
  [[nodiscard]] virtual Schedule schedule(const Instance& instance) const = 0;
  // The same within `limits`: an algorithm that searches stops within limits.budget_ms and draws its random
  // choices from limits.seed; the others return schedule(instance).
  [[nodiscard]] virtual Schedule schedule_within(const Instance& instance, const SearchLimits& limits) const {
    (void)limits;
    return schedule(instance);
  }
};

// Every registered algorithm, in the order of the registry.
[[nodiscard]] const std::vector<std::unique_ptr<Algorithm>>& algorithms();
[[nodiscard]] std::vector<std::string> algorithm_names();
// Throws UsageError listing the known names.
[[nodiscard]] const Algorithm& find_algorithm(std::string_view name);

struct PlanResult {
  Schedule schedule;
  double seconds = 0.0;  // wall time of algorithm.schedule() alone
};

// Throws UsageError with algorithm.refusal(instance) when it is not empty, or for limits check_search_limits
// refuses. Runs `algorithm` (schedule_within `limits`), times it, records `lower_bound` (L_min(d), computed once per
// instance by the caller) in the schedule and validates it (require_valid: a violation is an internal error).
[[nodiscard]] PlanResult plan(const Algorithm& algorithm, const Instance& instance, double lower_bound,
                              const SearchLimits& limits = {});

}  // namespace cosched::sched
