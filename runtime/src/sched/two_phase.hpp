#pragma once
// The two building blocks every registered algorithm is made of (Sec. 4.5): how allocations are chosen (directly
// by RA_d(d), or through TF and RA_1(d)) and which rigid scheduler places the tasks.
#include <functional>
#include <string>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/rigid.hpp"

namespace cosched::sched::detail {

enum class Approach { direct, transform };
using RigidScheduler = std::function<RigidSchedule(const RigidTasks&)>;

class TwoPhaseAlgorithm final : public Algorithm {
 public:
  TwoPhaseAlgorithm(std::string name, Approach approach, RigidScheduler rigid)
      : name_(std::move(name)), approach_(approach), rigid_(std::move(rigid)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] Schedule schedule(const Instance& instance) const override;

 private:
  std::string name_;
  Approach approach_;
  RigidScheduler rigid_;
};

}  // namespace cosched::sched::detail
