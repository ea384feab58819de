#pragma once
// The resources of a prediction: amounts counted against capacities, nothing picked. The simulated and
// contention clocks run no process, so which cores a task would get does not matter to them; the node's pool
// (NodeResources) places each grant compactly in a topology, which costs more than the rest of a
// million-job replay together (issue 25).
#include <span>
#include <vector>

#include "cosched/sim/resources.hpp"

namespace cosched::sim {

class CountingPool final : public ResourcePool {
 public:
  explicit CountingPool(std::vector<int> capacities) : capacities_(std::move(capacities)), free_(capacities_) {}

  [[nodiscard]] const std::vector<int>& capacities() const override { return capacities_; }
  [[nodiscard]] std::vector<int> available() const override { return free_; }
  // The amounts only (no cores, no chunks); throws ResourceError when they do not fit, and changes nothing then.
  [[nodiscard]] platform::Grant acquire(std::span<const int> demand) override;
  void release(const platform::Grant& grant) override;

 private:
  std::vector<int> capacities_;
  std::vector<int> free_;
};

}  // namespace cosched::sim
