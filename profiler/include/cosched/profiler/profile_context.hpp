#pragma once
// The JSON sidecar next to a profile CSV (profile.csv -> profile.json): where and how the table was made — host,
// platform, tier backend, emulation ratio, chunk bytes, compiler, date, cosched version, and the sweep's wall time
// and overhead. `cosched instance` reads chunk_bytes from it; `cosched profile --resume` compares it with the run
// it continues. One typed schema (ProfileSidecar) with one parser and one writer (docs/formats.md).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "cosched/config/platform.hpp"
#include "cosched/profiler/sweep_config.hpp"

namespace cosched::profiler {

struct ProfileSidecar {
  std::string cosched_version;
  std::string date;  // UTC, ISO 8601
  std::string host;
  std::string compiler;
  struct Platform {
    std::string name;
    std::string source;
    unsigned cores = 0;
    std::uint64_t fast_capacity_bytes = 0;
    unsigned fast_chunks = 0;
  } platform;
  double chunk_bytes = 0.0;  // fast bytes per chunk (capacity / chunks, not rounded); > 0
  unsigned reps = 0;
  unsigned warmup = 0;
  // The measurer's own description (PointMeasurer::describe(): "measurer", "tier_backend", "emulated",
  // "emulation_ratio", "model", "topology", ...), a JSON object whose members sit at the top level of the file.
  nlohmann::json measurer = nlohmann::json::object();
  // After a sweep: points, measured_this_run, skipped_already_done, interrupted, wall_s, ...; null before.
  nlohmann::json sweep;
};

[[nodiscard]] std::filesystem::path sidecar_path(const std::filesystem::path& csv_path);

// The sidecar of a sweep about to run: host, compiler, date, version, platform, chunk bytes, reps, and the
// measurer's description.
[[nodiscard]] ProfileSidecar make_profile_sidecar(const config::PlatformConfig& platform, const SweepConfig& sweep,
                                                  const nlohmann::json& measurer_context);

// Parses a sidecar: a JSON object with a number "chunk_bytes" (finite, > 0); the other fields above are optional
// but must have their types (strings; counts as integers >= 0; "platform" and "sweep" objects). Members it does
// not know are the measurer's. Throws InputError naming `source` and the field.
[[nodiscard]] ProfileSidecar parse_profile_sidecar(std::string_view text, const std::string& source);
// The sidecar as JSON (nlohmann's to_json: `nlohmann::json j = sidecar;`) and as the file's text (2-space
// indent), read back by parse_profile_sidecar.
void to_json(nlohmann::json& json, const ProfileSidecar& sidecar);
[[nodiscard]] std::string profile_sidecar_to_json(const ProfileSidecar& sidecar);

// The sidecar of `csv_path`, written whole or not at all (write_text_file; an existing sidecar is replaced).
void write_profile_sidecar(const std::filesystem::path& csv_path, const ProfileSidecar& sidecar);
// Throws InputError when the sidecar is missing or invalid.
[[nodiscard]] ProfileSidecar read_profile_sidecar(const std::filesystem::path& csv_path);

// Before resuming: the fields that change what a point means (measurer, platform, chunk bytes, tier backend,
// emulation ratio, model) must match. Throws UsageError naming the first field that differs.
void check_resume_compatible(const ProfileSidecar& existing, const ProfileSidecar& current);

// What a command sweep's sidecar says about fast memory and how each chunk count's placement was applied, as
// "profile: ..." lines: a command's profile must not be read as if its chunks were honoured when they were not.
// Empty when the measurer recorded neither.
[[nodiscard]] std::string format_command_notes(const ProfileSidecar& sidecar);

}  // namespace cosched::profiler
