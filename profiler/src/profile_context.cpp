#include "cosched/profiler/profile_context.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <fstream>

#include "cosched/common/error.hpp"

namespace cosched::profiler {
namespace {

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string compiler_name() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(now));
}

}  // namespace

std::filesystem::path sidecar_path(const std::filesystem::path& csv_path) {
  auto path = csv_path;
  path.replace_extension(".json");
  return path;
}

nlohmann::json make_profile_context(const config::PlatformConfig& platform, const SweepConfig& sweep,
                                    const nlohmann::json& measurer_context) {
  nlohmann::json context = {
      {"cosched_version", COSCHED_VERSION},
      {"date", utc_now()},
      {"host", host_name()},
      {"compiler", compiler_name()},
      {"platform",
       {{"name", platform.name},
        {"source", platform.source},
        {"cores", platform.cores},
        {"fast_capacity_bytes", platform.fast_capacity_bytes},
        {"fast_chunks", platform.fast_chunks}}},
      {"chunk_bytes", platform.chunk_bytes()},
      {"reps", sweep.reps},
      {"warmup", sweep.warmup},
  };
  context.update(measurer_context);
  return context;
}

void write_profile_context(const std::filesystem::path& csv_path, const nlohmann::json& context) {
  const auto path = sidecar_path(csv_path);
  std::ofstream out(path);
  out << context.dump(2) << '\n';
  if (!out) throw PlatformError("write", path.string(), errno);
}

nlohmann::json read_profile_context(const std::filesystem::path& csv_path) {
  const auto path = sidecar_path(csv_path);
  std::ifstream in(path);
  if (!in) {
    throw InputError(path.string(), fmt::format("missing sidecar of profile {} (written by cosched profile)",
                                                csv_path.string()));
  }
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path.string(), fmt::format("not valid JSON: {}", e.what()));
  }
}

void check_resume_compatible(const nlohmann::json& existing, const nlohmann::json& current) {
  const auto differs = [&](const nlohmann::json::json_pointer& field) {
    const bool in_existing = existing.contains(field), in_current = current.contains(field);
    return in_existing != in_current || (in_existing && existing.at(field) != current.at(field));
  };
  for (const char* field : {"/measurer", "/platform/name", "/chunk_bytes", "/tier_backend", "/emulation_ratio",
                            "/model"}) {
    const nlohmann::json::json_pointer pointer(field);
    if (differs(pointer)) {
      throw UsageError(fmt::format("cannot resume: '{}' was {} in the existing profile and is {} now",
                                   std::string(field).substr(1),
                                   existing.contains(pointer) ? existing.at(pointer).dump() : "absent",
                                   current.contains(pointer) ? current.at(pointer).dump() : "absent"));
    }
  }
}

}  // namespace cosched::profiler
