#pragma once
// DASEDF (seed 000, Sec. 3.2) in pieces: the policy "dasedf" re-plans with them at every event; tests check the
// paper's guarantees on them. Every job runs at its reference allocation; its processing time p_i is its reference
// time and its deadline at a target stretch S is d_i = r_i + S * p_i.
//
// The check (the necessary condition of Lemma 3.2, the digest's "inclusive prefix shifted by now and by the
// residual work of running jobs"): with the pending jobs sorted by deadline (ties: release order), every prefix
// must fit before its last deadline, on resource 0, in the processor time left free by the running jobs:
//     sum_{l <= k} w_l <= cap(d_k),   cap(D) = sum over processors q of max(0, D - a_q),
// w_l = (processors of l) * p_l and a_q = when processor q is free (now when idle, the expected end of the job
// holding it otherwise). When every a_q <= D, cap(D) = m * (D - now) - sum_q (a_q - now): the digest's form. A
// processor busy past D gives 0, not a negative amount: without that the check would refuse feasible S (it
// would no longer be necessary), and Lemma 3.2's bound still follows (EDF starts job i at some e with
// cap(e) <= sum_{l < i} w_l, so d_i - e >= p_i / m). Also required: S >= max_i (now + p_i - r_i) / p_i (LB).
//
// For sequential jobs: if a schedule with maximum stretch S exists, the check passes at S (it is necessary); if
// the check passes at S, EDF completes each job by d_i + (1 - 1/m) p_i (Lemma 3.2), so its maximum stretch is at
// most S + 1 - 1/m (Theorem 3.3). Rigid and vector jobs: the check counts the work on resource 0 only, and EDF is
// the list schedule in deadline order (each job at the earliest time at or after the previous job's start at which
// it fits in every resource); the check stays necessary but the bound no longer holds.
#include <vector>

#include "cosched/online/policy.hpp"

namespace cosched::online {

// S is searched on the grid (1 + kDasedfTolerance)^k, k = 0, 1, ...: dasedf_stretch returns the smallest grid
// point that passes the check, so no schedule has a maximum stretch below it / (1 + kDasedfTolerance). The grid
// makes the result independent of where the search starts (the policy starts from the previous event's S).
inline constexpr double kDasedfTolerance = 1e-4;

// Whether the check passes at `stretch` for the state's pending jobs (true when there are none).
[[nodiscard]] bool dasedf_check(const OnlineState& state, double stretch);
// The smallest S of the grid that passes the check (1 when nothing is pending).
[[nodiscard]] double dasedf_stretch(const OnlineState& state);
// EDF with deadlines r_i + stretch * p_i: every pending job in the order of its deadline (ties: release order)
// at the earliest time at or after the previous job's start at which it fits. The first f jobs start on the f
// idle processors when jobs are sequential.
[[nodiscard]] std::vector<Placement> edf_plan(const OnlineState& state, double stretch);

}  // namespace cosched::online
