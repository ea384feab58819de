#pragma once
// The resources a running task holds, handed out concretely: the amount of each resource type it was granted,
// which cores (indices into the topology's cores, with their PUs for binding) and how many fast-tier chunks. The
// simulation core's pools hand them out (sim/resources.hpp); the execution library binds and places a child with
// them (exec/task_command.hpp).
#include <cstddef>
#include <vector>

#include "cosched/platform/core_allocator.hpp"

namespace cosched::platform {

struct Grant {
  std::vector<int> amounts;  // per resource type, as demanded
  CoreAllocation cores;      // concrete cores (indices into the topology's cores) and their PUs
  std::size_t fast_chunks = 0;
};

}  // namespace cosched::platform
