#include "cosched/profiler/instance_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <limits>
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <tuple>

#include "cosched/common/error.hpp"
#include "cosched/profiler/interpolation.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sched/resource_kinds.hpp"

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

namespace {

// The rows of a kernel at one footprint as samples of a run of `passes` passes, fast bytes and each pass's time
// multiplied by `scale` (1 at the profiled footprint); failed rows are counted, not used.
std::vector<TimeSample> samples_at(const ProfileSet& profiles, const std::string& kernel, std::uint64_t footprint,
                                   double scale, unsigned passes, std::size_t& failed) {
  std::vector<TimeSample> samples;
  for (const auto& [row, chunk_bytes] : profiles.entries) {
    if (row.point.kernel != kernel || row.point.footprint_bytes != footprint) continue;
    if (!row.ok()) {  // a point that failed has no time: the grid is filled from the others
      ++failed;
      continue;
    }
    samples.push_back({row.point.cores, scale * fast_bytes(footprint, row.point.chunks, chunk_bytes),
                       row.run_time(passes, scale)});
  }
  return samples;
}

// The profiled footprints of `kernel` with at least one time: the nearest below and above `footprint` (0: none).
std::pair<std::uint64_t, std::uint64_t> neighbouring_footprints(const ProfileSet& profiles, const std::string& kernel,
                                                                std::uint64_t footprint) {
  std::uint64_t below = 0, above = 0;
  for (const auto& entry : profiles.entries) {
    const ProfileRow& row = entry.row;
    if (row.point.kernel != kernel || !row.ok()) continue;
    const std::uint64_t f = row.point.footprint_bytes;
    if (f < footprint && f > below) below = f;
    if (f > footprint && (above == 0 || f < above)) above = f;
  }
  return {below, above};
}

[[noreturn]] void throw_no_rows(const ProfileSet& profiles, const std::string& kernel, std::uint64_t footprint) {
  std::set<std::uint64_t> available;
  for (const auto& entry : profiles.entries) {
    if (entry.row.point.kernel == kernel) available.insert(entry.row.point.footprint_bytes);
  }
  throw InputError("", fmt::format("the profiles have no rows for kernel '{}' with footprint_bytes={} (footprints "
                                   "profiled for it: {}; a footprint between two profiled ones is interpolated)",
                                   kernel, footprint,
                                   available.empty() ? std::string("none") : fmt::format("{}", fmt::join(available, ", "))));
}

// A task's memory-demand probe in the profile (its row with paired_s, as the run of `passes` passes), and whether
// its rows vary the fast chunks at all (else a command's memory is never placed, and all its traffic is the slow
// pool's).
struct ProbeRows {
  std::optional<PairedProbe> probe;
  bool varies_chunks = false;
};

ProbeRows probe_rows(const ProfileSet& profiles, const std::string& kernel, std::uint64_t footprint,
                     unsigned passes) {
  ProbeRows found;
  for (const auto& entry : profiles.entries) {
    const ProfileRow& row = entry.row;
    if (row.point.kernel != kernel || row.point.footprint_bytes != footprint || !row.ok()) continue;
    found.varies_chunks = found.varies_chunks || row.point.chunks > 0;
    if (!row.paired_s) continue;
    const double alone_s = row.run_time(passes);
    const auto as_run = [&](const std::optional<double>& paired) {
      return paired ? std::optional(alone_s * *paired / row.time_s) : std::nullopt;
    };
    found.probe = PairedProbe{row.point.cores, alone_s, alone_s * *row.paired_s / row.time_s,
                              as_run(row.paired_min_s), as_run(row.paired_max_s)};
  }
  return found;
}

// The key of a STREAM task kind in the instance's "stream_traffic": what its traffic table is one of.
std::string stream_traffic_key(const config::WorkloadTask& task) {
  return fmt::format("{} {:g} MiB, {} pass{}", task.kernel, static_cast<double>(task.footprint_bytes) / (1 << 20),
                     task.passes, task.passes == 1 ? "" : "es");
}

}  // namespace

