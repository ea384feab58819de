#pragma once
// The list rule of Sec. 5.3, and its greedy variant for a plan of guessed durations (see policies.hpp).
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

// The list order without the planned starts: a task starts as soon as every resource it needs is free, the tasks
// behind it wait (the naive `xargs -P` way when every task asks one core). For plans whose durations are guesses:
// waiting for a planned start made of guesses only idles the node.
class GreedyListPolicy final : public Policy {
 public:
  explicit GreedyListPolicy(const LaunchPlan& plan);
  [[nodiscard]] std::string_view name() const override { return "greedy"; }
  [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override;
  [[nodiscard]] std::optional<double> next_wakeup(const EngineView& /*view*/) const override { return std::nullopt; }

 private:
  std::vector<std::size_t> order_;
};

}  // namespace cosched::sim::policies
