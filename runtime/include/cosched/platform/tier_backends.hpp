#pragma once
// Choosing and building a memory-tier backend by name. Backends: "none" (everything where the OS puts it — no
// tiering; what stream_bench uses without --fast-fraction), "memkind", "numa", "emulated"; "auto" picks one
// for this machine and always says which.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/platform/fast_tier_budget.hpp"
#include "cosched/platform/memory_tier.hpp"

namespace cosched::platform {

class Topology;


struct TierOptions {
  std::string backend = "auto";       // auto | none | memkind | numa | emulated
  double emulation_ratio = 5.0;       // slow:fast bandwidth ratio the emulated backend imposes (MCDRAM:DDR ≈ 5)
  std::vector<unsigned> fast_nodes;   // numa backend: fast NUMA nodes (empty: detected from the topology)
  std::vector<unsigned> slow_nodes;   // numa backend: slow NUMA nodes (empty: detected from the topology)
  // Fast bytes a backend places are reserved on this budget (its release returns them). Null: the backend builds
  // one sized to its fast tier (see fast_tier_capacity_bytes) with `budget_chunks` chunks.
  std::shared_ptr<FastTierBudget> budget;
  std::size_t budget_chunks = FastTierBudget::default_chunk_count;
  // Capacity of the emulated fast tier; 0 = default_emulated_fast_bytes() (docs/memory-tiers.md says why).
  std::size_t emulated_fast_bytes = 0;
};

// ---- What a backend can do, and how a child process gets its fast share on it ----
// Every backend answers for itself through its entry in the backend table (src/platform/tiers/): callers (the
// launcher, the profiler) never branch on a backend's name, so a new backend touches one folder.

struct TierCapabilities {
  bool has_fast_tier = false;    // fast chunks can be granted ("none": everything where the OS puts it)
  bool emulated = false;         // the fast tier is emulated by re-streaming the slow part (stream kernels only)
  bool places_commands = false;  // an arbitrary command gets its fast share through a NUMA memory policy
};

// The fast and slow NUMA nodes a child's memory policy may name.
struct TierNodes {
  std::vector<unsigned> fast;
  std::vector<unsigned> slow;
};

// A set_mempolicy(2) a child applies before exec: `mode` is MPOL_BIND, MPOL_PREFERRED (numaif.h) or
// kMpolWeightedInterleave (mempolicy.hpp). No policy when `nodes` is empty.
struct MemoryPolicy {
  int mode = 0;
  std::vector<unsigned> nodes;
};

enum class ChildProgram { stream_bench, command };

struct ChildPlacementRequest {
  ChildProgram program = ChildProgram::command;
  std::size_t granted_fast_bytes = 0;  // the fast chunks granted, in bytes
  std::uint64_t footprint_bytes = 0;   // stream_bench: the task's arrays (its fast fraction = granted / footprint)
  double emulation_ratio = 5.0;        // emulated backends: slow:fast bandwidth ratio
  TierNodes nodes;                     // commands on backends that place them: where the policy points
  // Commands: the mechanism that gives them their share (command_placement.hpp: preferred, bind,
  // weighted-interleave, autohbw, none), and what it needs.
  std::string command_placement = "preferred";
  std::uint64_t command_footprint_bytes = 0;        // weighted-interleave: the bytes the fraction is of (0: unknown)
  std::size_t autohbw_threshold_bytes = 1 << 20;    // autohbw: allocations at least this big go to the fast tier
  std::filesystem::path autohbw_library;            // autohbw: libautohbw.so (empty: searched)
};

struct ChildPlacement {
  std::size_t fast_bytes = 0;                  // fast bytes the child gets (0 without a fast tier)
  std::vector<std::string> stream_bench_args;  // stream_bench: appended to its argv
  MemoryPolicy memory;                         // commands: applied in the child before exec
  std::vector<std::string> environment;        // commands: NAME=VALUE set for the child (autohbw's LD_PRELOAD)
  std::map<unsigned, unsigned> interleave_weights;  // weighted interleave: system-wide node weights it needs
  std::optional<double> applied_fraction;      // the fast share of its pages the mechanism holds; none: cannot say
  std::string description;                     // how the share is applied, in words (the launcher journals it)
};

struct TierBackendInfo {
  std::string_view name;
  TierCapabilities capabilities;
  // How a child process gets `request`'s fast share on this backend. Throws ResourceError when the backend cannot
  // place it (e.g. a command on a real tier without fast and slow nodes).
  ChildPlacement (*child_placement)(const ChildPlacementRequest& request) = nullptr;
};

// The backend named `name` (a concrete name, not "auto": resolve it first). Throws UsageError for an unknown name.
[[nodiscard]] const TierBackendInfo& tier_backend_info(std::string_view name);

// The fast and slow tiers the topology classification finds on this system (cached).
[[nodiscard]] const TierNodes& detected_tier_nodes();

// ---- Building backends ----

// Builds the backend; throws UsageError for an unknown name, ResourceError when the named backend cannot work
// here (e.g. "memkind" without HBW nodes, "numa" without a fast node).
[[nodiscard]] std::unique_ptr<TierBackend> make_tier_backend(const TierOptions& options);

// The concrete backend `options.backend` stands for: itself, or for "auto" the one chosen for this machine —
// "memkind" when memkind finds HBW nodes, else "numa" when there are fast NUMA nodes (given or detected), else
// "emulated". Throws UsageError for an unknown name.
[[nodiscard]] std::string resolve_tier_backend_name(const TierOptions& options);

// What "auto" resolves to with default options (for `cosched topo`).
[[nodiscard]] std::string auto_tier_backend_name();
// What "auto" would resolve to on the machine `topology` describes: on this system auto_tier_backend_name(); for a
// saved machine (an XML topology) each backend's own test of that topology, in the same order.
[[nodiscard]] std::string auto_tier_backend_name(const Topology& topology);

// The table entry of `name`, "auto" resolved with default options (this machine's backend).
[[nodiscard]] const TierBackendInfo& resolved_tier_backend_info(std::string_view name);

// Bytes of the fast tier the named backend would use: the sizes of its fast NUMA nodes, the configured emulated
// capacity, 0 for "none". Throws like make_tier_backend when the backend cannot work here.
[[nodiscard]] std::size_t fast_tier_capacity_bytes(const TierOptions& options);

// A budget over fast_tier_capacity_bytes(options) with options.budget_chunks chunks; share it between backends
// and the launcher through TierOptions::budget. Throws ResourceError when that backend has no fast tier.
[[nodiscard]] std::shared_ptr<FastTierBudget> make_fast_tier_budget(const TierOptions& options);

// Default emulated fast-tier capacity: physical memory / 7, i.e. fast:slow = 1:6 like the 16 GiB MCDRAM +
// 96 GiB DDR KNL nodes of the core paper.
[[nodiscard]] std::size_t default_emulated_fast_bytes();

// Names accepted by make_tier_backend, for help texts and error messages.
[[nodiscard]] std::vector<std::string> tier_backend_names();

// Bytes of one page for rounding tier splits.
[[nodiscard]] std::size_t page_bytes();

// Elements of `count` doubles that go to the fast tier for fraction f in [0,1]: the whole array when f * bytes
// covers it, else f * bytes rounded DOWN to whole pages (never more than f: the arrays of a task stay within its
// grant). Throws UsageError for f outside [0,1] or NaN.
[[nodiscard]] std::size_t fast_element_count(std::size_t count, double fast_fraction);

}  // namespace cosched::platform
