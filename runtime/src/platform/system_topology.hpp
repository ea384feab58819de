#pragma once
// The hwloc topology of the machine this process runs on, loaded once, shared read-only by the platform layer.
// Binding calls must go through this one (never through a topology loaded from a foreign XML file).
#include <hwloc.h>

namespace cosched::platform {

// Loaded on first use (thread-safe); throws PlatformError if hwloc cannot load this system.
[[nodiscard]] hwloc_topology_t system_topology();

}  // namespace cosched::platform
