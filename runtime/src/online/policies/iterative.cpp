// Iterative (Sabin et al., JSSPP 2006) and Improved Iterative (seed 000, Sec. 5.4): every pending job starts at its
// cheapest candidate; the jobs are scheduled by conservative backfilling in FCFS order (the paper's assumption);
// then, repeatedly, the job with the best step gets more resources, kept if the average flow time of the new
// backfilled schedule is smaller, otherwise undone and the job frozen. The two variants differ only in the step.
#include <cassert>
#include <limits>

#include "cosched/online/moldable.hpp"
#include "online/policies/moldable_policies.hpp"

namespace cosched::online {

namespace {

// A checkpoint of the profile every kCheckpointStride positions: a trial re-places the jobs from the changed one
// on, starting from the checkpoint before it plus at most kCheckpointStride - 1 replayed reservations.
constexpr std::size_t kCheckpointStride = 16;

class IterativeSearch {
 public:
  IterativeSearch(const OnlineState& state, CandidateCache& candidates, StepRule rule)
      : state_(state), rule_(rule), n_(state.pending.size()) {
    lists_.reserve(n_);
    for (std::size_t job : state.pending) lists_.push_back(&candidates.of(job));
    level_.assign(n_, 0);
    start_.resize(n_);
    trial_start_.resize(n_);
    step_to_.resize(n_);
    const std::size_t blocks = (n_ + kCheckpointStride - 1) / kCheckpointStride;
    const AvailabilityProfile running = running_profile(state);
    checkpoints_.assign(blocks, running);
    scratch_.assign(blocks, running);
    work_ = running;
    for (std::size_t q = 0; q < n_; ++q) {
      if (q % kCheckpointStride == 0) checkpoints_[q / kCheckpointStride] = work_;
      start_[q] = place(q, 0);
      update_step(q);
    }
  }

  IterativePlan run(std::size_t budget) {
    IterativePlan plan;
    double mean = mean_flow(start_, n_, 0);
    plan.accepted_mean_flows.push_back(mean);
    std::size_t placed = 0;
    for (;;) {
      const std::size_t q = best_step();
      if (q == n_) break;
      if (placed + (n_ - q) > budget) {
        plan.budget_exhausted = true;
        break;
      }
      placed += n_ - q;
      ++plan.trials;
      const std::size_t to = step_to_[q];
      replace_from(q, to);
      const double trial_mean = mean_flow(trial_start_, q, to);
      if (trial_mean < mean) {
        accept(q, to);
        mean = trial_mean;
        plan.accepted_mean_flows.push_back(mean);
        update_step(q);
      } else {
        step_to_[q] = lists_[q]->size();  // frozen: never tried again in this invocation
      }
    }
    plan.placements.reserve(n_);
    for (std::size_t q = 0; q < n_; ++q) {
      plan.placements.push_back(lists_[q]->placement(state_.pending[q], level_[q], start_[q]));
    }
    return plan;
  }

 private:
  double end_of(std::size_t q, std::size_t candidate, double start) const {
    return start + lists_[q]->time(candidate);
  }

  void reserve(std::size_t q, std::size_t candidate, double start) {
    const double end = end_of(q, candidate, start);
    if (end > start) work_.reserve(start, end, lists_[q]->alloc(candidate));
  }

  // Conservative backfilling: the earliest hole of work_ that holds the job for its whole duration.
  double place(std::size_t q, std::size_t candidate) {
    const CandidateList& list = *lists_[q];
    const double start = work_.earliest_fit(state_.now, list.time(candidate), list.alloc(candidate));
    reserve(q, candidate, start);
    return start;
  }

  // The schedule with job `changed` at candidate `to`, into trial_start_ (positions >= changed) and scratch_
  // (checkpoints after `changed`). Earlier jobs are placed before it in FCFS order and do not move.
  void replace_from(std::size_t changed, std::size_t to) {
    const std::size_t block = changed / kCheckpointStride;
    work_ = checkpoints_[block];
    for (std::size_t q = block * kCheckpointStride; q < changed; ++q) reserve(q, level_[q], start_[q]);
    for (std::size_t q = changed; q < n_; ++q) {
      if (q % kCheckpointStride == 0 && q > changed) scratch_[q / kCheckpointStride] = work_;
      trial_start_[q] = place(q, q == changed ? to : level_[q]);
    }
  }

