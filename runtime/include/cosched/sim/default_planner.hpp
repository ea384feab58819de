#pragma once
// The algorithm a batch is planned with when the user names none (`cosched run`): the best contention-aware one
// registered. It is named here and nowhere else, so that a better planner replaces it in one place.
#include <string_view>

#include "cosched/sched/algorithm.hpp"

namespace cosched::sim {

// bw-list-lpt: the list schedule that plans with the node's memory bandwidth (docs/scheduling.md).
inline constexpr std::string_view kDefaultPlanner = "bw-list-lpt";

// The algorithm named `name` among those a batch can be planned with; throws UsageError listing the known names.
[[nodiscard]] const sched::Algorithm& find_planner(std::string_view name);

}  // namespace cosched::sim
