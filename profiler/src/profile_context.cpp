#include "cosched/profiler/profile_context.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <limits>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/common/version.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched::profiler {

using nlohmann::json;

namespace {

std::string compiler_name() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

// The members the sidecar schema names; every other top-level member belongs to the measurer's description.
constexpr std::string_view kOwnKeys[] = {"cosched_version", "date", "host",   "compiler", "platform",
                                         "chunk_bytes",     "reps", "warmup", "sweep"};

bool is_own_key(std::string_view key) {
  for (const auto own : kOwnKeys) {
    if (own == key) return true;
  }
  return false;
}

// Optional members: left at their defaults when absent, checked when present.
void read_string(const json& object, std::string_view key, const std::string& where, std::string& out) {
  if (const json* value = find_json_member(object, key, where)) out = json_to_string(*value, where, key);
}

template <typename Unsigned>
void read_count(const json& object, std::string_view key, const std::string& where, Unsigned& out) {
  constexpr auto max = std::numeric_limits<Unsigned>::max() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}
                           ? std::numeric_limits<std::int64_t>::max()
                           : static_cast<std::int64_t>(std::numeric_limits<Unsigned>::max());
  if (const json* value = find_json_member(object, key, where)) {
    out = static_cast<Unsigned>(json_to_integer(*value, 0, max, where, key));
  }
}

}  // namespace

std::filesystem::path sidecar_path(const std::filesystem::path& csv_path) {
  auto path = csv_path;
  path.replace_extension(".json");
  return path;
}

ProfileSidecar make_profile_sidecar(const config::PlatformConfig& platform, const SweepConfig& sweep,
                                    const json& measurer_context) {
  ProfileSidecar sidecar;
  sidecar.cosched_version = COSCHED_VERSION;
  sidecar.date = iso8601_utc(std::chrono::system_clock::now());
  sidecar.host = host_name();
  sidecar.compiler = compiler_name();
  sidecar.platform = {platform.name, platform.source, platform.cores, platform.fast_capacity_bytes,
                      platform.fast_chunks};
  sidecar.chunk_bytes = platform.chunk_bytes();
  sidecar.reps = sweep.reps;
  sidecar.warmup = sweep.warmup;
  sidecar.measurer = measurer_context;
  return sidecar;
}

ProfileSidecar parse_profile_sidecar(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  require_json_object(root, source);
  ProfileSidecar sidecar;
  read_string(root, "cosched_version", source, sidecar.cosched_version);
  read_string(root, "date", source, sidecar.date);
  read_string(root, "host", source, sidecar.host);
  read_string(root, "compiler", source, sidecar.compiler);
  if (const json* platform = find_json_member(root, "platform", source)) {
    const std::string where = source + ": platform";
    require_json_object(*platform, where);
    read_string(*platform, "name", where, sidecar.platform.name);
    read_string(*platform, "source", where, sidecar.platform.source);
    read_count(*platform, "cores", where, sidecar.platform.cores);
    read_count(*platform, "fast_capacity_bytes", where, sidecar.platform.fast_capacity_bytes);
    read_count(*platform, "fast_chunks", where, sidecar.platform.fast_chunks);
  }
  // A chunk is a share of a fast tier: up to 1 PiB, far beyond any node.
  sidecar.chunk_bytes =
      json_to_number(json_member(root, "chunk_bytes", source), positive_up_to(0x1p50), source, "chunk_bytes");
  read_count(root, "reps", source, sidecar.reps);
  read_count(root, "warmup", source, sidecar.warmup);
  if (const json* sweep = find_json_member(root, "sweep", source)) {
    require_json_object(*sweep, source + ": sweep");
    sidecar.sweep = *sweep;
  }
  for (const auto& [key, value] : root.items()) {
    if (!is_own_key(key)) sidecar.measurer[key] = value;
  }
  return sidecar;
}

void to_json(json& root, const ProfileSidecar& sidecar) {
  root = sidecar.measurer;
  root["cosched_version"] = sidecar.cosched_version;
  root["date"] = sidecar.date;
  root["host"] = sidecar.host;
  root["compiler"] = sidecar.compiler;
  root["platform"] = {{"name", sidecar.platform.name},
                      {"source", sidecar.platform.source},
                      {"cores", sidecar.platform.cores},
                      {"fast_capacity_bytes", sidecar.platform.fast_capacity_bytes},
                      {"fast_chunks", sidecar.platform.fast_chunks}};
  root["chunk_bytes"] = sidecar.chunk_bytes;
  root["reps"] = sidecar.reps;
  root["warmup"] = sidecar.warmup;
  if (!sidecar.sweep.is_null()) root["sweep"] = sidecar.sweep;
}

std::string profile_sidecar_to_json(const ProfileSidecar& sidecar) { return json(sidecar).dump(2) + "\n"; }

void write_profile_sidecar(const std::filesystem::path& csv_path, const ProfileSidecar& sidecar) {
  write_text_file(sidecar_path(csv_path), profile_sidecar_to_json(sidecar), Overwrite::replace, "profile sidecar");
}

ProfileSidecar read_profile_sidecar(const std::filesystem::path& csv_path) {
  const auto path = sidecar_path(csv_path);
  if (!std::filesystem::exists(path)) {
    throw InputError(path.string(), fmt::format("missing sidecar of profile {} (written by cosched profile)",
                                                csv_path.string()));
  }
  return parse_profile_sidecar(read_text_file(path, "profile sidecar"), path.string());
}

void check_resume_compatible(const ProfileSidecar& existing, const ProfileSidecar& current) {
  const json before = existing, now = current;
  for (const char* field : {"/measurer", "/platform/name", "/chunk_bytes", "/tier_backend", "/emulation_ratio",
                            "/model", "/passes", "/placement", "/commands", "/fast_memory"}) {
    const json::json_pointer pointer(field);
    const bool in_before = before.contains(pointer), in_now = now.contains(pointer);
    if (in_before != in_now || (in_before && before.at(pointer) != now.at(pointer))) {
      throw UsageError(fmt::format("cannot resume: '{}' was {} in the existing profile and is {} now",
                                   std::string(field).substr(1), in_before ? before.at(pointer).dump() : "absent",
                                   in_now ? now.at(pointer).dump() : "absent"));
    }
  }
}

std::string format_command_notes(const ProfileSidecar& sidecar) {
  std::string text;
  if (const auto note = sidecar.measurer.find("fast_memory"); note != sidecar.measurer.end()) {
    text += fmt::format("profile: fast memory {}\n", note->get<std::string>());
  }
  if (const auto applied = sidecar.measurer.find("placements_applied"); applied != sidecar.measurer.end()) {
    for (const auto& [chunks, placement] : applied->items()) {
      const auto& fraction = placement.at("applied_fraction");
      text += fmt::format("profile: chunks={}: {} (fast fraction applied: {})\n", chunks,
                          placement.at("placement").get<std::string>(),
                          fraction.is_null() ? std::string("not held by this mechanism")
                                             : fmt::format("{:.4f}", fraction.get<double>()));
    }
  }
  return text;
}

}  // namespace cosched::profiler
