#include "cosched/profiler/traffic.hpp"

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

}  // namespace

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
    sched::BandwidthPool converted{pool.name, {}, {}};
    for (std::size_t k = 0; k < pool.bandwidth.cores.size(); ++k) {
      converted.cores.push_back(pool.bandwidth.cores[k]);
      converted.bytes_per_s.push_back(pool.bandwidth.gbs[k] * 1e9);
    }
    bandwidth.model.pools.push_back(std::move(converted));
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
