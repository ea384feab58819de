#pragma once
// BSP instances for the tests (seed 004): explicit or random (req, t(req)) on one resource.
#include <memory>
#include <utility>
#include <vector>

#include "cosched/sched/bsp.hpp"
#include "cosched/sched/generator.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched::testing {

// One resource "procs" of `capacity`; tasks[j] = (req, t(req)).
inline Instance bsp_instance(int capacity, const std::vector<std::pair<int, double>>& tasks) {
  std::vector<Task> list;
  for (std::size_t j = 0; j < tasks.size(); ++j) {
    list.push_back({numbered("t", j), std::make_shared<BspProfile>(tasks[j].first, tasks[j].second)});
  }
  return Instance({{"procs", capacity}}, std::move(list));
}

// req uniform in 1..capacity, t(req) an integer in 1..max_time (ties and equal works on purpose) or, with
// integral = false, real in (0, max_time].
inline Instance random_bsp_instance(std::uint64_t seed, int capacity, std::size_t tasks, int max_time,
                                    bool integral = true) {
  Random random(seed);
  std::vector<std::pair<int, double>> list;
  for (std::size_t j = 0; j < tasks; ++j) {
    const int req = 1 + static_cast<int>(random.index(static_cast<std::size_t>(capacity)));
    const double time = integral ? static_cast<double>(1 + random.index(static_cast<std::size_t>(max_time)))
                                 : random.uniform_above(0.0, static_cast<double>(max_time));
    list.emplace_back(req, time);
  }
  return bsp_instance(capacity, list);
}

}  // namespace cosched::sched::testing
