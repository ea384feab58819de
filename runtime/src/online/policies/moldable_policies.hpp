#pragma once
// Factories of the moldable online policies for the registry (src/online/registry.cpp).
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "cosched/online/moldable.hpp"
#include "cosched/online/policy.hpp"

namespace cosched::online {

// What the moldable policies share: their name, the candidate lists of the pending jobs (built when a job is first
// pending, dropped once it has started) and the planning function that reads them.
class CandidatePolicy final : public OnlinePolicy {
 public:
  using PlanFunction = std::function<std::vector<Placement>(const OnlineState&, CandidateCache&)>;
  CandidatePolicy(std::string_view name, const OnlineWorkload& workload, PlanFunction plan)
      : name_(name), candidates_(workload), plan_(std::move(plan)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    candidates_.retain(state.pending);
    return plan_(state, candidates_);
  }

 private:
  std::string_view name_;  // a registry literal
  CandidateCache candidates_;
  PlanFunction plan_;
};

// DBOS with online factor options.rho; throws UsageError unless 1 <= rho <= kMaxOnlineFactor.
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_dbos(const OnlineOptions& options, const OnlineWorkload& workload);
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_iterative(const OnlineOptions& options,
                                                           const OnlineWorkload& workload);
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_improved_iterative(const OnlineOptions& options,
                                                                    const OnlineWorkload& workload);

}  // namespace cosched::online
