#pragma once
// A platform (node) description, configs/platforms/*.toml: the two resources the scheduler shares on a node —
// cores, and the fast memory tier divided into chunks — plus the tier backend that places fast bytes there.
// The profiler sweeps it, `cosched instance` sizes instances by it, the launcher runs schedules on it. Format
// (docs/formats.md, "Platform TOML"):
//   name = "knl-7210-flat"
//   description = "..."          # optional, kept for the writer
//   cores = 64                   # or "auto": the cores this process may use on this machine
//   [fast_memory]
//   capacity_gib = 16            # or capacity_mib / capacity_bytes, or capacity = "auto" (exactly one)
//   chunks = 20
//   tier_backend = "memkind"     # auto | none | memkind | numa | emulated
//   emulation_ratio = 5.0        # emulated backend: slow:fast bandwidth ratio, 1..100
// One parser (parse_platform_toml / load_platform_config), one writer (to_toml), and a JSON form for headers of
// other files (to_json: journals, profile sidecars).
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cosched::config {

// Limits far beyond any node yet small enough that an instance's dense time table ((cores+1) x (chunks+1)
// entries per task) and the products of these numbers stay small and finite.
inline constexpr unsigned kMaxCores = 4096;
inline constexpr unsigned kMaxFastChunks = 1024;
inline constexpr std::uint64_t kMaxFastCapacityBytes = 1ULL << 50;  // 1 PiB
inline constexpr double kMinEmulationRatio = 1.0;   // the slow tier is never faster than the fast one
inline constexpr double kMaxEmulationRatio = 100.0; // the emulated slow part is streamed this many times
inline constexpr double kDefaultEmulationRatio = 5.0;  // MCDRAM:DDR on KNL
inline constexpr unsigned kDefaultFastChunks = 20;     // Sun et al. Sec. 5.2

struct PlatformConfig {
  std::string name;
  std::string description;
  unsigned cores = 0;
  std::uint64_t fast_capacity_bytes = 0;  // 0: no fast tier (then fast_chunks is 0 too)
  unsigned fast_chunks = 0;
  std::string tier_backend = "auto";
  double emulation_ratio = kDefaultEmulationRatio;
  std::string source;  // the file it came from, "built-in" or "this machine"

  // Bytes of one fast chunk (capacity / chunks, not rounded: fractions are computed exactly); 0 without chunks.
  [[nodiscard]] double chunk_bytes() const noexcept {
    return fast_chunks == 0 ? 0.0 : static_cast<double>(fast_capacity_bytes) / static_cast<double>(fast_chunks);
  }
};

// Reads and validates a platform file; "auto" cores resolve to the allowed cores of this system and "auto"
// capacity to the backend's fast tier here. Throws InputError("file:line", ...) naming the key for an unknown key,
// a wrong type, a value out of range (cores 1..kMaxCores, chunks 1..kMaxFastChunks and at most one per byte,
// capacity 1 B..1 PiB, emulation ratio 1..100) or an unknown backend.
[[nodiscard]] PlatformConfig load_platform_config(const std::filesystem::path& path);
[[nodiscard]] PlatformConfig parse_platform_toml(std::string_view text, const std::string& source);

// The platform as a TOML file parse_platform_toml reads back to the same values (cores and capacity as numbers).
// A platform without a fast tier (0 chunks) has no TOML form: UsageError.
[[nodiscard]] std::string to_toml(const PlatformConfig& platform);

// {"name", "description", "source", "cores", "fast_capacity_bytes", "fast_chunks", "chunk_bytes", "tier_backend",
//  "emulation_ratio"} — for the headers of journals and profile sidecars.
void to_json(nlohmann::json& json, const PlatformConfig& platform);

// Checks a platform built in code (this machine, command-line overrides) against the same ranges as the parser;
// throws UsageError naming `what` ("--chunks", "--emulation-ratio", ...) and the value.
void check_platform(const PlatformConfig& platform, const std::string& what);

// This machine as the platform layer sees it: its allowed cores, the fast tier of `tier_backend` ("auto": the
// backend chosen for this machine) in `chunks` chunks (0 when the backend has no fast tier); an emulated tier has
// `emulated_fast_bytes` (0: the platform layer's default). Throws UsageError for chunks or a ratio out of range,
// like platform::make_tier_backend for an unusable backend.
[[nodiscard]] PlatformConfig this_machine_platform(const std::string& tier_backend = "auto",
                                                   double emulation_ratio = kDefaultEmulationRatio,
                                                   unsigned chunks = kDefaultFastChunks,
                                                   std::uint64_t emulated_fast_bytes = 0);

// The platform a run on this node uses (`cosched launch`, `cosched online --launch`): the platform file when one is
// given, else this machine as detected (this_machine_platform with `tier_backend`, "auto" when empty, and
// `chunks`); a non-empty `tier_backend` replaces the file's backend. Throws load_platform_config's and
// this_machine_platform's errors.
struct RunPlatform {
  std::optional<PlatformConfig> platform_file;  // when a file was given
  PlatformConfig node;                          // the file's, or this machine as detected
};
[[nodiscard]] RunPlatform run_platform(const std::string& platform_file, const std::string& tier_backend,
                                       unsigned chunks);

// The KNL 7210 flat-mode node the paper used (64 cores, 16 GiB MCDRAM in 20 chunks) — the default platform of
// model profiles; configs/platforms/knl-7210-flat.toml holds the same values.
[[nodiscard]] PlatformConfig knl_7210_flat_platform();

// Footprints as the files give them, converted by one rule everywhere:
//   MiB -> bytes: rounded to the nearest byte;
//   percent of the platform's fast capacity -> bytes: rounded down to whole MiB, so the same value always gives
//   the same bytes (and the same task id).
[[nodiscard]] std::uint64_t footprint_bytes_from_mib(double mib);
[[nodiscard]] std::uint64_t footprint_from_percent(double percent, const PlatformConfig& platform);

}  // namespace cosched::config
