#pragma once
// What a launch needs to know about the node: how many cores and fast chunks the schedules share, the chunk size
// and the tier backend. It is the profiler's platform description (configs/platforms/*.toml), or this machine as
// detected.
#include <string>

#include "cosched/launcher/task_command.hpp"
#include "cosched/profiler/platform_config.hpp"

namespace cosched::launcher {

using NodeConfig = profiler::PlatformConfig;

// This machine: its allowed cores, the fast tier of `backend` ("auto": the detected one) in `chunks` chunks.
[[nodiscard]] NodeConfig this_node_config(const std::string& backend, unsigned chunks);

// How tasks on this node get their fast share (backend, emulation ratio, chunk size; no chunks: no fast tier).
[[nodiscard]] TierSetup tier_setup_of(const NodeConfig& node);

}  // namespace cosched::launcher
