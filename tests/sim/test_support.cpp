#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"

namespace cosched::sim::testing {

sched::Instance random_instance(std::mt19937& rng, int cores, int chunks, std::size_t tasks) {
  std::vector<sched::Resource> resources{{"cores", cores}, {"fast_chunks", chunks}};
  const sched::AllocationSpace space({cores, chunks});
  std::uniform_real_distribution<double> work(0.5, 4.0);
  std::uniform_real_distribution<double> slow(1.0, 5.0);
  std::uniform_int_distribution<int> fits(1, chunks);
  std::vector<sched::Task> list;
  for (std::size_t j = 0; j < tasks; ++j) {
    const double w = work(rng);
    const double ratio = slow(rng);
    const int needed = fits(rng);
    std::vector<double> times(space.size());
    for (int c = 0; c <= cores; ++c) {
      for (int k = 0; k <= chunks; ++k) {
        const double fast = std::min(1.0, static_cast<double>(k) / needed);
        times[static_cast<std::size_t>(c * (chunks + 1) + k)] =
            c == 0 ? std::numeric_limits<double>::infinity() : w / c * (fast + (1.0 - fast) * ratio);
      }
    }
    std::string id = std::to_string(j);
    id.insert(0, 1, 't');
    list.push_back({id, std::make_shared<sched::DenseTimeTable>(space, std::move(times))});
  }
  return sched::Instance(std::move(resources), std::move(list));
}

sched::BandwidthModel two_pool_model() {
  sched::BandwidthModel model;
  model.pools = {{"dram", {1, 2, 4, 8}, {8e9, 12e9, 14e9, 15e9}}, {"mcdram", {1, 4, 16}, {20e9, 60e9, 100e9}}};
  model.provenance = {{"method", "test"}};
  return model;
}

sched::Instance with_random_traffic(const sched::Instance& instance, std::mt19937& rng) {
  const sched::BandwidthModel model = two_pool_model();
  const sched::AllocationSpace& space = instance.space();
  std::uniform_real_distribution<double> per_core(2e9, 12e9);
  std::uniform_int_distribution<int> kind(0, 4);  // 0: no traffic, 1: dram only, 2: mcdram only, else both
  std::vector<sched::Task> tasks;
  std::vector<int> alloc(space.dimensions());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    sched::Task task = instance.tasks()[j];
    const int which = kind(rng);
    if (which != 0) {
      const double rates[2] = {which == 2 ? 0.0 : per_core(rng), which == 1 ? 0.0 : per_core(rng)};
      auto traffic = std::make_shared<sched::TrafficTable>(model.pools.size(), std::vector<double>(space.size()));
      for (std::size_t index = 0; index < space.size(); ++index) {
        space.decode(index, alloc);
        const double seconds = instance.time(j, alloc);
        for (std::size_t q = 0; q < 2; ++q) {
          (*traffic)[q][index] = std::isinf(seconds) ? 0.0 : rates[q] * std::min(alloc[0], 4) * seconds;
        }
      }
      task.traffic = std::move(traffic);
    }
    tasks.push_back(std::move(task));
  }
  return sched::Instance(instance.resources(), std::move(tasks), instance.attributes(), model);
}

std::vector<std::string> algorithms_for(const sched::Instance& instance) {
  std::vector<std::string> names;
  for (const auto& algorithm : sched::algorithms()) {
    if (algorithm->refusal(instance).empty()) names.emplace_back(algorithm->name());
  }
  return names;
}

LaunchPlan plan_with(const sched::Instance& instance, const std::string& algorithm) {
  const auto result = sched::plan(sched::find_algorithm(algorithm), instance, sched::lower_bound(instance));
  return plan_from_schedule(instance, result.schedule);
}

}  // namespace cosched::sim::testing
