#include "platform/topology/mode_inference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "platform/topology/text.hpp"

namespace cosched::platform::topology_detail {

namespace {

// "SNC-4", "snc4", "All2All" -> "snc4", "all2all": BIOS and hwloc spellings vary.
std::string normalized(const std::string& text) {
  std::string letters;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      letters += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return letters;
}

std::optional<MemoryMode> memory_mode_from_info(const std::string& info) {
  const std::string value = normalized(info);
  if (value.starts_with("flat")) return MemoryMode::flat;
  if (value.starts_with("cache")) return MemoryMode::cache;
  if (value.starts_with("hybrid")) return MemoryMode::hybrid;  // Hybrid25 / Hybrid50
  return std::nullopt;
}

std::optional<ClusterMode> cluster_mode_from_info(const std::string& info) {
  const std::string value = normalized(info);
  if (value == "quadrant" || value == "quad") return ClusterMode::quadrant;
  if (value == "snc4") return ClusterMode::snc4;
  if (value == "snc2") return ClusterMode::snc2;
  if (value == "hemisphere" || value == "hemi") return ClusterMode::hemisphere;
  if (value == "all2all" || value == "alltoall" || value == "a2a") return ClusterMode::all_to_all;
  return std::nullopt;
}

void infer_memory_mode(const TopologyFacts& facts, bool has_fast_node, ModeVerdict& verdict) {
  if (auto mode = memory_mode_from_info(facts.memory_mode_info)) {
    verdict.memory_mode = *mode;
    verdict.memory_reason = "BIOS MemoryMode=" + facts.memory_mode_info;
    return;
  }
  const bool has_cache = facts.memory_side_cache_bytes > 0;
  const std::string cache_text = describe_bytes(facts.memory_side_cache_bytes) + " memory-side cache";
  if (has_fast_node && has_cache) {
    verdict.memory_mode = MemoryMode::hybrid;
    verdict.memory_reason = "fast NUMA nodes and " + cache_text;
  } else if (has_cache) {
    verdict.memory_mode = MemoryMode::cache;
    verdict.memory_reason = cache_text + ", no fast NUMA node";
  } else if (has_fast_node) {
    verdict.memory_mode = MemoryMode::flat;
    verdict.memory_reason = "fast NUMA nodes, no memory-side cache";
  } else {
    verdict.memory_mode = MemoryMode::none;
    verdict.memory_reason = "no fast NUMA node and no memory-side cache";
  }
  if (!facts.memory_mode_info.empty()) {
    verdict.memory_reason += " (unrecognised MemoryMode=" + facts.memory_mode_info + ")";
  }
}

// Clusters = distinct CPU sets among the slow (DDR) nodes: SNC-k gives each cluster its own DDR node.
void infer_cluster_mode(const TopologyFacts& facts, const std::vector<MemoryTier>& tiers, bool has_fast_memory,
                        ModeVerdict& verdict) {
  if (auto mode = cluster_mode_from_info(facts.cluster_mode_info)) {
    verdict.cluster_mode = *mode;
    verdict.cluster_reason = "BIOS ClusterMode=" + facts.cluster_mode_info;
    return;
  }
  std::set<std::vector<unsigned>> clusters;
  for (std::size_t i = 0; i < facts.numa_nodes.size(); ++i) {
    if (tiers[i] == MemoryTier::slow && !facts.numa_nodes[i].cpus.empty()) clusters.insert(facts.numa_nodes[i].cpus);
  }
  const unsigned packages = std::max(1U, facts.packages);
  const auto count = static_cast<unsigned>(clusters.size());
  const std::string seen = fmt::format("{} DDR cluster(s) over {} package(s)", count, packages);
  verdict.cluster_mode = ClusterMode::unknown;
  if (count == 0 || count % packages != 0) {
    verdict.cluster_reason = seen + ": no known cluster mode";
  } else if (count / packages == 4) {
    verdict.cluster_mode = ClusterMode::snc4;
    verdict.cluster_reason = seen;
  } else if (count / packages == 2) {
    verdict.cluster_mode = ClusterMode::snc2;
    verdict.cluster_reason = seen;
  } else if (count / packages == 1 && has_fast_memory) {
    // Quadrant, hemisphere and all-to-all all show one cluster per package; quadrant is the KNL default and
    // what the fast-memory nodes we know ship with. Said in the reason so nobody mistakes it for a measurement.
    verdict.cluster_mode = ClusterMode::quadrant;
    verdict.cluster_reason = seen + ": quadrant assumed (hemisphere and all-to-all look the same)";
  } else {
    verdict.cluster_reason = seen + (count / packages == 1 ? " and no fast memory: not a KNL-style node"
                                                           : ": no known cluster mode");
  }
}

}  // namespace

ModeVerdict infer_modes(const TopologyFacts& facts, const std::vector<MemoryTier>& tiers) {
  const bool has_fast_node = std::find(tiers.begin(), tiers.end(), MemoryTier::fast) != tiers.end();
  ModeVerdict verdict;
  infer_memory_mode(facts, has_fast_node, verdict);
  infer_cluster_mode(facts, tiers, has_fast_node || facts.memory_side_cache_bytes > 0, verdict);
  return verdict;
}

}  // namespace cosched::platform::topology_detail
