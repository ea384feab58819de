#pragma once
// A thin seam over the LP library (CLP of COIN-OR, chosen by measurement: docs/scheduling.md): the lower bound
// builds a LinearProgram, the solver only solves it. Swapping the library means one new .cpp behind minimise().
#include <optional>
#include <vector>

namespace cosched::sched::detail {

// minimise objective . x  subject to  row_lower <= A x <= row_upper,  column_lower <= x <= column_upper.
// A is column-major: column c has the entries row_index[k], value[k] for k in [column_start[c], column_start[c+1]).
struct LinearProgram {
  std::vector<double> objective;
  std::vector<double> column_lower;
  std::vector<double> column_upper;
  std::vector<double> row_lower;
  std::vector<double> row_upper;
  std::vector<int> column_start{0};
  std::vector<int> row_index;
  std::vector<double> value;
};

// The optimal objective value; empty when the solver stops without proving optimality.
[[nodiscard]] std::optional<double> minimise(const LinearProgram& program);

}  // namespace cosched::sched::detail
