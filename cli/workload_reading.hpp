#pragma once
// How the commands read a workload: config's reader, told which kernels a STREAM task may name (stream_bench's
// kernel table; cosched::config itself does not link the kernels) and, when there is one, the platform that sizes
// footprints given as a percentage of the fast tier.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/workload.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::cli {

inline config::Workload read_workload(const std::filesystem::path& path,
                                      const std::optional<config::PlatformConfig>& platform) {
  config::WorkloadReadOptions options;
  options.platform = platform;
  for (const auto& kernel : stream::kernel_table()) options.known_kernels.emplace_back(kernel.name);
  return config::load_workload(path, options);
}

}  // namespace cosched::cli
