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
//   emulation_ratio = 5.0
//   model = "knl"                              # model profile instead of measuring
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/profiler/platform_config.hpp"
#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

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
  std::string model;  // "" = measure with the stream kernels; "knl" = KNL bandwidth model
};

// Reads a sweep file. Throws InputError("file:line", ...) naming an unknown key or a bad value.
[[nodiscard]] SweepConfig load_sweep_config(const std::filesystem::path& path);

// "1,2,4..8,16" -> {1,2,4,5,6,7,8,16}; sorted, duplicates removed. Throws UsageError on bad syntax.
[[nodiscard]] std::vector<unsigned> parse_count_list(std::string_view text);

// Footprint bytes of every requested footprint (MiB values and percentages of the platform's fast capacity),
// sorted, duplicates removed. Percentages round down to whole MiB so the same value always gives the same bytes.
[[nodiscard]] std::vector<std::uint64_t> resolve_footprints(const SweepConfig& config,
                                                            const PlatformConfig& platform);

// Bytes of a footprint given as a percentage of the platform's fast capacity (rounded down to whole MiB).
[[nodiscard]] std::uint64_t footprint_from_percent(double percent, const PlatformConfig& platform);

// Checks the sweep against the platform (cores and chunks within capacity, something to measure, reps >= 1) and
// returns every point in sweep order: kernel, footprint, cores, chunks. Throws UsageError naming the bad value.
[[nodiscard]] std::vector<ProfilePoint> expand_sweep(const SweepConfig& config, const PlatformConfig& platform);

}  // namespace cosched::profiler
