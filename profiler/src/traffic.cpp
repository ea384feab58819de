#include "cosched/profiler/traffic.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cosched/platform/tier_backends.hpp"
#include "cosched/profiler/profile.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::profiler {

namespace {

double slow_pass_factor(const config::PlatformConfig& platform) {
  return platform::resolved_tier_backend_info(platform.tier_backend).capabilities.emulated ? platform.emulation_ratio
                                                                                         : 1.0;
}

// A node file's curve (GB/s) as the scheduler's pool (bytes/s).
sched::BandwidthPool converted_curve(const std::string& pool, const config::BandwidthCurve& curve) {
  sched::BandwidthPool converted{pool, {}, {}};
  for (std::size_t k = 0; k < curve.cores.size(); ++k) {
    converted.cores.push_back(curve.cores[k]);
    converted.bytes_per_s.push_back(curve.gbs[k] * 1e9);
  }
  return converted;
}

// Of `kernels` (calibrated curves by name), the one whose written share is nearest `share` ("" when none is an
// element-wise kernel); of equals the first by name.
std::string nearest_kernel(const std::map<std::string, sched::BandwidthPool>& kernels, double share) {
  std::string nearest;
  double nearest_distance = 0.0;
  for (const auto& entry : kernels) {
    const std::optional<double> calibrated = written_share(entry.first);
    if (!calibrated) continue;
    const double distance = std::abs(*calibrated - share);
    if (nearest.empty() || distance < nearest_distance) {
      nearest = entry.first;
      nearest_distance = distance;
    }
  }
  return nearest;
}

// The calibrated kernel every STREAM task of the batch is nearest to ("" when the batch has no STREAM task, a
// task that is not element-wise, or tasks nearest to different kernels).
std::string batch_kernel(const std::map<std::string, sched::BandwidthPool>& kernels,
                         const config::Workload& workload) {
  std::string common;
  for (const config::WorkloadTask& task : workload.tasks) {
    if (!task.is_stream()) continue;
    const std::optional<double> share = written_share(task.kernel);
    if (!share) return "";
    const std::string nearest = nearest_kernel(kernels, *share);
    if (nearest.empty() || (!common.empty() && nearest != common)) return "";
    common = nearest;
  }
  return common;
}

// Of `kernels`, the one whose curve shares a pool least well between two halves of its cores: the smallest
// capacity(K) / (2 capacity(K / 2)), K its largest core count ("" when there is none, or no curve has two points).
std::string most_contended_kernel(const std::map<std::string, sched::BandwidthPool>& kernels) {
  std::string chosen;
  double lowest = 0.0;
  for (const auto& [kernel, pool] : kernels) {
    const double most = pool.cores.back();
    if (most < 2.0) continue;
    const double served = pool.capacity(most) / (2.0 * pool.capacity(most / 2.0));
    if (chosen.empty() || served < lowest) {
      chosen = kernel;
      lowest = served;
    }
  }
  return chosen;
}

bool only_commands(const config::Workload& workload) {
  return !workload.tasks.empty() &&
         std::none_of(workload.tasks.begin(), workload.tasks.end(), [](const auto& task) { return task.is_stream(); });
}

}  // namespace

std::optional<double> written_share(std::string_view kernel) {
  for (const stream::KernelSpec& spec : stream::kernel_table()) {
    if (spec.name != kernel || !spec.elementwise()) continue;
    return static_cast<double>(spec.writes.size()) / static_cast<double>(spec.reads.size() + spec.writes.size());
  }
  return std::nullopt;
}

sched::BandwidthModel batch_bandwidth_model(const NodeBandwidth& node, const config::Workload& workload) {
  sched::BandwidthModel model = node.model;
  nlohmann::json chosen = nlohmann::json::object();
  const bool commands = only_commands(workload);
  for (std::size_t q = 0; q < model.pools.size() && q < node.kernel_curves.size(); ++q) {
    const std::string kernel =
        commands ? most_contended_kernel(node.kernel_curves[q]) : batch_kernel(node.kernel_curves[q], workload);
    if (kernel.empty()) continue;
    model.pools[q] = node.kernel_curves[q].at(kernel);
    chosen[model.pools[q].name] =
        commands ? fmt::format("the {} curve: the batch is commands, whose traffic is read off their probes, and of the "
                               "calibrated kernels two halves of the cores share this pool least well under it (under a "
                               "curve that serves two copies in full, a probe that slowed says each copy moves more "
                               "than the curve gives its cores alone)",
                               kernel)
                 : fmt::format("the {} curve: every STREAM task of the batch reads and writes nearest to it", kernel);
  }
  if (!chosen.empty()) model.provenance["pool_curve"] = std::move(chosen);
  return model;
}

TierTraffic stream_traffic_per_pass(const std::string& kernel, std::uint64_t footprint_bytes, unsigned chunks,
                                    const config::PlatformConfig& platform) {
  const auto pass = static_cast<double>(stream::find_kernel(kernel).bytes_per_pass(footprint_bytes));
  const double fast = platform.fast_chunks == 0 ? 0.0 : fast_fraction(footprint_bytes, chunks, platform.chunk_bytes());
  return {fast * pass, (1.0 - fast) * pass * slow_pass_factor(platform)};
}

