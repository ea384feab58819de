#include "cosched/online/synthetic.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <vector>

#include "cosched/common/checked.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/online/profiles.hpp"

namespace cosched::online {

OnlineWorkload make_synthetic_workload(const SyntheticOptions& options) {
  const std::string where = "synthetic workload";
  const auto jobs = static_cast<std::size_t>(
      checked_count(static_cast<std::int64_t>(std::min<std::size_t>(options.jobs, kMaxSyntheticJobs + 1)), 1,
                    static_cast<std::int64_t>(kMaxSyntheticJobs), where, "the number of jobs"));
  const int procs = static_cast<int>(checked_count(options.procs, 1, sched::kMaxCapacity, where, "the processor count"));
  const double delta = checked_number(options.delta, Range{1.0, kMaxSyntheticDelta}, where, "delta");
  const double load = checked_number(options.load, positive_up_to(kMaxSyntheticLoad), where, "the load");
  const double rate = 2.0 * load / (1.0 + delta);

  sched::Random random(options.seed);
  std::vector<sched::Task> tasks;
  std::vector<JobArrival> arrivals;
  tasks.reserve(jobs);
  arrivals.reserve(jobs);
  // Every job's profile in one block, each task's pointer sharing the block's ownership (the aliasing constructor):
  // 16 bytes per job instead of a 48-byte allocation of its own (issue 25: at 10^7 jobs every byte per job is
  // fresh memory to fault in). Reserved once, so the addresses handed out never move.
  const auto profiles = std::make_shared<std::vector<SequentialProfile>>();
  profiles->reserve(jobs);
  double release = 0.0;
  for (std::size_t k = 0; k < jobs; ++k) {
    const double size = random.uniform_below(1.0, delta);
    if (k > 0) release += -std::log1p(-random.uniform01()) / rate;
    const SequentialProfile& profile = profiles->emplace_back(size);
    // Null attributes: none, without an empty object's allocation per job (model.hpp).
    tasks.push_back({"job-" + std::to_string(k), std::shared_ptr<const sched::TimeProfile>(profiles, &profile),
                     nlohmann::json()});
    arrivals.push_back({release, "", std::nullopt});
  }
  nlohmann::json attributes = {{"generator", "synthetic"}, {"delta", delta}, {"load", load}, {"seed", options.seed}};
  sched::Instance instance({{"procs", procs}}, std::move(tasks), std::move(attributes));
  std::string source = fmt::format(
      "synthetic sequential workload (seed 000, Sec. 4): {} jobs, sizes U[1, {}], Poisson arrivals at rate {:.6g} "
      "(target load {}), m = {}, seed {}",
      jobs, delta, rate, load, procs, options.seed);
  return make_online_workload("synthetic", std::move(source), std::move(instance), std::move(arrivals));
}

}  // namespace cosched::online
