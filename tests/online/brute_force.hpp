#pragma once
// Tiny states of sequential jobs (explicit and random) and their exact least maximum stretch, for the online
// policy tests (DASEDF's theorems, FCFS's bound, DBOS on one machine).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "online/support.hpp"

namespace cosched::online::testing {

// m processors; `pending` jobs (release, time) and `busy_until` ends of running sequential jobs (one processor each).
inline StateFixture sequential_state(int m, double now, const std::vector<std::pair<double, double>>& pending,
                                     const std::vector<double>& busy_until) {
  std::vector<JobSpec> specs;
  for (const auto& [release, time] : pending) specs.push_back({release, time});
  for (const double end : busy_until) specs.push_back({0.0, end + 1.0});  // started at -1: its time is irrelevant
  std::vector<std::size_t> waiting(pending.size());
  std::iota(waiting.begin(), waiting.end(), std::size_t{0});
  StateFixture fixture(rigid_workload({m}, specs), now, std::move(waiting));
  for (std::size_t k = 0; k < busy_until.size(); ++k) fixture.run(pending.size() + k, {1}, -1.0, busy_until[k]);
  return fixture;
}

// Random tiny sequential state: 1..`max_pending` pending jobs released in [0, now] with times 1..6, and some of the m
// processors busy until now + 1..8.
inline StateFixture random_sequential_state(std::uint64_t seed, int m, std::size_t max_pending) {
  sched::Random random(seed);
  const double now = static_cast<double>(random.index(6));
  std::vector<std::pair<double, double>> pending(1 + random.index(max_pending));
  for (auto& [release, time] : pending) {
    release = static_cast<double>(random.index(static_cast<std::size_t>(now) + 1));
    time = static_cast<double>(1 + random.index(6));
  }
  std::sort(pending.begin(), pending.end());
  std::vector<double> busy(random.index(static_cast<std::size_t>(m) + 1));
  for (double& end : busy) end = now + static_cast<double>(1 + random.index(8));
  return sequential_state(m, now, pending, busy);
}

// The least maximum stretch of sequential jobs (release, time) on m processors free at `available` (one time each):
// every job starts at or after its release; all semi-active schedules (each job in a machine's sequence at the
// earliest time after its release and its predecessor) over all orders and machine choices.
inline double brute_force_max_stretch(const std::vector<std::pair<double, double>>& jobs,
                                      const std::vector<double>& available) {
  std::vector<std::size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  const std::size_t m = available.size();
  std::size_t choices = 1;
  for (std::size_t k = 0; k < jobs.size(); ++k) choices *= m;
  double best = kInf;
  do {
    for (std::size_t code = 0; code < choices; ++code) {
      std::vector<double> free_at = available;
      double worst = 0.0;
      std::size_t rest = code;
      for (const std::size_t j : order) {
        double& machine = free_at[rest % m];
        rest /= m;
        const auto [release, time] = jobs[j];
        machine = std::max(machine, release) + time;
        worst = std::max(worst, (machine - release) / time);
      }
      best = std::min(best, worst);
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

// The same for the pending jobs of a state of sequential jobs (their reference times) on its processors: the free
// ones now, each running job's at its expected end.
inline double brute_force_max_stretch(const StateFixture& fixture) {
  std::vector<std::pair<double, double>> jobs;
  for (const std::size_t j : fixture.pending) {
    jobs.emplace_back(fixture.workload.arrivals[j].release, fixture.workload.reference_time[j]);
  }
  std::vector<double> available(static_cast<std::size_t>(fixture.free[0]), fixture.now);
  for (const RunningJob& running : fixture.running) available.push_back(running.expected_end);
  return brute_force_max_stretch(jobs, available);
}

}  // namespace cosched::online::testing
