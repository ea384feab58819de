#include "online/policies/list_schedule.hpp"

#include <limits>

namespace cosched::online::policies {

ListSchedule::ListSchedule(const OnlineState& state)
    : cursor_(state.now), free_(state.free.begin(), state.free.end()) {
  std::vector<Holding> running;
  running.reserve(state.running.size());
  for (const RunningJob& job : state.running) running.push_back({freed_at(job.expected_end, state.now), job.alloc});
  holding_ = decltype(holding_)(std::greater<>(), std::move(running));
}

double ListSchedule::place(std::span<const int> demand, double duration) {
  while (!fits(demand, free_)) {
    if (holding_.empty()) return std::numeric_limits<double>::infinity();
    const Holding ending = holding_.top();
    holding_.pop();
    cursor_ = std::max(cursor_, ending.end);
    give_back(free_, ending.demand);
  }
  take(free_, demand);
  holding_.push({cursor_ + duration, demand});
  return cursor_;
}

}  // namespace cosched::online::policies