  void accept(std::size_t changed, std::size_t to) {
    level_[changed] = to;
    for (std::size_t q = changed; q < n_; ++q) start_[q] = trial_start_[q];
    for (std::size_t block = changed / kCheckpointStride + 1; block < checkpoints_.size(); ++block) {
      std::swap(checkpoints_[block], scratch_[block]);
    }
  }

  // Mean flow time of the schedule whose positions before `changed` are the accepted ones and from `changed` on
  // are `starts` (job `changed` at candidate `to`; changed = n_: the accepted schedule). Summed in position order,
  // so the same schedule always gives the same value and an accepted step strictly lowers it.
  double mean_flow(const std::vector<double>& starts, std::size_t changed, std::size_t to) const {
    double sum = 0.0;
    for (std::size_t q = 0; q < n_; ++q) {
      const double start = q < changed ? start_[q] : starts[q];
      const std::size_t candidate = q == changed ? to : level_[q];
      sum += end_of(q, candidate, start) - state_.release(state_.pending[q]);
    }
    return sum / static_cast<double>(n_);
  }

  void update_step(std::size_t q) {
    const CandidateList& list = *lists_[q];
    if (level_[q] + 1 >= list.size()) {
      step_to_[q] = list.size();
      return;
    }
    step_to_[q] = rule_ == StepRule::next_candidate ? level_[q] + 1 : list.steepest_step(level_[q]);
  }

  double score(std::size_t q) const {
    const CandidateList& list = *lists_[q];
    return rule_ == StepRule::next_candidate ? list.time(level_[q]) - list.time(step_to_[q])
                                             : list.step_rate(level_[q], step_to_[q]);
  }

  // The job whose step scores highest (ties: the first in FCFS order); n_ when no job can step.
  std::size_t best_step() const {
    std::size_t best = n_;
    double best_score = -std::numeric_limits<double>::infinity();
    for (std::size_t q = 0; q < n_; ++q) {
      if (step_to_[q] >= lists_[q]->size()) continue;
      const double value = score(q);
      if (value > best_score) {
        best_score = value;
        best = q;
      }
    }
    return best;
  }

  const OnlineState& state_;
  StepRule rule_;
  std::size_t n_;
  std::vector<const CandidateList*> lists_;  // by position in state.pending (FCFS order)
  std::vector<std::size_t> level_;           // accepted candidate of each position
  std::vector<double> start_;                // accepted start of each position
  std::vector<double> trial_start_;
  std::vector<std::size_t> step_to_;         // candidate the next step goes to; list size: none (or frozen)
  std::vector<AvailabilityProfile> checkpoints_;  // [b]: the profile before position b * kCheckpointStride
  std::vector<AvailabilityProfile> scratch_;
  AvailabilityProfile work_{0.0, {}};
};

}  // namespace

IterativePlan iterative_plan(const OnlineState& state, CandidateCache& candidates, StepRule rule,
                             std::size_t placement_budget) {
  if (state.pending.empty()) return {};
  return IterativeSearch(state, candidates, rule).run(placement_budget);
}

namespace {

std::unique_ptr<OnlinePolicy> make_iterative_policy(std::string_view name, StepRule rule,
                                                    const OnlineWorkload& workload) {
  return std::make_unique<CandidatePolicy>(name, workload,
                                           [rule](const OnlineState& state, CandidateCache& candidates) {
                                             return iterative_plan(state, candidates, rule).placements;
                                           });
}

}  // namespace

std::unique_ptr<OnlinePolicy> make_iterative(const OnlineOptions& /*options*/, const OnlineWorkload& workload) {
  return make_iterative_policy("iterative", StepRule::next_candidate, workload);
}

std::unique_ptr<OnlinePolicy> make_improved_iterative(const OnlineOptions& /*options*/,
                                                      const OnlineWorkload& workload) {
  return make_iterative_policy("improved-iterative", StepRule::steepest, workload);
}

}  // namespace cosched::online
