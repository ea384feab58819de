#include "cosched/common/error.hpp"
#include "cosched/launcher/node_config.hpp"

namespace cosched::launcher {

NodeConfig load_node_config(const std::filesystem::path& path) {
  throw UsageError(path.string() + ": platform TOML needs the profiler library, which this build lacks");
}

}  // namespace cosched::launcher