std::shared_ptr<const sched::TrafficTable> task_traffic(const config::WorkloadTask& task,
                                                        const std::optional<PairedProbe>& probe, bool varies_chunks,
                                                        const sched::BandwidthModel& model,
                                                        const NodeBandwidth& bandwidth,
                                                        const config::PlatformConfig& platform, nlohmann::json& found) {
  if (task.is_stream()) {
    // The bytes it counts, corrected by its probe where it was probed (what reaches memory).
    sched::TrafficTable counted = task_traffic_table(task, bandwidth, platform);
    if (probe) {
      const ProbedTraffic probed = probed_traffic(model, bandwidth.slow_pool, *probe);
      counted = probed_stream_traffic(std::move(counted), probed, *probe, platform, found[stream_traffic_key(task)]);
    }
    return std::make_shared<sched::TrafficTable>(std::move(counted));
  }
  // A command: what its probe measured, if it was probed (else it never contends).
  if (!probe) {
    found[task.profile] = {
        {"bytes_per_run", nullptr},
        {"why", "not probed: its profile has no paired run (paired_s), so co-runners are not seen to slow it"}};
    return nullptr;
  }
  const ProbedTraffic probed = probed_traffic(model, bandwidth.slow_pool, *probe);
  found[task.profile] = probed.to_json(*probe);
  return std::make_shared<sched::TrafficTable>(
      command_traffic_table(probed.bytes, varies_chunks ? task.footprint_bytes : 0, bandwidth, platform));
}

std::vector<double> task_time_table(const ProfileSet& profiles, const std::string& kernel,
                                    std::uint64_t footprint_bytes, const config::PlatformConfig& platform,
                                    unsigned passes) {
  const unsigned max_chunks = platform.fast_chunks;
  std::vector<double> fast_axis(max_chunks + 1);
  for (unsigned k = 0; k <= max_chunks; ++k) fast_axis[k] = fast_bytes(footprint_bytes, k, platform.chunk_bytes());
  std::size_t failed = 0;
  std::vector<std::vector<double>> grid;
  if (const auto samples = samples_at(profiles, kernel, footprint_bytes, 1.0, passes, failed); !samples.empty()) {
    grid = fill_monotone_grid(samples, platform.cores, fast_axis);
  } else if (failed > 0) {
    throw InputError("", fmt::format("every profiled point of kernel '{}' with footprint_bytes={} failed ({} rows "
                                     "marked failed): no time to give its tasks",
                                     kernel, footprint_bytes, failed));
  } else {
    // Between two profiled footprints f1 < F < f2, at the same fast fractions: a pass has no part that does not
    // grow with the footprint (it moves F bytes), but its seconds per byte do change with it (caches among others: on
    // this VM a triad pass streams 64 MiB at 27 GB/s, 128 MiB at 23, 256 MiB at 15). So each neighbour's passes
    // are scaled to F at that neighbour's seconds per byte (x F / f), its fixed cost (start-up, whose part
    // does not grow, plus allocation and first touch, whose part does) is taken as it is, and the two runs are
    // blended linearly in the footprint: the fixed cost linear in F, a pass F x the seconds per byte linear in
    // F. Blending the pass times themselves (the chord of a time that grows faster than the footprint) put a
    // 128 MiB triad pass at 7.6 ms between 2.5 ms (64 MiB) and 17.9 ms (256 MiB); measured: 5.7 ms
    // (docs/fidelity.md, "Issue 24"). A command's footprint only names what its fast share is of: never
    // interpolated.
    const auto [below, above] = neighbouring_footprints(profiles, kernel, footprint_bytes);
    if (kernel.starts_with(kCommandKernelPrefix) || below == 0 || above == 0) throw_no_rows(profiles, kernel, footprint_bytes);
    const auto grid_at = [&](std::uint64_t f) {
      std::size_t ignored = 0;
      // Samples in fast bytes and passes of footprint f, rescaled to this footprint's: fractions compare, bytes
      // do not.
      const double scale = static_cast<double>(footprint_bytes) / static_cast<double>(f);
      return fill_monotone_grid(samples_at(profiles, kernel, f, scale, passes, ignored), platform.cores, fast_axis);
    };
    const auto low = grid_at(below), high = grid_at(above);
    const double w = static_cast<double>(footprint_bytes - below) / static_cast<double>(above - below);
    grid = low;
    for (std::size_t c = 0; c < grid.size(); ++c) {
      for (std::size_t k = 0; k < grid[c].size(); ++k) grid[c][k] = (1.0 - w) * low[c][k] + w * high[c][k];
    }
  }
  std::vector<double> times((platform.cores + 1) * (max_chunks + 1), std::numeric_limits<double>::infinity());
  for (unsigned c = 1; c <= platform.cores; ++c) {
    for (unsigned k = 0; k <= max_chunks; ++k) times[c * (max_chunks + 1) + k] = grid[c - 1][k];
  }
  return times;
}

