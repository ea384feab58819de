#pragma once
// bsp-a1 ... bsp-a4 behind the Algorithm interface (registry.cpp): one resource only, and tasks that run on one
// processor (bsp_refusal).
#include <string>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/bsp.hpp"

namespace cosched::sched::detail {

class BspAlgorithm final : public Algorithm {
 public:
  using Function = Schedule (*)(const Instance&);
  BspAlgorithm(std::string name, Function function) : name_(std::move(name)), function_(function) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string refusal(const Instance& instance) const override { return bsp_refusal(instance, name_); }
  [[nodiscard]] Schedule schedule(const Instance& instance) const override { return function_(instance); }

 private:
  std::string name_;
  Function function_;
};

}  // namespace cosched::sched::detail
