#include "cosched/profiler/traffic.hpp"

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
  for (std::size_t q = 0; q < model.pools.size() && q < node.kernel_curves.size(); ++q) {
    const std::string kernel = batch_kernel(node.kernel_curves[q], workload);
    if (kernel.empty()) continue;
    model.pools[q] = node.kernel_curves[q].at(kernel);
    chosen[model.pools[q].name] =
        fmt::format("the {} curve: every STREAM task of the batch reads and writes nearest to it", kernel);
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
  nlohmann::json json;
  to_json(json, node);
  bandwidth.model.provenance = json.at("provenance");
  return bandwidth;
}

}  // namespace cosched::profiler
