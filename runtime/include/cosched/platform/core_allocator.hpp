#pragma once
// Hands out concrete cores to tasks, compactly: a task gets cores that share an L2 (a KNL tile) when it fits in
// one, else one cluster (SNC cluster / NUMA locality), else one package, else the fewest of those. Among domains
// that fit it picks the fullest one (best fit), so free space stays in large contiguous pieces. Each granted
// core comes with its PU OS indices for binding (binding.hpp). Thread-safe: all members lock one mutex.
#include <cstddef>
#include <mutex>
#include <vector>

#include "cosched/platform/topology.hpp"

namespace cosched::platform {

struct CoreAllocation {
  std::vector<unsigned> cores;             // indices into Topology::cores(), ascending
  std::vector<std::vector<unsigned>> pus;  // pus[i]: the PU OS indices of cores[i]
  [[nodiscard]] std::size_t size() const noexcept { return cores.size(); }
  [[nodiscard]] std::vector<unsigned> all_pus() const;  // every PU of the allocation, ascending
};

class CoreAllocator {
 public:
  explicit CoreAllocator(const Topology& topology);
  explicit CoreAllocator(std::vector<Core> cores);

  // `count` free cores, placed compactly. Throws UsageError for 0, ResourceError when fewer are free.
  [[nodiscard]] CoreAllocation allocate(std::size_t count);
  // Gives the cores back. Throws std::invalid_argument (a caller bug) for a core that is not allocated.
  void release(const CoreAllocation& allocation);

  [[nodiscard]] std::size_t core_count() const noexcept { return cores_.size(); }
  [[nodiscard]] std::size_t free_count() const;
  [[nodiscard]] std::vector<unsigned> free_cores() const;  // ascending core indices

 private:
  std::vector<Core> cores_;
  std::vector<bool> in_use_;
  mutable std::mutex mutex_;
};

}  // namespace cosched::platform
