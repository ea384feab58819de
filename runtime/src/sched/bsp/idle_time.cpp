// A2 and A3 of seed 004 (Sec. 3.2): placements that reduce the idle time, over the tasks' interesting allocations.
// Fig. 1 is missing from the text; the reading (digest 004, Sec. 2.3; docs/scheduling.md "A2 and A3: the reading"):
//   * the partial schedule is the free capacity over time; a task on p processors goes to its earliest fit, the
//     first time p processors stay free for its whole duration — into a hole below the makespan if one is long
//     enough (the text restricts placements nowhere; "reducing the idle time ... by optimizing the placement");
//   * idle time = m * Cmax - work placed: the idle area inside [0, Cmax], holes included;
//   * A2 places the (task, allocation) with the smallest new idle time when it does not exceed the current one
//     (step 1), else the largest remaining task (by req * t(req), ties by index) on req processors (step 2);
//     A3 always places the smallest (step 2 never runs). Ties: the first task, then the fewest processors.
//   * no compaction afterwards: the placements are the schedule (Fig. 5 shows A3's schedule as such).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

#include "sched/bsp/placement.hpp"

namespace cosched::sched {

namespace {

enum class IdleRule { only_if_not_worse, always };  // A2, A3

// The free processors over time: segment k is [times_[k], times_[k+1]) with free_[k] processors free, the last one
// [times_.back(), +inf) with all of them (every placed task has ended by then).
class FreeProfile {
 public:
  explicit FreeProfile(int capacity)
      : capacity_(capacity), times_{0.0}, free_{capacity}, longest_(static_cast<std::size_t>(capacity) + 1),
        tail_start_(static_cast<std::size_t>(capacity) + 1) {}

  [[nodiscard]] double idle() const { return static_cast<double>(capacity_) * makespan_ - work_; }

  // Prepares idle_after for the current schedule: for every p, the longest stretch inside [0, Cmax) with p
  // processors free, and where the last stretch of p free processors (the one reaching Cmax) starts. O(K + m).
  void refresh() {
    const std::size_t segments = last_segment_before_makespan();
    std::fill(longest_.begin(), longest_.end(), 0.0);
    std::fill(tail_start_.begin(), tail_start_.end(), makespan_);
    // The longest stretch at threshold p is the widest interval around some segment k with free >= free_[k] for
    // that segment's own value (its minimum) — found for every k by two passes of a monotonic stack.
    left_.resize(segments);
    stack_.clear();
    for (std::size_t k = 0; k < segments; ++k) {
      while (!stack_.empty() && free_[stack_.back()] >= free_[k]) stack_.pop_back();
      left_[k] = stack_.empty() ? times_.front() : times_[stack_.back() + 1];
      stack_.push_back(k);
    }
    stack_.clear();
    for (std::size_t k = segments; k-- > 0;) {
      while (!stack_.empty() && free_[stack_.back()] >= free_[k]) stack_.pop_back();
      const double right = stack_.empty() ? makespan_ : times_[stack_.back()];
      stack_.push_back(k);
      auto& longest = longest_[static_cast<std::size_t>(free_[k])];
      longest = std::max(longest, right - left_[k]);
    }
    for (std::size_t procs = longest_.size() - 1; procs-- > 1;) {
      longest_[procs] = std::max(longest_[procs], longest_[procs + 1]);
    }
    // Walking back from Cmax, a segment with f free processors ends the tail stretch of every p > f.
    int least = capacity_;
    for (std::size_t k = segments; k-- > 0 && least > 0;) {
      for (int procs = free_[k] + 1; procs <= least; ++procs) {
        tail_start_[static_cast<std::size_t>(procs)] = times_[k + 1];
      }
      least = std::min(least, free_[k]);
    }
    for (int procs = 1; procs <= least; ++procs) tail_start_[static_cast<std::size_t>(procs)] = times_.front();
  }

  // The idle time after placing a task of `time` on `procs` processors at its earliest fit (after refresh()).
  // A fit inside [0, Cmax) leaves the makespan; else the task starts where the last stretch of `procs` free
  // processors starts.
  [[nodiscard]] double idle_after(int procs, double time) const {
    const auto p = static_cast<std::size_t>(procs);
    const double makespan = time <= longest_[p] ? makespan_ : tail_start_[p] + time;
    return static_cast<double>(capacity_) * makespan - (work_ + static_cast<double>(procs) * time);
  }

