#include "cosched/profiler/instance_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "cosched/common/error.hpp"
#include "cosched/profiler/interpolation.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/sched/io.hpp"

namespace cosched::profiler {

void ProfileSet::add(const std::vector<ProfileRow>& rows, double chunk_bytes) {
  for (const auto& row : rows) entries.push_back({row, chunk_bytes});
}

ProfileSet load_profile_set(const std::vector<std::filesystem::path>& csv_paths) {
  ProfileSet set;
  std::map<ProfilePoint, std::string> location;  // point -> "file:line" of its row
  for (const auto& path : csv_paths) {
    const ProfileSidecar sidecar = read_profile_sidecar(path);
    const auto contents = read_profile_csv(path);
    for (std::size_t i = 0; i < contents.rows.size(); ++i) {
      const auto& point = contents.rows[i].point;
      const std::string here = fmt::format("{}:{}", path.string(), contents.lines[i]);
      if (const auto [it, inserted] = location.emplace(point, here); !inserted) {
        throw InputError(here, fmt::format("the point kernel={} footprint_bytes={} cores={} chunks={} is also at {}",
                                           point.kernel, point.footprint_bytes, point.cores, point.chunks,
                                           it->second));
      }
    }
    set.add(contents.rows, sidecar.chunk_bytes);
  }
  return set;
}

std::vector<double> task_time_table(const ProfileSet& profiles, const std::string& kernel,
                                    std::uint64_t footprint_bytes, const PlatformConfig& platform) {
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

sched::Instance build_instance(const Workload& workload, const ProfileSet& profiles, const PlatformConfig& platform) {
  std::vector<sched::Resource> resources{{"cores", static_cast<int>(platform.cores)},
                                         {"fast_chunks", static_cast<int>(platform.fast_chunks)}};
  const sched::AllocationSpace space(sched::capacities_of(resources));
  std::vector<sched::Task> tasks;
  std::map<std::pair<std::string, std::uint64_t>, unsigned> next_index;
  for (const auto& entry : workload.entries) {
    std::vector<double> times;
    try {
      times = task_time_table(profiles, entry.kernel, entry.footprint_bytes, platform);
    } catch (const InputError& e) {
      throw InputError(fmt::format("workload '{}'", workload.name), e.what());
    }
    for (double& t : times) t *= entry.passes;  // +inf (no core) stays +inf
    // The tasks of one entry share their table.
    const auto profile = std::make_shared<sched::DenseTimeTable>(space, std::move(times));
    const nlohmann::json attributes = {
        {"kernel", entry.kernel}, {"footprint_bytes", entry.footprint_bytes}, {"passes", entry.passes}};
    auto& index = next_index[{entry.kernel, entry.footprint_bytes}];
    for (unsigned i = 0; i < entry.count; ++i) {
      tasks.push_back({workload_task_id(entry.kernel, entry.footprint_bytes, index++), profile, attributes});
    }
  }
  sched::Instance instance(std::move(resources), std::move(tasks),
                           {{"platform", {{"name", platform.name}, {"chunk_bytes", platform.chunk_bytes()}}},
                            {"workload", workload.name}});
  sched::check_serial_time(instance, fmt::format("workload '{}'", workload.name));
  return instance;
}

}  // namespace cosched::profiler
