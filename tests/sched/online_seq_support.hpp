#pragma once
// Shared helpers of the online sequential-policy tests: workloads of rigid jobs, a replay loop that drives a policy
// the way the engine does and checks every plan, and the exact optimum of tiny sequential instances.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/online/policy.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched::online::testing {

using sched::testing::kInf;

// A job that needs at least `demand` (every resource) and then takes `time`; +inf below.
class RigidProfile final : public TimeProfile {
 public:
  RigidProfile(std::vector<int> demand, double time) : demand_(std::move(demand)), time_(time) {}
  void fill_times(const AllocationSpace& space, std::span<double> out) const override {
    std::vector<int> alloc(space.dimensions());
    for (std::size_t k = 0; k < space.size(); ++k) {
      space.decode(k, alloc);
      out[k] = time_at(space, alloc);
    }
  }
  [[nodiscard]] double time_at(const AllocationSpace& /*space*/, std::span<const int> alloc) const override {
    for (std::size_t i = 0; i < demand_.size(); ++i) {
      if (alloc[i] < demand_[i]) return kInf;
    }
    return time_;
  }

 private:
  std::vector<int> demand_;
  double time_;
};

struct JobSpec {
  double release = 0.0;
  double time = 1.0;
  std::vector<int> demand{1};  // padded with zeros to the machine's dimensions
  std::optional<double> estimate{};
};

inline OnlineWorkload rigid_workload(const std::vector<int>& capacities, const std::vector<JobSpec>& specs) {
  std::vector<Resource> resources;
  for (std::size_t i = 0; i < capacities.size(); ++i) {
    resources.push_back({sched::testing::numbered("r", i), capacities[i]});
  }
  std::vector<Task> tasks;
  std::vector<JobArrival> arrivals;
  for (std::size_t j = 0; j < specs.size(); ++j) {
    std::vector<int> demand = specs[j].demand;
    demand.resize(capacities.size(), 0);
    tasks.push_back({sched::testing::numbered("j", j), std::make_shared<RigidProfile>(demand, specs[j].time)});
    arrivals.push_back({specs[j].release, "", specs[j].estimate});
  }
  return make_online_workload("test", "test", Instance(std::move(resources), std::move(tasks)), std::move(arrivals));
}

