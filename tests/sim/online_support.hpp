#pragma once
// Small online workloads for the engine tests: jobs with dense time tables on a few processors (or cores + fast
// chunks), and a run of an online plan on the simulated clock.
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/online/workload.hpp"

namespace cosched::sim::testing {

struct OnlineJobSpec {
  double release = 0.0;
  std::vector<double> times;  // per allocation vector of the space, row-major (inf: cannot run there)
};

inline std::shared_ptr<const online::OnlineWorkload> online_workload(
    const std::vector<sched::Resource>& resources, const std::vector<OnlineJobSpec>& jobs) {
  const sched::AllocationSpace space(sched::capacities_of(resources));
  std::vector<sched::Task> tasks;
  std::vector<online::JobArrival> arrivals;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    tasks.push_back({"j" + std::to_string(j), std::make_shared<sched::DenseTimeTable>(space, jobs[j].times)});
    arrivals.push_back({jobs[j].release, "", std::nullopt});
    // As if a log had started every job on release (a machine with room for all): the policy `logged` runs too.
    arrivals.back().logged_start = jobs[j].release;
  }
  return std::make_shared<const online::OnlineWorkload>(online::make_online_workload(
      "test", "test", sched::Instance(resources, std::move(tasks)), std::move(arrivals)));
}

// Sequential jobs (time p on >= 1 processor) on m processors.
inline std::shared_ptr<const online::OnlineWorkload> sequential_workload(
    int m, const std::vector<std::pair<double, double>>& release_and_size) {
  std::vector<OnlineJobSpec> jobs;
  for (const auto& [release, size] : release_and_size) {
    std::vector<double> times(static_cast<std::size_t>(m) + 1, size);
    times[0] = std::numeric_limits<double>::infinity();
    jobs.push_back({release, times});
  }
  return online_workload({{"procs", m}}, jobs);
}

// Moldable jobs with Amdahl-like times p1 * (f + (1 - f) / k) on k of m processors.
inline std::shared_ptr<const online::OnlineWorkload> random_moldable_workload(std::mt19937& rng, int m,
                                                                                     std::size_t n) {
  std::uniform_real_distribution<double> size(1.0, 50.0), serial(0.0, 0.5), gap(0.0, 6.0);
  std::vector<OnlineJobSpec> jobs;
  double release = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const double p1 = size(rng), f = serial(rng);
    std::vector<double> times(static_cast<std::size_t>(m) + 1, std::numeric_limits<double>::infinity());
    for (int k = 1; k <= m; ++k) times[static_cast<std::size_t>(k)] = p1 * (f + (1.0 - f) / k);
    jobs.push_back({release, times});
    release += gap(rng);
  }
  return online_workload({{"procs", m}}, jobs);
}

// Node jobs on (cores, fast chunks): faster with more cores, and with chunks up to the job's footprint.
inline std::shared_ptr<const online::OnlineWorkload> random_node_workload(std::mt19937& rng, int cores,
                                                                                 int chunks, std::size_t n) {
  std::uniform_real_distribution<double> size(1.0, 30.0), gain(0.0, 0.6), gap(0.0, 4.0);
  std::uniform_int_distribution<int> footprint(0, chunks);
  std::vector<OnlineJobSpec> jobs;
  double release = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const double p1 = size(rng), fast_gain = gain(rng);
    const int need = footprint(rng);
    std::vector<double> times;
    for (int c = 0; c <= cores; ++c) {
      for (int k = 0; k <= chunks; ++k) {
        if (c == 0) {
          times.push_back(std::numeric_limits<double>::infinity());
          continue;
        }
        const double fast = need == 0 ? 1.0 : static_cast<double>(std::min(k, need)) / need;
        times.push_back(p1 / c * (1.0 - fast_gain * fast));
      }
    }
    jobs.push_back({release, times});
    release += gap(rng);
  }
  return online_workload({{"cores", cores}, {"fast_chunks", chunks}}, jobs);
}

inline EngineResult run_online(const LaunchPlan& plan, const std::string& policy_name) {
  auto policy = make_policy(policy_name, plan);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan);
  return run_engine(plan, *policy, clock, *pool);
}

}  // namespace cosched::sim::testing
