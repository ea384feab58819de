#pragma once
// The simulation study of Sec. 5.4 (sched/simulate.hpp) over every registered algorithm: sched's table and the
// simulation core's planners (algorithms.hpp), as `cosched simulate` runs it.
#include "cosched/sched/simulate.hpp"

namespace cosched::sim {

// `config` with its names looked up in sim::find_algorithm; "all" alone becomes every registered algorithm that
// schedules the generated instances (bsp-a1..a4 refuse d > 1: the refusal depends on d and on tasks running on one
// unit, the same for every generated instance — the first one tells). Throws check_simulation_config's errors.
[[nodiscard]] sched::SimulationConfig with_registered_algorithms(sched::SimulationConfig config);

}  // namespace cosched::sim
