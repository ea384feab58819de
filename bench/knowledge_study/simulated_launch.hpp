#pragma once
// A plan launched on a simulated clock whose durations a study knows (its ground truth, with or without noise): the
// engine, the plan's own launch rule, and a replanner when the study learns as the launch goes. Shared by the
// recurring study (launch_learning.hpp) and the first-run study (first_run_study/batch.hpp).
#include <cstddef>
#include <functional>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/replanning.hpp"

namespace cosched::bench {

// `plan` run with its launch rule; task j takes `seconds(j, amounts)` at the amounts it is granted. `replanner`
// (null: none) is shown each task that ends. Throws std::logic_error unless every task ends well.
[[nodiscard]] sim::EngineResult launch_simulated(
    const sim::LaunchPlan& plan,
    const std::function<double(std::size_t task, const std::vector<int>& amounts)>& seconds,
    sim::Replanner* replanner);

}  // namespace cosched::bench
