#pragma once
// The list rule of Sec. 5.3 (see policies.hpp).
#include <vector>

#include "cosched/sim/engine.hpp"

namespace cosched::sim::policies {

class ListPolicy final : public Policy {
 public:
  explicit ListPolicy(const LaunchPlan& plan);
  [[nodiscard]] std::string_view name() const override { return "list"; }
  [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override;
  [[nodiscard]] std::optional<double> next_wakeup(const EngineView& view) const override;

 private:
  std::vector<std::size_t> order_;  // task indices in list order
};

}  // namespace cosched::sim::policies
