#include "sim/policies/pack_policy.hpp"

#include <climits>

#include "sim/policies/fits.hpp"

namespace cosched::sim::policies {

std::vector<StartChoice> PackPolicy::select(const EngineView& view) {
  int next_pack = INT_MAX;
  for (std::size_t task = 0; task < view.runs.size(); ++task) {
    // The previous pack has not fully finished while anything runs.
    if (view.runs[task].state == TaskState::running) return {};
    if (view.runs[task].state == TaskState::pending) next_pack = std::min(next_pack, view.plan.tasks[task].pack);
  }
  std::vector<StartChoice> picks;
  std::vector<int> free = view.available;
  for (std::size_t task = 0; task < view.runs.size(); ++task) {
    const PlannedTask& planned = view.plan.tasks[task];
    if (view.runs[task].state != TaskState::pending || planned.pack != next_pack) continue;
    // A valid pack always fits; if it does not, the engine refuses the task and reports it.
    picks.push_back({task, planned.demand});
    if (fits(planned.demand, free)) take(planned.demand, free);
  }
  return picks;
}

}  // namespace cosched::sim::policies
