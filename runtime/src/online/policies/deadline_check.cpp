#include "online/policies/deadline_check.hpp"

#include <algorithm>
#include <cmath>

#include "cosched/online/dasedf.hpp"

namespace cosched::online::policies {

namespace {

const double kGridStep = std::log1p(kDasedfTolerance);

// The smallest k >= 0 with grid_point(k) >= value.
std::int64_t grid_index_at_least(double value) {
  if (!(value > 1.0)) return 0;
  auto k = static_cast<std::int64_t>(std::ceil(std::log(value) / kGridStep));
  while (grid_point(k) < value) ++k;
  while (k > 0 && grid_point(k - 1) >= value) --k;
  return k;
}

}  // namespace

double grid_point(std::int64_t k) { return std::exp(static_cast<double>(k) * kGridStep); }

DeadlineCheck::DeadlineCheck(const ReferenceJobs& jobs, const OnlineState& state) {
  const std::size_t n = state.pending.size();
  waited_.reserve(n);
  time_.reserve(n);
  work_.reserve(n);
  for (const std::size_t job : state.pending) {
    const double time = jobs.time(job);
    waited_.push_back(state.now - state.release(job));
    time_.push_back(time);
    work_.push_back(static_cast<double>(jobs.demand(job)[0]) * time);
    lower_bound_ = std::max(lower_bound_, (waited_.back() + time) / time);
  }
  for (const RunningJob& running : state.running) {
    if (running.alloc[0] > 0) {
      busy_.emplace_back(freed_at(running.expected_end, state.now) - state.now, running.alloc[0]);
    }
  }
  std::sort(busy_.begin(), busy_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  idle_ = state.free[0];
}

void DeadlineCheck::sort_at(double stretch) {
  keys_.resize(time_.size());
  for (std::size_t k = 0; k < time_.size(); ++k) {
    keys_[k] = {stretch * time_[k] - waited_[k], static_cast<std::uint32_t>(k)};
  }
  std::sort(keys_.begin(), keys_.end(), [](const Key& a, const Key& b) {
    return a.deadline < b.deadline || (a.deadline == b.deadline && a.position < b.position);
  });
}

bool DeadlineCheck::passes(double stretch) {
  if (stretch < lower_bound_) return false;
  sort_at(stretch);
  // cap(D) = slope * D - offset over the processors free before D (idle ones since now).
  double slope = idle_;
  double offset = 0.0;
  double work = 0.0;
  std::size_t freed = 0;
  for (const Key& key : keys_) {
    for (; freed < busy_.size() && busy_[freed].first < key.deadline; ++freed) {
      slope += busy_[freed].second;
      offset += busy_[freed].second * busy_[freed].first;
    }
    work += work_[key.position];
    if (work > slope * key.deadline - offset) return false;
  }
  return true;
}

std::vector<std::size_t> DeadlineCheck::deadline_order(double stretch) {
  sort_at(stretch);
  std::vector<std::size_t> order;
  order.reserve(keys_.size());
  for (const Key& key : keys_) order.push_back(key.position);
  return order;
}

std::int64_t smallest_passing(DeadlineCheck& check, std::int64_t hint) {
  const std::int64_t floor = grid_index_at_least(check.lower_bound());  // floor - 1 fails by the lower bound
  const auto passes = [&check](std::int64_t k) { return check.passes(grid_point(k)); };
  std::int64_t failing = floor - 1;
  std::int64_t passing = std::max(hint, floor);
  if (passes(passing)) {
    for (std::int64_t step = 1; passing > floor; step *= 2) {
      const std::int64_t candidate = std::max(passing - step, floor);
      if (!passes(candidate)) {
        failing = candidate;
        break;
      }
      passing = candidate;
    }
  } else {
    failing = passing;
    for (std::int64_t step = 1;; step *= 2) {
      passing = failing + step;
      if (passes(passing)) break;
      failing = passing;
    }
  }
  while (passing - failing > 1) {
    const std::int64_t middle = failing + (passing - failing) / 2;
    (passes(middle) ? passing : failing) = middle;
  }
  return passing;
}

}  // namespace cosched::online::policies
