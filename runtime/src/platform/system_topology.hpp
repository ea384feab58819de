#pragma once
// The hwloc topology of the machine this process runs on, loaded once, shared read-only by the platform layer.
// Binding calls must go through this one (never through a topology loaded from a foreign XML file).
#include <hwloc.h>

namespace cosched::platform {

// Loaded on first use (thread-safe); throws PlatformError if hwloc cannot load this system.
[[nodiscard]] hwloc_topology_t system_topology();

// The PUs this process may use: hwloc's allowed cpuset (cgroups, Slurm's task/cgroup) intersected with the CPU
// affinity the process was started with (taskset, numactl, Slurm's task/affinity), which hwloc's allowed set
// does not reflect. The startup affinity is read before main(), so cosched's own later bindings do not shrink it.
[[nodiscard]] hwloc_const_cpuset_t usable_cpuset();

}  // namespace cosched::platform
