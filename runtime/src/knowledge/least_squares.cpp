#include "knowledge/least_squares.hpp"

#include <bit>
#include <cassert>
#include <cmath>
#include <limits>

namespace cosched::knowledge::detail {

namespace {

// In-place Cholesky of a symmetric positive definite matrix (row-major, n x n) and its inverse. false when a pivot
// is not clearly positive: the terms are (nearly) collinear on these rows, e.g. two core counts for three terms.
bool invert_spd(std::vector<double>& matrix, std::size_t n) {
  std::vector<double> lower(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      double sum = matrix[i * n + j];
      for (std::size_t k = 0; k < j; ++k) sum -= lower[i * n + k] * lower[j * n + k];
      if (i == j) {
        if (!(sum > 1e-12 * std::abs(matrix[i * n + i]))) return false;
        lower[i * n + i] = std::sqrt(sum);
      } else {
        lower[i * n + j] = sum / lower[j * n + j];
      }
    }
  }
  // inverse = L^-T L^-1, column by column of the identity.
  std::vector<double> inverse(n * n, 0.0);
  for (std::size_t column = 0; column < n; ++column) {
    std::vector<double> y(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      double sum = i == column ? 1.0 : 0.0;
      for (std::size_t k = 0; k < i; ++k) sum -= lower[i * n + k] * y[k];
      y[i] = sum / lower[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {
      double sum = y[i];
      for (std::size_t k = i + 1; k < n; ++k) sum -= lower[k * n + i] * inverse[k * n + column];
      inverse[i * n + column] = sum / lower[i * n + i];
    }
  }
  matrix = std::move(inverse);
  return true;
}

// The unconstrained solution over the parameters not in `held`; nullopt-like (solved = false) when singular.
BoundedSolution solve_free(const std::vector<WeightedRow>& rows, const std::vector<bool>& held) {
  const std::size_t all = held.size();
  std::vector<std::size_t> free;
  for (std::size_t i = 0; i < all; ++i) {
    if (!held[i]) free.push_back(i);
  }
  BoundedSolution solution;
  solution.theta.assign(all, 0.0);
  solution.held = held;
  solution.inverse_normal.assign(all * all, 0.0);
  const std::size_t n = free.size();
  if (n > 0) {
    std::vector<double> normal(n * n, 0.0);
    std::vector<double> right(n, 0.0);
    for (const WeightedRow& row : rows) {
      for (std::size_t a = 0; a < n; ++a) {
        right[a] += row.weight * row.terms[free[a]] * row.value;
        for (std::size_t b = 0; b < n; ++b) normal[a * n + b] += row.weight * row.terms[free[a]] * row.terms[free[b]];
      }
    }
    if (!invert_spd(normal, n)) return solution;
    for (std::size_t a = 0; a < n; ++a) {
      double value = 0.0;
      for (std::size_t b = 0; b < n; ++b) value += normal[a * n + b] * right[b];
      solution.theta[free[a]] = value;
      for (std::size_t b = 0; b < n; ++b) solution.inverse_normal[free[a] * all + free[b]] = normal[a * n + b];
    }
  }
  for (const WeightedRow& row : rows) {
    double fitted = 0.0;
    for (std::size_t i = 0; i < all; ++i) fitted += row.terms[i] * solution.theta[i];
    solution.weighted_rss += row.weight * (row.value - fitted) * (row.value - fitted);
  }
  solution.solved = true;
  return solution;
}

}  // namespace

BoundedSolution solve_bounded(const std::vector<WeightedRow>& rows, const std::vector<bool>& nonnegative) {
  const std::size_t count = nonnegative.size();
  assert(count <= 8);
  BoundedSolution best;
  best.weighted_rss = std::numeric_limits<double>::infinity();
  for (unsigned mask = 0; mask < (1U << count); ++mask) {
    std::vector<bool> held(count, false);
    bool allowed = true;
    for (std::size_t i = 0; i < count; ++i) {
      held[i] = ((mask >> i) & 1U) != 0;
      if (held[i] && !nonnegative[i]) allowed = false;  // only bounded parameters are held at their bound
    }
    if (!allowed) continue;
    BoundedSolution candidate = solve_free(rows, held);
    if (!candidate.solved) continue;
    bool feasible = true;
    for (std::size_t i = 0; i < count; ++i) {
      if (nonnegative[i] && candidate.theta[i] < 0.0) feasible = false;
    }
    // Fewer held parameters first (mask order), so a tie keeps the free fit.
    if (feasible && candidate.weighted_rss < best.weighted_rss * (1.0 - 1e-12)) best = std::move(candidate);
  }
  if (!std::isfinite(best.weighted_rss)) return BoundedSolution{};
  best.released_inverse_normal = best.inverse_normal;
  // The spread of the held parameters too: the system with the fewest of them held that the rows still separate.
  const auto held_count = [](unsigned mask) { return std::popcount(mask); };
  unsigned best_mask = 0;
  for (std::size_t i = 0; i < count; ++i) best_mask |= best.held[i] ? (1U << i) : 0U;
  for (int released = held_count(best_mask); released > 0; --released) {
    for (unsigned mask = 0; mask < (1U << count); ++mask) {
      if ((mask & ~best_mask) != 0 || held_count(best_mask) - held_count(mask) != released) continue;
      std::vector<bool> held(count, false);
      for (std::size_t i = 0; i < count; ++i) held[i] = ((mask >> i) & 1U) != 0;
      const BoundedSolution wider = solve_free(rows, held);
      if (!wider.solved) continue;
      best.released_inverse_normal = wider.inverse_normal;
      return best;
    }
  }
  return best;
}

double quadratic_form(const std::vector<double>& matrix, const std::vector<double>& x) {
  const std::size_t n = x.size();
  assert(matrix.size() == n * n);
  double sum = 0.0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) sum += x[a] * matrix[a * n + b] * x[b];
  }
  return sum;
}

}  // namespace cosched::knowledge::detail
