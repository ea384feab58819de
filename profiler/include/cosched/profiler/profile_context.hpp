#pragma once
// The JSON sidecar next to a profile CSV (profile.csv -> profile.json): where and how the table was made —
// host, topology summary, tier backend, emulation ratio, chunk bytes, compiler, date, cosched version, and the
// sweep's wall time and overhead. `cosched instance` reads chunk_bytes from it.
#include <nlohmann/json.hpp>

#include <filesystem>

#include "cosched/config/platform.hpp"
#include "cosched/profiler/sweep_config.hpp"

namespace cosched::profiler {

[[nodiscard]] std::filesystem::path sidecar_path(const std::filesystem::path& csv_path);

// Context common to every profile: host, compiler, date (UTC ISO 8601), version, platform, chunk bytes, reps.
// `measurer_context` (PointMeasurer::describe()) is merged in.
[[nodiscard]] nlohmann::json make_profile_context(const config::PlatformConfig& platform, const SweepConfig& sweep,
                                                  const nlohmann::json& measurer_context);

void write_profile_context(const std::filesystem::path& csv_path, const nlohmann::json& context);
// Throws InputError when the sidecar is missing or not JSON.
[[nodiscard]] nlohmann::json read_profile_context(const std::filesystem::path& csv_path);

// Before resuming: the fields that change what a point means (measurer, platform, chunk bytes, tier backend,
// emulation ratio) must match. Throws UsageError naming the first field that differs.
void check_resume_compatible(const nlohmann::json& existing, const nlohmann::json& current);

}  // namespace cosched::profiler
