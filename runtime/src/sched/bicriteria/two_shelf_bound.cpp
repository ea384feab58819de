// The makespan lower bound of the Mounié–Rapine–Trystram dual approximation ([7] of seed 001, the paper's C_max
// reference), on one resource of m processors. For a guess λ, with γ(h) the fewest processors reaching time h and
// A(h) the least work k t(k) over the k reaching h:
//   every task goes to the first shelf (γ(λ) processors, work A(λ)) or, if it can, to the second (work A(λ/2));
//   minimise the total work subject to sum over the first shelf of γ(λ) <= m (a knapsack);
//   reject λ when some task cannot reach λ, or the first shelf cannot fit, or the least work exceeds m λ.
// Why a rejection proves C* > λ, for ANY times (no monotony needed): in a schedule of length C* <= λ, a task longer
// than λ/2 runs at the instant λ/2, so those tasks' processor counts sum to <= m, and each uses >= γ(λ) processors
// and >= A(λ) work; every other task ends within λ/2, so its work is >= A(λ/2); the total work is <= m C* <= m λ.
// So the schedule maps to a knapsack solution of work <= m λ. On monotone tasks (work non-decreasing in k) A(h) is
// the work at γ(h), tasks with t(1) <= λ/2 cost t(1) on either shelf, and this is exactly MRT's test.
// The least work W(λ) only falls as λ grows, so the rejected guesses are all those below some λ*: the bound.
#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/common/error.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "cosched/common/compensated_sum.hpp"

namespace cosched::sched {

namespace {

// The staircases (24 bytes a step) and the breakpoints (16 bytes a step) are held in memory: at most n (m + 1) =
// 2^22 table entries (160 MiB in the worst case; the paper's n = 400, m = 200 is 80,400).
constexpr std::size_t kMaxTableEntries = std::size_t{1} << 22;

// One step of a task's staircase: the fewest processors `count` reaching `time` (times strictly decrease along the
// steps), and the least work k t(k) over every k >= count, i.e. over every k reaching `time` (non-increasing times).
struct Step {
  int count;
  double time;
  double least_work;
};

class Staircases {
 public:
  explicit Staircases(const Instance& instance) {
    const AllocationSpace& space = instance.space();
    std::vector<double> times(space.size());
    first_.push_back(0);
    for (const Task& task : instance.tasks()) {
      task.profile->fill_times(space, times);
      const std::size_t begin = steps_.size();
      for (std::size_t k = 0; k < times.size(); ++k) {
        // Within a plateau the first count has the least work: only the steps matter.
        if (std::isfinite(times[k]) && (steps_.size() == begin || times[k] < steps_.back().time)) {
          steps_.push_back({static_cast<int>(k), times[k], static_cast<double>(k) * times[k]});
        }
      }
      if (steps_.size() == begin) {
        throw InputError("task \"" + task.id + "\"",
                         "cannot run with any allocation (every execution time is infinite)");
      }
      for (std::size_t s = steps_.size(); s-- > begin + 1;) {
        steps_[s - 1].least_work = std::min(steps_[s - 1].least_work, steps_[s].least_work);
      }
      first_.push_back(steps_.size());
    }
  }

  // The step of `task` with the fewest processors and a time <= limit; nullptr when even the fastest is longer.
  [[nodiscard]] const Step* within(std::size_t task, double limit) const {
    const auto begin = steps_.begin() + static_cast<std::ptrdiff_t>(first_[task]);
    const auto end = steps_.begin() + static_cast<std::ptrdiff_t>(first_[task + 1]);
    const auto found = std::partition_point(begin, end, [&](const Step& step) { return step.time > limit; });
    return found == end ? nullptr : &*found;
  }

  [[nodiscard]] std::size_t tasks() const { return first_.size() - 1; }

