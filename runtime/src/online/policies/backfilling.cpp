// The batch-system baselines: EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001) and conservative
// backfilling. Both plan with the user's estimates (the SWF requested time; the job's time when it has none):
// a running job ends at start + estimate, never before now (freed_at), and a pending job is planned for its
// estimate. The placements still carry end = start + the job's time (the Placement contract). With estimates
// below the real times the promises below can be broken, as on a real batch system.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "cosched/online/availability.hpp"
#include "online/policies/policies.hpp"

namespace cosched::online::policies {

namespace {

// Amounts held until a time: a running job's allocation until its estimated end.
using Release = std::pair<double, std::span<const int>>;

void sort_by_time(std::vector<Release>& releases) {
  std::sort(releases.begin(), releases.end(), [](const Release& a, const Release& b) { return a.first < b.first; });
}

// The running jobs' releases by the users' estimates.
std::vector<Release> estimated_releases(const ReferenceJobs& jobs, const OnlineState& state) {
  std::vector<Release> releases;
  releases.reserve(state.running.size());
  for (const RunningJob& running : state.running) {
    const bool has_estimate = jobs.workload().arrivals[running.job].estimate.has_value();
    const double end = has_estimate ? running.start + jobs.estimate(running.job) : running.expected_end;
    releases.emplace_back(freed_at(end, state.now), running.alloc);
  }
  return releases;
}

// The running jobs' holdings (releases sorted by time) as a staircase: between consecutive ends, what is still
// held, one segment at a time — O(m) segments touched instead of O(m^2) with one reservation from now per job.
void hold_running(AvailabilityProfile& profile, const std::vector<Release>& releases) {
  std::vector<int> held(profile.dimensions(), 0);
  for (const Release& release : releases) give_back(held, release.second);
  double from = profile.origin();
  for (const Release& release : releases) {
    if (release.first > from) {
      profile.reserve(from, release.first, held);
      from = release.first;
    }
    take(held, release.second);
  }
}

// EASY: jobs start in release order while they fit; the first that does not (the head) gets a reservation at the
// earliest time enough resources are free for it (the shadow time), and a later job may start now when it fits
// now and cannot delay that reservation: it ends (by its estimate) by the shadow time, or it only uses what the
// head leaves free at the shadow time ("extra"), in every resource. The plan holds the jobs started now and the
// head's reservation; the other pending jobs are not planned.
class EasyPolicy final : public OnlinePolicy {
 public:
  explicit EasyPolicy(SharedJobs jobs) : jobs_(std::move(jobs)) {}
  [[nodiscard]] std::string_view name() const override { return "easy"; }

  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    const ReferenceJobs& jobs = *jobs_;
    std::vector<int> free(state.free.begin(), state.free.end());
    std::vector<Placement> placements;
    std::size_t head = 0;
    for (; head < state.pending.size() && fits(jobs.demand(state.pending[head]), free); ++head) {
      const std::size_t job = state.pending[head];
      take(free, jobs.demand(job));
      placements.push_back(jobs.placement(job, state.now));
    }
    // Most events end here (every pending job fits): the running jobs' ends are only needed for a shadow time.
    if (head == state.pending.size()) return placements;

    // The shadow time: walk the estimated ends until the head fits; all that ends at that instant is free there.
    std::vector<Release> releases = estimated_releases(jobs, state);
    for (std::size_t position = 0; position < head; ++position) {
      const std::size_t job = state.pending[position];
      releases.emplace_back(state.now + jobs.estimate(job), jobs.demand(job));
    }
    const std::size_t head_job = state.pending[head];
    const std::span<const int> head_demand = jobs.demand(head_job);
    sort_by_time(releases);
    std::vector<int> extra = free;
    double shadow = state.now;
    std::size_t k = 0;
    while (k < releases.size() && !fits(head_demand, extra)) {
      shadow = releases[k].first;
      for (; k < releases.size() && releases[k].first == shadow; ++k) give_back(extra, releases[k].second);
    }
    assert(fits(head_demand, extra));  // every job fits the machine: the policies' parts make sure of it
    take(extra, head_demand);
    placements.push_back(jobs.placement(head_job, shadow));

    for (std::size_t position = head + 1; position < state.pending.size(); ++position) {
      const std::size_t job = state.pending[position];
      const std::span<const int> demand = jobs.demand(job);
      if (!fits(demand, free)) continue;
      const bool ends_by_shadow = state.now + jobs.estimate(job) <= shadow;
      if (!ends_by_shadow && !fits(demand, extra)) continue;
      take(free, demand);
      if (!ends_by_shadow) take(extra, demand);
      placements.push_back(jobs.placement(job, state.now));
    }
    return placements;
  }

 private:
  SharedJobs jobs_;
};

// Conservative: every pending job gets a reservation at the earliest hole of the availability profile that holds
// it for its estimate, and a reservation never moves an earlier one; the jobs whose reservation is now start.
// Re-planning compresses the schedule (Mu'alem & Feitelson): the jobs are placed again in the order of the starts
// they were promised (then the new ones, in release order), each at its earliest hole. A job's promised slot is
// still free when its turn comes — the jobs placed before it only moved earlier, so they hold no more of that slot
// than before — so no promise is ever broken while estimates are not exceeded. Planning stops once nothing can
// start now any more (no pending job fits the amounts still free now): the later jobs keep their promises, and
// computing them again would make every event cost a full profile pass.
class ConservativePolicy final : public OnlinePolicy {
 public:
  explicit ConservativePolicy(SharedJobs jobs)
      : jobs_(std::move(jobs)), promised_(jobs_->size(), std::numeric_limits<double>::infinity()) {}
  [[nodiscard]] std::string_view name() const override { return "conservative"; }

  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    const ReferenceJobs& jobs = *jobs_;
    AvailabilityProfile profile(state.now, capacity_of(state));
    std::vector<Release> releases = estimated_releases(jobs, state);
    sort_by_time(releases);
    hold_running(profile, releases);
    // The least demand of each resource over the pending jobs: when a resource's free amount falls below it, no
    // pending job can start now.
    std::vector<int> least(jobs.dimensions(), std::numeric_limits<int>::max());
    for (const std::size_t job : state.pending) {
      const std::span<const int> demand = jobs.demand(job);
      for (std::size_t i = 0; i < least.size(); ++i) least[i] = std::min(least[i], demand[i]);
    }
    std::vector<std::size_t> order(state.pending.begin(), state.pending.end());
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return promised_[a] < promised_[b]; });
    std::vector<int> free_now(state.free.begin(), state.free.end());
    std::vector<Placement> placements;
    for (const std::size_t job : order) {
      if (!fits(least, free_now)) break;
      const std::span<const int> demand = jobs.demand(job);
      const double duration = jobs.estimate(job);
      const double start = profile.earliest_fit(state.now, duration, demand);
      assert(std::isfinite(start));
      profile.reserve(start, start + duration, demand);
      if (start == state.now) take(free_now, demand);
      promised_[job] = start;
      placements.push_back(jobs.placement(job, start));
    }
    return placements;
  }

 private:
  SharedJobs jobs_;
  std::vector<double> promised_;  // per job: the start its latest reservation promised (+inf: none yet)
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_easy(SharedJobs jobs) { return std::make_unique<EasyPolicy>(std::move(jobs)); }

std::unique_ptr<OnlinePolicy> make_conservative(SharedJobs jobs) {
  return std::make_unique<ConservativePolicy>(std::move(jobs));
}

}  // namespace cosched::online::policies
