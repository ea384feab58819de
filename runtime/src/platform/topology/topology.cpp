#include "cosched/platform/topology.hpp"

#include <hwloc.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>
#include <utility>

#include "cosched/common/error.hpp"
#include "platform/system_topology.hpp"
#include "platform/topology/fast_tier_classifier.hpp"
#include "platform/topology/hwloc_facts.hpp"
#include "platform/topology/crash_isolation.hpp"
#include "platform/topology/mode_inference.hpp"
#include "platform/topology/text.hpp"
#include "platform/topology/xml_precheck.hpp"

namespace cosched::platform {

std::string_view to_string(MemoryTier tier) noexcept { return tier == MemoryTier::fast ? "fast" : "slow"; }

std::string_view to_string(MemoryMode mode) noexcept {
  switch (mode) {
    case MemoryMode::flat: return "flat";
    case MemoryMode::cache: return "cache";
    case MemoryMode::hybrid: return "hybrid";
    case MemoryMode::none: return "none";
    case MemoryMode::unknown: return "unknown";
  }
  return "unknown";
}

std::string_view to_string(ClusterMode mode) noexcept {
  switch (mode) {
    case ClusterMode::all_to_all: return "a2a";
    case ClusterMode::hemisphere: return "hemisphere";
    case ClusterMode::quadrant: return "quadrant";
    case ClusterMode::snc2: return "SNC-2";
    case ClusterMode::snc4: return "SNC-4";
    case ClusterMode::unknown: return "unknown";
  }
  return "unknown";
}

std::string to_range_text(const std::vector<unsigned>& ascending) { return topology_detail::describe_list(ascending); }

namespace {

// Maps raw ids to dense ids 0, 1, ... by first appearance. A raw id is (what it is from, its value), so an
// id made up from a fallback can never collide with a real one.
class DenseIds {
 public:
  enum class From { hwloc, fallback };
  unsigned operator()(From from, long long raw) {
    return ids_.try_emplace({from, raw}, static_cast<unsigned>(ids_.size())).first->second;
  }

