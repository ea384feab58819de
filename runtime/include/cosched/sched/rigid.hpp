#pragma once
// Phase 2: scheduling rigid tasks (fixed allocations) under d resource constraints, Sec. 4.4 — list scheduling
// LS_d (Algorithm 3) with SPT or LPT order and pack scheduling PS_d (Algorithm 4) with Next Fit or First Fit
// (Sec. 5.1).
#include <cstddef>
#include <vector>

namespace cosched::sched {

struct RigidTasks {
  std::vector<int> capacities;   // P(i), d values
  std::vector<int> demand;       // n x d, row-major: demand[j*d + i] = p_j^(i) <= P(i)
  std::vector<double> duration;  // t_j(p_j), finite
  [[nodiscard]] std::size_t size() const noexcept { return duration.size(); }
};

struct RigidSchedule {
  std::vector<double> start;
  std::vector<int> pack;  // pack number (0-based) per task; empty for list schedules
};

enum class ListOrder { shortest_first, longest_first };  // SPT, LPT
enum class PackFit { next_fit, first_fit };

// LS_d: at time 0 and at every completion, scan the remaining list in order and start each task that fits in
// every resource. O(n^2 d).
[[nodiscard]] RigidSchedule list_schedule(const RigidTasks& tasks, ListOrder order);
// The same list scheduler with the list given: `order` is a permutation of the task indices (seed 001's
// algorithms order by weight, area or batch).
[[nodiscard]] RigidSchedule list_schedule(const RigidTasks& tasks, std::vector<std::size_t> order);

// PS_d: tasks by non-increasing duration; each goes into the last pack (NF) or the first pack (FF) it fits in,
// else opens a new pack; pack m starts when pack m-1's longest task ends. O(n (log n + d)) for NF,
// O(n (log n + M d)) for FF with M packs.
[[nodiscard]] RigidSchedule pack_schedule(const RigidTasks& tasks, PackFit fit);

}  // namespace cosched::sched
