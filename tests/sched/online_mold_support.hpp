#pragma once
// Helpers of the moldable online policy tests (online_mold_*_test.cpp): tiny workloads from explicit time tables,
// an OnlineState that owns its spans, and a minimal simulated-clock replay that checks every plan it is given.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cosched/sched/generator.hpp"
#include "cosched/sched/online/policy.hpp"
#include "cosched/sched/online/workload.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched::online::testing {

using sched::testing::kInf;

// A workload over `capacities` whose job j has the raw time table raw_times[j] (all allocation vectors, row-major;
// DenseTimeTable applies the monotone closure) and is released at releases[j].
inline OnlineWorkload table_workload(std::vector<int> capacities, const std::vector<std::vector<double>>& raw_times,
                                     const std::vector<double>& releases) {
  std::vector<JobArrival> arrivals;
  for (double release : releases) arrivals.push_back({release, "", std::nullopt});
  return make_online_workload("test", "test tables", sched::testing::dense_instance(std::move(capacities), raw_times),
                              std::move(arrivals));
}

// One processor-count table for a cluster of m processors: times[j - 1] at j processors (t(0) = +inf).
inline std::vector<double> by_processors(const std::vector<double>& times) {
  std::vector<double> raw{kInf};
  raw.insert(raw.end(), times.begin(), times.end());
  return raw;
}

// An OnlineState with its own storage. Build it, then call state().
struct StateFixture {
  const OnlineWorkload* workload = nullptr;
  double now = 0.0;
  std::vector<std::size_t> pending;
  std::vector<RunningJob> running;
  std::vector<int> free;

  StateFixture(const OnlineWorkload& w, double at, std::vector<std::size_t> jobs)
      : workload(&w), now(at), pending(std::move(jobs)), free(w.instance.space().capacities()) {}
  // A running job holding `alloc` from `start` until `end`.
  void run(std::size_t job, std::vector<int> alloc, double start, double end) {
    for (std::size_t i = 0; i < alloc.size(); ++i) free[i] -= alloc[i];
    running.push_back({job, std::move(alloc), start, std::max(end, now)});
  }
  [[nodiscard]] OnlineState state() const { return {*workload, now, pending, running, free}; }
};

// Every placement starts at or after now, ends at start + its time, names a pending job at most once; together with
// the running jobs it never uses more than the capacity of any resource at any instant; what starts now fits in free.
inline void expect_valid_plan(const OnlineState& state, const std::vector<Placement>& plan) {
  const auto& capacities = state.workload.instance.space().capacities();
  std::vector<std::size_t> seen;
  std::vector<int> free_now(state.free.begin(), state.free.end());
  for (const Placement& placement : plan) {
    EXPECT_GE(placement.start, state.now) << "job " << placement.job;
    EXPECT_NE(std::find(state.pending.begin(), state.pending.end(), placement.job), state.pending.end());
    EXPECT_EQ(std::find(seen.begin(), seen.end(), placement.job), seen.end()) << "job " << placement.job << " twice";
    seen.push_back(placement.job);
    EXPECT_EQ(placement.end, placement.start + job_time(state.workload, placement.job, placement.alloc));
    if (placement.start <= state.now) {
      for (std::size_t i = 0; i < free_now.size(); ++i) {
        free_now[i] -= placement.alloc[i];
        EXPECT_GE(free_now[i], 0) << "job " << placement.job << " over-asks resource " << i << " now";
      }
    }
  }
  // Usage is piecewise constant and only rises at a start: checking every start instant covers all of time.
  std::vector<double> instants{state.now};
  for (const Placement& placement : plan) instants.push_back(placement.start);
  for (double t : instants) {
    std::vector<long long> used(capacities.size(), 0);
    for (const RunningJob& job : state.running) {
      if (t < job.expected_end || t == state.now) {
        for (std::size_t i = 0; i < used.size(); ++i) used[i] += job.alloc[i];
      }
    }
    for (const Placement& placement : plan) {
      if (placement.start <= t && t < placement.end) {
        for (std::size_t i = 0; i < used.size(); ++i) used[i] += placement.alloc[i];
      }
    }
    for (std::size_t i = 0; i < used.size(); ++i) {
      EXPECT_LE(used[i], capacities[i]) << "resource " << i << " over-committed at t = " << t;
    }
  }
}

