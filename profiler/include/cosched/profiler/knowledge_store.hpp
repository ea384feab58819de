#pragma once
// What is known of a kind of task on this node (issue 39), kept with the profile cache
// (docs/formats.md, "Task knowledge"):
//
//   <cache>/<node folder>/knowledge/<task>-<8 hex>.json      one file per kind (TaskKind::identity)
//
// Every timed run of the kind — profiled on purpose (a strategy's point, cosched/knowledge/strategy.hpp) or
// observed when a batch ran it (de-contended by the contention-aware prediction) — with its cores, fast chunks,
// amount of work and seconds, and the memory-demand probe (two copies side by side) when one was run. Runs at any
// amount of work are of one kind: a command with another step count, or a STREAM task with other passes, starts
// from what is known. Measurements are times: they outlive a new calibration of the node and a new cosched, not a
// rebuilt program (its size and time stamp are kept) or another node (the folder's fingerprint).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/knowledge/measurement.hpp"
#include "cosched/profiler/profile_cache.hpp"

namespace cosched::profiler {

inline constexpr std::string_view kKindKnowledgeFormat = "cosched task knowledge";
inline constexpr int kKindKnowledgeFormatVersion = 1;
// Runs kept per (cores, chunks, work) point: the newest; older ones are dropped when a new one comes.
inline constexpr std::size_t kRunsKeptPerPoint = 8;
// The least time a known run (or a probe's run alone) takes: no process starts and ends in under a microsecond, and a
// smaller time is no measurement — 1e-300 s underflowed the fits' ln t and stopped the contention clock.
inline constexpr double kMinRunSeconds = 1e-6;

// How a run came to be known.
enum class RunSource { profiled, observed };
[[nodiscard]] std::string_view to_string(RunSource source) noexcept;

struct KnownRun {
  knowledge::Measurement run;
  RunSource source = RunSource::profiled;
  std::string date;  // UTC, ISO 8601
};

// Two copies side by side, each on `cores` cores at `work`, no fast chunk (the memory-demand probe,
// command_measurer.hpp): the same run alone, and the pair's median time with its spread.
struct KnownProbe {
  unsigned cores = 1;
  double work = 1.0;
  double alone_s = 0.0;
  double paired_s = 0.0;
  double paired_min_s = 0.0;
  double paired_max_s = 0.0;
  std::string date;
};

struct KindKnowledge {
  NodeFingerprint node;
  CachedTask task;
  std::optional<ProgramStamp> program;  // commands: the program as it was measured
  std::vector<KnownRun> runs;
  std::optional<KnownProbe> probe;
  // Adds a run, keeping the newest kRunsKeptPerPoint of its point.
  void add(const KnownRun& run);
  [[nodiscard]] std::vector<knowledge::Measurement> measurements() const;
  [[nodiscard]] std::size_t count(RunSource source) const;
};

// Parses a file; throws InputError naming `source` and the field for anything kind_knowledge_to_json would not
// write (another format or version, a run off the node's sizes, a non-positive time or work).
[[nodiscard]] KindKnowledge parse_kind_knowledge(std::string_view text, const std::string& source);
[[nodiscard]] std::string kind_knowledge_to_json(const KindKnowledge& knowledge);

// What the store holds of a kind, and why not more.
struct KnowledgeLookup {
  KindKnowledge knowledge;  // empty runs when nothing (usable) is known
  std::string note;         // "" when it is used as it is; else why it starts afresh (unreadable, rebuilt program)
  std::filesystem::path path;
};

// The knowledge of `task` in `cache` (hold the node's lock). A file that does not parse, or is of another node or
// task than its name says, starts afresh (the note says so; it is replaced when stored); a command whose program
// changed since starts afresh too.
[[nodiscard]] KnowledgeLookup look_up_knowledge(const ProfileCache& cache, const CachedTask& task);
// Refuses (InputError, before any work) a node store that a run could not write at its end: a knowledge/ that is
// not a folder, a launches.jsonl that is not a file. A kind's file that is not a file is refused by its look-up.
void check_knowledge_store(const ProfileCache& cache);
// Writes it whole (hold the node's lock).
void store_knowledge(const ProfileCache& cache, const KindKnowledge& knowledge);
// Every kind this node's store holds that is readable and this node's, in file-name order (hold the node's lock).
[[nodiscard]] std::vector<KindKnowledge> stored_knowledge(const ProfileCache& cache);
[[nodiscard]] std::filesystem::path knowledge_path(const ProfileCache& cache, const CachedTask& task);

}  // namespace cosched::profiler
