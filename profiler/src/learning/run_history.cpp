#include "cosched/profiler/run_history.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>
#include <fstream>

#include "cosched/common/error.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched::profiler {

std::filesystem::path launch_history_path(const ProfileCache& cache) {
  return cache.node_folder() / "launches.jsonl";
}

namespace {

// Every line of the node's history that parses as an object, oldest first (a damaged line is passed over).
std::vector<nlohmann::json> history_entries(const ProfileCache& cache) {
  std::ifstream in(launch_history_path(cache));
  std::vector<nlohmann::json> entries;
  for (std::string line; std::getline(in, line);) {
    nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_object()) entries.push_back(std::move(entry));
  }
  return entries;
}

// A finite number >= 0 under `key`, else nullopt.
std::optional<double> non_negative_field(const nlohmann::json& entry, const char* key) {
  const auto found = entry.find(key);
  if (found == entry.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!std::isfinite(value) || value < 0.0) return std::nullopt;
  return value;
}

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

LaunchNoise launch_noise(const ProfileCache& cache) {
  std::vector<double> errors;  // ln(observed / predicted), the newest last
  for (const nlohmann::json& entry : history_entries(cache)) {
    if (!entry.contains("predicted_s") || !entry.contains("observed_s")) continue;
    if (non_negative_field(entry, "guessed_tasks").value_or(0.0) > 0.0) continue;  // the guesses' error, not the node's
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

void record_launch(const ProfileCache& cache, const RecordedLaunch& launch, const LaunchProfiling& profiling) {
  if (!(launch.predicted_s > 0.0) || !(launch.observed_s > 0.0)) return;
  const std::filesystem::path path = launch_history_path(cache);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) throw PlatformError("mkdir", path.parent_path().string(), error.value());
  const std::string line = nlohmann::json{{"date", iso8601_utc(std::chrono::system_clock::now())},
                                          {"batch", launch.batch},
                                          {"predicted_s", launch.predicted_s},
                                          {"low_s", optional_number(launch.low_s)},
                                          {"high_s", optional_number(launch.high_s)},
                                          {"observed_s", launch.observed_s},
                                          {"profiling_share_s", optional_number(profiling.share_s)},
                                          {"profiling_spent_s", optional_number(
                                              profiling.share_s ? std::optional<double>(profiling.spent_s)
                                                                : std::nullopt)},
                                          {"profiling_run_overhead_s", optional_number(profiling.run_overhead_s)},
                                          {"guessed_tasks", launch.guessed_tasks},
                                          {"warm_up_bytes", launch.warm_up_bytes ? nlohmann::json(*launch.warm_up_bytes)
                                                                                 : nlohmann::json(nullptr)},
                                          {"warm_up_s", optional_number(launch.warm_up_s)}}
                               .dump() +
                           "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw PlatformError("open", path.string(), errno);
  const ssize_t written = ::write(fd, line.data(), line.size());  // one write: a line is there whole or not at all
  const int saved = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(line.size())) throw PlatformError("write", path.string(), saved);
}

double saved_profiling_budget(const ProfileCache& cache, const std::string& batch) {
  double saved = 0.0;
  for (const nlohmann::json& entry : history_entries(cache)) {
    const auto name = entry.find("batch");
    if (name == entry.end() || !name->is_string() || name->get<std::string>() != batch) continue;
    const std::optional<double> share = non_negative_field(entry, "profiling_share_s");
    const std::optional<double> spent = non_negative_field(entry, "profiling_spent_s");
    if (share && spent) saved = std::max(0.0, saved + *share - *spent);
  }
  return saved;
}

namespace {

// The largest of the last kOverheadsRemembered values `read` finds in the history's lines (nullopt: none).
template <typename Read>
std::optional<double> largest_recent(const ProfileCache& cache, Read&& read) {
  std::vector<double> recorded;  // oldest first
  for (const nlohmann::json& entry : history_entries(cache)) {
    if (const std::optional<double> value = read(entry)) recorded.push_back(*value);
  }
  if (recorded.empty()) return std::nullopt;
  const auto recent = recorded.end() - static_cast<std::ptrdiff_t>(std::min(recorded.size(), kOverheadsRemembered));
  return *std::max_element(recent, recorded.end());
}

}  // namespace

std::optional<double> recent_run_overhead(const ProfileCache& cache) {
  return largest_recent(cache, [](const nlohmann::json& entry) {
    return non_negative_field(entry, "profiling_run_overhead_s");
  });
}

std::optional<double> recent_warm_up_seconds_per_byte(const ProfileCache& cache) {
  return largest_recent(cache, [](const nlohmann::json& entry) -> std::optional<double> {
    const std::optional<double> bytes = non_negative_field(entry, "warm_up_bytes");
    const std::optional<double> seconds = non_negative_field(entry, "warm_up_s");
    if (!bytes || !seconds || *bytes < static_cast<double>(kWarmUpBytesToRate)) return std::nullopt;
    return *seconds / *bytes;
  });
}

}  // namespace cosched::profiler
