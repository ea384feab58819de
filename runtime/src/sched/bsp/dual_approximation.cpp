// A4 of seed 004 (Sec. 3.1): the dual approximation with minimal allotments, a (2 + eps)-approximation for BSP
// tasks. Also the Schedule every BSP algorithm returns.
#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>
#include <queue>

#include "sched/bsp/placement.hpp"

namespace cosched::sched {

namespace detail {

Schedule bsp_schedule(const Instance& instance, std::string algorithm, const std::vector<BspPlacement>& placements) {
  assert(placements.size() == instance.task_count());
  Schedule schedule;
  schedule.algorithm = std::move(algorithm);
  schedule.allocation_bound = bsp_lower_bound(instance);
  schedule.tasks.reserve(placements.size());
  for (const BspPlacement& placed : placements) {
    schedule.tasks.push_back({{placed.procs}, placed.start, placed.duration, -1});
  }
  schedule.makespan = completion_time(schedule.tasks);
  return schedule;
}

}  // namespace detail

namespace {

// The test of one guess on precomputed steps: nullopt when rejected.
std::optional<std::vector<detail::BspPlacement>> try_guess(const std::vector<BspSteps>& steps, int capacity,
                                                           double guess) {
  const double limit = 2.0 * guess;
  std::vector<detail::BspPlacement> placements(steps.size());
  std::vector<std::size_t> small;
  long long left = capacity;  // q = m - sum of the large tasks' allotments
  double small_work = 0.0;
  for (std::size_t j = 0; j < steps.size(); ++j) {
    // a_j = the fewest processors with t(a_j) <= 2w: the first step that fast (times descend along the steps).
    const auto fast = std::find_if(steps[j].begin(), steps[j].end(),
                                   [limit](const BspStep& step) { return step.time <= limit; });
    if (fast == steps[j].end()) return std::nullopt;  // even its fastest time exceeds 2w: OPT > w
    placements[j] = {fast->procs, 0.0, fast->time};
    if (fast->procs > 1) {
      left -= fast->procs;
    } else {
      small.push_back(j);
      small_work += fast->time;
    }
  }
  if (left < 0) return std::nullopt;                    // failure case 1: the large tasks need more than m
  if (left == 0 && !small.empty()) return std::nullopt;  // failure case 2: no processor left for small tasks
  if (small_work > static_cast<double>(left) * guess) return std::nullopt;  // failure case 3: the workload test
  // Small tasks by LPT (longest first, ties by index) on the q processors left, each on the one free earliest.
  std::stable_sort(small.begin(), small.end(),
                   [&](std::size_t a, std::size_t b) { return placements[a].duration > placements[b].duration; });
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (long long k = 0; k < std::min<long long>(left, static_cast<long long>(small.size())); ++k) free_at.push(0.0);
  for (const std::size_t j : small) {
    const double start = free_at.top();
    free_at.pop();
    placements[j].start = start;
    free_at.push(start + placements[j].duration);
  }
  return placements;
}

}  // namespace

std::optional<Schedule> bsp_a4_try(const Instance& instance, double guess) {
  assert(bsp_refusal(instance, "bsp-a4").empty());
  auto placements = try_guess(bsp_steps(instance), instance.space().capacity(0), guess);
  if (!placements) return std::nullopt;
  return detail::bsp_schedule(instance, "bsp-a4", *placements);
}

Schedule bsp_a4(const Instance& instance, double epsilon) {
  assert(bsp_refusal(instance, "bsp-a4").empty() && epsilon > 0.0);
  const std::vector<BspSteps> steps = bsp_steps(instance);
  const int capacity = instance.space().capacity(0);
  // hi: every task on one processor, one after the other, is accepted (q = m, the work test holds). lo: half the
  // longest fastest time, below OPT; every later lo is a rejected guess, below OPT by Theorem 1 and below the
  // paper's bound (a guess >= LB passes the three tests by Lemma 1). The search stops within eps/2 * LB, so for BSP
  // tasks the makespan <= 2 hi < 2 OPT + eps LB <= (2 + eps) OPT, and <= (2 + eps) LB.
  double hi = 0.0;
  double longest = 0.0;
  for (const BspSteps& task : steps) {
    hi += task.front().time;
    longest = std::max(longest, task.back().time);
  }
  double lo = 0.5 * longest;
  const double tolerance = 0.5 * epsilon * bsp_lower_bound(instance);
  auto best = try_guess(steps, capacity, hi);
  assert(best.has_value());
  // 200 halvings exhaust any double gap; the count only matters when the bound is 0 (every time 0).
  for (int iteration = 0; iteration < 200 && hi - lo > tolerance; ++iteration) {
    const double mid = lo + 0.5 * (hi - lo);
    if (mid <= lo || mid >= hi) break;
    if (auto accepted = try_guess(steps, capacity, mid)) {
      hi = mid;
      best = std::move(accepted);
    } else {
      lo = mid;
    }
  }
  return detail::bsp_schedule(instance, "bsp-a4", *best);
}

}  // namespace cosched::sched
