// DBOS, Deadline Based Online Scheduling (seed 000, Sec. 6, Algorithm 2 lines 1-7).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/online/moldable.hpp"
#include "online/policies/moldable_policies.hpp"

namespace cosched::online {

DbosPlan dbos_plan(const OnlineState& state, CandidateCache& candidates, double rho) {
  DbosPlan result;
  if (state.pending.empty()) return result;
  MoldableEdf edf(state, candidates);

  // Line 2: DASEDF's binary search with MoldableEDF as the test. The lower bound is tried first: on a lightly
  // loaded machine every job meets it and one call decides.
  double lo = edf.stretch_lower_bound();
  double hi = lo;
  MoldableEdfPlan best = edf.run(hi, WhenLate::stop);
  // MoldableEDF is feasible for a large enough S (the cheapest candidate of every job fits somewhere), and at
  // S = +inf at the latest, so the doubling ends. (The bound is 0 only for zero-time jobs released now.)
  while (!best.feasible && hi < std::numeric_limits<double>::infinity()) {
    lo = hi;
    hi = hi > 0.0 ? 2.0 * hi : 1.0;
    best = edf.run(hi, WhenLate::stop);
  }
  if (!best.feasible) {  // unreachable in theory: place everything anyway rather than return nothing
    result.feasible = false;
    result.placements = edf.placements(edf.run(hi, WhenLate::place_anyway));
    result.moldable_edf_calls = edf.calls();
    return result;
  }
  while (hi - lo > kDbosTolerance * hi) {
    const double mid = lo + 0.5 * (hi - lo);
    MoldableEdfPlan trial = edf.run(mid, WhenLate::stop);
    if (trial.feasible) {
      hi = mid;
      best = std::move(trial);
    } else {
      lo = mid;
    }
  }
  result.searched_stretch = hi;
  // Line 3: the schedule's actual max stretch, which may be below the S it was built for.
  result.found_stretch = best.max_stretch;
  // Lines 4-6, run for rho = 1 too, as written: MoldableEDF(S) at the actual S may choose other allocations.
  MoldableEdfPlan relaxed = edf.run(rho * result.found_stretch, WhenLate::stop);
  if (relaxed.feasible) {
    best = std::move(relaxed);
    result.relaxed = true;
  }
  result.placements = edf.placements(best);
  result.moldable_edf_calls = edf.calls();
  return result;
}

std::unique_ptr<OnlinePolicy> make_dbos(const OnlineOptions& options, const OnlineWorkload& workload) {
  if (!(options.rho >= 1.0 && options.rho <= kMaxOnlineFactor)) {
    throw UsageError(fmt::format("dbos: the online factor rho = {} must be a number in [1, {}]", options.rho,
                                 kMaxOnlineFactor));
  }
  return std::make_unique<CandidatePolicy>(
      "dbos", workload, [rho = options.rho](const OnlineState& state, CandidateCache& candidates) {
        return dbos_plan(state, candidates, rho).placements;
      });
}

}  // namespace cosched::online
