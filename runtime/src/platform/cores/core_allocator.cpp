#include "cosched/platform/core_allocator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cosched/common/error.hpp"
#include "platform/cores/compact_placement.hpp"

namespace cosched::platform {

std::vector<unsigned> CoreAllocation::all_pus() const {
  std::vector<unsigned> all;
  for (const auto& core_pus : pus) all.insert(all.end(), core_pus.begin(), core_pus.end());
  std::sort(all.begin(), all.end());
  return all;
}

CoreAllocator::CoreAllocator(const Topology& topology) : CoreAllocator(topology.cores()) {}

CoreAllocator::CoreAllocator(std::vector<Core> cores) : cores_(std::move(cores)), in_use_(cores_.size(), false) {
  for (std::size_t i = 0; i < cores_.size(); ++i) {
    // Placement refers to cores by position; a list built elsewhere must agree.
    if (cores_[i].index != i) {
      throw std::invalid_argument("CoreAllocator: core at position " + std::to_string(i) + " has index " +
                                  std::to_string(cores_[i].index));
    }
  }
}

CoreAllocation CoreAllocator::allocate(std::size_t count) {
  if (count == 0) throw UsageError("a task needs at least one core");
  const std::lock_guard lock(mutex_);
  std::vector<unsigned> free;
  for (unsigned i = 0; i < cores_.size(); ++i) {
    if (!in_use_[i]) free.push_back(i);
  }
  if (count > free.size()) {
    throw ResourceError("cannot allocate " + std::to_string(count) + " cores: " + std::to_string(free.size()) +
                        " of " + std::to_string(cores_.size()) + " are free");
  }
  CoreAllocation allocation;
  allocation.cores = cores_detail::pick_compact(cores_, free, count);
  for (unsigned index : allocation.cores) {
    in_use_[index] = true;
    allocation.pus.push_back(cores_[index].pus);
  }
  return allocation;
}

void CoreAllocator::release(const CoreAllocation& allocation) {
  const std::lock_guard lock(mutex_);
  // Check everything first so a bad release changes nothing.
  for (unsigned index : allocation.cores) {
    if (index >= cores_.size() || !in_use_[index]) {
      throw std::invalid_argument("CoreAllocator::release: core " + std::to_string(index) +
                                  " is not allocated (released twice, or from another allocator?)");
    }
  }
  for (unsigned index : allocation.cores) in_use_[index] = false;
}

std::size_t CoreAllocator::free_count() const {
  const std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count(in_use_.begin(), in_use_.end(), false));
}

std::vector<unsigned> CoreAllocator::free_cores() const {
  const std::lock_guard lock(mutex_);
  std::vector<unsigned> free;
  for (unsigned i = 0; i < cores_.size(); ++i) {
    if (!in_use_[i]) free.push_back(i);
  }
  return free;
}

}  // namespace cosched::platform