  // Places it at its earliest fit; returns its start.
  double place(int procs, double time) {
    const double start = earliest_fit(procs, time);
    const double end = start + time;
    const std::size_t first = split_at(start);
    const std::size_t last = split_at(end);
    for (std::size_t k = first; k < last; ++k) {
      free_[k] -= procs;
      assert(free_[k] >= 0);
    }
    makespan_ = std::max(makespan_, end);
    work_ += static_cast<double>(procs) * time;
    return start;
  }

 private:
  // The first t with `procs` processors free during [t, t + time): the start of the first stretch long enough
  // (the same differences of breakpoints refresh() compares).
  [[nodiscard]] double earliest_fit(int procs, double time) const {
    std::size_t begin = 0;
    for (std::size_t k = 0; k < times_.size(); ++k) {
      if (free_[k] < procs) {
        begin = k + 1;
        continue;
      }
      if (k + 1 == times_.size() || times_[k + 1] - times_[begin] >= time) return times_[begin];
    }
    assert(false && "the last segment has every processor free");
    return times_.back();
  }

  // Makes t a breakpoint; returns the index of the segment starting at t.
  std::size_t split_at(double t) {
    const auto after = std::upper_bound(times_.begin(), times_.end(), t);
    const auto k = static_cast<std::size_t>(after - times_.begin()) - 1;
    if (times_[k] == t) return k;
    times_.insert(after, t);
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(k) + 1, free_[k]);
    return k + 1;
  }

  // The number of segments inside [0, Cmax): Cmax is a breakpoint (a task's end) once anything is placed.
  [[nodiscard]] std::size_t last_segment_before_makespan() const {
    return static_cast<std::size_t>(std::lower_bound(times_.begin(), times_.end(), makespan_) - times_.begin());
  }

  int capacity_;
  std::vector<double> times_;  // ascending, times_[0] = 0
  std::vector<int> free_;
  double makespan_ = 0.0;
  double work_ = 0.0;
  // refresh(): indexed by processor count (0 unused), and scratch space.
  std::vector<double> longest_;
  std::vector<double> tail_start_;
  std::vector<double> left_;
  std::vector<std::size_t> stack_;
};

Schedule place_by_idle_time(const Instance& instance, IdleRule rule, const char* name) {
  assert(bsp_refusal(instance, name).empty());
  const std::vector<BspSteps> steps = bsp_steps(instance);
  const std::size_t n = steps.size();
  FreeProfile schedule(instance.space().capacity(0));
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
    schedule.refresh();
    double best_idle = std::numeric_limits<double>::infinity();
    std::size_t best_task = n;
    const BspStep* best_step = nullptr;
    for (std::size_t j = 0; j < n; ++j) {
      if (placed[j] != 0) continue;
      for (const BspStep& step : steps[j]) {
        const double idle = schedule.idle_after(step.procs, step.time);
        if (idle < best_idle) {
          best_idle = idle;
          best_task = j;
          best_step = &step;
        }
      }
    }
    const double now_idle = schedule.idle();
    // Idle times are differences of sums; equal in exact arithmetic may differ in the last bits.
    const bool not_worse = best_idle <= now_idle + 1e-12 * std::max(1.0, std::abs(now_idle) + std::abs(best_idle));
    if (rule == IdleRule::only_if_not_worse && !not_worse) {
      while (placed[largest[next_largest]] != 0) ++next_largest;
      best_task = largest[next_largest];
      best_step = &steps[best_task].back();
    }
    assert(best_task < n && best_step != nullptr);
    placements[best_task] = {best_step->procs, schedule.place(best_step->procs, best_step->time), best_step->time};
    placed[best_task] = 1;
  }
  return detail::bsp_schedule(instance, name, placements);
}

}  // namespace

Schedule bsp_a2(const Instance& instance) { return place_by_idle_time(instance, IdleRule::only_if_not_worse, "bsp-a2"); }
Schedule bsp_a3(const Instance& instance) { return place_by_idle_time(instance, IdleRule::always, "bsp-a3"); }

}  // namespace cosched::sched