// The UsageError's message make_online_policy throws, or "accepted".
inline std::string usage_error_of(const std::string& name, const OnlineOptions& options,
                                  const OnlineWorkload& workload) {
  try {
    (void)make_online_policy(name, options, workload);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "accepted";
}

// Sequential jobs released over [0, span) with integer times in [1, longest].
inline std::vector<JobSpec> random_sequential_jobs(std::uint64_t seed, std::size_t n, double span, int longest) {
  Random random(seed);
  std::vector<JobSpec> specs(n);
  for (auto& spec : specs) {
    spec.release = std::floor(random.uniform_below(0.0, span));
    spec.time = static_cast<double>(1 + random.index(static_cast<std::size_t>(longest)));
  }
  std::sort(specs.begin(), specs.end(), [](const JobSpec& a, const JobSpec& b) { return a.release < b.release; });
  return specs;
}

// A state of tiny sequential instances for the DASEDF checks: pending jobs (release <= now) and running ones.
struct StateFixture {
  OnlineWorkload workload;
  double now = 0.0;
  std::vector<std::size_t> pending;
  std::vector<RunningJob> running;
  std::vector<int> free;
  [[nodiscard]] OnlineState state() const { return {workload, now, pending, running, free}; }
};

// m processors; `pending` jobs (release, time) and `busy_until` ends of running sequential jobs (one processor each).
inline StateFixture sequential_state(int m, double now, const std::vector<std::pair<double, double>>& pending,
                                     const std::vector<double>& busy_until) {
  std::vector<JobSpec> specs;
  for (const auto& [release, time] : pending) specs.push_back({release, time});
  for (const double end : busy_until) specs.push_back({0.0, end + 1.0});  // started at -1: its time is irrelevant
  StateFixture fixture{rigid_workload({m}, specs), now, {}, {}, {m - static_cast<int>(busy_until.size())}};
  for (std::size_t j = 0; j < pending.size(); ++j) fixture.pending.push_back(j);
  for (std::size_t k = 0; k < busy_until.size(); ++k) {
    fixture.running.push_back({pending.size() + k, {1}, -1.0, busy_until[k]});
  }
  return fixture;
}

// Random tiny sequential state: 1..`max_pending` pending jobs released in [0, now] with times 1..6, and some of the m
// processors busy until now + 1..8.
inline StateFixture random_sequential_state(std::uint64_t seed, int m, std::size_t max_pending) {
  Random random(seed);
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

// The least maximum stretch of a tiny sequential instance on m processors free at `available` (one time each):
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

// The pending jobs and processor availabilities of a fixture, for brute_force_max_stretch.
inline std::vector<std::pair<double, double>> pending_jobs(const StateFixture& fixture) {
  std::vector<std::pair<double, double>> jobs;
  for (const std::size_t j : fixture.pending) {
    jobs.emplace_back(fixture.workload.arrivals[j].release, fixture.workload.reference_time[j]);
  }
  return jobs;
}
inline std::vector<double> availabilities(const StateFixture& fixture) {
  std::vector<double> available(static_cast<std::size_t>(fixture.free[0]), fixture.now);
  for (const RunningJob& running : fixture.running) available.push_back(running.expected_end);
  return available;
}

// What a replay observed.
struct Replay {
  std::vector<double> start, end;
  [[nodiscard]] double max_stretch(const OnlineWorkload& workload) const {
    double worst = 0.0;
    for (std::size_t j = 0; j < start.size(); ++j) worst = std::max(worst, stretch_at(workload, j, end[j]));
    return worst;
  }
};
using PlanObserver = std::function<void(const OnlineState&, const std::vector<Placement>&)>;

// Drives `policy` on the simulated clock as the engine does: at every instant with releases or completions, the
// completions are processed, released() is called for each new job, then plan(); the placements that start now are
// started. Every plan is checked: nothing before now, only pending jobs, placements that start now fit the free
// amounts together, end = start + time. Jobs run for their time at their allocation.
inline Replay replay(const OnlineWorkload& workload, OnlinePolicy& policy, const PlanObserver& observe = {}) {
  const std::size_t n = workload.arrivals.size();
  std::vector<std::size_t> by_release(n);
  std::iota(by_release.begin(), by_release.end(), 0);
  std::stable_sort(by_release.begin(), by_release.end(), [&](std::size_t a, std::size_t b) {
    return workload.arrivals[a].release < workload.arrivals[b].release;
  });
  Replay result{std::vector<double>(n, kInf), std::vector<double>(n, kInf)};
  std::vector<int> free = workload.instance.space().capacities();
  std::vector<std::size_t> pending;
  std::vector<RunningJob> running;
  std::size_t next = 0;
  while (next < n || !running.empty() || !pending.empty()) {
    double now = next < n ? workload.arrivals[by_release[next]].release : kInf;
    for (const RunningJob& job : running) now = std::min(now, job.expected_end);
    if (!std::isfinite(now)) {
      ADD_FAILURE() << policy.name() << ": " << pending.size() << " jobs pending, nothing running or to come";
      break;
    }
    for (auto it = running.begin(); it != running.end();) {
      if (it->expected_end > now) {
        ++it;
        continue;
      }
      for (std::size_t i = 0; i < free.size(); ++i) free[i] += it->alloc[i];
      it = running.erase(it);
    }
    for (; next < n && workload.arrivals[by_release[next]].release == now; ++next) {
      pending.push_back(by_release[next]);
      policy.released(by_release[next], {workload, now, pending, running, free});
    }
    if (pending.empty()) continue;
    const OnlineState state{workload, now, pending, running, free};
    const std::vector<Placement> plan = policy.plan(state);
    if (observe) observe(state, plan);
    std::vector<RunningJob> started;
    for (const Placement& placement : plan) {
      EXPECT_GE(placement.start, now) << policy.name() << ": job " << placement.job << " placed before now";
      const bool is_pending = std::find(pending.begin(), pending.end(), placement.job) != pending.end();
      EXPECT_TRUE(is_pending) << policy.name() << ": job " << placement.job << " is not pending at " << now;
      const double time = job_time(workload, placement.job, placement.alloc);
      EXPECT_DOUBLE_EQ(placement.end, placement.start + time) << policy.name() << ": job " << placement.job;
      if (placement.start > now || !is_pending) continue;
      for (std::size_t i = 0; i < free.size(); ++i) {
        free[i] -= placement.alloc[i];
        EXPECT_GE(free[i], 0) << policy.name() << ": over-commits resource " << i << " at " << now;
      }
      pending.erase(std::find(pending.begin(), pending.end(), placement.job));
      started.push_back({placement.job, placement.alloc, now, now + time});
      result.start[placement.job] = now;
      result.end[placement.job] = now + time;
    }
    running.insert(running.end(), started.begin(), started.end());
    if (running.empty() && !pending.empty() && next == n) {
      ADD_FAILURE() << policy.name() << ": starts nothing on an idle machine at " << now;
      break;
    }
  }
  return result;
}

}  // namespace cosched::sched::online::testing
