#pragma once
// Every scheduling algorithm by name: the scheduling model's own table (sched::algorithms(): the eight of Sun et
// al., bw-list-lpt, seed 001's and seed 004's algorithms) followed by the simulation core's planners — algorithms
// that evaluate plans on the contention clock and therefore cannot live in sched, which is below this core
// (model-search, model_search.hpp). Callers that list, name or compare algorithms (`cosched plan`, the demo, the
// invariant suites) use this table; sched's own table lists what sched can build. Both are explicit tables, built
// on first use: nothing registers itself at static initialisation (a static library would drop such objects).
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/algorithm.hpp"

namespace cosched::sim {

// sched::algorithms() in its order, then the sim core's planners.
[[nodiscard]] const std::vector<const sched::Algorithm*>& algorithms();
[[nodiscard]] std::vector<std::string> algorithm_names();
// Throws UsageError listing the known names.
[[nodiscard]] const sched::Algorithm& find_algorithm(std::string_view name);
// The sim core's own planners (the entries after sched's), in table order.
[[nodiscard]] std::vector<std::string> planner_names();

}  // namespace cosched::sim
