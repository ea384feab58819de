#include "first_run_study/batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "cosched/knowledge/random.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/resource_kinds.hpp"
#include "knowledge_study/simulated_launch.hpp"

namespace cosched::bench {

DrawnBatch draw_batch(std::size_t tasks, int node_cores, double production_work, std::uint64_t seed) {
  sched::Random random(seed);
  DrawnBatch drawn;
  std::vector<std::pair<std::size_t, double>> drawn_tasks;  // (program, work)
  while (drawn_tasks.size() < tasks) {
    const std::size_t k = drawn.programs.size();
    const std::string& family = truth_families()[random.index(truth_families().size())];
    drawn.programs.push_back(draw_program(family, {node_cores, 0}, production_work, sched::instance_seed(seed, k)));
    const std::size_t copies = std::min<std::size_t>(1 + random.index(4), tasks - drawn_tasks.size());
    for (std::size_t copy = 0; copy < copies; ++copy) {
      drawn_tasks.emplace_back(k, std::array{0.5, 1.0, 2.0}[random.index(3)] * production_work);
    }
  }
  for (std::size_t i = drawn_tasks.size(); i > 1; --i) std::swap(drawn_tasks[i - 1], drawn_tasks[random.index(i)]);
  drawn.workload.name = "first-run";
  std::vector<std::size_t> copies_of(drawn.programs.size(), 0);
  for (const auto& [k, work] : drawn_tasks) {
    config::WorkloadTask task;
    task.id = fmt::format("p{}-{}-{}", k, drawn.programs[k].family, copies_of[k]++);
    task.command = {"/bin/true", fmt::format("program-{}", k), "{work}"};
    task.work = config::WorkScale{work, {}};
    drawn.workload.tasks.push_back(std::move(task));
    drawn.program.push_back(k);
    drawn.work.push_back(work);
  }
  return drawn;
}

sched::Instance truth_instance(const DrawnBatch& drawn, int node_cores) {
  const sched::AllocationSpace space({node_cores});
  std::vector<sched::Task> tasks;
  for (std::size_t j = 0; j < drawn.workload.tasks.size(); ++j) {
    std::vector<double> seconds(space.size(), std::numeric_limits<double>::infinity());
    for (int cores = 1; cores <= node_cores; ++cores) {
      seconds[space.index_of(std::vector<int>{cores})] =
          drawn.programs[drawn.program[j]].seconds(cores, 0, drawn.work[j]);
    }
    tasks.push_back(
        {drawn.workload.tasks[j].id, std::make_shared<const sched::DenseTimeTable>(space, std::move(seconds))});
  }
  return sched::Instance({{std::string(sched::kCoresResource), node_cores}}, std::move(tasks));
}

NoisyTruth::NoisyTruth(const DrawnBatch& drawn, double noise, std::uint64_t seed)
    : drawn_(drawn), noise_(noise), seed_(seed) {
  for (std::size_t j = 0; j < drawn.workload.tasks.size(); ++j) index_of_[drawn.workload.tasks[j].id] = j;
}

double NoisyTruth::seconds(std::size_t task, int cores) const {
  knowledge::NormalDraws draw(
      sched::instance_seed(sched::instance_seed(seed_, task), static_cast<std::uint64_t>(cores)));
  return drawn_.programs[drawn_.program[task]].seconds(cores, 0, drawn_.work[task]) * std::exp(noise_ * draw.next());
}

sim::EngineResult NoisyTruth::launch(const sim::LaunchPlan& plan, sim::Replanner* replanner) const {
  std::vector<std::size_t> task_of;
  for (const sim::PlannedTask& planned : plan.tasks) task_of.push_back(task_index(planned.id));
  return launch_simulated(
      plan, [&](std::size_t task, const std::vector<int>& amounts) { return seconds(task_of[task], amounts.front()); },
      replanner);
}

}  // namespace cosched::bench
