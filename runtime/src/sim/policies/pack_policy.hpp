#pragma once
// The pack rule of Sec. 5.3 (see policies.hpp).
#include "cosched/sim/engine.hpp"

namespace cosched::sim::policies {

class PackPolicy final : public Policy {
 public:
  [[nodiscard]] std::string_view name() const override { return "pack"; }
  [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override;
  [[nodiscard]] std::optional<double> next_wakeup(const EngineView& /*view*/) const override {
    return std::nullopt;  // packs start on completions only
  }
};

}  // namespace cosched::sim::policies
