// The BSP time model (Sec. 2.1-2.2 of seed 004), the tasks' interesting allocations and the paper's lower bound.
#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/sched/bsp.hpp"

namespace cosched::sched {

BspProfile::BspProfile(int req, double time_at_req) : req_(req), time_at_req_(time_at_req) {
  assert(req >= 1 && std::isfinite(time_at_req) && time_at_req > 0.0);
}

double BspProfile::time_on(int procs) const noexcept {
  if (procs <= 0) return kInfinity;
  // ceil(req/p) in integers; the product is the one expression every caller sees, so times agree bit for bit.
  const int folds = procs >= req_ ? 1 : (req_ + procs - 1) / procs;
  return static_cast<double>(folds) * time_at_req_;
}

void BspProfile::fill_times(const AllocationSpace& space, std::span<double> out) const {
  assert(out.size() == space.size());
  // Row-major with the processors as the first resource: every block of stride(0) entries shares one p.
  const std::size_t block = space.stride(0);
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = time_on(static_cast<int>(k / block));
}

double BspProfile::time_at([[maybe_unused]] const AllocationSpace& space, std::span<const int> alloc) const {
  assert(space.contains(alloc));
  return time_on(alloc[0]);
}

std::vector<int> bsp_interesting_allocations(int req) {
  // ceil(req/q) takes each of its values on a run of consecutive q; walking q from req down to 1 visits them in
  // ascending order, jumping to the last q of each run: O(sqrt(req)).
  std::vector<int> allocations;
  for (int q = req; q >= 1;) {
    const int procs = (req + q - 1) / q;
    allocations.push_back(procs);
    // The smallest q' with ceil(req/q') = procs is ceil(req/procs); the next value starts below it.
    q = (req + procs - 1) / procs - 1;
  }
  return allocations;
}

std::string bsp_refusal(const Instance& instance, std::string_view algorithm) {
  if (instance.dimensions() != 1) {
    std::string names;
    for (const auto& resource : instance.resources()) names += (names.empty() ? "" : ", ") + resource.name;
    return fmt::format("{} schedules one resource (the processors of Dutot et al.'s BSP model); this instance has "
                       "{} ({}) — use one of the d-resource algorithms",
                       algorithm, instance.dimensions(), names);
  }
  const std::vector<int> one{1};
  for (const auto& task : instance.tasks()) {
    if (std::isinf(task.profile->time_at(instance.space(), one))) {
      return fmt::format("{} needs every task to run on one processor, as BSP tasks do; task \"{}\" cannot", algorithm,
                         task.id);
    }
  }
  return {};
}

std::vector<BspSteps> bsp_steps(const Instance& instance) {
  assert(instance.dimensions() == 1);
  const int capacity = instance.space().capacity(0);
  std::vector<BspSteps> steps(instance.task_count());
  std::vector<double> times;
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    const TimeProfile& profile = *instance.tasks()[j].profile;
    BspSteps& task = steps[j];
    if (const auto* bsp = dynamic_cast<const BspProfile*>(&profile)) {
      for (const int procs : bsp_interesting_allocations(bsp->req())) {
        if (procs > capacity) break;
        task.push_back({procs, bsp->time_on(procs)});
      }
      continue;
    }
    times.resize(instance.space().size());
    profile.fill_times(instance.space(), times);
    for (int procs = 1; procs <= capacity; ++procs) {
      const double t = times[static_cast<std::size_t>(procs)];
      if (task.empty() || t < task.back().time) task.push_back({procs, t});
    }
    assert(!task.empty() && std::isfinite(task.front().time));
  }
  return steps;
}

double bsp_lower_bound(const Instance& instance) {
  const std::vector<BspSteps> steps = bsp_steps(instance);
  const std::vector<int> none{0};
  double longest = 0.0;
  double work = 0.0;
  for (std::size_t j = 0; j < steps.size(); ++j) {
    longest = std::max(longest, steps[j].back().time);
    // Work p * t(p) is smallest at some step: between steps the time stays and p grows. A time table may let a
    // task run on 0 processors (work 0); the BSP algorithms never use that, but the bound must allow it.
    if (!std::isinf(instance.time(j, none))) continue;
    double least = kInfinity;
    for (const BspStep& step : steps[j]) least = std::min(least, static_cast<double>(step.procs) * step.time);
    work += least;
  }
  return std::max(longest, work / static_cast<double>(instance.space().capacity(0)));
}

}  // namespace cosched::sched
