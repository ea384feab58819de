#include "cosched/launcher/node_config.hpp"

#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::launcher {

NodeConfig this_node_config(const std::string& backend, unsigned chunks) {
  platform::TierOptions options;
  options.backend = backend;
  NodeConfig node;
  node.name = "this machine";
  node.source = "detected";
  node.cores = static_cast<unsigned>(platform::allowed_cores().size());
  node.tier_backend = platform::resolve_tier_backend_name(options);
  node.fast_capacity_bytes = platform::fast_tier_capacity_bytes(options);
  node.fast_chunks = node.fast_capacity_bytes > 0 ? chunks : 0;
  return node;
}

TierSetup tier_setup_of(const NodeConfig& node) {
  return make_tier_setup(node.tier_backend, node.emulation_ratio, node.fast_chunks > 0 ? node.chunk_bytes() : 0.0);
}

}  // namespace cosched::launcher
