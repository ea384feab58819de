#pragma once
// The profile cache: what `cosched run` measured once, kept for every later run of the same tasks on the same node
// (docs/profiler.md, "The profile cache"; the entry format: docs/formats.md, "Profile cache entry").
//
//   <root>/                        $XDG_CACHE_HOME/cosched (default ~/.cache/cosched), or --cache DIR
//     <host>-<8 hex>/              one folder per node fingerprint (host, CPU model, NUMA nodes, tier backend)
//       node.toml                  the node's bandwidth model (calibrated when missing or stale)
//       lock                       held while this node's entries are looked up, measured and written
//       profiles/<task>-<8 hex>.json   one entry per task identity
//
// A task's identity is what makes its times its own: a STREAM kernel and its footprint, or a command's argv (its
// program resolved to a path), environment, footprint and placement mechanism. An entry records where and how it
// was measured (node, calibration, cosched version, measurer, passes, the program's size and time stamp) and its
// rows; a lookup uses it only when all of that still holds, and otherwise says why not (stale, foreign, corrupt) —
// never silently. Entries are written whole (write_text_file) under the node's lock.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/file_lock.hpp"
#include "cosched/common/json_fields.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

inline constexpr int kCacheEntryFormatVersion = 1;
inline constexpr std::string_view kCacheEntryFormat = "cosched profile cache entry";

// What makes two machines the same node for a profile. Cores are not part of it: an entry says which core counts
// it measured, and a lookup that needs more finds it stale.
struct NodeFingerprint {
  std::string host;
  std::string cpu_model;        // hwloc's CPUModel, "" when unknown
  unsigned numa_nodes = 0;
  std::string tier_backend;     // resolved: none, memkind, numa, emulated
  double emulation_ratio = 0;   // emulated tier only, else 0
  [[nodiscard]] std::string digest() const;       // "fnv1a64:<16 hex>" of the fields above
  [[nodiscard]] std::string folder_name() const;  // "<host as a safe id>-<8 hex of the digest>"
  friend bool operator==(const NodeFingerprint&, const NodeFingerprint&) = default;
};

// This machine with `tier_backend` (resolved) and, for the emulated tier, its ratio.
[[nodiscard]] NodeFingerprint this_node_fingerprint(const std::string& tier_backend, double emulation_ratio);

// What a cache entry profiles (see above). `program` of a command is its argv[0] resolved (exec::resolve_executable).
struct CachedTask {
  std::string kernel;                    // a STREAM task when set
  std::vector<std::string> argv;         // a command when set (argv[0] resolved to a path)
  std::vector<std::string> environment;  // NAME=VALUE, sorted (config::WorkloadTask::environment)
  std::string placement;                 // commands: the placement mechanism
  std::uint64_t footprint_bytes = 0;
  [[nodiscard]] bool is_stream() const noexcept { return !kernel.empty(); }
  [[nodiscard]] nlohmann::json key() const;       // the identity as JSON (the canonical text is its dump())
  [[nodiscard]] std::string file_name() const;    // "triad-64MiB-<8 hex>.json", "cmd-solver-<8 hex>.json"
  // The kernel column its rows have in a profile: the STREAM kernel, or "command:<name>".
  [[nodiscard]] std::string row_kernel(std::string_view command_name) const;
  friend bool operator==(const CachedTask&, const CachedTask&) = default;
};

// The identity of a workload task (a command's program resolved through PATH; InputError when it cannot be).
[[nodiscard]] CachedTask cached_task_of(const config::WorkloadTask& task, const std::string& placement);

// A command's program as it was when profiled: a rebuilt program is another program.
struct ProgramStamp {
  std::uint64_t size = 0;
  std::int64_t modified_ns = 0;  // since the epoch
  friend bool operator==(const ProgramStamp&, const ProgramStamp&) = default;
};
// Throws PlatformError when the program cannot be read.
[[nodiscard]] ProgramStamp program_stamp(const std::filesystem::path& program);

