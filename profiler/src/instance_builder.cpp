#include "cosched/profiler/instance_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "cosched/common/error.hpp"
#include "cosched/profiler/interpolation.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"

namespace cosched::profiler {

void ProfileSet::add(const std::vector<ProfileRow>& rows, double chunk_bytes) {
  for (const auto& row : rows) entries.push_back({row, chunk_bytes});
}

ProfileSet load_profile_set(const std::vector<std::filesystem::path>& csv_paths) {
  ProfileSet set;
  std::set<ProfilePoint> seen;
  for (const auto& path : csv_paths) {
    const auto context = read_profile_context(path);
    if (!context.contains("chunk_bytes") || !context["chunk_bytes"].is_number()) {
      throw InputError(sidecar_path(path).string(), "missing number \"chunk_bytes\"");
    }
    const auto contents = read_profile_csv(path);
    for (const auto& row : contents.rows) {
      if (!seen.insert(row.point).second) {
        throw InputError(path.string(), fmt::format("point {} footprint_bytes={} cores={} chunks={} appears twice",
                                                    row.point.kernel, row.point.footprint_bytes, row.point.cores,
                                                    row.point.chunks));
      }
    }
    set.add(contents.rows, context["chunk_bytes"].get<double>());
  }
  return set;
}

std::vector<double> task_time_table(const ProfileSet& profiles, const std::string& kernel,
                                    std::uint64_t footprint_bytes, const config::PlatformConfig& platform) {
  std::vector<TimeSample> samples;
  for (const auto& [row, chunk_bytes] : profiles.entries) {
    if (row.point.kernel == kernel && row.point.footprint_bytes == footprint_bytes) {
      samples.push_back({row.point.cores, fast_bytes(footprint_bytes, row.point.chunks, chunk_bytes), row.time_s});
    }
  }
  if (samples.empty()) {
    std::set<std::uint64_t> available;
    for (const auto& entry : profiles.entries) {
      if (entry.row.point.kernel == kernel) available.insert(entry.row.point.footprint_bytes);
    }
    throw InputError("", fmt::format("the profiles have no rows for kernel '{}' with footprint_bytes={} "
                                     "(footprints profiled for it: {})",
                                     kernel, footprint_bytes,
                                     available.empty() ? std::string("none") : fmt::format("{}", fmt::join(available, ", "))));
  }
  const unsigned max_chunks = platform.fast_chunks;
  std::vector<double> fast_axis(max_chunks + 1);
  for (unsigned k = 0; k <= max_chunks; ++k) fast_axis[k] = fast_bytes(footprint_bytes, k, platform.chunk_bytes());
  const auto grid = fill_monotone_grid(samples, platform.cores, fast_axis);

  std::vector<double> times((platform.cores + 1) * (max_chunks + 1), std::numeric_limits<double>::infinity());
  for (unsigned c = 1; c <= platform.cores; ++c) {
    for (unsigned k = 0; k <= max_chunks; ++k) times[c * (max_chunks + 1) + k] = grid[c - 1][k];
  }
  return times;
}

nlohmann::json build_instance(const config::Workload& workload, const ProfileSet& profiles,
                              const config::PlatformConfig& platform) {
  nlohmann::json instance = {
      {"resources",
       {{{"name", "cores"}, {"capacity", platform.cores}},
        {{"name", "fast_chunks"}, {"capacity", platform.fast_chunks}}}},
      {"tasks", nlohmann::json::array()},
      {"platform", {{"name", platform.name}, {"chunk_bytes", platform.chunk_bytes()}}},
      {"workload", workload.name},
  };
  // One table per kernel and footprint (tasks of a workload entry share it).
  std::map<std::pair<std::string, std::uint64_t>, std::vector<double>> tables;
  for (const auto& task : workload.tasks) {
    if (!task.is_stream()) {
      throw InputError(workload.source, fmt::format("task \"{}\" is a command: profiles only give STREAM tasks "
                                                    "their times",
                                                    task.id));
    }
    auto [table, added] = tables.try_emplace({task.kernel, task.footprint_bytes});
    if (added) {
      try {
        table->second = task_time_table(profiles, task.kernel, task.footprint_bytes, platform);
      } catch (const InputError& e) {
        throw InputError(fmt::format("workload '{}'", workload.name), e.what());
      }
    }
    nlohmann::json values = nlohmann::json::array();
    for (double t : table->second) {
      values.push_back(std::isinf(t) ? nlohmann::json(nullptr) : nlohmann::json(t * task.passes));
    }
    nlohmann::json entry = task;  // id and what it runs (config::to_json), then its times
    entry["times"] = std::move(values);
    instance["tasks"].push_back(std::move(entry));
  }
  return instance;
}

}  // namespace cosched::profiler
