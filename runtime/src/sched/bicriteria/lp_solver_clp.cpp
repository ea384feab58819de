// minimise() with COIN-OR CLP's dual simplex.
#include <ClpSimplex.hpp>

#include "sched/bicriteria/lp_solver.hpp"

namespace cosched::sched::detail {

std::optional<double> minimise(const LinearProgram& program) {
  ClpSimplex model;
  model.setLogLevel(0);  // the library stays silent: stdout belongs to the commands
  const std::vector<CoinBigIndex> starts(program.column_start.begin(), program.column_start.end());
  model.loadProblem(static_cast<int>(program.objective.size()), static_cast<int>(program.row_lower.size()),
                    starts.data(), program.row_index.data(), program.value.data(), program.column_lower.data(),
                    program.column_upper.data(), program.objective.data(), program.row_lower.data(),
                    program.row_upper.data());
  model.dual();
  if (!model.isProvenOptimal()) return std::nullopt;
  return model.objectiveValue();
}

}  // namespace cosched::sched::detail
