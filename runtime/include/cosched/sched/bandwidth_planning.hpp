#pragma once
// Planning with memory bandwidth as a resource (issue 10; the ninth algorithm, "bw-list-lpt", is the d-resource
// list algorithm on the instance these functions build; docs/scheduling.md "Planning with bandwidth").
//
// Pool q's bandwidth is cut into U units of C_q / U bytes/s, C_q its planning capacity (the most it delivers, or
// the largest demand of any task alone, whichever is larger: the rule of sched::pool_capacities). With b_q units
// of every pool a task takes
//     t'(p, b) = max(t(p), max_q traffic_q(p) / (b_q C_q / U))     (+inf when it moves bytes from q and b_q = 0),
// closed to be non-increasing (footnote 1 of the core paper).
#include "cosched/sched/model.hpp"

namespace cosched::sched {

// The instance with one resource "bandwidth_<pool>" of `units` units appended per pool, times t' as above (ids
// and attributes kept; no bandwidth model: the bandwidth is now resources). Throws ResourceError when the
// allocation space grows beyond kMaxAllocationVectors.
[[nodiscard]] Instance with_bandwidth_resources(const Instance& instance, int units);

// The units per pool bw-list-lpt uses: 20 (the paper's chunk count), fewer when the allocation space would grow
// beyond 2^22 vectors (two pools on a 64-core node: 11).
[[nodiscard]] int bandwidth_units(const Instance& instance);

}  // namespace cosched::sched
