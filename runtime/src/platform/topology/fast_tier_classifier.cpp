#include "platform/topology/fast_tier_classifier.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

#include "platform/topology/text.hpp"

namespace cosched::platform::topology_detail {

namespace {

// The largest single node we believe can be MCDRAM/HBM by size alone: KNL has 16 GB of MCDRAM (one 15.7 GiB
// node in flat quadrant), Xeon Max 64 GB HBM per socket = 16 GiB per SNC-4 node. 1 GiB of slack for rounding.
// Bigger fast nodes (Xeon Max flat quadrant: 64 GiB) need a subtype or bandwidth attributes to be recognised.
constexpr std::uint64_t largest_plausible_fast_node = std::uint64_t{17} << 30;

// hwloc's own KNL numbers are 4x (360000 vs 90000 MiB/s), HBM vs DDR5 is ~3-4x; two remote-vs-local DDR nodes
// stay well below 2x.
constexpr double fast_bandwidth_ratio = 2.0;

constexpr std::array<std::string_view, 2> fast_subtypes{"MCDRAM", "HBM"};
constexpr std::array<std::string_view, 4> slow_subtypes{"DRAM", "NVM", "CXL-DRAM", "CXL-NVM"};

bool contains(auto list, std::string_view value) { return std::find(list.begin(), list.end(), value) != list.end(); }

std::optional<NodeVerdict> by_subtype(const NumaNodeFacts& node) {
  if (contains(fast_subtypes, node.subtype)) return NodeVerdict{MemoryTier::fast, "hwloc subtype " + node.subtype};
  if (contains(slow_subtypes, node.subtype)) return NodeVerdict{MemoryTier::slow, "hwloc subtype " + node.subtype};
  return std::nullopt;
}

// Decides when this node and at least one other carry hwloc Bandwidth attributes (ACPI HMAT, or hwloc's KNL quirk).
std::optional<NodeVerdict> by_bandwidth(const TopologyFacts& facts, std::size_t index) {
  const auto& node = facts.numa_nodes[index];
  if (!node.bandwidth_mib_s) return std::nullopt;
  std::optional<std::uint64_t> slowest;
  for (std::size_t other = 0; other < facts.numa_nodes.size(); ++other) {
    const auto& value = facts.numa_nodes[other].bandwidth_mib_s;
    if (other != index && value && *value > 0) slowest = std::min(slowest.value_or(*value), *value);
  }
  if (!slowest) return std::nullopt;
  const double ratio = static_cast<double>(*node.bandwidth_mib_s) / static_cast<double>(*slowest);
  const auto text = fmt::format("hwloc Bandwidth {} MiB/s = {:.1f}x the slowest other node ({} MiB/s)",
                                *node.bandwidth_mib_s, ratio, *slowest);
  return NodeVerdict{ratio >= fast_bandwidth_ratio ? MemoryTier::fast : MemoryTier::slow, text};
}

// The node whose CPUs this node serves as extra memory: for a node sharing its cpuset, the largest node with the
// same cpuset; for a CPU-less node, the CPU node closest to it (SLIT), else the largest CPU node.
std::optional<std::size_t> partner_of(const TopologyFacts& facts, std::size_t index) {
  const auto& nodes = facts.numa_nodes;
  const auto& node = nodes[index];
  std::optional<std::size_t> best;
  for (std::size_t other = 0; other < nodes.size(); ++other) {
    if (other == index || nodes[other].cpus.empty()) continue;
    if (!node.cpus.empty()) {
      if (nodes[other].cpus != node.cpus || nodes[other].bytes <= node.bytes) continue;
      if (!best || nodes[other].bytes > nodes[*best].bytes) best = other;
      continue;
    }
    if (!best) {
      best = other;
    } else if (!facts.distances.empty()) {
      const unsigned candidate = facts.distances[other][index];
      const unsigned current = facts.distances[*best][index];
      if (candidate < current || (candidate == current && nodes[other].bytes > nodes[*best].bytes)) best = other;
    } else if (nodes[other].bytes > nodes[*best].bytes) {
      best = other;
    }
  }
  return best;
}

// The fallback when neither subtype nor bandwidth tell: the structural sign (CPU-less, or a smaller node sharing
// another node's CPUs) plus a plausible MCDRAM/HBM size plus SLIT (when known) showing a peer memory farther
// than the CPUs' local one. All available signs must agree: each alone also fits ordinary machines
// (CPU-less CXL memory, small DDR nodes, a remote socket at SLIT 21).
NodeVerdict by_vote(const TopologyFacts& facts, std::size_t index) {
  const auto& node = facts.numa_nodes[index];
  const auto partner = partner_of(facts, index);
  if (!node.cpus.empty() && !partner) {
    return {MemoryTier::slow, fmt::format("local memory of its own CPUs ({})", describe_list(node.cpus))};
  }
  if (!partner) return {MemoryTier::slow, "CPU-less, and no node with CPUs it could serve"};
  const auto& peer = facts.numa_nodes[*partner];

  std::vector<std::string> signs;
  signs.push_back(node.cpus.empty() ? fmt::format("CPU-less (serves node {})", peer.os_index)
                                    : fmt::format("shares the CPUs of larger node {}", peer.os_index));
  const bool small = node.bytes <= largest_plausible_fast_node && node.bytes < peer.bytes;
  signs.push_back(fmt::format("{} {} MCDRAM/HBM size", describe_bytes(node.bytes),
                              small ? "is a plausible" : "is too large for an"));
  bool peer_far = true;
  if (!facts.distances.empty()) {
    const unsigned local = facts.distances[*partner][*partner];
    const unsigned to_node = facts.distances[*partner][index];
    peer_far = to_node > local;
    signs.push_back(fmt::format("SLIT {} from node {} (local {}){}", to_node, peer.os_index, local,
                                peer_far ? "" : ": not a peer memory"));
  } else {
    signs.push_back("no SLIT distances");
  }
  std::string reason;
  for (const auto& sign : signs) reason += (reason.empty() ? "" : "; ") + sign;
  return {small && peer_far ? MemoryTier::fast : MemoryTier::slow, reason};
}

}  // namespace

std::vector<NodeVerdict> classify_numa_nodes(const TopologyFacts& facts) {
  std::vector<NodeVerdict> verdicts;
  verdicts.reserve(facts.numa_nodes.size());
  for (std::size_t index = 0; index < facts.numa_nodes.size(); ++index) {
    if (facts.numa_nodes.size() == 1) {
      verdicts.push_back({MemoryTier::slow, "the only NUMA node"});
    } else if (auto verdict = by_subtype(facts.numa_nodes[index])) {
      verdicts.push_back(std::move(*verdict));
    } else if (auto by_bw = by_bandwidth(facts, index)) {
      verdicts.push_back(std::move(*by_bw));
    } else {
      verdicts.push_back(by_vote(facts, index));
    }
  }
  return verdicts;
}

}  // namespace cosched::platform::topology_detail