std::vector<std::string> kernels_without_fixed_cost(const config::Workload& workload, const ProfileSet& profiles) {
  std::set<std::string> kernels;
  for (const auto& task : workload.tasks) {
    if (task.is_stream()) kernels.insert(task.kernel);
  }
  std::set<std::string> without;
  for (const auto& entry : profiles.entries) {
    const ProfileRow& row = entry.row;
    if (row.ok() && !row.fixed_s && kernels.count(row.point.kernel) != 0) without.insert(row.point.kernel);
  }
  return {without.begin(), without.end()};
}

std::string fixed_cost_note(const config::Workload& workload, const ProfileSet& profiles) {
  const std::vector<std::string> kernels = kernels_without_fixed_cost(workload, profiles);
  if (kernels.empty()) return "";
  return fmt::format("note: the profile of {} has no fixed cost per run (fixed_s): launched, these tasks also start, "
                     "allocate, first-touch and validate, so launch predictions will be short; to profile for a "
                     "launch: cosched profile without --measurer (whole processes at {} and {} passes; "
                     "docs/profiler.md)\n",
                     fmt::join(kernels, ", "), kDefaultProcessPasses.low, kDefaultProcessPasses.high);
}

std::vector<std::string> probed_traffic_lines(const sched::Instance& instance) {
  std::vector<std::string> lines;
  for (const char* attribute : {"command_traffic", "stream_traffic"}) {
    const auto found = instance.attributes().find(attribute);
    if (found == instance.attributes().end()) continue;
    for (const auto& [name, traffic] : found->items()) {
      if (!traffic.contains("slowdown")) {  // a command not probed
        lines.push_back(fmt::format("{}: {}", name, traffic.value("why", std::string())));
        continue;
      }
      const auto cores = traffic.at("cores").get<unsigned>();
      const std::string spread = traffic.contains("slowdown_min")
                                     ? fmt::format(" ({:.2f}-{:.2f}, fitting {:.1f}-{:.1f} GB/s)",
                                                   traffic.at("slowdown_min").get<double>(),
                                                   traffic.at("slowdown_max").get<double>(),
                                                   traffic.at("fits_gbs").at(0).get<double>(),
                                                   traffic.at("fits_gbs").at(1).get<double>())
                                     : std::string();
      const std::string measured =
          fmt::format("{}: two copies side by side ({} core{} each) took {:.2f} x as long as one alone{}", name,
                      cores, cores == 1 ? "" : "s", traffic.at("slowdown").get<double>(), spread);
      const auto bytes = traffic.at("bytes_per_run").get<double>();
      if (bytes == 0.0) {
        lines.push_back(fmt::format("{}: no slowdown, so no traffic the pool has to share", measured));
        continue;
      }
      const std::string counted =
          traffic.contains("share_of_counted")
              ? fmt::format(", {:.0f} % of the {:.2f} GB it counts", 100.0 * traffic.at("share_of_counted").get<double>(),
                            traffic.at("counted_bytes_per_run").get<double>() / 1e9)
              : std::string();
      lines.push_back(fmt::format("{}: it moves {:.2f} GB a run{} ({:.1f} GB/s on average alone){}", measured,
                                  bytes / 1e9, counted, traffic.at("average_gbs").get<double>(),
                                  traffic.contains("why") ? "; " + traffic.at("why").get<std::string>() : ""));
    }
  }
  return lines;
}

sched::TrafficTable task_traffic_table(const config::WorkloadTask& task, const NodeBandwidth& node,
                                       const config::PlatformConfig& platform) {
  return traffic_at_every_allocation(
      [&](unsigned chunks) {
        const TierTraffic pass = stream_traffic_per_pass(task.kernel, task.footprint_bytes, chunks, platform);
        const TierTraffic setup = stream_setup_traffic(task.footprint_bytes, chunks, platform);
        return TierTraffic{pass.fast_bytes * task.passes + setup.fast_bytes,
                           pass.slow_bytes * task.passes + setup.slow_bytes};
      },
      node, platform);
}