  // Where some γ(λ), A(λ), γ(λ/2) or A(λ/2) changes: every step time and its double, sorted, without repeats.
  // Between two consecutive ones the least work is constant (every test is "time <= limit": right-continuous).
  [[nodiscard]] std::vector<double> breakpoints() const {
    std::vector<double> points;
    points.reserve(2 * steps_.size());
    for (const Step& step : steps_) {
      points.push_back(step.time);
      points.push_back(2 * step.time);
    }
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    return points;
  }

 private:
  std::vector<Step> steps_;
  std::vector<std::size_t> first_;  // task j's steps: [first_[j], first_[j + 1])
};

// The least total work W(λ) of the two-shelf knapsack; empty when λ is rejected without it (a task that cannot
// reach λ, or first-shelf-only tasks wider than m together).
std::optional<double> least_work(const Staircases& staircases, double guess, int processors) {
  const std::size_t n = staircases.tasks();
  std::vector<const Step*> first_shelf(n);
  std::vector<const Step*> second_shelf(n);
  long long forced = 0;
  for (std::size_t j = 0; j < n; ++j) {
    first_shelf[j] = staircases.within(j, guess);
    if (first_shelf[j] == nullptr) return std::nullopt;
    second_shelf[j] = staircases.within(j, guess / 2);
    if (second_shelf[j] == nullptr) forced += first_shelf[j]->count;
  }
  if (forced > processors) return std::nullopt;
  const int room = processors - static_cast<int>(forced);
  // Everything starts on the second shelf where it can; moving a task to the first saves work at the price of
  // γ(λ) processors of the room left: a max-saving knapsack (items that do not fit or save nothing never move).
  std::vector<bool> on_first(n, false);
  std::vector<KnapsackItem> items;
  std::vector<std::size_t> item_task;
  for (std::size_t j = 0; j < n; ++j) {
    if (second_shelf[j] == nullptr) {
      on_first[j] = true;
      continue;
    }
    const double saving = second_shelf[j]->least_work - first_shelf[j]->least_work;
    if (saving <= 0 || first_shelf[j]->count > room) continue;
    if (first_shelf[j]->count == 0) {
      on_first[j] = true;
      continue;
    }
    items.push_back({{first_shelf[j]->count}, saving});
    item_task.push_back(j);
  }
  if (room > 0 && !items.empty()) {
    for (std::size_t i : max_weight_knapsack(items, {room})) on_first[item_task[i]] = true;
  }
  CompensatedSum work;
  for (std::size_t j = 0; j < n; ++j) work.add((on_first[j] ? first_shelf[j] : second_shelf[j])->least_work);
  return work.value();
}

}  // namespace

std::optional<double> two_shelf_lower_bound(const Instance& instance) {
  if (instance.dimensions() != 1) return std::nullopt;
  const int m = instance.space().capacity(0);
  if (instance.task_count() == 0) return 0.0;
  if (instance.task_count() > kMaxTableEntries / instance.space().size()) return std::nullopt;
  const Staircases staircases(instance);
  const std::vector<double> points = staircases.breakpoints();
  // W is constant on [points[a], points[a + 1]); λ there is accepted iff W <= m λ. Accepted guesses form an
  // up-set, so "interval a holds an accepted guess" (W < m points[a + 1]) is monotone in a: binary search for the
  // first such interval; the bound is its smallest accepted guess. The last interval always holds one: at twice
  // the longest step time every task reaches λ/2, so nothing is forced and W is finite.
  const double mf = static_cast<double>(m);
  const auto holds_accepted = [&](std::size_t a) {
    const std::optional<double> work = least_work(staircases, points[a], m);
    const double next = a + 1 < points.size() ? points[a + 1] : std::numeric_limits<double>::infinity();
    return work.has_value() && *work < mf * next;
  };
  std::size_t low = 0;
  std::size_t high = points.size() - 1;  // holds_accepted(high) is true
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (holds_accepted(middle)) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return std::max(points[low], *least_work(staircases, points[low], m) / mf);
}

}  // namespace cosched::sched
