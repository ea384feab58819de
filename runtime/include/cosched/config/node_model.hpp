#pragma once
// The node bandwidth model (docs/formats.md, "Node TOML"; docs/calibration.md): for each memory pool of a node,
// the aggregate bandwidth it delivers as a function of the number of cores streaming from it, with where the
// numbers come from. `cosched calibrate` measures it on this machine; configs/nodes/ holds documented models
// (a KNL 7210 in flat mode, from published measurements). The contention-aware prediction shares each pool's
// bandwidth between the tasks streaming from it.
//   format_version = 1
//   [provenance]
//   host = "..."   date = "2026-11-22T13:50:00Z"   method = "..."   cosched_version = "0.1.0"
//   tier_backend = "emulated"   emulated = true   references = []
//   [[pools]]
//   name = "dram"
//   tiers = ["fast", "slow"]       # the emulated tier: both tiers are this one pool
//   cores = [1, 2]
//   gbs = [31.2, 33.0]
//   [pools.kernels.triad]          # the raw per-kernel curves the pool's curve is the median of
//   cores = [1, 2]
//   gbs = [30.9, 32.8]
// One parser (parse_node_toml / load_node_model), one writer (to_toml), and a JSON form for the headers of other
// files (to_json).
#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cosched {
class Reporter;  // cosched/common/reporter.hpp
}  // namespace cosched

namespace cosched::config {

inline constexpr int kNodeFormatVersion = 1;
inline constexpr double kMaxPoolGbs = 1e6;       // 1 PB/s: far beyond any node, small enough to stay finite
inline constexpr std::size_t kMaxMemoryPools = 16;
inline constexpr int kNodeModelMaxAgeDays = 30;  // an older calibration draws a warning
inline constexpr std::string_view kFastTier = "fast";
inline constexpr std::string_view kSlowTier = "slow";

// Aggregate bandwidth a pool delivers vs the number of cores streaming from it. Read between and beyond the
// points by the scheduler's one rule (sched::BandwidthPool::capacity: linear between points, flat beyond the last,
// proportional to the cores below the first), once profiler::node_bandwidth has converted it.
struct BandwidthCurve {
  std::vector<unsigned> cores;  // ascending, unique, >= 1
  std::vector<double> gbs;      // same length; GB/s = 1e9 bytes/s, finite, > 0, <= kMaxPoolGbs

  friend bool operator==(const BandwidthCurve&, const BandwidthCurve&) = default;
};

struct MemoryPool {
  std::string name;                               // a safe identifier: "dram", "mcdram", "ddr", "hbm"
  std::vector<std::string> tiers;                 // non-empty subset of {"fast", "slow"}
  BandwidthCurve bandwidth;                       // what the model uses (calibrate: per core count, the median
                                                  // over kernels)
  std::map<std::string, BandwidthCurve> kernels;  // the raw per-kernel curves (may be empty in a documented model)
  [[nodiscard]] bool holds_tier(std::string_view tier) const;
  friend bool operator==(const MemoryPool&, const MemoryPool&) = default;
};

struct NodeProvenance {
  std::string host;
  std::string date;             // ISO-8601 UTC, "2026-11-22T13:50:00Z"
  std::string method;           // how it was measured (kernels, sizes, reps, rounds, stores), or "documented: ..."
  std::string cosched_version;
  std::string source;           // the file it came from (not written into the file), or "calibrated"
  std::string tier_backend;     // a concrete backend name: none | memkind | numa | emulated
  bool emulated = false;        // the fast tier is emulated: both tiers are one physical pool
  std::vector<std::string> references;  // documented models: where the numbers come from (non-empty)
  // A model built from published figures rather than measured here: it carries references, and it is not a
  // calibration that can go stale.
  [[nodiscard]] bool documented() const noexcept { return !references.empty(); }
  friend bool operator==(const NodeProvenance&, const NodeProvenance&) = default;
};

struct NodeModel {
  NodeProvenance provenance;
  std::vector<MemoryPool> pools;
  // The pool the tier ("fast" | "slow") streams from; InputError naming the source when no pool holds it.
  [[nodiscard]] const MemoryPool& pool_of_tier(std::string_view tier) const;
  // True when the fast and the slow tier are one pool (the emulated tier on a one-node machine).
  [[nodiscard]] bool tiers_share_one_pool() const;
  [[nodiscard]] bool has_tier(std::string_view tier) const;
  friend bool operator==(const NodeModel&, const NodeModel&) = default;
};

// Reads and validates a node file. Throws InputError("file:line", ...) naming the key for: a TOML syntax error, an
// unknown key, a wrong type, a missing key, a value out of range, a tier in two pools or in none (a node with a
// fast tier needs both tiers; a node without one needs "slow"), an emulated node whose tiers are two pools,
// unsorted or repeated cores, curves of different lengths, and a format_version other than kNodeFormatVersion
// (naming `cosched calibrate`, which makes a new one). provenance.source is `source` (the path for
// load_node_model).
[[nodiscard]] NodeModel parse_node_toml(std::string_view text, const std::string& source);
// As parse_node_toml; a missing file is an InputError naming `cosched calibrate --output FILE`.
[[nodiscard]] NodeModel load_node_model(const std::filesystem::path& path);

// The model as a node file: parse_node_toml(to_toml(m), m.provenance.source) == m. Numbers are written in their
// shortest round-trip form.
[[nodiscard]] std::string to_toml(const NodeModel& model);

// {"provenance": {"host", "date", "method", "cosched_version", "source", "tier_backend", "emulated",
//  "references"}, "pools": [{"name", "tiers", "cores", "gbs", "kernels": {"triad": {"cores", "gbs"}}}]}
// — for the headers of other files (instances, journals, results).
void to_json(nlohmann::json& json, const NodeModel& model);

// Checks a model built in code against the parser's rules; throws InputError(provenance.source, ...).
void check_node_model(const NodeModel& model);

// Why a calibrated model may not describe this machine now: older than kNodeModelMaxAgeDays at `now`, made on
// another host than `this_host`, or a date that cannot be read. Each warning names `cosched calibrate`. None for a
// documented model.
[[nodiscard]] std::vector<std::string> node_model_warnings(const NodeModel& model,
                                                           std::chrono::system_clock::time_point now,
                                                           std::string_view this_host);
// Reports node_model_warnings for now and this host (gethostname), one "cosched: warning: ..." line each;
// returns how many. Warnings, never errors: an old model still predicts better than none.
std::size_t check_node_model_age(const NodeModel& model, Reporter& reporter);

}  // namespace cosched::config
