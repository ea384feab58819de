// A2 and A3 of seed 004 (Sec. 3.2): placements that reduce the idle time, over the tasks' interesting allocations.
// Fig. 1 is missing from the text; the reading (digest 004, Sec. 2.3; docs/scheduling.md):
//   * the partial schedule is a frontier: each processor is free from avail[k] on (no backfilling into holes);
//   * placing a task on p processors starts it at s = the p-th smallest avail, on the p processors free by s that
//     are free the latest (best fit: the smallest new hole);
//   * idle time = m * Cmax - work placed: the idle area inside [0, Cmax], holes included;
//   * A2 places the (task, allocation) with the smallest new idle time when it does not exceed the current one
//     (step 1), else the largest remaining task (by req * t(req), ties by index) on req processors (step 2);
//     A3 always places the smallest (step 2 never runs). Ties: the first task, then the fewest processors.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

#include "sched/bsp/placement.hpp"

namespace cosched::sched {

namespace {

enum class IdleRule { only_if_not_worse, always };  // A2, A3

class Frontier {
 public:
  explicit Frontier(int capacity) : avail_(static_cast<std::size_t>(capacity), 0.0) {}

  [[nodiscard]] double start_on(int procs) const { return avail_[static_cast<std::size_t>(procs) - 1]; }
  [[nodiscard]] double idle() const { return capacity() * makespan_ - work_; }
  // The idle time after placing a task of `time` on `procs` processors.
  [[nodiscard]] double idle_after(int procs, double time) const {
    const double end = start_on(procs) + time;
    return capacity() * std::max(makespan_, end) - (work_ + static_cast<double>(procs) * time);
  }
  // Places it; returns its start.
  double place(int procs, double time) {
    const double start = start_on(procs);
    const double end = start + time;
    // Best fit: the `procs` processors with the latest avail <= start, i.e. the ranks just below the first avail
    // > start; they become free at `end` (the vector stays sorted).
    const auto last = std::upper_bound(avail_.begin(), avail_.end(), start);
    avail_.erase(last - procs, last);
    avail_.insert(std::upper_bound(avail_.begin(), avail_.end(), end), static_cast<std::size_t>(procs), end);
    makespan_ = std::max(makespan_, end);
    work_ += static_cast<double>(procs) * time;
    return start;
  }

 private:
  [[nodiscard]] double capacity() const { return static_cast<double>(avail_.size()); }

  std::vector<double> avail_;  // ascending
  double makespan_ = 0.0;
  double work_ = 0.0;
};

Schedule place_by_idle_time(const Instance& instance, IdleRule rule, const char* name) {
  assert(bsp_refusal(instance, name).empty());
  const std::vector<BspSteps> steps = bsp_steps(instance);
  const std::size_t n = steps.size();
  Frontier frontier(instance.space().capacity(0));
  std::vector<detail::BspPlacement> placements(n);
  // Step 2's list: largest req * t(req) first.
  std::vector<std::size_t> largest(n);
  std::iota(largest.begin(), largest.end(), std::size_t{0});
  const auto work_at_req = [&](std::size_t j) {
    return static_cast<double>(steps[j].back().procs) * steps[j].back().time;
  };
  std::stable_sort(largest.begin(), largest.end(),
                   [&](std::size_t a, std::size_t b) { return work_at_req(a) > work_at_req(b); });
  std::vector<char> placed(n, 0);
  std::size_t next_largest = 0;
  for (std::size_t round = 0; round < n; ++round) {
    double best_idle = std::numeric_limits<double>::infinity();
    std::size_t best_task = n;
    const BspStep* best_step = nullptr;
    for (std::size_t j = 0; j < n; ++j) {
      if (placed[j] != 0) continue;
      for (const BspStep& step : steps[j]) {
        const double idle = frontier.idle_after(step.procs, step.time);
        if (idle < best_idle) {
          best_idle = idle;
          best_task = j;
          best_step = &step;
        }
      }
    }
    const double now_idle = frontier.idle();
    // Idle times are differences of sums; equal in exact arithmetic may differ in the last bits.
    const bool not_worse = best_idle <= now_idle + 1e-12 * std::max(1.0, std::abs(now_idle) + std::abs(best_idle));
    if (rule == IdleRule::only_if_not_worse && !not_worse) {
      while (placed[largest[next_largest]] != 0) ++next_largest;
      best_task = largest[next_largest];
      best_step = &steps[best_task].back();
    }
    assert(best_task < n && best_step != nullptr);
    placements[best_task] = {best_step->procs, frontier.place(best_step->procs, best_step->time), best_step->time};
    placed[best_task] = 1;
  }
  return detail::bsp_schedule(instance, name, placements);
}

}  // namespace

Schedule bsp_a2(const Instance& instance) { return place_by_idle_time(instance, IdleRule::only_if_not_worse, "bsp-a2"); }
Schedule bsp_a3(const Instance& instance) { return place_by_idle_time(instance, IdleRule::always, "bsp-a3"); }

}  // namespace cosched::sched
