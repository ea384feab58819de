#pragma once
// Weighted linear least squares with non-negativity bounds on some parameters, for the few parameters (<= 4) of
// the knowledge library's fits: every subset of the bounded parameters is held at 0 in turn and the rest solved
// unconstrained (normal equations, Cholesky); the feasible solution of least residual is the bounded optimum (the
// KKT conditions of a convex problem are met by one of these subsets).
#include <cstddef>
#include <vector>

namespace cosched::knowledge::detail {

struct WeightedRow {
  std::vector<double> terms;  // x_i
  double value = 0.0;         // y_i
  double weight = 1.0;        // w_i > 0
};

struct BoundedSolution {
  bool solved = false;             // false: no subset gave a non-singular, feasible system
  std::vector<double> theta;       // one per parameter; 0 where held at the bound
  std::vector<bool> held;          // held at its bound (no variance in inverse_normal)
  // (X'WX)^-1 over the free parameters, embedded in the full parameter grid (0 rows/columns where held).
  std::vector<double> inverse_normal;
  // The same over the free parameters and as many of the held ones as the rows separate (0 rows/columns for the
  // others). A parameter held at its bound of 0 is where the rows put it best, not known to be 0: a serial
  // fraction held at 0 by points at 2 and 4 cores is as uncertain as the points are noisy, and extrapolated to 64
  // cores that uncertainty is most of the time's.
  std::vector<double> released_inverse_normal;
  double weighted_rss = 0.0;       // sum_i w_i (y_i - x_i theta)^2
};

[[nodiscard]] BoundedSolution solve_bounded(const std::vector<WeightedRow>& rows, const std::vector<bool>& nonnegative);

// x' M x for a symmetric row-major M of size x.size().
[[nodiscard]] double quadratic_form(const std::vector<double>& matrix, const std::vector<double>& x);

}  // namespace cosched::knowledge::detail
