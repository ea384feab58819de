// What a batch's launch may teach (cosched/profiler/launch_exploration.hpp).
#include "cosched/profiler/launch_exploration.hpp"

#include <algorithm>

#include "cosched/knowledge/exploration.hpp"

namespace cosched::profiler {

std::vector<sim::ExplorationOption> exploration_options(const config::Workload& workload, const BatchKnowledge& known,
                                                        const sched::Instance& instance,
                                                        const sched::Schedule& schedule) {
  std::vector<sim::ExplorableTask> tasks;
  for (std::size_t j = 0; j < workload.tasks.size(); ++j) {
    const KindState& state = known.of(workload.tasks[j]);
    const auto fit = state.fits.find(work_of(workload.tasks[j]));
    if (fit == state.fits.end()) continue;  // unknown: a guess at one core, nothing to compare a move with
    const knowledge::FittedTask& fitted = *fit->second;
    // Fast chunks only where the kind's fit is over them (a command is not placed where the tier cannot).
    const bool fast_chunks = std::min(instance.dimensions(), fitted.space().dimensions()) > 1;
    const auto kind = static_cast<std::size_t>(&state - known.kinds.data());
    tasks.push_back(knowledge::explorable_task(j, kind, fitted, fast_chunks, [&state](int cores, int chunks) {
      return std::any_of(state.known.runs.begin(), state.known.runs.end(), [&](const KnownRun& run) {
        return run.run.cores == cores && run.run.fast_chunks == chunks;
      });
    }));
  }
  return sim::slack_exploration_options(instance, schedule, tasks);
}

}  // namespace cosched::profiler
