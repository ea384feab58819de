#pragma once
// Workload TOML through the profiler's reader (available when the profiler library is built).
#include <filesystem>

#include "cosched/launcher/workload.hpp"

namespace cosched::launcher {

[[nodiscard]] Workload load_toml_workload(const std::filesystem::path& path,
                                          const std::filesystem::path& platform_path);

}  // namespace cosched::launcher
