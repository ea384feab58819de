// The node model through the profile cache (cached_node_model.hpp).
#include "cosched/profiler/cached_node_model.hpp"

#include <fmt/format.h>

#include <chrono>

#include "cosched/common/host.hpp"
#include "cosched/common/text_file.hpp"

namespace cosched::profiler {

std::optional<config::NodeModel> known_node_model(const ProfileCache& cache,
                                                  const std::optional<std::filesystem::path>& node_file,
                                                  std::string& origin) {
  if (node_file) {
    origin = node_file->string();
    return config::load_node_model(*node_file);
  }
  const std::filesystem::path path = cache.node_model_path();
  if (!std::filesystem::exists(path)) {
    origin = "this node has no node model in the cache yet";
    return std::nullopt;
  }
  config::NodeModel model = config::load_node_model(path);
  const auto warnings = config::node_model_warnings(model, std::chrono::system_clock::now(), host_name());
  if (!warnings.empty()) {
    origin = "the cached node model is stale: " + warnings.front();
    return std::nullopt;
  }
  origin = path.string();
  return model;
}

config::NodeModel calibrate_into_cache(const ProfileCache& cache, const CalibrationOptions& calibration,
                                       const std::string& why, Reporter& reporter, std::string& origin) {
  reporter.note(fmt::format("calibrating this node's memory bandwidth ({}) ...", why));
  SilentReporter quiet;  // its rounds are not the run's news: the line above says what happens
  config::NodeModel model = calibrate_node(calibration, quiet);
  // A first run's cache has no node folder yet (its lock, which makes it, is taken later, to learn the batch).
  cache.make_node_folder();
  const std::filesystem::path path = cache.node_model_path();
  write_text_file(path, config::to_toml(model), Overwrite::replace, "node file");
  model.provenance.source = path.string();
  origin = fmt::format("{} (calibrated now)", path.string());
  return model;
}

}  // namespace cosched::profiler
