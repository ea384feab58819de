#pragma once
// Helpers of the online policy tests (online_*_test.cpp): tiny workloads (rigid jobs, explicit time tables, random
// ones), an OnlineState that owns its storage, the check of one plan, and a replay that drives a policy on the
// simulated clock the way the engine does and checks every plan. Tiny sequential states and their exact optimum
// are in online_brute_force.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/online/profiles.hpp"
#include "cosched/online/workload.hpp"
#include "sched/test_support.hpp"

namespace cosched::online::testing {

using sched::testing::kInf;

// ---- Workloads ----

// A rigid job: `time` once it has `demand` of every resource (padded with zeros to the machine's), +inf below.
struct JobSpec {
  double release = 0.0;
  double time = 1.0;
  std::vector<int> demand{1};
  std::optional<double> estimate{};
};

// The runtime's own profiles where they fit (they read the first resource only); a table for a demand of others.
inline std::shared_ptr<const sched::TimeProfile> rigid_profile(const sched::AllocationSpace& space, const std::vector<int>& demand,
                                                        double time) {
  if (std::all_of(demand.begin() + 1, demand.end(), [](int amount) { return amount == 0; })) {
    if (demand[0] == 1) return std::make_shared<SequentialProfile>(time);
    return std::make_shared<RigidProfile>(demand[0], time);
  }
  std::vector<double> raw(space.size());
  std::vector<int> alloc(space.dimensions());
  for (std::size_t k = 0; k < space.size(); ++k) {
    space.decode(k, alloc);
    const bool enough = std::equal(demand.begin(), demand.end(), alloc.begin(), std::less_equal<>());
    raw[k] = enough ? time : kInf;
  }
  return std::make_shared<sched::DenseTimeTable>(space, std::move(raw));
}

// Rigid jobs "j0", "j1", ... on resources "r0", "r1", ... of the given capacities.
inline OnlineWorkload rigid_workload(const std::vector<int>& capacities, const std::vector<JobSpec>& specs) {
  std::vector<sched::Resource> resources;
  for (std::size_t i = 0; i < capacities.size(); ++i) {
    resources.push_back({sched::testing::numbered("r", i), capacities[i]});
  }
  const sched::AllocationSpace space(capacities);
  std::vector<sched::Task> tasks;
  std::vector<JobArrival> arrivals;
  for (std::size_t j = 0; j < specs.size(); ++j) {
    std::vector<int> demand = specs[j].demand;
    demand.resize(capacities.size(), 0);
    tasks.push_back({sched::testing::numbered("j", j), rigid_profile(space, demand, specs[j].time)});
    arrivals.push_back({specs[j].release, "", specs[j].estimate});
  }
  return make_online_workload("test", "test", sched::Instance(std::move(resources), std::move(tasks)), std::move(arrivals));
}

// A workload over `capacities` whose job j has the raw time table raw_times[j] (all allocation vectors, row-major;
// DenseTimeTable applies the monotone closure) and is released at releases[j].
inline OnlineWorkload table_workload(std::vector<int> capacities, const std::vector<std::vector<double>>& raw_times,
                                     const std::vector<double>& releases) {
  std::vector<JobArrival> arrivals;
  for (const double release : releases) arrivals.push_back({release, "", std::nullopt});
  return make_online_workload("test", "test tables", sched::testing::dense_instance(std::move(capacities), raw_times),
                              std::move(arrivals));
}

// One processor-count table for a cluster of m processors: times[j - 1] at j processors (t(0) = +inf).
inline std::vector<double> by_processors(const std::vector<double>& times) {
  std::vector<double> raw{kInf};
  raw.insert(raw.end(), times.begin(), times.end());
  return raw;
}

// Sub-linear speedup on 8 processors (with by_processors): areas j·t(j)/8 = 1.5, 1.75, 1.875, 2, 2.1875, 2.4, 2.625,
// 2.9 strictly increase, so every processor count is a candidate and cost order is processor order.
inline const std::vector<double> kSublinear{12, 7, 5, 4, 3.5, 3.2, 3.0, 2.9};

// Sequential jobs released over [0, span) at integer times, with integer times in [1, longest], in release order.
inline std::vector<JobSpec> random_sequential_jobs(std::uint64_t seed, std::size_t n, double span, int longest) {
  sched::Random random(seed);
  std::vector<JobSpec> specs(n);
  for (auto& spec : specs) {
    spec.release = std::floor(random.uniform_below(0.0, span));
    spec.time = static_cast<double>(1 + random.index(static_cast<std::size_t>(longest)));
  }
  std::sort(specs.begin(), specs.end(), [](const JobSpec& a, const JobSpec& b) { return a.release < b.release; });
  return specs;
}

// Random moldable jobs: times non-increasing in every resource with random plateaus, some allocations infeasible,
// released over [0, horizon).
inline OnlineWorkload random_moldable_workload(std::uint64_t seed, std::vector<int> capacities, std::size_t jobs,
                                               double horizon) {
  sched::Random random(seed);
  const sched::AllocationSpace space(capacities);
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

// Jobs 0 .. count - 1 in release order (ties: job index), the order of OnlineState::pending.
inline std::vector<std::size_t> in_release_order(const OnlineWorkload& workload, std::size_t count) {
  std::vector<std::size_t> jobs(count);
  std::iota(jobs.begin(), jobs.end(), std::size_t{0});
  std::stable_sort(jobs.begin(), jobs.end(), [&](std::size_t a, std::size_t b) {
    return workload.arrivals[a].release < workload.arrivals[b].release;
  });
  return jobs;
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

// ---- States ----

// An OnlineState with its own storage: build it (everything free, nothing running), add running jobs with run(),
// then call state().
struct StateFixture {
  OnlineWorkload workload;
  double now = 0.0;
  std::vector<std::size_t> pending;
  std::vector<RunningJob> running;
  std::vector<int> free;

  StateFixture(OnlineWorkload jobs, double at, std::vector<std::size_t> waiting)
      : workload(std::move(jobs)), now(at), pending(std::move(waiting)), free(workload.instance.space().capacities()) {}
  // A running job holding `alloc` from `start` until `end` (expected to end now at the earliest, as in the engine).
  void run(std::size_t job, std::vector<int> alloc, double start, double end) {
    for (std::size_t i = 0; i < alloc.size(); ++i) free[i] -= alloc[i];
    running.push_back({job, std::move(alloc), start, std::max(end, now)});
  }
  [[nodiscard]] OnlineState state() const { return {workload, now, pending, running, free}; }
};

// ---- Plans ----

// Whether some job's estimate is below its time. EASY and conservative backfilling plan with the estimates: their
// future placements are then laid out in estimated time and may overlap in real time, as on a batch system.
inline bool some_estimate_falls_short(const OnlineWorkload& workload) {
  for (std::size_t j = 0; j < workload.arrivals.size(); ++j) {
    if (workload.arrivals[j].estimate.value_or(kInf) < workload.reference_time[j]) return true;
  }
  return false;
}

// Every placement starts at or after now, ends at start + its time, names a pending job at most once; what starts
// now fits in free; together with the running jobs the plan never uses more than the capacity of any resource at
// any instant (unless estimates fall short, above: then only now is checked).
inline void expect_valid_plan(const OnlineState& state, const std::vector<Placement>& plan) {
  const auto& capacities = state.workload.instance.space().capacities();
  std::vector<std::size_t> seen;
  std::vector<int> free_now(state.free.begin(), state.free.end());
  for (const Placement& placement : plan) {
    EXPECT_GE(placement.start, state.now) << "job " << placement.job << " placed before now";
    EXPECT_NE(std::find(state.pending.begin(), state.pending.end(), placement.job), state.pending.end())
        << "job " << placement.job << " is not pending";
    EXPECT_EQ(std::find(seen.begin(), seen.end(), placement.job), seen.end()) << "job " << placement.job << " twice";
    seen.push_back(placement.job);
    EXPECT_EQ(placement.end, placement.start + job_time(state.workload, placement.job, placement.alloc))
        << "job " << placement.job;
    if (placement.start <= state.now) {
      for (std::size_t i = 0; i < free_now.size(); ++i) {
        free_now[i] -= placement.alloc[i];
        EXPECT_GE(free_now[i], 0) << "job " << placement.job << " over-asks resource " << i << " now";
      }
    }
  }
  // Usage is piecewise constant and only rises at a start: checking every start instant covers all of time.
  std::vector<double> instants{state.now};
  if (!some_estimate_falls_short(state.workload)) {
    for (const Placement& placement : plan) instants.push_back(placement.start);
  }
  for (const double t : instants) {
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

// ---- Replay ----

// What a replay observed, by job: +inf and no allocation for a job that never started.
struct Replay {
  std::vector<double> start, end;
  std::vector<std::vector<int>> alloc;
  std::size_t plans = 0;
  [[nodiscard]] double max_stretch(const OnlineWorkload& workload) const {
    double worst = 0.0;
    for (std::size_t j = 0; j < start.size(); ++j) {
      worst = std::max(worst, (end[j] - workload.arrivals[j].release) / workload.reference_time[j]);
    }
    return worst;
  }
};
using PlanObserver = std::function<void(const OnlineState&, const std::vector<Placement>&)>;

// together: as the engine does, every job released at an instant is shown to the policy, then it plans once.
// one_by_one: the adversary of Theorems 2.1 and 3.5 ("each task is released as soon as the previous one is
// scheduled"): the policy plans after each release, and what it starts runs before the next job is released.
enum class Releases { together, one_by_one };

// Drives `policy` on the simulated clock: at every instant with releases, completions or a wakeup the policy asked
// for, the completions free their resources, released() is called for each new job, then plan() while jobs wait
// (even when the first resource is all taken, where the engine skips the call: more plans get checked); the
// placements that start now are started and run for their time at their allocation. Every plan is checked with
// expect_valid_plan; a policy that leaves jobs waiting on an idle machine with nothing more to come (no release,
// completion or wakeup) fails.
inline Replay replay(const OnlineWorkload& workload, OnlinePolicy& policy, const PlanObserver& observe = {},
                     Releases releases = Releases::together) {
  SCOPED_TRACE(std::string(policy.name()));
  const std::size_t n = workload.arrivals.size();
  const std::vector<std::size_t> by_release = in_release_order(workload, n);
  Replay result{std::vector<double>(n, kInf), std::vector<double>(n, kInf), std::vector<std::vector<int>>(n), 0};
  std::vector<int> free = workload.instance.space().capacities();
  std::vector<std::size_t> pending;
  std::vector<RunningJob> running;
  double now = 0.0;
  const auto plan_and_start = [&] {
    if (pending.empty()) return;
    const OnlineState state{workload, now, pending, running, free};
    const std::vector<Placement> plan = policy.plan(state);
    ++result.plans;
    {
      SCOPED_TRACE(::testing::Message() << "plan at " << now);
      expect_valid_plan(state, plan);
    }
    if (observe) observe(state, plan);
    for (const Placement& placement : plan) {
      const auto waiting = std::find(pending.begin(), pending.end(), placement.job);
      if (placement.start > now || waiting == pending.end()) continue;  // a job not pending: reported above
      pending.erase(waiting);
      for (std::size_t i = 0; i < free.size(); ++i) free[i] -= placement.alloc[i];
      const double end = now + job_time(workload, placement.job, placement.alloc);
      running.push_back({placement.job, placement.alloc, now, end});
      result.start[placement.job] = now;
      result.end[placement.job] = end;
      result.alloc[placement.job] = placement.alloc;
    }
  };
  std::size_t next = 0;
  while (next < n || !running.empty()) {
    const double before = now;
    now = next < n ? workload.arrivals[by_release[next]].release : kInf;
    for (const RunningJob& job : running) now = std::min(now, job.expected_end);
    // A policy that waits for an instant of its own (OnlinePolicy::next_wakeup) plans again then.
    const std::optional<double> wake = pending.empty() ? std::nullopt : policy.next_wakeup();
    if (wake && *wake > before) now = std::min(now, *wake);
    std::erase_if(running, [&](const RunningJob& job) {
      if (job.expected_end > now) return false;
      for (std::size_t i = 0; i < free.size(); ++i) free[i] += job.alloc[i];
      return true;
    });
    const bool any_released = next < n && workload.arrivals[by_release[next]].release == now;
    for (; next < n && workload.arrivals[by_release[next]].release == now; ++next) {
      pending.push_back(by_release[next]);
      policy.released(by_release[next], {workload, now, pending, running, free});
      if (releases == Releases::one_by_one) plan_and_start();
    }
    if (releases == Releases::together || !any_released) plan_and_start();
    const std::optional<double> again = policy.next_wakeup();
    if (next == n && running.empty() && !pending.empty() && !(again && *again > now)) {
      ADD_FAILURE() << "starts nothing on an idle machine at " << now << ": " << pending.size() << " jobs wait";
      break;
    }
  }
  return result;
}

}  // namespace cosched::online::testing
