#include "cosched/launcher/node_config.hpp"
#include "cosched/profiler/platform_config.hpp"

namespace cosched::launcher {

NodeConfig load_node_config(const std::filesystem::path& path) {
  const profiler::PlatformConfig platform = profiler::load_platform_config(path);
  NodeConfig node;
  node.name = platform.name;
  node.cores = platform.cores;
  node.fast_capacity_bytes = platform.fast_capacity_bytes;
  node.fast_chunks = platform.fast_chunks;
  node.tier_backend = platform.tier_backend;
  node.emulation_ratio = platform.emulation_ratio;
  node.source = platform.source;
  return node;
}

}  // namespace cosched::launcher
