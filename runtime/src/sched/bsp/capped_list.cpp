// A1 of seed 004 (Sec. 3.2, Algorithm 1): Largest Task First list scheduling with the processor cap swept.
#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>
#include <numeric>
#include <queue>

#include "cosched/common/invariant.hpp"
#include "sched/bsp/placement.hpp"

namespace cosched::sched {

namespace {

// Garey-Graham list scheduling of rigid one-resource tasks: at time 0 and at every completion, start every listed
// task that fits the free processors, in list order (later tasks may pass earlier ones that do not fit). The
// first listed task of at most f processors is found in O(log m) by a min-tree over the processor counts holding
// the list position of each count's first waiting task, so a schedule costs O(n log m) instead of O(n^2).
class ListScheduler {
 public:
  explicit ListScheduler(int capacity)
      : capacity_(capacity), leaves_(std::bit_ceil(static_cast<std::size_t>(capacity) + 1)),
        tree_(2 * leaves_, kNone), queues_(static_cast<std::size_t>(capacity) + 1) {}

  // Start times of `placements` (procs and durations set), listed in `order`; returns the makespan.
  double run(const std::vector<std::size_t>& order, std::vector<detail::BspPlacement>& placements) {
    for (auto& queue : queues_) queue.clear();
    head_.assign(queues_.size(), 0);
    for (std::size_t position = 0; position < order.size(); ++position) {
      queues_[static_cast<std::size_t>(placements[order[position]].procs)].push_back(position);
    }
    std::fill(tree_.begin(), tree_.end(), kNone);
    for (std::size_t procs = 1; procs < queues_.size(); ++procs) update(procs);
    std::priority_queue<Completion, std::vector<Completion>, std::greater<>> running;
    int free = capacity_;
    double now = 0.0;
    double makespan = 0.0;
    std::size_t waiting = order.size();
    while (waiting > 0) {
      for (std::size_t position; free > 0 && (position = first_fitting(free)) != kNone;) {
        detail::BspPlacement& task = placements[order[position]];
        const auto procs = static_cast<std::size_t>(task.procs);
        ++head_[procs];
        update(procs);
        --waiting;
        free -= task.procs;
        task.start = now;
        const double end = now + task.duration;
        makespan = std::max(makespan, end);
        running.push({end, task.procs});
      }
      if (waiting == 0) break;
      // Always checked: with nothing running and a task waiting, the loop would wait for a completion for ever.
      check_invariant(!running.empty(), "a waiting BSP task fits no free processors while nothing runs");
      now = running.top().time;
      while (!running.empty() && running.top().time == now) {
        free += running.top().procs;
        running.pop();
      }
    }
    return makespan;
  }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  struct Completion {
    double time;
    int procs;
    bool operator>(const Completion& other) const noexcept { return time > other.time; }
  };

  void update(std::size_t procs) {
    const auto& queue = queues_[procs];
    std::size_t node = leaves_ + procs;
    tree_[node] = head_[procs] < queue.size() ? queue[head_[procs]] : kNone;
    for (node /= 2; node >= 1; node /= 2) tree_[node] = std::min(tree_[2 * node], tree_[2 * node + 1]);
  }

  // The smallest list position among the counts 1..free (count 0 never holds a task).
  [[nodiscard]] std::size_t first_fitting(int free) const {
    std::size_t best = kNone;
    std::size_t lo = leaves_ + 1;
    std::size_t hi = leaves_ + static_cast<std::size_t>(free) + 1;  // half-open
    for (; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) best = std::min(best, tree_[lo++]);
      if (hi & 1) best = std::min(best, tree_[--hi]);
    }
    return best;
  }

  int capacity_;
  std::size_t leaves_;
  std::vector<std::size_t> tree_;
  std::vector<std::vector<std::size_t>> queues_;  // per processor count, list positions ascending
  std::vector<std::size_t> head_;
};

}  // namespace

Schedule bsp_a1(const Instance& instance) {
  assert(bsp_refusal(instance, "bsp-a1").empty());
  const std::vector<BspSteps> steps = bsp_steps(instance);
  const int capacity = instance.space().capacity(0);
  const std::size_t n = steps.size();
  ListScheduler scheduler(capacity);
  std::vector<detail::BspPlacement> placements(n);
  std::vector<detail::BspPlacement> best;
  double best_makespan = std::numeric_limits<double>::infinity();
  std::vector<std::size_t> order(n);
  std::vector<double> work(n);
  for (int cap = 1; cap <= capacity; ++cap) {
    // Algorithm 1: a task asking for more than the cap runs on the cap, ceil(req/cap) times longer. Faithful to
    // the text, the cap is not shrunk to its interesting allocation (req 7, cap 6: 6 processors for time 2).
    for (std::size_t j = 0; j < n; ++j) {
      const int procs = std::min(steps[j].back().procs, cap);
      placements[j] = {procs, 0.0, detail::step_within(steps[j], procs).time};
      work[j] = static_cast<double>(procs) * placements[j].duration;
    }
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
    const double makespan = scheduler.run(order, placements);
    if (makespan < best_makespan) {  // ties keep the smaller cap
      best_makespan = makespan;
      best = placements;
    }
  }
  return detail::bsp_schedule(instance, "bsp-a1", best);
}

}  // namespace cosched::sched
