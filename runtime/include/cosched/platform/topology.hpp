#pragma once
// What this node offers the scheduler: cores (with their PUs and cache/cluster neighbourhood), NUMA nodes split
// into a fast tier (MCDRAM / HBM) and a slow tier (DDR), and the KNL-style memory and cluster modes.
//
// Discovery is two steps so the interesting part is testable without hwloc:
//   1. hwloc (this system, or a saved XML) is read into TopologyFacts: plain data, no interpretation.
//   2. Topology::from_facts() classifies the facts (fast tier, modes) with our own rules (docs/platform.md).
// Hand-made TopologyFacts give unit tests any machine they like.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::platform {

enum class MemoryTier { fast, slow };

// flat: fast memory is addressable NUMA memory; cache: it is a memory-side cache only; hybrid: both.
// none: neither a fast node nor a memory-side cache is visible (an ordinary DDR machine).
enum class MemoryMode { flat, cache, hybrid, none, unknown };

enum class ClusterMode { all_to_all, hemisphere, quadrant, snc2, snc4, unknown };

[[nodiscard]] std::string_view to_string(MemoryTier tier) noexcept;
[[nodiscard]] std::string_view to_string(MemoryMode mode) noexcept;     // "flat", "cache", "hybrid", ...
[[nodiscard]] std::string_view to_string(ClusterMode mode) noexcept;    // "quadrant", "SNC-4", "a2a", ...

// Compact text of an ascending index list (cpus, nodes): "0-3,8,10-11".
[[nodiscard]] std::string to_range_text(const std::vector<unsigned>& ascending);

// ---- Raw facts (step 1) ----------------------------------------------------------------------------------------

struct NumaNodeFacts {
  unsigned os_index = 0;
  std::uint64_t bytes = 0;
  std::vector<unsigned> cpus;                      // the node's cpuset (PU OS indices), empty for a CPU-less node
  std::string subtype;                             // hwloc subtype: "MCDRAM", "HBM", "" when not set
  std::optional<std::uint64_t> bandwidth_mib_s;    // hwloc Bandwidth memory attribute (best initiator), if any
};

struct CoreFacts {
  std::vector<unsigned> pus;  // usable PUs of the core (OS indices), never empty
  int l2 = -1;                // id of the L2 cache it hangs under (cores sharing one have the same id), -1 unknown
  int cluster = -1;           // id of its memory locality (hwloc object holding its NUMA nodes), -1 unknown
  int package = -1;           // package id, -1 unknown
};

struct TopologyFacts {
  std::string source;                            // "this system" or the XML path
  std::vector<CoreFacts> cores;                  // usable cores, hwloc logical order
  std::vector<NumaNodeFacts> numa_nodes;         // ALL NUMA nodes, CPU-less ones included, by OS index
  std::vector<std::vector<unsigned>> distances;  // SLIT, [i][j] indexed like numa_nodes; empty when unknown
  std::uint64_t memory_side_cache_bytes = 0;     // total memory-side cache (KNL cache/hybrid MCDRAM)
  unsigned packages = 0;                         // 0 when the topology has no Package object
  std::string memory_mode_info;                  // root info "MemoryMode" (BIOS), "" when absent
  std::string cluster_mode_info;                 // root info "ClusterMode" (BIOS), "" when absent
  std::string cpu_model;                         // hwloc CPUModel info of the first package, "" when absent
  int cpu_family = -1;                           // x86 CPUFamilyNumber, -1 when absent
  int cpu_model_number = -1;                     // x86 CPUModelNumber (KNL: 87), -1 when absent
};

// ---- Classified topology (step 2) ------------------------------------------------------------------------------

struct NumaNode {
  unsigned os_index = 0;
  std::uint64_t bytes = 0;
  MemoryTier tier = MemoryTier::slow;
  std::vector<unsigned> cpus;  // PU OS indices local to the node, empty for a CPU-less node
  std::string subtype;
  std::string reason;          // why it is fast or slow, in words (the signs that decided it)
};

struct Core {
  unsigned index = 0;          // position in Topology::cores()
  std::vector<unsigned> pus;   // usable PUs (OS indices), for binding
  unsigned l2 = 0;             // cores with equal l2 share an L2 cache (a KNL tile); unique when unknown
  unsigned cluster = 0;        // cores with equal cluster share a NUMA locality (SNC cluster, socket)
  unsigned package = 0;
};

// Limits of a saved hwloc XML topology, checked before hwloc reads it (docs/platform.md): real machines nest
// under 20 levels (Machine, Package, Groups, caches, Core, PU, PCI bridges) and no NUMA node, cache or page
// reaches a pebibyte.
inline constexpr int kMaxTopologyXmlDepth = 64;
inline constexpr std::uint64_t kMaxTopologyBytes = std::uint64_t{1} << 50;

class Topology {
 public:
  // This machine through hwloc; only the PUs this process may use (cgroups, taskset, Slurm) count.
  [[nodiscard]] static Topology this_system();
  // A saved hwloc XML (never treated as this system: binding against it is not possible). Everything in the
  // file counts as usable. Throws InputError naming the file when it is missing, is not well-formed, breaks the
  // limits above, or crashes hwloc (which reads it in a child process first).
  [[nodiscard]] static Topology from_xml(const std::string& path);
  // Classifies plain facts (what the two above do after reading hwloc; tests feed hand-made facts).
  [[nodiscard]] static Topology from_facts(TopologyFacts facts);

  [[nodiscard]] const std::vector<Core>& cores() const noexcept { return cores_; }
  [[nodiscard]] std::vector<unsigned> pus() const;  // all usable PUs, ascending
  [[nodiscard]] std::size_t pu_count() const noexcept;
  [[nodiscard]] const std::vector<NumaNode>& numa_nodes() const noexcept { return nodes_; }
  [[nodiscard]] const NumaNode* numa_node(unsigned os_index) const noexcept;  // nullptr when absent

  [[nodiscard]] std::vector<unsigned> fast_nodes() const;  // OS indices of the fast tier, ascending
  [[nodiscard]] std::vector<unsigned> slow_nodes() const;  // OS indices of the slow tier, ascending
  [[nodiscard]] std::uint64_t fast_tier_bytes() const noexcept;
  [[nodiscard]] bool has_fast_tier() const noexcept { return fast_tier_bytes() > 0; }
  // The fast node closest (SLIT, else same cpus) to a given node; nullopt when there is no fast tier.
  [[nodiscard]] std::optional<unsigned> nearest_fast_node(unsigned from_os_index) const;

  [[nodiscard]] MemoryMode memory_mode() const noexcept { return memory_mode_; }
  [[nodiscard]] ClusterMode cluster_mode() const noexcept { return cluster_mode_; }
  [[nodiscard]] const std::string& memory_mode_reason() const noexcept { return memory_mode_reason_; }
  [[nodiscard]] const std::string& cluster_mode_reason() const noexcept { return cluster_mode_reason_; }

  [[nodiscard]] const std::string& source() const noexcept { return facts_.source; }
  [[nodiscard]] bool is_this_system() const noexcept { return facts_.source == this_system_source; }
  [[nodiscard]] const TopologyFacts& facts() const noexcept { return facts_; }

  static constexpr std::string_view this_system_source = "this system";

 private:
  TopologyFacts facts_;
  std::vector<Core> cores_;
  std::vector<NumaNode> nodes_;
  MemoryMode memory_mode_ = MemoryMode::unknown;
  ClusterMode cluster_mode_ = ClusterMode::unknown;
  std::string memory_mode_reason_;
  std::string cluster_mode_reason_;
};

}  // namespace cosched::platform
