#pragma once
// The comparison of every registered algorithm on one instance (`cosched plan --algorithm all`): one row per
// algorithm that applies — its makespan, the ratio to L_min(d), the time it took, with a bandwidth model the
// makespan the contention-aware clock predicts for the schedule launched with its own policy (list or pack: what
// `cosched launch` will predict), then seed 001's columns: sum w_j C_j, its LP lower bound (the same on every row,
// like L_min(d)) and their ratio, MRT's two-shelf makespan bound, the LP with the paper's coefficients and last
// LP_printed, the paper's LP on its printed intervals only — not a valid bound, shown to measure how far the
// paper's ratios could have been against it (docs/bicriteria.md). An algorithm that does not apply gets a note.
#include <cstddef>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::sim {

// From this many tasks an algorithm may take seconds to minutes (`plan --algorithm all` on 100,000 tasks ran past
// 150 s with no output; issue 41): each one is announced before it plans.
inline constexpr std::size_t kAnnouncedComparisonTasks = 10'000;

struct ComparisonOptions {
  sched::SearchLimits limits;              // the searching algorithms' budget and seed (model-search)
  std::vector<std::string> skip;           // algorithms left out (`plan --skip`), each reported as skipped
  std::size_t announce_from_tasks = kAnnouncedComparisonTasks;
};

// Plans `instance` with every algorithm of sim::algorithms() in turn and reports each row as soon as it is planned
// (a searching algorithm may take its whole budget): the header, then one result per algorithm — "comparison-row"
// with its figures, or "comparison-skipped" with the reason it does not apply or that it was left out. On an
// instance of options.announce_from_tasks tasks or more, a note names each algorithm before it plans, and how to
// leave it out.
void report_comparison(Reporter& reporter, const sched::Instance& instance, const sched::ComparisonBounds& bounds,
                       const ComparisonOptions& options);

}  // namespace cosched::sim
