#include "cosched/sim/resources.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cassert>

#include "cosched/common/error.hpp"
#include "cosched/sched/resource_kinds.hpp"

namespace cosched::sim {

NodeResources::NodeResources(std::vector<std::string> names, std::vector<int> capacities,
                             std::shared_ptr<platform::CoreAllocator> cores,
                             std::shared_ptr<platform::FastTierBudget> budget)
    : names_(std::move(names)),
      capacities_(std::move(capacities)),
      counted_in_use_(capacities_.size(), 0),
      cores_(std::move(cores)),
      budget_(std::move(budget)) {
  if (names_.size() != capacities_.size() || names_.empty()) {
    throw UsageError(fmt::format("{} resource names for {} capacities", names_.size(), capacities_.size()));
  }
  if (!cores_) throw UsageError("a node pool needs a core allocator");
  // Resource "cores" (or, when no type is called that, the first) is the cores; a "fast_chunks" type the budget.
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (sched::is_cores_resource(names_[i])) core_index_ = i;
    if (sched::is_fast_chunks_resource(names_[i])) chunk_index_ = i;
  }
  if (static_cast<std::size_t>(capacities_[core_index_]) > cores_->core_count()) {
    throw ResourceError(fmt::format("the plan schedules {} cores, this node has {}", capacities_[core_index_],
                                    cores_->core_count()));
  }
  if (chunk_index_ != SIZE_MAX) {
    if (!budget_) throw ResourceError("the plan schedules fast-memory chunks but this node has no fast tier budget");
    if (static_cast<std::size_t>(capacities_[chunk_index_]) > budget_->chunk_count()) {
      throw ResourceError(fmt::format("the plan schedules {} fast chunks, the fast tier has {}",
                                      capacities_[chunk_index_], budget_->chunk_count()));
    }
  }
}

std::vector<int> NodeResources::available() const {
  std::vector<int> free(capacities_.size());
  for (std::size_t i = 0; i < free.size(); ++i) free[i] = capacities_[i] - counted_in_use_[i];
  // A plan may schedule fewer cores or chunks than the node has; what is free is bounded by both.
  const auto in_use_cores = static_cast<int>(cores_->core_count() - cores_->free_count());
  free[core_index_] = capacities_[core_index_] - in_use_cores;
  if (chunk_index_ != SIZE_MAX) {
    const auto used_chunks = static_cast<int>(budget_->chunk_count() - budget_->free_chunks());
    free[chunk_index_] = capacities_[chunk_index_] - used_chunks;
  }
  return free;
}

platform::Grant NodeResources::acquire(std::span<const int> demand) {
  if (demand.size() != capacities_.size()) {
    throw UsageError(fmt::format("demand has {} entries for {} resource types", demand.size(), capacities_.size()));
  }
  const std::vector<int> free = available();
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (demand[i] < 0 || demand[i] > free[i]) {
      throw ResourceError(fmt::format("{} {} requested, {} free of {}", demand[i], names_[i], free[i],
                                      capacities_[i]));
    }
  }
  platform::Grant grant;
  grant.amounts.assign(demand.begin(), demand.end());
  if (demand[core_index_] > 0) grant.cores = cores_->allocate(static_cast<std::size_t>(demand[core_index_]));
  if (chunk_index_ != SIZE_MAX && demand[chunk_index_] > 0) {
    try {
      budget_->acquire(static_cast<std::size_t>(demand[chunk_index_]));
    } catch (...) {
      if (grant.cores.size() > 0) cores_->release(grant.cores);
      throw;
    }
    grant.fast_chunks = static_cast<std::size_t>(demand[chunk_index_]);
  }
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (i != core_index_ && i != chunk_index_) counted_in_use_[i] += demand[i];
  }
  return grant;
}

void NodeResources::release(const platform::Grant& grant) {
  assert(grant.amounts.size() == capacities_.size());
  if (grant.cores.size() > 0) cores_->release(grant.cores);
  if (grant.fast_chunks > 0) budget_->release(grant.fast_chunks);
  for (std::size_t i = 0; i < grant.amounts.size(); ++i) {
    if (i != core_index_ && i != chunk_index_) counted_in_use_[i] -= grant.amounts[i];
  }
}

std::unique_ptr<NodeResources> make_abstract_pool(const std::vector<std::string>& names,
                                                  const std::vector<int>& capacities) {
  std::vector<platform::Core> cores;
  std::size_t core_index = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (sched::is_cores_resource(names[i])) core_index = i;
  }
  for (int k = 0; k < capacities.at(core_index); ++k) {
    platform::Core core;
    core.index = static_cast<unsigned>(k);
    core.pus = {static_cast<unsigned>(k)};
    core.l2 = static_cast<unsigned>(k);
    cores.push_back(core);
  }
  std::shared_ptr<platform::FastTierBudget> budget;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (sched::is_fast_chunks_resource(names[i]) && capacities[i] > 0) {
      const auto chunks = static_cast<std::size_t>(capacities[i]);
      budget = std::make_shared<platform::FastTierBudget>(chunks << 20, chunks);
    }
  }
  return std::make_unique<NodeResources>(names, capacities,
                                         std::make_shared<platform::CoreAllocator>(std::move(cores)), budget);
}

}  // namespace cosched::sim
