#include "cosched/online/downey.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::online {

namespace {

constexpr double kMaxParallelism = static_cast<double>(sched::kMaxCapacity);

// numerator / (constant + slope / n) for constant, slope >= 0: every rounding step is monotone in n (a larger n
// gives a smaller or equal quotient slope / n, sum and denominator), so the result is non-decreasing in n.
double monotone_piece(double numerator, double constant, double slope, double n) {
  return numerator / (constant + slope / n);
}

// The sigma <= 1 pieces.
double low_variance_first(double n, double a, double sigma) { return monotone_piece(a, sigma / 2, a - sigma / 2, n); }
double low_variance_second(double n, double a, double sigma) {
  return monotone_piece(a, 1 - sigma / 2, sigma * (a - 0.5), n);
}
// The sigma >= 1 piece.
double high_variance(double n, double a, double sigma) {
  return monotone_piece(a * (sigma + 1), sigma, sigma * (a - 1) + a, n);
}

}  // namespace

void check_downey_parameters(double parallelism, double sigma, const std::string& where) {
  (void)checked_number(parallelism, Range{1.0, kMaxParallelism}, where, "the parallelism A");
  (void)checked_number(sigma, non_negative_up_to(kMaxDowneySigma), where, "sigma");
}

double downey_speedup(double processors, double parallelism, double sigma) {
  const double n = processors;
  const double a = parallelism;
  assert(n >= 1 && a >= 1 && sigma >= 0);
  if (n <= 1) return 1.0;
  double speedup = a;
  if (sigma <= 1) {
    if (n <= a) {
      speedup = low_variance_first(n, a, sigma);
    } else if (n <= 2 * a - 1) {
      // Never below where the first piece ends: the two meet at n = A only up to rounding.
      speedup = std::max(low_variance_second(n, a, sigma), low_variance_first(a, a, sigma));
    }
  } else if (n <= a + a * sigma - sigma) {
    speedup = high_variance(n, a, sigma);
  }
  // Each piece reaches A (or 1 at n = 1) only up to rounding: clamp, so S stays in [1, A] and non-decreasing.
  return std::clamp(speedup, 1.0, a);
}

std::vector<DowneyJob> make_moldable_downey(std::span<const LoggedJob> jobs, int procs, std::uint64_t seed) {
  (void)checked_count(procs, 1, sched::kMaxCapacity, "Downey model", "the processor count m");
  const auto m = static_cast<double>(procs);
  sched::Random random(seed);
  std::vector<DowneyJob> moldable;
  moldable.reserve(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const std::string where = fmt::format("Downey model: job {}", i);
    const double runtime = checked_number(jobs[i].runtime, positive_up_to(kMaxSeconds), where, "the runtime");
    const auto p = static_cast<double>(std::clamp(jobs[i].procs, 1, procs));
    DowneyJob job;
    job.parallelism = random.uniform_below(p, m);
    job.sigma = random.uniform_below(0.0, 2.0);
    job.sequential_time = runtime * downey_speedup(p, job.parallelism, job.sigma);
    moldable.push_back(job);
  }
  return moldable;
}

}  // namespace cosched::online
