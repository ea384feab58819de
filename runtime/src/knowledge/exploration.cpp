// What a fitted kind may learn in a plan's slack (cosched/knowledge/exploration.hpp).
#include "cosched/knowledge/exploration.hpp"

#include <utility>
#include <vector>

namespace cosched::knowledge {

namespace {

int chunks_of(const std::vector<int>& alloc) { return alloc.size() > 1 ? alloc[1] : 0; }

}  // namespace

sim::ExplorableTask explorable_task(std::size_t task, std::size_t kind, const FittedTask& fit, bool fast_chunks,
                                    std::function<bool(int cores, int chunks)> ran_at) {
  sim::ExplorableTask explorable;
  explorable.task = task;
  explorable.kind = kind;
  explorable.resources.clear();
  if (fit.cores_fit().core_counts() <= 1) explorable.resources.push_back(0);
  if (fast_chunks) explorable.resources.push_back(1);
  explorable.ran_at = [ran_at = std::move(ran_at)](const std::vector<int>& alloc) {
    return ran_at(alloc[0], chunks_of(alloc));
  };
  explorable.log_sd_at = [&fit](const std::vector<int>& alloc) {
    return fit.predictive_log_sd(alloc[0], chunks_of(alloc));
  };
  return explorable;
}

}  // namespace cosched::knowledge
