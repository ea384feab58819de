#pragma once
// The comparison of every registered algorithm on one instance (`cosched plan --algorithm all`): one row per
// algorithm that applies — its makespan, the ratio to L_min(d), the time it took, with a bandwidth model the
// makespan the contention-aware clock predicts for the schedule launched with its own policy (list or pack: what
// `cosched launch` will predict), then seed 001's columns: sum w_j C_j, its LP lower bound (the same on every row,
// like L_min(d)) and their ratio, MRT's two-shelf makespan bound, the LP with the paper's coefficients and last
// LP_printed, the paper's LP on its printed intervals only — not a valid bound, shown to measure how far the
// paper's ratios could have been against it (docs/bicriteria.md). An algorithm that does not apply gets a note.
#include "cosched/common/reporter.hpp"

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::sim {

// Plans `instance` with every algorithm of sim::algorithms() in turn and reports each row as soon as it is planned
// (a searching algorithm may take its whole budget): the header, then one result per algorithm — "comparison-row"
// with its figures, or "comparison-skipped" with the reason it does not apply.
void report_comparison(Reporter& reporter, const sched::Instance& instance, const sched::ComparisonBounds& bounds,
                       const sched::SearchLimits& limits);

}  // namespace cosched::sim
