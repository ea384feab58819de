#include "cosched/sim/default_planner.hpp"

namespace cosched::sim {

const sched::Algorithm& find_planner(std::string_view name) { return sched::find_algorithm(name); }

}  // namespace cosched::sim
