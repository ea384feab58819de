#pragma once
// The engine side of an online policy (online/policy.hpp): keeps the policy's view of the batch — jobs
// released and not started, in release order, and the running ones with their allocations — from the engine's
// events, and turns the placements the policy plans for "now" into starts. One adapter for every online policy.
#include <cstddef>
#include <functional>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/online/policy.hpp"

namespace cosched::sim::policies {

class OnlinePolicyAdapter final : public Policy {
 public:
  OnlinePolicyAdapter(std::unique_ptr<online::OnlinePolicy> policy, const LaunchPlan& plan);

  [[nodiscard]] std::string_view name() const override { return policy_->name(); }
  void released(std::size_t task, const EngineView& view) override;
  void started(std::size_t task, const TaskRun& run) override;
  void ended(std::size_t task, const TaskRun& run) override;
  [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override;
  // Online policies re-plan at releases and completions (seed 000, Sec. 2.1), both engine events, and at the
  // instants the policy names (OnlinePolicy::next_wakeup) while jobs wait.
  [[nodiscard]] std::optional<double> next_wakeup(const EngineView& view) const override;

 private:
  [[nodiscard]] online::OnlineState state(const EngineView& view);

  std::unique_ptr<online::OnlinePolicy> policy_;
  const online::OnlineWorkload& workload_;
  std::vector<std::size_t> pending_;                  // release order
  std::vector<double> releases_;                      // per job: when the engine released it
  std::vector<online::RunningJob> running_;
  std::vector<std::size_t> running_slot_;             // per job: its index in running_
  // Running jobs by their end as planned at their start (entries of jobs that ended are skipped; kept here, not in
  // a per-job array: issue 25), and those found running past it: only they need their expected end moved to now
  // (wall clock; on the simulated clock no job is ever late).
  std::priority_queue<std::pair<double, std::size_t>, std::vector<std::pair<double, std::size_t>>, std::greater<>>
      ends_;
  std::vector<std::size_t> late_;
};

}  // namespace cosched::sim::policies
