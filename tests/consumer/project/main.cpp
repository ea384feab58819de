// A program outside cosched built against the installed package: this node's topology (cosched::platform, i.e.
// hwloc), then one schedule of a small instance (cosched::sched). Prints what it found; exit 1 when the schedule
// is invalid or beats the lower bound.
#include <cosched/common/version.hpp>
#include <cosched/platform/topology.hpp>
#include <cosched/sched/algorithm.hpp>
#include <cosched/sched/allocation.hpp>
#include <cosched/sched/model.hpp>
#include <cosched/sched/schedule.hpp>

#include <iostream>
#include <limits>
#include <memory>
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
  return violations.empty() && result.schedule.makespan >= bound ? 0 : 1;
}
