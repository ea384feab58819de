#pragma once
// The paper's moldable-task generator of seed 001 for the bi-criteria tests (bicriteria_test, two_shelf_bound_test).
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

#include "cosched/sched/generator.hpp"
#include "cosched/sched/model.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched::testing {

// Sec. 4.1: p(1) ~ U(1, 10), p(k) = p(k-1) (X + k) / (1 + k) with X ~ N(x_mean, 0.2) redrawn outside [0, 1] at every
// step, weights ~ U(1, 10). Under this formula x_mean = 0.1 is the quasi-linear ("highly parallel") profile and 0.9
// the weakly parallel one (docs/bicriteria.md). The tasks are monotone: time non-increasing, work non-decreasing.
inline Instance recurrence_instance(std::uint64_t seed, int m, std::size_t n, double x_mean) {
  Random random(seed);
  const auto normal = [&] {  // Box-Muller on the project's explicit uniform draws: the same on every platform
    const double u = random.uniform_above(0.0, 1.0);
    return x_mean + 0.2 * std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * random.uniform01());
  };
  const AllocationSpace space({m});
  std::vector<Task> tasks;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> times(static_cast<std::size_t>(m) + 1, kInf);
    times[1] = random.uniform_below(1, 10);
    for (std::size_t k = 2; k < times.size(); ++k) {
      double x = normal();
      while (x < 0 || x > 1) x = normal();
      times[k] = times[k - 1] * (x + static_cast<double>(k)) / (1.0 + static_cast<double>(k));
    }
    tasks.push_back({numbered("t", j), std::make_shared<DenseTimeTable>(space, std::move(times)),
                     nlohmann::json::object(), nullptr, random.uniform_below(1, 10)});
  }
  return Instance({Resource{"cores", m}}, std::move(tasks));
}

}  // namespace cosched::sched::testing
