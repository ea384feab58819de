#pragma once
// The profile cache: what `cosched run` learned of a node and its tasks, kept for every later run on the same node
// (docs/profiler.md, "The profile cache"; its files: docs/formats.md).
//
//   <root>/                        $XDG_CACHE_HOME/cosched (default ~/.cache/cosched), or --cache DIR
//     <host>-<8 hex>/              one folder per node fingerprint (host, CPU model, NUMA nodes, tier backend)
//       node.toml                  the node's bandwidth model (calibrated when missing or stale)
//       lock                       held while this node's knowledge is looked up, measured and written
//       knowledge/<task>-<8 hex>.json   what is known of one kind of task (knowledge_store.hpp)
//       launches.jsonl             the node's launches, predicted and observed (run_history.hpp)
//
// A task's identity is what makes its times its own: a STREAM kernel and its footprint, or a command's argv (its
// program resolved to a path), environment, footprint and placement mechanism.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/file_lock.hpp"
#include "cosched/common/json_fields.hpp"
#include "cosched/config/workload.hpp"

namespace cosched::profiler {

// What makes two machines the same node for a profile. Cores are not part of it: a kind's knowledge says which core
// counts it measured.
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

// What a kind's knowledge is of (see above). `program` of a command is its argv[0] resolved (exec::resolve_executable).
struct CachedTask {
  std::string kernel;                    // a STREAM task when set
  std::vector<std::string> argv;         // a command when set (argv[0] resolved to a path)
  std::vector<std::string> environment;  // NAME=VALUE, sorted (config::WorkloadTask::environment)
  std::string placement;                 // commands: the placement mechanism
  std::uint64_t footprint_bytes = 0;
  [[nodiscard]] bool is_stream() const noexcept { return !kernel.empty(); }
  [[nodiscard]] nlohmann::json key() const;       // the identity as JSON (the canonical text is its dump())
  [[nodiscard]] std::string file_name() const;    // "triad-64MiB-<8 hex>.json", "cmd-solver-<8 hex>.json"
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

// The parts of the knowledge store's files (knowledge_store.hpp) that say which node and task they are of, as JSON
// and back; the readers throw InputError naming the field.
[[nodiscard]] nlohmann::json node_json(const NodeFingerprint& node);
[[nodiscard]] NodeFingerprint node_from(const JsonFields& fields);
[[nodiscard]] CachedTask task_from(const JsonFields& fields);
[[nodiscard]] nlohmann::json program_json(const ProgramStamp& program);
[[nodiscard]] ProgramStamp program_from(const JsonFields& fields);

class ProfileCache {
 public:
  // The cache of node `node` under `root`. Nothing is created until a lock is taken or knowledge stored.
  ProfileCache(std::filesystem::path root, NodeFingerprint node);
  // $XDG_CACHE_HOME/cosched, else $HOME/.cache/cosched; UsageError when neither variable is set (pass --cache).
  [[nodiscard]] static std::filesystem::path default_root();

  [[nodiscard]] const std::filesystem::path& root() const noexcept { return root_; }
  [[nodiscard]] const NodeFingerprint& node() const noexcept { return node_; }
  [[nodiscard]] std::filesystem::path node_folder() const;
  [[nodiscard]] std::filesystem::path node_model_path() const;  // node.toml in the node's folder
  // The node's folder, made when missing (with the cache's root); throws PlatformError when it cannot be.
  std::filesystem::path make_node_folder() const;

  // The node's lock (creating its folder): one process looks up, measures and stores this node's knowledge at a
  // time. `waiting` hears the holder's note when it has to wait.
  [[nodiscard]] FileLock lock(const std::function<void(const std::string& holder)>& waiting) const;

 private:
  std::filesystem::path root_;
  NodeFingerprint node_;
};

// The "format" and "format_version" of a cache file: exactly `format` and `version`, else InputError naming `source`.
void check_file_format(const JsonFields& fields, const std::string& source, std::string_view format, int version);

}  // namespace cosched::profiler
