// What a batch's launch may teach (cosched/profiler/launch_exploration.hpp).
#include "cosched/profiler/launch_exploration.hpp"

#include <algorithm>

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
    const auto chunks_of = [](const std::vector<int>& alloc) { return alloc.size() > 1 ? alloc[1] : 0; };
    sim::ExplorableTask task;
    task.task = j;
    task.kind = static_cast<std::size_t>(&state - known.kinds.data());
    task.resources.clear();
    // More cores only while nothing measured says how the kind speeds up (its fit over cores stands on one core
    // count: a naive first run's, or its first short runs'): more cores can make a program slower, past a count no
    // fit through the counts measured foresees, and such a move then ends the batch late — on the simulated KNL,
    // moves to more cores lengthened their own batches in 23 of the 26 they changed (docs/knowledge.md,
    // "Exploration"). More fast memory never makes a task slower: every kind tries it, where its fit is over fast
    // chunks (a command is not placed where the tier cannot).
    if (fitted.cores_fit().core_counts() <= 1) task.resources.push_back(0);
    if (std::min(instance.dimensions(), fitted.space().dimensions()) > 1) task.resources.push_back(1);
    task.ran_at = [&state, chunks_of](const std::vector<int>& alloc) {
      return std::any_of(state.known.runs.begin(), state.known.runs.end(), [&](const KnownRun& run) {
        return run.run.cores == alloc[0] && run.run.fast_chunks == chunks_of(alloc);
      });
    };
    task.log_sd_at = [&fitted, chunks_of](const std::vector<int>& alloc) {
      return fitted.predictive_log_sd(alloc[0], chunks_of(alloc));
    };
    tasks.push_back(std::move(task));
  }
  return sim::slack_exploration_options(instance, schedule, tasks);
}

}  // namespace cosched::profiler