struct CacheEntry {
  std::string cosched_version;
  std::string date;                  // UTC, ISO 8601: when it was measured
  NodeFingerprint node;
  std::string calibration;           // the node model it was measured under (node_model_digest)
  CachedTask task;
  std::optional<ProgramStamp> program;  // commands
  std::string measurer;              // "process" or "command"
  PassCounts passes{};               // STREAM tasks: the pass counts each point was timed at
  unsigned reps = 0;
  double chunk_bytes = 0.0;          // the fast chunk the rows' chunk counts are of (> 0)
  // The cores each copy of the memory-demand probe had (0: too few cores for one; whether it measured is its row's
  // paired_s); unset in an entry from before the probe (commands' of issue 24, STREAM tasks' of issue 23), which a
  // node of 2 cores or more finds stale.
  std::optional<unsigned> probe_cores;
  std::vector<ProfileRow> rows;      // kernel row_kernel("cached"), footprint the task's; every one "ok"
  [[nodiscard]] unsigned max_cores() const;  // the largest core count of its rows
};

// The parts an entry shares with the knowledge store's files (knowledge_store.hpp), as JSON and back; the readers
// throw InputError naming the field.
[[nodiscard]] nlohmann::json node_json(const NodeFingerprint& node);
[[nodiscard]] NodeFingerprint node_from(const JsonFields& fields);
[[nodiscard]] CachedTask task_from(const JsonFields& fields);
[[nodiscard]] nlohmann::json program_json(const ProgramStamp& program);
[[nodiscard]] ProgramStamp program_from(const JsonFields& fields);

// Parses an entry; throws InputError naming `source` and the field for anything the writer would not write:
// another format or format_version, a missing or mistyped field, a row check_profile_row refuses or that is not
// "ok", a point twice, a command without argv or a STREAM task without kernel.
[[nodiscard]] CacheEntry parse_cache_entry(std::string_view text, const std::string& source);
// The entry's file text; parse_cache_entry(cache_entry_to_json(e), ...) gives e back.
[[nodiscard]] std::string cache_entry_to_json(const CacheEntry& entry);

enum class CacheState {
  hit,      // measured here, under this calibration and version, covering the cores asked for
  miss,     // never measured on this node
  stale,    // measured on this node, but under another calibration or version, for fewer cores, the program
            // changed since, or a command measured before its memory-demand probe
  foreign,  // measured on another node only (an entry of another fingerprint's folder)
  corrupt,  // an entry that does not parse, or whose node or task is not the file's: re-measured, never trusted
};
[[nodiscard]] std::string_view to_string(CacheState state) noexcept;

struct CacheLookup {
  CacheState state = CacheState::miss;
  std::string reason;                // why it is not a hit, in words
  std::optional<CacheEntry> entry;   // the entry, for a hit
  std::filesystem::path path;        // where it is (or would be)
};

// The identity of a node model for entries measured under it: the digest of its node file's text.
[[nodiscard]] std::string node_model_digest(const config::NodeModel& model);

// What a lookup must find for a hit.
struct CacheExpectation {
  std::string calibration;  // node_model_digest of the node model in use
  unsigned cores = 1;       // the entry must cover 1..cores
};

class ProfileCache {
 public:
  // The cache of node `node` under `root`. Nothing is created until a lock is taken or an entry stored.
  ProfileCache(std::filesystem::path root, NodeFingerprint node);
  // $XDG_CACHE_HOME/cosched, else $HOME/.cache/cosched; UsageError when neither variable is set (pass --cache).
  [[nodiscard]] static std::filesystem::path default_root();

  [[nodiscard]] const std::filesystem::path& root() const noexcept { return root_; }
  [[nodiscard]] const NodeFingerprint& node() const noexcept { return node_; }
  [[nodiscard]] std::filesystem::path node_folder() const;
  [[nodiscard]] std::filesystem::path node_model_path() const;  // node.toml in the node's folder
  [[nodiscard]] std::filesystem::path entry_path(const CachedTask& task) const;

  // The node's lock (creating its folders): one process looks up, measures and stores this node's entries at a
  // time. `waiting` hears the holder's note when it has to wait.
  [[nodiscard]] FileLock lock(const std::function<void(const std::string& holder)>& waiting) const;

  [[nodiscard]] CacheLookup lookup(const CachedTask& task, const CacheExpectation& expected) const;
  // Writes the entry whole, replacing an older one (hold the lock).
  void store(const CacheEntry& entry) const;

 private:
  std::filesystem::path root_;
  NodeFingerprint node_;
};

// The "format" and "format_version" of a cache file (an entry, a kind's knowledge): exactly `format` and `version`,
// else InputError naming `source`.
void check_file_format(const JsonFields& fields, const std::string& source, std::string_view format, int version);

}  // namespace cosched::profiler
