#pragma once
// The placement rule of CoreAllocator, as a pure function over the free cores (no locking, no state).
#include <cstddef>
#include <vector>

#include "cosched/platform/topology.hpp"

namespace cosched::platform::cores_detail {

// Picks `count` of the cores listed in `free_cores` (indices into `cores`, ascending; count <= their number):
// the finest domain (L2 group, then cluster, then package) that holds `count` free cores, best fit among those;
// inside it, and when nothing fits, whole sub-domains largest first. Returns ascending core indices.
[[nodiscard]] std::vector<unsigned> pick_compact(const std::vector<Core>& cores,
                                                 const std::vector<unsigned>& free_cores, std::size_t count);

}  // namespace cosched::platform::cores_detail
