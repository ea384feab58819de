// DASEDF (seed 000, Sec. 3.2): at every event, the smallest target stretch S that passes the deadline check
// (deadline_check.hpp), then EDF with the deadlines r_i + S * p_i; the jobs EDF starts now are started.
#include "cosched/online/dasedf.hpp"

#include "online/policies/deadline_check.hpp"
#include "online/policies/list_schedule.hpp"
#include "online/policies/policies.hpp"

namespace cosched::online {

namespace policies {

namespace {

std::vector<Placement> edf(const ReferenceJobs& jobs, const OnlineState& state,
                           const std::vector<std::size_t>& deadline_order) {
  ListSchedule schedule(state);
  std::vector<Placement> placements;
  placements.reserve(deadline_order.size());
  for (const std::size_t position : deadline_order) {
    const std::size_t job = state.pending[position];
    placements.push_back(jobs.placement(job, schedule.place(jobs.demand(job), jobs.time(job))));
  }
  return placements;
}

// Whether all pending jobs fit now together: then EDF starts them all now, whatever S.
bool all_fit_now(const ReferenceJobs& jobs, const OnlineState& state) {
  std::vector<int> free(state.free.begin(), state.free.end());
  for (const std::size_t job : state.pending) {
    if (!fits(jobs.demand(job), free)) return false;
    take(free, jobs.demand(job));
  }
  return true;
}

class DasedfPolicy final : public OnlinePolicy {
 public:
  explicit DasedfPolicy(SharedJobs jobs) : jobs_(std::move(jobs)) {}
  [[nodiscard]] std::string_view name() const override { return "dasedf"; }

  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    const ReferenceJobs& jobs = *jobs_;
    if (all_fit_now(jobs, state)) {
      std::vector<Placement> placements;
      for (const std::size_t job : state.pending) placements.push_back(jobs.placement(job, state.now));
      return placements;
    }
    DeadlineCheck check(jobs, state);
    // S moves little from one event to the next: start the search there (the grid makes the answer the same).
    previous_ = smallest_passing(check, previous_);
    return edf(jobs, state, check.deadline_order(grid_point(previous_)));
  }

 private:
  SharedJobs jobs_;
  std::int64_t previous_ = 0;
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_dasedf(SharedJobs jobs) { return std::make_unique<DasedfPolicy>(std::move(jobs)); }

}  // namespace policies

bool dasedf_check(const OnlineState& state, double stretch) {
  const policies::ReferenceJobs jobs(state.workload);
  return policies::DeadlineCheck(jobs, state).passes(stretch);
}

double dasedf_stretch(const OnlineState& state) {
  const policies::ReferenceJobs jobs(state.workload);
  policies::DeadlineCheck check(jobs, state);
  return policies::grid_point(policies::smallest_passing(check, 0));
}

std::vector<Placement> edf_plan(const OnlineState& state, double stretch) {
  const policies::ReferenceJobs jobs(state.workload);
  policies::DeadlineCheck check(jobs, state);
  return policies::edf(jobs, state, check.deadline_order(stretch));
}

}  // namespace cosched::online
