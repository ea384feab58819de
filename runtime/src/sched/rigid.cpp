#include "cosched/sched/rigid.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <queue>

#include "cosched/common/invariant.hpp"

namespace cosched::sched {

namespace {

// Task indices sorted by duration; ties keep index order so every algorithm is deterministic.
std::vector<std::size_t> order_by_duration(const RigidTasks& tasks, bool longest_first) {
  std::vector<std::size_t> order(tasks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return longest_first ? tasks.duration[a] > tasks.duration[b] : tasks.duration[a] < tasks.duration[b];
  });
  return order;
}

bool fits(const int* demand, const int* free, std::size_t d) noexcept {
  for (std::size_t i = 0; i < d; ++i) {
    if (demand[i] > free[i]) return false;
  }
  return true;
}

struct Completion {
  double time;
  std::size_t task;
};
struct LaterCompletion {
  bool operator()(const Completion& a, const Completion& b) const noexcept {
    if (a.time != b.time) return a.time > b.time;
    return a.task > b.task;
  }
};

}  // namespace

RigidSchedule list_schedule(const RigidTasks& tasks, ListOrder order) {
  return list_schedule(tasks, order_by_duration(tasks, order == ListOrder::longest_first));
}

RigidSchedule list_schedule(const RigidTasks& tasks, std::vector<std::size_t> order) {
  const std::size_t n = tasks.size();
  const std::size_t d = tasks.capacities.size();
  assert(tasks.demand.size() == n * d);
  RigidSchedule schedule;
  schedule.start.assign(n, 0.0);
  assert(order.size() == n);
  std::vector<std::size_t> waiting = std::move(order);
  std::vector<int> free = tasks.capacities;
  std::vector<Completion> heap_storage;
  heap_storage.reserve(n);
  std::priority_queue<Completion, std::vector<Completion>, LaterCompletion> running(LaterCompletion{},
                                                                                    std::move(heap_storage));
  double now = 0.0;
  while (!waiting.empty()) {
    // Starting a task only shrinks what is free, so one pass in list order starts exactly the tasks that
    // "schedule the first task that fits" would start if repeated until nothing fits.
    std::size_t kept = 0;
    for (std::size_t position = 0; position < waiting.size(); ++position) {
      const std::size_t j = waiting[position];
      const int* demand = tasks.demand.data() + j * d;
      if (fits(demand, free.data(), d)) {
        for (std::size_t i = 0; i < d; ++i) free[i] -= demand[i];
        schedule.start[j] = now;
        running.push({now + tasks.duration[j], j});
      } else {
        waiting[kept++] = j;
      }
    }
    waiting.resize(kept);
    if (waiting.empty()) break;
    // Always checked: with nothing running and a task waiting, the loop would wait for a completion for ever.
    check_invariant(!running.empty(), "a waiting task fits no free resources while nothing runs (a demand above a "
                                      "capacity?)");
    now = running.top().time;
    while (!running.empty() && running.top().time == now) {
      const int* demand = tasks.demand.data() + running.top().task * d;
      for (std::size_t i = 0; i < d; ++i) free[i] += demand[i];
      running.pop();
    }
  }
  return schedule;
}

RigidSchedule pack_schedule(const RigidTasks& tasks, PackFit fit) {
  const std::size_t n = tasks.size();
  const std::size_t d = tasks.capacities.size();
  assert(tasks.demand.size() == n * d);
  RigidSchedule schedule;
  schedule.start.assign(n, 0.0);
  schedule.pack.assign(n, 0);
  std::vector<int> free;            // packs x d, what each pack still has
  std::vector<double> pack_length;  // duration of each pack's first (= longest) task
  for (std::size_t j : order_by_duration(tasks, /*longest_first=*/true)) {
    const int* demand = tasks.demand.data() + j * d;
    const std::size_t packs = pack_length.size();
    std::size_t chosen = packs;
    if (fit == PackFit::next_fit) {
      if (packs > 0 && fits(demand, free.data() + (packs - 1) * d, d)) chosen = packs - 1;
    } else {
      for (std::size_t m = 0; m < packs; ++m) {
        if (fits(demand, free.data() + m * d, d)) {
          chosen = m;
          break;
        }
      }
    }
    if (chosen == packs) {
      free.insert(free.end(), tasks.capacities.begin(), tasks.capacities.end());
      pack_length.push_back(tasks.duration[j]);
    }
    int* pack_free = free.data() + chosen * d;
    for (std::size_t i = 0; i < d; ++i) pack_free[i] -= demand[i];
    schedule.pack[j] = static_cast<int>(chosen);
  }
  std::vector<double> pack_start(pack_length.size(), 0.0);
  for (std::size_t m = 1; m < pack_length.size(); ++m) pack_start[m] = pack_start[m - 1] + pack_length[m - 1];
  for (std::size_t j = 0; j < n; ++j) schedule.start[j] = pack_start[static_cast<std::size_t>(schedule.pack[j])];
  return schedule;
}

}  // namespace cosched::sched
