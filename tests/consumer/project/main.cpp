// A program outside cosched built against the installed package: this node's topology (cosched::platform, i.e.
// hwloc), one schedule of a small instance (cosched::sched) and its prediction by the simulation core
// (cosched::sim), then a command measured as the launcher runs it — a pinned child process — by the profiler's
// "command" measurer (cosched::profiler over cosched::exec). Prints what it found; exit 1 when the schedule is
// invalid or beats the lower bound, the prediction disagrees with the schedule, or the measurement fails.
#include <cosched/common/version.hpp>
#include <cosched/config/platform.hpp>
#include <cosched/platform/topology.hpp>
#include <cosched/profiler/measurer.hpp>
#include <cosched/profiler/profile.hpp>
#include <cosched/sched/algorithm.hpp>
#include <cosched/sched/allocation.hpp>
#include <cosched/sched/model.hpp>
#include <cosched/sched/schedule.hpp>
#include <cosched/sim/plan.hpp>
#include <cosched/sim/prediction.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace {

// Two resources, 2 cores and 1 fast-memory chunk; times over (cores, chunks) in row-major order:
// (0,0) (0,1) (1,0) (1,1) (2,0) (2,1). No core, no run.
cosched::sched::Instance small_instance() {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  const std::vector<std::vector<double>> tables = {
      {kNever, kNever, 4.0, 2.0, 2.0, 1.0},
      {kNever, kNever, 3.0, 3.0, 2.0, 2.0},
      {kNever, kNever, 6.0, 3.0, 3.0, 2.0},
  };
  std::vector<cosched::sched::Resource> resources = {{"cores", 2}, {"fast_chunks", 1}};
  const cosched::sched::AllocationSpace space(cosched::sched::capacities_of(resources));
  std::vector<cosched::sched::Task> tasks;
  for (std::size_t j = 0; j < tables.size(); ++j) {
    tasks.push_back({"task" + std::to_string(j), std::make_shared<cosched::sched::DenseTimeTable>(space, tables[j])});
  }
  return {std::move(resources), std::move(tasks)};
}

}  // namespace

int main() {
  std::cout << "cosched " << cosched::kVersion << "\n";

  const auto topology = cosched::platform::Topology::this_system();
  std::cout << "platform: " << topology.cores().size() << " cores, " << topology.numa_nodes().size()
            << " NUMA nodes\n";

  const auto instance = small_instance();
  const auto& algorithm = cosched::sched::find_algorithm("t-pack-ff");
  const double bound = cosched::sched::lower_bound(instance);
  const auto result = cosched::sched::plan(algorithm, instance, bound);
  const auto violations = cosched::sched::find_violations(instance, result.schedule);
  std::cout << algorithm.name() << ": makespan " << result.schedule.makespan << ", lower bound " << bound << ", "
            << instance.task_count() << " tasks, " << violations.size() << " violations\n";
  if (!violations.empty() || result.schedule.makespan < bound) return 1;

  // The simulation core replays the plan on its simulated clock: the paper model's prediction is the schedule.
  const double predicted = cosched::sim::predict(cosched::sim::plan_from_schedule(instance, result.schedule), "auto")
                               .observed_makespan;
  std::cout << "predicted makespan " << predicted << "\n";
  if (std::fabs(predicted - result.schedule.makespan) > 1e-9 * result.schedule.makespan) return 1;

  // A library user measures a command as `cosched launch` would run it, without the cosched executable.
  const auto names = cosched::profiler::measurer_names();
  if (std::find(names.begin(), names.end(), "command") == names.end()) return 1;
  cosched::profiler::MeasurerOptions options;
  options.platform = cosched::config::this_machine_platform("none");
  options.reps = 1;
  options.warmup = 0;
  options.commands = {{"true", {"/bin/true"}, {}, std::nullopt, 0}};
  const auto measurer = cosched::profiler::make_measurer("command", options);
  const auto measurement = measurer->measure({cosched::profiler::command_kernel_name("true"), 0, 1, 0});
  std::cout << "measured /bin/true on 1 core: " << (measurement.times_s.empty() ? -1.0 : measurement.times_s[0])
            << " s" << (measurement.failure.empty() ? "" : " (" + measurement.failure_message + ")") << "\n";
  return measurement.failure.empty() && measurement.times_s.size() == 1 && measurement.times_s[0] > 0 ? 0 : 1;
}