struct ReplayResult {
  std::vector<double> start, end;      // by job
  std::vector<std::vector<int>> alloc;  // by job
  std::size_t plans = 0;
};

// The simulated clock of the engine in miniature: at every release and completion the policy plans (when some of
// the first resource is free), the placements starting now start; every plan is checked with expect_valid_plan.
inline ReplayResult replay(const OnlineWorkload& workload, OnlinePolicy& policy) {
  const std::size_t n = workload.arrivals.size();
  std::vector<std::size_t> order(n);
  for (std::size_t j = 0; j < n; ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return workload.arrivals[a].release < workload.arrivals[b].release;
  });
  ReplayResult result;
  result.start.assign(n, kInf);
  result.end.assign(n, kInf);
  result.alloc.assign(n, {});
  std::vector<RunningJob> running;
  std::vector<std::size_t> pending;
  std::vector<int> free = workload.instance.space().capacities();
  std::size_t next = 0;
  while (next < n || !running.empty()) {
    double now = next < n ? workload.arrivals[order[next]].release : kInf;
    for (const RunningJob& job : running) now = std::min(now, job.expected_end);
    std::erase_if(running, [&](const RunningJob& job) {
      if (job.expected_end > now) return false;
      for (std::size_t i = 0; i < free.size(); ++i) free[i] += job.alloc[i];
      return true;
    });
    while (next < n && workload.arrivals[order[next]].release <= now) pending.push_back(order[next++]);
    if (pending.empty() || free[0] == 0) continue;
    const OnlineState state{workload, now, pending, running, free};
    const std::vector<Placement> plan = policy.plan(state);
    ++result.plans;
    expect_valid_plan(state, plan);
    for (const Placement& placement : plan) {
      if (placement.start > now) continue;
      for (std::size_t i = 0; i < free.size(); ++i) free[i] -= placement.alloc[i];
      const double end = now + job_time(workload, placement.job, placement.alloc);
      running.push_back({placement.job, placement.alloc, now, end});
      result.start[placement.job] = now;
      result.end[placement.job] = end;
      result.alloc[placement.job] = placement.alloc;
      std::erase(pending, placement.job);
    }
    if (next == n && running.empty() && !pending.empty()) {
      ADD_FAILURE() << "nothing runs and " << pending.size() << " jobs wait forever";
      break;
    }
  }
  return result;
}

// Random moldable jobs: times non-increasing in every resource with random plateaus, some allocations infeasible,
// released over [0, horizon).
inline OnlineWorkload random_workload(std::uint64_t seed, std::vector<int> capacities, std::size_t jobs,
                                      double horizon) {
  Random random(seed);
  const AllocationSpace space(capacities);
  std::vector<std::vector<double>> raw(jobs);
  std::vector<double> releases(jobs);
  std::vector<int> alloc(space.dimensions());
  for (std::size_t j = 0; j < jobs; ++j) {
    const double sequential = 1.0 + 20.0 * random.uniform01();
    raw[j].resize(space.size());
    for (std::size_t k = 0; k < space.size(); ++k) {
      space.decode(k, alloc);
      double share = 0.0;
      for (std::size_t i = 0; i < alloc.size(); ++i) share += static_cast<double>(alloc[i]) / capacities[i];
      // A speedup in (1, share * P(0)] with some randomness; no cores: cannot run.
      const double speedup = 1.0 + (share * capacities[0] - 1.0) * random.uniform01();
      raw[j][k] = alloc[0] == 0 ? kInf : sequential / std::max(1.0, speedup);
    }
    releases[j] = horizon * random.uniform01();
  }
  return table_workload(std::move(capacities), raw, releases);
}

}  // namespace cosched::sched::online::testing
