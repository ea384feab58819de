#pragma once
// What a launch needs to know about the node: how many cores and fast chunks the schedules share, the chunk size
// and the tier backend. From a platform TOML (configs/platforms/, read by the profiler library) or from this
// machine as detected.
#include <cstddef>
#include <filesystem>
#include <string>

#include "cosched/launcher/task_command.hpp"

namespace cosched::launcher {

struct NodeConfig {
  std::string name;
  unsigned cores = 0;
  std::size_t fast_capacity_bytes = 0;
  unsigned fast_chunks = 0;
  std::string tier_backend = "auto";
  double emulation_ratio = 5.0;
  std::string source;
  [[nodiscard]] double chunk_bytes() const noexcept {
    return fast_chunks > 0 ? static_cast<double>(fast_capacity_bytes) / fast_chunks : 0.0;
  }
  [[nodiscard]] TierSetup tier() const { return make_tier_setup(tier_backend, emulation_ratio, chunk_bytes()); }
};

// A platform TOML. Throws UsageError when this build has no profiler library, InputError for a bad file.
[[nodiscard]] NodeConfig load_node_config(const std::filesystem::path& path);

// This machine: its allowed cores, the fast tier of `backend` ("auto": the detected one) in `chunks` chunks.
[[nodiscard]] NodeConfig this_node_config(const std::string& backend, unsigned chunks);

}  // namespace cosched::launcher
