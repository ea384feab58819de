#pragma once
// The engine's ledger of the node's resources: a pool hands out a Grant (platform/grant.hpp) — which cores (from
// the platform's core allocator) and how many fast-tier chunks (from FastTierBudget). A pool never over-commits: acquire() throws
// ResourceError when a demand does not fit, and the engine checks before it asks (see engine.hpp).
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cosched/platform/core_allocator.hpp"
#include "cosched/platform/fast_tier_budget.hpp"
#include "cosched/platform/grant.hpp"

namespace cosched::sim {


class ResourcePool {
 public:
  virtual ~ResourcePool() = default;
  [[nodiscard]] virtual const std::vector<int>& capacities() const = 0;
  [[nodiscard]] virtual std::vector<int> available() const = 0;
  // Concrete resources for `demand`; throws ResourceError when they do not fit, and changes nothing then.
  [[nodiscard]] virtual platform::Grant acquire(std::span<const int> demand) = 0;
  virtual void release(const platform::Grant& grant) = 0;
};

// The node's pool. Resource "cores" comes from `cores`, "fast_chunks" from `budget` (required when named); any
// other resource type is counted against its capacity. Capacities must match what the allocator and budget
// have (checked: a plan asking for more cores than the node has is an error, not a wait forever).
class NodeResources final : public ResourcePool {
 public:
  NodeResources(std::vector<std::string> names, std::vector<int> capacities,
                std::shared_ptr<platform::CoreAllocator> cores, std::shared_ptr<platform::FastTierBudget> budget);

  [[nodiscard]] const std::vector<int>& capacities() const override { return capacities_; }
  [[nodiscard]] std::vector<int> available() const override;
  [[nodiscard]] platform::Grant acquire(std::span<const int> demand) override;
  void release(const platform::Grant& grant) override;

  [[nodiscard]] const platform::FastTierBudget* budget() const noexcept { return budget_.get(); }

 private:
  std::vector<std::string> names_;
  std::vector<int> capacities_;
  std::vector<int> counted_in_use_;  // resource types that are neither cores nor fast chunks
  std::shared_ptr<platform::CoreAllocator> cores_;
  std::shared_ptr<platform::FastTierBudget> budget_;
  std::size_t core_index_ = 0;
  std::size_t chunk_index_ = SIZE_MAX;
};

// A pool of `capacities` with `cores` abstract cores (no binding) and a budget of capacities[1] chunks when the
// plan has a second resource — for predictions and tests on any machine.
[[nodiscard]] std::unique_ptr<NodeResources> make_abstract_pool(const std::vector<std::string>& names,
                                                                 const std::vector<int>& capacities);

}  // namespace cosched::sim
