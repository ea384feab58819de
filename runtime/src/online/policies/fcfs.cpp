// FCFS (seed 000, Sec. 3.1): pending jobs start in release order, each as soon as it fits, and none overtakes an
// earlier one (no backfilling). The plan is the whole predicted schedule — the list schedule in release order —
// because the reservation scheme compares its maximum stretch.
#include "online/policies/list_schedule.hpp"
#include "online/policies/policies.hpp"

namespace cosched::online::policies {

namespace {

class FcfsPolicy final : public OnlinePolicy {
 public:
  FcfsPolicy(SharedJobs jobs, Horizon horizon) : jobs_(std::move(jobs)), horizon_(horizon) {}
  [[nodiscard]] std::string_view name() const override { return "fcfs"; }

  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    ListSchedule schedule(state);
    std::vector<Placement> placements;
    placements.reserve(state.pending.size());
    for (const std::size_t job : state.pending) {
      const double start = schedule.place(jobs_->demand(job), jobs_->time(job));
      if (start > state.now && horizon_ == Horizon::starts_now) break;
      placements.push_back(jobs_->placement(job, start));
    }
    return placements;
  }

 private:
  SharedJobs jobs_;
  Horizon horizon_;
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_fcfs(SharedJobs jobs, Horizon horizon) {
  return std::make_unique<FcfsPolicy>(std::move(jobs), horizon);
}

std::unique_ptr<OnlinePolicy> make_fcfs(SharedJobs jobs) { return make_fcfs(std::move(jobs), Horizon::whole_queue); }

}  // namespace cosched::online::policies
