// The simulation core's extension of sched's algorithm table (cosched/sim/algorithms.hpp): its own planners,
// after sched's entries.
#include "cosched/sim/algorithms.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <stdexcept>

#include "cosched/common/error.hpp"
#include "cosched/sim/model_search.hpp"

namespace cosched::sim {

namespace {

// Adding a planner that evaluates plans on the sim core's clocks means adding one line here.
std::vector<std::unique_ptr<sched::Algorithm>> make_planners() {
  std::vector<std::unique_ptr<sched::Algorithm>> planners;
  planners.push_back(std::make_unique<ModelSearch>());  // issue 23: search under the contention model
  return planners;
}

const std::vector<std::unique_ptr<sched::Algorithm>>& planners() {
  static const std::vector<std::unique_ptr<sched::Algorithm>> table = make_planners();
  return table;
}

std::vector<const sched::Algorithm*> make_table() {
  std::vector<const sched::Algorithm*> table;
  for (const auto& algorithm : sched::algorithms()) table.push_back(algorithm.get());
  for (const auto& planner : planners()) {
    for (const sched::Algorithm* known : table) {
      if (known->name() == planner->name()) {
        throw std::logic_error(fmt::format("two algorithms are named \"{}\"", planner->name()));
      }
    }
    table.push_back(planner.get());
  }
  return table;
}

}  // namespace

const std::vector<const sched::Algorithm*>& algorithms() {
  static const std::vector<const sched::Algorithm*> table = make_table();
  return table;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const sched::Algorithm* algorithm : algorithms()) names.emplace_back(algorithm->name());
  return names;
}

const sched::Algorithm& find_algorithm(std::string_view name) {
  for (const sched::Algorithm* algorithm : algorithms()) {
    if (algorithm->name() == name) return *algorithm;
  }
  throw UsageError(fmt::format("unknown algorithm \"{}\" (known: {})", name, fmt::join(algorithm_names(), ", ")));
}

std::vector<std::string> planner_names() {
  std::vector<std::string> names;
  for (const auto& planner : planners()) names.emplace_back(planner->name());
  return names;
}

}  // namespace cosched::sim
