#pragma once
// What a profile sweep covers: kernels x footprints x core counts x fast chunks, with repetitions, from a TOML
// file (configs/profiles/*.toml) and/or command-line flags (flags override the file). File keys:
//   kernels = ["triad", "ddot"]
//   footprints_mib = [64, 256]                 # and/or footprints_percent_of_fast = [60, 80, 100]
//   cores = "1..2"                             # or [1, 2]; default: 1..platform cores
//   chunks = "0..20"                           # or [0, 5, 10]; default: 0..platform chunks
//   reps = 5
//   warmup = 1
//   platform = "../platforms/local.toml"       # relative to this file
//   tier_backend = "emulated"                  # overrides the platform's backend
//   emulation_ratio = 5.0                      # emulated backend only
//   measurer = "stream"                        # process (default), stream or knl-model (docs/profiler.md)
//   passes = 20                                # process measurer: kernel passes of each timed task run, or
//                                              # [1, 20] (its default): timed at both, fixed cost and cost per
//                                              # pass apart
//   placement = "preferred"                    # commands: preferred, bind, weighted-interleave, autohbw, none
//   autohbw_threshold_kib = 1024               # commands, placement autohbw: AUTO_HBW_SIZE
//   autohbw_library = "/opt/memkind/lib/libautohbw.so"
//   [[commands]]                               # any program, measured by the "command" measurer
//   name = "solver"                            # optional (the program's file name); an identifier
//   command = "./solver --threads {threads}"   # a line split like a shell's words, or an argv array
//   env = { OMP_PROC_BIND = "true" }           # optional
//   timeout_s = 60                             # optional: longer runs are killed, their row marked "timeout"
//   footprint_mib = 512                        # optional: what a fast fraction is of (weighted-interleave)
// Lists hold no duplicates; numbers are finite and in range (docs/profiler.md).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

// Bounds of the repetition counts: a sweep keeps every repetition's time.
inline constexpr unsigned kMaxSweepReps = 100'000;
inline constexpr unsigned kMaxSweepWarmup = 100'000;
inline constexpr double kMaxSweepPoints = 1e7;

struct SweepConfig {
  std::vector<std::string> kernels;
  std::vector<double> footprints_mib;
  std::vector<double> footprints_percent_of_fast;
  std::vector<unsigned> cores;   // empty: 1..platform cores
  std::vector<unsigned> chunks;  // empty: 0..platform chunks
  unsigned reps = 5;
  unsigned warmup = 1;
  std::optional<std::filesystem::path> platform_file;
  std::optional<std::string> tier_backend;
  std::optional<double> emulation_ratio;
  std::string measurer{kDefaultMeasurer};  // a name of measurer_names()
  // Kernel passes per timed run (MeasurerOptions::passes); none given: the measurer's own (sweep_passes).
  std::optional<PassCounts> passes{};
  std::vector<CommandProfileSpec> commands{};  // a command sweep (measurer "command") when not empty
  CommandPlacementOptions placement{};
};

// The measurer a sweep of commands uses.
inline constexpr std::string_view kCommandMeasurer = "command";

// Appends a command to the sweep. Throws InputError(where, ...) for a bad argv (config::check_command), a name
// that is not an identifier or is taken, too many commands (its environment was checked where it was read:
// config::environment_entries).
void add_sweep_command(SweepConfig& sweep, CommandProfileSpec command, const std::string& where);

// The passes the sweep's measurer runs: the sweep's, else the measurer's default (MeasurerKind::default_passes:
// 1 and 20 for the process measurer, one pass for the others). Throws UsageError for an unknown measurer.
[[nodiscard]] PassCounts sweep_passes(const SweepConfig& sweep);

// Reads a sweep file. Throws InputError("file:line", ...) naming an unknown key, a bad or out-of-range value, or a
// value listed twice.
[[nodiscard]] SweepConfig load_sweep_config(const std::filesystem::path& path);

// Footprint bytes of every requested footprint (MiB values and percentages of the platform's fast capacity, by
// config::footprint_bytes_from_mib / footprint_from_percent), sorted. Throws UsageError for a footprint that
// rounds to 0 bytes or one given twice (also 64 MiB and the percentage that comes to 64 MiB).
[[nodiscard]] std::vector<std::uint64_t> resolve_footprints(const SweepConfig& config,
                                                            const config::PlatformConfig& platform);

// Checks the sweep against the platform (cores and chunks within capacity, something to measure, reps in range,
// no kernel twice) and returns every point in sweep order: kernel, footprint, cores, chunks. A command sweep has
// one footprint per command (its own) and no kernels. Throws UsageError naming the bad value.
[[nodiscard]] std::vector<ProfilePoint> expand_sweep(const SweepConfig& config,
                                                     const config::PlatformConfig& platform);

}  // namespace cosched::profiler