 private:
  std::map<std::pair<From, long long>, unsigned> ids_;
};

std::vector<Core> build_cores(const std::vector<CoreFacts>& facts) {
  using From = DenseIds::From;
  DenseIds l2_ids;
  DenseIds cluster_ids;
  DenseIds package_ids;
  std::vector<Core> cores;
  cores.reserve(facts.size());
  for (std::size_t i = 0; i < facts.size(); ++i) {
    const auto& core = facts[i];
    // Without an L2 we know nothing shared: each core is its own "tile". Without a cluster, the package is the
    // best locality we have; without either, all cores are one cluster.
    const unsigned l2 = core.l2 >= 0 ? l2_ids(From::hwloc, core.l2) : l2_ids(From::fallback, static_cast<long long>(i));
    const unsigned cluster =
        core.cluster >= 0 ? cluster_ids(From::hwloc, core.cluster) : cluster_ids(From::fallback, core.package);
    cores.push_back({.index = static_cast<unsigned>(i),
                     .pus = core.pus,
                     .l2 = l2,
                     .cluster = cluster,
                     .package = package_ids(From::hwloc, core.package)});
  }
  return cores;
}

struct HwlocTopologyOwner {
  hwloc_topology_t topology = nullptr;
  ~HwlocTopologyOwner() {
    if (topology != nullptr) hwloc_topology_destroy(topology);
  }
};

}  // namespace

Topology Topology::from_facts(TopologyFacts facts) {
  Topology topology;
  topology.cores_ = build_cores(facts.cores);
  const auto verdicts = topology_detail::classify_numa_nodes(facts);
  std::vector<MemoryTier> tiers;
  for (std::size_t i = 0; i < facts.numa_nodes.size(); ++i) {
    const auto& node = facts.numa_nodes[i];
    topology.nodes_.push_back({.os_index = node.os_index,
                               .bytes = node.bytes,
                               .tier = verdicts[i].tier,
                               .cpus = node.cpus,
                               .subtype = node.subtype,
                               .reason = verdicts[i].reason});
    tiers.push_back(verdicts[i].tier);
  }
  auto modes = topology_detail::infer_modes(facts, tiers);
  topology.memory_mode_ = modes.memory_mode;
  topology.cluster_mode_ = modes.cluster_mode;
  topology.memory_mode_reason_ = std::move(modes.memory_reason);
  topology.cluster_mode_reason_ = std::move(modes.cluster_reason);
  topology.facts_ = std::move(facts);
  return topology;
}

Topology Topology::this_system() {
  return from_facts(
      topology_detail::read_facts(system_topology(), std::string(this_system_source), usable_cpuset()));
}

namespace {

TopologyFacts read_xml_facts(const std::string& path) {
  HwlocTopologyOwner owner;
  if (hwloc_topology_init(&owner.topology) != 0) throw PlatformError("hwloc_topology_init", "failed", errno);
  // Keep everything the file describes: disallowed PUs/nodes and memory-side caches (KNL cache/hybrid MCDRAM).
  // Never HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM: this is another machine, binding against it must stay impossible.
  hwloc_topology_set_flags(owner.topology, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
  hwloc_topology_set_type_filter(owner.topology, HWLOC_OBJ_MEMCACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
  if (hwloc_topology_set_xml(owner.topology, path.c_str()) != 0) {
    throw InputError(path, "cannot be read as an hwloc XML topology");
  }
  if (hwloc_topology_load(owner.topology) != 0) throw InputError(path, "is not a valid hwloc XML topology");
  return topology_detail::read_facts(owner.topology, path, hwloc_topology_get_topology_cpuset(owner.topology));
}

}  // namespace

Topology Topology::from_xml(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw InputError(path, "no such hwloc XML file");
  // The file is untrusted: what can be checked is checked before hwloc sees it, and hwloc then reads it once in a
  // child process, so whatever else crashes hwloc's import (docs/platform.md) ends the child, not us.
  topology_detail::precheck_topology_xml(path);
  if (const auto crash = topology_detail::crash_in_child([&] { (void)read_xml_facts(path); })) {
    throw InputError(path, "hwloc " + *crash + " reading this file: it is not an hwloc XML topology hwloc can "
                           "load (an object without its cpusets or nodesets, a broken reference?)");
  }
  return from_facts(read_xml_facts(path));
}

std::vector<unsigned> Topology::pus() const {
  std::vector<unsigned> all;
  for (const auto& core : cores_) all.insert(all.end(), core.pus.begin(), core.pus.end());
  std::sort(all.begin(), all.end());
  return all;
}

std::size_t Topology::pu_count() const noexcept {
  return std::accumulate(cores_.begin(), cores_.end(), std::size_t{0},
                         [](std::size_t sum, const Core& core) { return sum + core.pus.size(); });
}

const NumaNode* Topology::numa_node(unsigned os_index) const noexcept {
  const auto found = std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& n) { return n.os_index == os_index; });
  return found == nodes_.end() ? nullptr : &*found;
}

std::vector<unsigned> Topology::fast_nodes() const {
  std::vector<unsigned> ids;
  for (const auto& node : nodes_) {
    if (node.tier == MemoryTier::fast) ids.push_back(node.os_index);
  }
  return ids;
}

std::vector<unsigned> Topology::slow_nodes() const {
  std::vector<unsigned> ids;
  for (const auto& node : nodes_) {
    if (node.tier == MemoryTier::slow) ids.push_back(node.os_index);
  }
  return ids;
}

std::uint64_t Topology::fast_tier_bytes() const noexcept {
  std::uint64_t total = 0;
  for (const auto& node : nodes_) {
    if (node.tier == MemoryTier::fast) total += node.bytes;
  }
  return total;
}

std::optional<unsigned> Topology::nearest_fast_node(unsigned from_os_index) const {
  const auto from =
      std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& n) { return n.os_index == from_os_index; });
  if (from == nodes_.end()) return std::nullopt;
  if (from->tier == MemoryTier::fast) return from->os_index;
  const auto from_position = static_cast<std::size_t>(from - nodes_.begin());
  std::optional<std::size_t> best;
  auto closeness = [&](std::size_t candidate) {
    // Lower is closer: SLIT when known, else "shares the CPUs" (0) before anything else (1).
    if (!facts_.distances.empty()) return facts_.distances[from_position][candidate];
    return nodes_[candidate].cpus == from->cpus ? 0U : 1U;
  };
  for (std::size_t candidate = 0; candidate < nodes_.size(); ++candidate) {
    if (nodes_[candidate].tier != MemoryTier::fast) continue;
    if (!best || closeness(candidate) < closeness(*best)) best = candidate;
  }
  if (!best) return std::nullopt;
  return nodes_[*best].os_index;
}

}  // namespace cosched::platform