TierTraffic stream_setup_traffic(std::uint64_t footprint_bytes, unsigned chunks,
                                 const config::PlatformConfig& platform) {
  const auto setup = kSetupFootprints * static_cast<double>(footprint_bytes);
  const double fast = platform.fast_chunks == 0 ? 0.0 : fast_fraction(footprint_bytes, chunks, platform.chunk_bytes());
  return {fast * setup, (1.0 - fast) * setup};
}

NodeBandwidth node_bandwidth(const config::NodeModel& node) {
  NodeBandwidth bandwidth;
  for (std::size_t q = 0; q < node.pools.size(); ++q) {
    const config::MemoryPool& pool = node.pools[q];
    bandwidth.model.pools.push_back(converted_curve(pool.name, pool.bandwidth));
    auto& kernels = bandwidth.kernel_curves.emplace_back();
    for (const auto& [kernel, curve] : pool.kernels) kernels.emplace(kernel, converted_curve(pool.name, curve));
    if (pool.holds_tier(config::kSlowTier)) bandwidth.slow_pool = q;
  }
  bandwidth.fast_pool = bandwidth.slow_pool;
  for (std::size_t q = 0; q < node.pools.size(); ++q) {
    if (node.pools[q].holds_tier(config::kFastTier)) bandwidth.fast_pool = q;
  }
  nlohmann::json written;
  to_json(written, node);
  bandwidth.model.provenance = written.at("provenance");
  return bandwidth;
}

ProbedTraffic probed_traffic(const sched::BandwidthModel& model, std::size_t slow_pool, const PairedProbe& probe) {
  ProbedTraffic traffic;
  traffic.demand = sched::paired_demand(model, slow_pool, probe.cores, probe.paired_s / probe.alone_s);
  traffic.bytes = traffic.demand.average_bytes_per_s * probe.alone_s;
  if (probe.paired_min_s && probe.paired_max_s) {
    traffic.fits = sched::paired_demand_range(model, slow_pool, probe.cores, *probe.paired_min_s / probe.alone_s,
                                              *probe.paired_max_s / probe.alone_s);
  }
  return traffic;
}

nlohmann::json ProbedTraffic::to_json(const PairedProbe& probe) const {
  nlohmann::json found = {{"method", "memory-demand probe: two copies side by side, the fluid model inverted"},
                          {"cores", probe.cores},
                          {"alone_s", probe.alone_s},
                          {"paired_s", probe.paired_s},
                          {"slowdown", probe.paired_s / probe.alone_s},
                          {"model_max_slowdown", demand.model_max_slowdown}};
  if (fits) {
    found["slowdown_min"] = *probe.paired_min_s / probe.alone_s;
    found["slowdown_max"] = *probe.paired_max_s / probe.alone_s;
    found["fits_gbs"] = {fits->lowest_bytes_per_s / 1e9, fits->highest_bytes_per_s / 1e9};
  }
  found["bytes_per_run"] = bytes;
  found["average_gbs"] = demand.average_bytes_per_s / 1e9;
  if (demand.beyond_model) {
    found["why"] = "slowed more than two copies that each ask for the whole pool: taken as asking for the whole pool";
  }
  return found;
}

sched::TrafficTable probed_stream_traffic(sched::TrafficTable counted, const ProbedTraffic& probed,
                                          const PairedProbe& probe, const config::PlatformConfig& platform,
                                          nlohmann::json& found) {
  const std::size_t at_probe = std::size_t{probe.cores} * (platform.fast_chunks + 1);
  double counted_bytes = 0.0;
  for (const std::vector<double>& pool : counted) counted_bytes += pool.at(at_probe);
  assert(counted_bytes > 0.0);  // a STREAM task moves its footprint at least once
  const double share = probed.bytes / counted_bytes;
  const std::size_t chunk_counts = platform.fast_chunks + 1;
  for (std::vector<double>& pool : counted) {
    for (std::size_t index = 0; index < pool.size(); index += chunk_counts) pool[index] *= share;  // 0 chunks
  }
  found = probed.to_json(probe);
  found["counted_bytes_per_run"] = counted_bytes;
  found["share_of_counted"] = share;
  return counted;
}

sched::TrafficTable traffic_at_every_allocation(const std::function<TierTraffic(unsigned chunks)>& at_chunks,
                                                const NodeBandwidth& node, const config::PlatformConfig& platform) {
  const unsigned max_chunks = platform.fast_chunks;
  sched::TrafficTable traffic(node.model.pools.size(),
                              std::vector<double>((platform.cores + 1) * (max_chunks + 1), 0.0));
  for (unsigned k = 0; k <= max_chunks; ++k) {
    const TierTraffic bytes = at_chunks(k);
    for (unsigned c = 0; c <= platform.cores; ++c) {
      const std::size_t index = c * (max_chunks + 1) + k;
      traffic[node.fast_pool][index] += bytes.fast_bytes;
      traffic[node.slow_pool][index] += bytes.slow_bytes;
    }
  }
  return traffic;
}

sched::TrafficTable command_traffic_table(double bytes, std::uint64_t footprint_bytes, const NodeBandwidth& node,
                                          const config::PlatformConfig& platform) {
  return traffic_at_every_allocation(
      [&](unsigned chunks) {
        const double fast = platform.fast_chunks == 0 || footprint_bytes == 0
                                ? 0.0
                                : fast_fraction(footprint_bytes, chunks, platform.chunk_bytes());
        return TierTraffic{fast * bytes, (1.0 - fast) * bytes};
      },
      node, platform);
}

}  // namespace cosched::profiler
