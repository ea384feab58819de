// MoldableEDF(S), Algorithm 2 lines 9-19 of seed 000, over allocation vectors in cost order.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "cosched/common/constants.hpp"
#include "cosched/online/moldable.hpp"

namespace cosched::online {

MoldableEdf::MoldableEdf(const OnlineState& state, CandidateCache& candidates)
    : state_(state), running_(running_profile(state)), profile_(running_) {
  lists_.reserve(state.pending.size());
  for (std::size_t job : state.pending) lists_.push_back(&candidates.of(job));
  deadlines_.resize(state.pending.size());
  order_.resize(state.pending.size());
}

double MoldableEdf::stretch_lower_bound() const {
  double bound = 0.0;
  for (std::size_t q = 0; q < lists_.size(); ++q) {
    const std::size_t job = state_.pending[q];
    const double fastest = lists_[q]->time(lists_[q]->size() - 1);
    bound = std::max(bound, state_.stretch_at(job, state_.now + fastest));
  }
  return bound;
}

MoldableEdfPlan MoldableEdf::run(double stretch, WhenLate when_late) {
  ++calls_;
  const OnlineWorkload& workload = state_.workload;
  const double now = state_.now;
  for (std::size_t q = 0; q < lists_.size(); ++q) {
    const std::size_t job = state_.pending[q];
    deadlines_[q] = state_.release(job) + stretch * workload.reference_time[job];
  }
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  // Ties in deadline: release order (pending is in release order).
  std::sort(order_.begin(), order_.end(), [this](std::size_t a, std::size_t b) {
    return deadlines_[a] != deadlines_[b] ? deadlines_[a] < deadlines_[b] : a < b;
  });
  profile_ = running_;

  MoldableEdfPlan plan;
  plan.choices.reserve(lists_.size());
  for (std::size_t q : order_) {
    const CandidateList& list = *lists_[q];
    const double deadline = deadlines_[q];
    std::size_t chosen = list.size();
    double start = kInfinity;
    // Line 14-18: the cheapest candidate that can still end by the deadline.
    for (std::size_t k = list.first_within(deadline - now); k < list.size(); ++k) {
      start = profile_.earliest_fit(now, list.time(k), list.alloc(k), deadline - list.time(k));
      if (start < kInfinity) {
        chosen = k;
        break;
      }
    }
    if (chosen == list.size()) {
      plan.feasible = false;
      if (when_late == WhenLate::stop) return plan;
      double best_end = kInfinity;
      for (std::size_t k = 0; k < list.size(); ++k) {
        const double fit = profile_.earliest_fit(now, list.time(k), list.alloc(k));
        if (fit + list.time(k) < best_end) {
          best_end = fit + list.time(k);
          chosen = k;
          start = fit;
        }
      }
    }
    const double end = start + list.time(chosen);
    if (end > start) profile_.reserve(start, end, list.alloc(chosen));
    plan.choices.push_back({q, chosen, start});
    plan.max_stretch = std::max(plan.max_stretch, state_.stretch_at(state_.pending[q], end));
  }
  return plan;
}

std::vector<Placement> MoldableEdf::placements(const MoldableEdfPlan& plan) const {
  std::vector<Placement> placements;
  placements.reserve(plan.choices.size());
  for (const MoldableEdfPlan::Choice& choice : plan.choices) {
    placements.push_back(
        lists_[choice.position]->placement(state_.pending[choice.position], choice.candidate, choice.start));
  }
  return placements;
}

}  // namespace cosched::online
