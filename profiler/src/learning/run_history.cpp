#include "cosched/profiler/run_history.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <vector>
#include <fstream>

#include "cosched/common/error.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched::profiler {

std::filesystem::path launch_history_path(const ProfileCache& cache) {
  return cache.node_folder() / "launches.jsonl";
}

LaunchNoise launch_noise(const ProfileCache& cache) {
  std::ifstream in(launch_history_path(cache));
  std::vector<double> errors;  // ln(observed / predicted), the newest last
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
    if (!entry.is_object() || !entry.contains("predicted_s") || !entry.contains("observed_s")) continue;
    const auto& predicted = entry.at("predicted_s");
    const auto& observed = entry.at("observed_s");
    if (!predicted.is_number() || !observed.is_number()) continue;
    const double p = predicted.get<double>(), o = observed.get<double>();
    if (!(p > 0.0) || !(o > 0.0) || !std::isfinite(p) || !std::isfinite(o)) continue;
    errors.push_back(std::log(o / p));
  }
  return launch_noise(errors);
}

LaunchNoise launch_noise(std::span<const double> log_errors) {
  const std::span<const double> remembered =
      log_errors.size() > kLaunchesRemembered ? log_errors.last(kLaunchesRemembered) : log_errors;
  double squares = kPriorLaunches * kPriorLaunchNoise * kPriorLaunchNoise;
  for (const double error : remembered) squares += error * error;
  return {std::sqrt(squares / (kPriorLaunches + static_cast<double>(remembered.size()))), remembered.size()};
}

void record_launch(const ProfileCache& cache, const RecordedLaunch& launch) {
  if (!(launch.predicted_s > 0.0) || !(launch.observed_s > 0.0)) return;
  const std::filesystem::path path = launch_history_path(cache);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) throw PlatformError("mkdir", path.parent_path().string(), error.value());
  const std::string line = nlohmann::json{{"date", iso8601_utc(std::chrono::system_clock::now())},
                                          {"batch", launch.batch},
                                          {"predicted_s", launch.predicted_s},
                                          {"low_s", launch.low_s ? nlohmann::json(*launch.low_s) : nullptr},
                                          {"high_s", launch.high_s ? nlohmann::json(*launch.high_s) : nullptr},
                                          {"observed_s", launch.observed_s}}
                               .dump() +
                           "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw PlatformError("open", path.string(), errno);
  const ssize_t written = ::write(fd, line.data(), line.size());  // one write: a line is there whole or not at all
  const int saved = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(line.size())) throw PlatformError("write", path.string(), saved);
}

}  // namespace cosched::profiler
