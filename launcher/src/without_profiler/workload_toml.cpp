#include "workload_toml.hpp"

#include "cosched/common/error.hpp"

namespace cosched::launcher {

Workload load_toml_workload(const std::filesystem::path& path, const std::filesystem::path& /*platform_path*/) {
  throw UsageError(path.string() + ": workload TOML needs the profiler library, which this build lacks; give the "
                                   "Instance JSON from `cosched instance` instead");
}

}  // namespace cosched::launcher