sched::Instance build_instance(const config::Workload& workload, const ProfileSet& profiles,
                               const config::PlatformConfig& platform, const NodeBandwidth* bandwidth) {
  std::vector<sched::Resource> resources{{std::string(sched::kCoresResource), static_cast<int>(platform.cores)},
                                         {std::string(sched::kFastChunksResource),
                                          static_cast<int>(platform.fast_chunks)}};
  const sched::AllocationSpace space(sched::capacities_of(resources));
  // One table per kernel, footprint and passes: the tasks of a workload entry share it.
  std::map<std::tuple<std::string, std::uint64_t, unsigned>, std::shared_ptr<sched::DenseTimeTable>> tables;
  std::map<std::tuple<std::string, std::uint64_t, unsigned>, std::shared_ptr<const sched::TrafficTable>> traffic;
  std::vector<sched::Task> tasks;
  // The model the tasks share: a command's traffic is read off its probe with the same model that predicts it.
  const sched::BandwidthModel model =
      bandwidth != nullptr ? batch_bandwidth_model(*bandwidth, workload) : sched::BandwidthModel{};
  nlohmann::json command_traffic_found = nlohmann::json::object();
  nlohmann::json stream_traffic_found = nlohmann::json::object();
  for (const auto& task : workload.tasks) {
    if (!task.is_stream() && task.profile.empty()) {
      throw InputError(workload.source, fmt::format("task \"{}\" is a command without \"profile\": name the "
                                                    "profiled command it runs (cosched profile --command ... --name "
                                                    "NAME) to give it times",
                                                    task.id));
    }
    // A command's rows are those of "command:<profile>" at its footprint; it runs once (passes = 1).
    const std::string kernel = task.is_stream() ? task.kernel : command_kernel_name(task.profile);
    auto [table, added] = tables.try_emplace({kernel, task.footprint_bytes, task.passes});
    if (added) {
      std::vector<double> times;
      try {
        times = task_time_table(profiles, kernel, task.footprint_bytes, platform, task.passes);
      } catch (const InputError& e) {
        throw InputError(fmt::format("workload '{}'", workload.name), e.what());
      }
      table->second = std::make_shared<sched::DenseTimeTable>(space, std::move(times));
    }
    nlohmann::json attributes = task;  // what it runs, by the workload schema's one writer (config::to_json)
    attributes.erase("id");            // the instance's own field
    std::shared_ptr<const sched::TrafficTable> moved;
    if (bandwidth != nullptr) {
      auto [entry, fresh] = traffic.try_emplace({kernel, task.footprint_bytes, task.passes});
      if (fresh) {
        const ProbeRows rows = probe_rows(profiles, kernel, task.footprint_bytes, task.passes);
        entry->second = task_traffic(task, rows.probe, rows.varies_chunks, model, *bandwidth, platform,
                                     task.is_stream() ? stream_traffic_found : command_traffic_found);
      }
      moved = entry->second;
    }
    tasks.push_back({task.id, table->second, std::move(attributes), std::move(moved)});
  }
  return assemble_batch_instance(std::move(resources), std::move(tasks), workload, platform, model,
                                 std::move(command_traffic_found), std::move(stream_traffic_found));
}

sched::Instance assemble_batch_instance(std::vector<sched::Resource> resources, std::vector<sched::Task> tasks,
                                        const config::Workload& workload, const config::PlatformConfig& platform,
                                        const sched::BandwidthModel& model, nlohmann::json command_traffic,
                                        nlohmann::json stream_traffic) {
  nlohmann::json attributes = {{"platform", {{"name", platform.name}, {"chunk_bytes", platform.chunk_bytes()}}},
                               {"workload", workload.name}};
  if (!command_traffic.empty()) attributes["command_traffic"] = std::move(command_traffic);
  if (!stream_traffic.empty()) attributes["stream_traffic"] = std::move(stream_traffic);
  sched::Instance instance(std::move(resources), std::move(tasks), std::move(attributes), model);
  sched::check_serial_time(instance, fmt::format("workload '{}'", workload.name));
  return instance;
}

}  // namespace cosched::profiler
