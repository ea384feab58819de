// A Slurm-style multifactor priority with fair share (the baseline users know, next to OStrich, seed 002):
//   priority = 10000 x F + 1000 x A,
// F the classic fair-share factor 2^(-U/S) with equal shares among the users who have submitted and usage decayed
// with a 7-day half-life (fair_share.hpp), A the age factor min(wait / 7 days, 1) (Slurm's PriorityMaxAge
// default); the weights are those of Slurm's multifactor documentation example (PriorityWeightFairshare=10000,
// PriorityWeightAge=1000): fair share dominates, age only lifts jobs that have waited days. Pending jobs are taken
// in decreasing priority (ties: release order) and scheduled by EASY backfilling in that order — what Slurm's
// backfill scheduler does: the first job that does not fit gets a reservation, later ones start now only if they
// cannot delay it (policies/backfilling.cpp, with the users' estimates).
//
// Usage is charged for the time a job holds processors: at each plan, every job seen running (or started by the
// previous plan, which may have ended since) is charged from where it was last charged up to now or its end.
#include "online/policies/fairshare.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "cosched/online/fair_share.hpp"

namespace cosched::online::policies {

namespace {

constexpr double kWeightFairShare = 10000.0;
constexpr double kWeightAge = 1000.0;
constexpr double kMaxAge = 7.0 * 86400.0;

class FairSharePolicy final : public OnlinePolicy {
 public:
  explicit FairSharePolicy(SharedJobs jobs) : jobs_(std::move(jobs)), easy_(make_easy(jobs_)) {}
  [[nodiscard]] std::string_view name() const override { return "fairshare"; }

  void released(std::size_t job, const OnlineState& /*state*/) override {
    ledger_.add_user(jobs_->workload().arrivals[job].user);
  }

  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    charge_usage(state);
    std::vector<std::pair<double, std::size_t>> ranked;  // (priority, job), in release order
    ranked.reserve(state.pending.size());
    for (const std::size_t job : state.pending) ranked.emplace_back(priority_of(job, state), job);
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::size_t> order;
    order.reserve(ranked.size());
    for (const auto& entry : ranked) order.push_back(entry.second);
    const OnlineState by_priority{state.workload, state.now, order, state.running, state.free, state.releases};
    std::vector<Placement> placements = easy_->plan(by_priority);
    for (const Placement& placement : placements) {
      if (placement.start <= state.now) {
        tracked_[placement.job] = {state.now, placement.end, static_cast<double>(placement.alloc.front())};
      }
    }
    return placements;
  }

 private:
  struct Tracked {
    double charged_until;
    double end;
    double cores;
  };

  [[nodiscard]] double priority_of(std::size_t job, const OnlineState& state) const {
    const double age = std::min((state.now - state.release(job)) / kMaxAge, 1.0);
    return kWeightFairShare * ledger_.factor(jobs_->workload().arrivals[job].user) + kWeightAge * age;
  }

  void charge_usage(const OnlineState& state) {
    ledger_.advance(state.now);
    for (const RunningJob& running : state.running) {
      auto [found, inserted] = tracked_.try_emplace(
          running.job, Tracked{running.start, running.expected_end, static_cast<double>(running.alloc.front())});
      found->second.end = running.expected_end;
    }
    for (auto it = tracked_.begin(); it != tracked_.end();) {
      Tracked& job = it->second;
      const bool still_running = std::any_of(state.running.begin(), state.running.end(),
                                             [&](const RunningJob& running) { return running.job == it->first; });
      const double until = still_running ? state.now : std::clamp(job.end, job.charged_until, state.now);
      ledger_.charge(jobs_->workload().arrivals[it->first].user, job.cores, job.charged_until, until);
      job.charged_until = until;
      it = still_running ? std::next(it) : tracked_.erase(it);
    }
  }

  SharedJobs jobs_;
  std::unique_ptr<OnlinePolicy> easy_;
  FairShareLedger ledger_;
  std::map<std::size_t, Tracked> tracked_;
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_fairshare(SharedJobs jobs) { return std::make_unique<FairSharePolicy>(std::move(jobs)); }

}  // namespace cosched::online::policies
