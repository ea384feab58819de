#pragma once
// What the four BSP algorithms share: a task's time at any processor count, and the Schedule they return.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "cosched/sched/bsp.hpp"

namespace cosched::sched::detail {

// The last step with procs <= p (p >= the first step's procs): the task's allocation and time on p processors
// once shrunk to its interesting allocation.
[[nodiscard]] inline const BspStep& step_within(const BspSteps& steps, int procs) {
  const auto after = std::upper_bound(steps.begin(), steps.end(), procs,
                                      [](int p, const BspStep& step) { return p < step.procs; });
  return *(after - 1);
}

// One task placed: processors, start and duration (the instance's time at that count, bit for bit).
struct BspPlacement {
  int procs = 0;
  double start = 0.0;
  double duration = 0.0;
};

// The list schedule of the placements (tasks[j] = placements[j]), makespan and the paper's bound filled in.
[[nodiscard]] Schedule bsp_schedule(const Instance& instance, std::string algorithm,
                                    const std::vector<BspPlacement>& placements);

}  // namespace cosched::sched::detail
