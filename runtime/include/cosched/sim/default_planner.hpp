#pragma once
// The algorithm a batch is planned with when the user names none (`cosched run`): the model-driven planner, which
// plans under the contention model that predicts the run (model_search.hpp). It is named here and nowhere else, so
// that a better planner replaces it in one place; sim::find_algorithm finds it like any other.
#include <string_view>

#include "cosched/sim/model_search.hpp"

namespace cosched::sim {

inline constexpr std::string_view kDefaultPlanner = kModelSearchName;

}  // namespace cosched::sim
