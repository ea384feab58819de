#include "knowledge_study/simulated_launch.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sim/resources.hpp"

namespace cosched::bench {

sim::EngineResult launch_simulated(
    const sim::LaunchPlan& plan,
    const std::function<double(std::size_t task, const std::vector<int>& amounts)>& seconds,
    sim::Replanner* replanner) {
  auto policy = sim::make_policy("auto", plan, replanner);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  sim::SimulatedClock clock([&](std::size_t task, const platform::Grant& grant) {
    return sim::SimulatedOutcome{seconds(task, grant.amounts), sim::TaskStatus::ok};
  });
  sim::EngineResult result = sim::run_engine(plan, *policy, clock, *pool);
  if (result.completed != plan.tasks.size()) {
    throw std::logic_error(
        fmt::format("a launch of the study ended {} of its {} tasks", result.completed, plan.tasks.size()));
  }
  return result;
}

}  // namespace cosched::bench
