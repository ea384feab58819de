#pragma once
// Downey's speedup model (A. B. Downey, "A parallel workload model and its implications for processor allocation",
// 1997), as seed 000 (Sec. 7) uses it to make the rigid jobs of a trace moldable, after Sabin et al.: each job
// gets a parallelism A ~ U[p, m] (p its logged processor count; the paper calls A the "maximum parallelism",
// Downey the *average* parallelism) and a variance of parallelism sigma ~ U[0, 2]; its sequential time is
// p_{i,1} = runtime x S(p), so that it runs for its logged runtime on its logged processor count, and its time on
// n processors is p_{i,1} / S(n) (DowneyProfile, profiles.hpp).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cosched::online {

// The largest sigma accepted: the paper draws from [0, 2]; Downey's fits stay far below this.
inline constexpr double kMaxDowneySigma = 1e6;

// Throws InputError(where, ...) unless A is finite and >= 1 (at most 2^24: a processor count) and sigma finite
// in [0, kMaxDowneySigma].
void check_downey_parameters(double parallelism, double sigma, const std::string& where);

// S(n) for n >= 1 processors (a real n, so that the pieces can be checked for continuity), parameters as
// check_downey_parameters accepts them:
//   sigma <= 1:  A n / (A + sigma (n - 1) / 2)               for 1 <= n <= A,
//                A n / (sigma (A - 1/2) + n (1 - sigma / 2))  for A <= n <= 2A - 1,
//                A                                            beyond;
//   sigma >= 1:  n A (sigma + 1) / (sigma (n + A - 1) + A)     for 1 <= n <= A + A sigma - sigma,
//                A                                            beyond.
// S(1) = 1 exactly, S <= A, and S is non-decreasing in n bit for bit (not only mathematically): each piece is
// evaluated as A / (c + d / n) with c, d >= 0 constants, whose every rounding step is monotone in n, and each piece
// is clamped between the value where the previous one ends and A. So times p_{i,1} / S(n) are non-increasing, as
// TimeProfile requires.
[[nodiscard]] double downey_speedup(double processors, double parallelism, double sigma);

// A logged rigid job: its runtime (seconds, > 0) on `procs` processors.
struct LoggedJob {
  double runtime = 0.0;
  int procs = 1;
};

// A moldable job of the Downey model.
struct DowneyJob {
  double sequential_time = 0.0;  // p_{i,1}
  double parallelism = 1.0;      // A
  double sigma = 0.0;
  friend bool operator==(const DowneyJob&, const DowneyJob&) = default;
};

// Draws A and sigma for every job, in order, and derives p_{i,1} = runtime x S(p) with p the logged count clamped
// to [1, procs]. The draws: std::mt19937_64 seeded with `seed`, two numbers per job, A = p + (procs - p) u1 and
// sigma = 2 u2, each u = (engine() >> 11) * 2^-53 in [0, 1) (sched::Random::uniform_below; no standard
// distribution, whose output differs between standard libraries): the same jobs on every platform. Throws
// InputError for procs < 1 or a runtime that is not finite and > 0 (naming the job's index).
[[nodiscard]] std::vector<DowneyJob> make_moldable_downey(std::span<const LoggedJob> jobs, int procs,
                                                          std::uint64_t seed);

}  // namespace cosched::online
