#pragma once
// The synthetic sequential workload of seed 000, Sec. 4: n sequential jobs on m processors, sizes uniform in
// [a, b] and Poisson arrivals at a rate chosen for a target load. The paper does not give its (a, b) or its rates,
// only Delta = b / a and the loads it reached; stretch does not change when every time is scaled, so a = 1 and
// b = Delta, and the rate is lambda = load / mean size = 2 load / (1 + Delta) (load = work arriving per unit time,
// Sec. 4). The paper's runs: m = 300, n = 20,000, Delta in {5, ..., 100}, loads 220 to 310.
#include <cstddef>
#include <cstdint>

#include "cosched/online/workload.hpp"

namespace cosched::online {

// Limits against absurd parameters (a replay holds about 0.8 KB per job: 8 GB at the limit).
inline constexpr std::size_t kMaxSyntheticJobs = 10'000'000;
inline constexpr double kMaxSyntheticDelta = 1e6;
inline constexpr double kMaxSyntheticLoad = 1e6;

struct SyntheticOptions {
  std::size_t jobs = 20'000;  // n
  int procs = 300;            // m
  double delta = 10.0;        // b / a, >= 1
  double load = 270.0;        // target load, > 0
  std::uint64_t seed = 0;
};

// Job k ("job-<k>", k from 0) has a SequentialProfile of size 1 + (Delta - 1) u; job 0 is released at 0 and job k
// at release(k - 1) - ln(1 - u') / lambda. The u are drawn in that order (size, then gap, job by job) from
// sched::Random(seed) (std::mt19937_64, (engine() >> 11) * 2^-53 in [0, 1): no standard distribution, whose output
// differs between standard libraries). One resource "procs" of capacity m. Throws InputError for n outside
// [1, kMaxSyntheticJobs], m outside [1, kMaxCapacity], Delta not in [1, kMaxSyntheticDelta] or a load not in
// (0, kMaxSyntheticLoad].
[[nodiscard]] OnlineWorkload make_synthetic_workload(const SyntheticOptions& options);

}  // namespace cosched::online
