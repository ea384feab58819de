#pragma once
// A sweep as `cosched profile` asks for it: a sweep file (sweep_config.hpp) and the flags that override its keys,
// each one only when given, plus commands given one by one (--command, with --name, --command-timeout and
// --command-footprint-mib). The command line fills a SweepOverrides; a library user can do the same.
#include <optional>
#include <string>
#include <vector>

#include "cosched/profiler/sweep_config.hpp"

namespace cosched::profiler {

struct SweepOverrides {
  std::string config;  // the sweep file; empty: SweepConfig's defaults
  std::vector<std::string> kernels;
  std::vector<double> footprints_mib;      // with footprints_percent: both replace the file's footprints
  std::vector<double> footprints_percent;
  std::string cores;   // a count list (config::parse_count_list: "1,2,4..8")
  std::string chunks;
  std::optional<unsigned> reps;
  std::optional<unsigned> warmup;
  std::vector<unsigned> passes;  // one count, or LOW,HIGH (pass_counts)
  std::string platform;
  std::string tier_backend;
  std::optional<double> emulation_ratio;
  std::string measurer;
  std::vector<std::string> commands;  // command lines, split like a shell's words (split_command_line)
  std::vector<std::string> names;     // one per command, in order; empty: default_command_name
  std::optional<double> command_timeout_s;
  std::optional<double> command_footprint_mib;
  std::string placement;
  std::optional<unsigned> autohbw_threshold_kib;
  std::string autohbw_library;
};

// The sweep file (if any) with every given override applied; commands replace the kernels and select the command
// measurer. Throws UsageError for --name / --command-timeout / --command-footprint-mib without --command, a
// --name count that does not match, --kernels with --command, another --measurer with --command, and a bad
// command (as a usage error: it is a flag, not a file); load_sweep_config's errors for the file.
[[nodiscard]] SweepConfig sweep_from_overrides(const SweepOverrides& overrides);

}  // namespace cosched::profiler
