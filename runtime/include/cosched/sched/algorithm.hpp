#pragma once
// The moldable scheduling algorithms, each behind one small interface and registered by name (Sec. 4.5, 5.1):
//   d-list-spt  d-list-lpt  d-pack-nf  d-pack-ff   direct:    RA_d(d) + LS_d / PS_d
//   t-list-spt  t-list-lpt  t-pack-nf  t-pack-ff   transform: TF + RA_1(d) + LS_1 / PS_1
// Adding an algorithm means adding one entry to the registry in src/sched/registry.cpp.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sched {

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Why the algorithm cannot schedule `instance` (empty: it can), e.g. an algorithm defined for one resource given
  // two. plan() throws it as a UsageError; comparisons (`plan --algorithm all`, the demo) skip the algorithm.
  [[nodiscard]] virtual std::string refusal(const Instance& /*instance*/) const { return {}; }
  // A schedule of every task; lower_bound is left 0 (see plan()), allocation_bound is set. Requires an empty
  // refusal().
  [[nodiscard]] virtual Schedule schedule(const Instance& instance) const = 0;
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

// Throws UsageError with algorithm.refusal(instance) when it is not empty. Runs `algorithm`, times it, records
// `lower_bound` (L_min(d), computed once per instance by the caller) in the schedule and validates it
// (require_valid: a violation is an internal error).
[[nodiscard]] PlanResult plan(const Algorithm& algorithm, const Instance& instance, double lower_bound);

}  // namespace cosched::sched
