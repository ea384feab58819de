#pragma once
// The node model `cosched run` predicts memory contention with (docs/profiler.md, "The profile cache"): the file
// given with --node, else the cache's node.toml while it is fresh; a run that pays for it calibrates one quickly and
// keeps it in the cache.
#include <filesystem>
#include <optional>
#include <string>

#include "cosched/common/reporter.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/profiler/calibration.hpp"
#include "cosched/profiler/profile_cache.hpp"

namespace cosched::profiler {

// The node model of `node_file` (--node) or, without one, the cache's when it is there and fresh; never calibrates.
// nullopt when there is none to use, with the reason in `origin` (else where the model came from).
[[nodiscard]] std::optional<config::NodeModel> known_node_model(const ProfileCache& cache,
                                                                const std::optional<std::filesystem::path>& node_file,
                                                                std::string& origin);

// Calibrates this node with `calibration` (its rounds are not reported: `reporter` hears one line saying why it
// calibrates, `why`), stores the model as the cache's node.toml and returns it; `origin` says where it now is.
[[nodiscard]] config::NodeModel calibrate_into_cache(const ProfileCache& cache, const CalibrationOptions& calibration,
                                                     const std::string& why, Reporter& reporter, std::string& origin);

}  // namespace cosched::profiler
