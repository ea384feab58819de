// The profile cache (profile_cache.hpp): a node's folder, its lock, and the identities of nodes and tasks.
#include "cosched/profiler/profile_cache.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "cosched/common/digest.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/json_fields.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/profiler/profile_csv.hpp"

namespace cosched::profiler {

using nlohmann::json;

namespace {

std::string short_digest(const json& value) { return digest_text(value.dump()).substr(8, 8); }

}  // namespace

json node_json(const NodeFingerprint& node) {
  return {{"host", node.host},
          {"cpu_model", node.cpu_model},
          {"numa_nodes", node.numa_nodes},
          {"tier_backend", node.tier_backend},
          {"emulation_ratio", node.emulation_ratio}};
}

NodeFingerprint node_from(const JsonFields& fields) {
  NodeFingerprint node;
  node.host = fields.required_text("host");
  node.cpu_model = fields.text("cpu_model");
  node.numa_nodes = static_cast<unsigned>(fields.integer("numa_nodes", 0, 1 << 20, 0));
  node.tier_backend = fields.required_text("tier_backend");
  node.emulation_ratio = fields.number("emulation_ratio", non_negative_up_to(1e6), 0.0);
  return node;
}

CachedTask task_from(const JsonFields& fields) {
  CachedTask task;
  task.kernel = fields.text("kernel");
  task.argv = fields.texts("command");
  task.environment = fields.texts("env");
  task.placement = fields.text("placement");
  task.footprint_bytes = static_cast<std::uint64_t>(
      fields.integer("footprint_bytes", 0, static_cast<std::int64_t>(config::kMaxFootprintBytes), 0));
  if (task.is_stream() == !task.argv.empty()) {
    throw InputError(fields.where(), "a task is a STREAM kernel (\"kernel\") or a command (\"command\"), one of them");
  }
  if (task.is_stream() && task.footprint_bytes == 0) {
    throw InputError(fields.where(), "a STREAM task's \"footprint_bytes\" is at least 1");
  }
  if (task.is_stream()) check_profile_kernel(task.kernel, fields.where());
  return task;
}

json program_json(const ProgramStamp& program) {
  return {{"size", program.size}, {"modified_ns", program.modified_ns}};
}

ProgramStamp program_from(const JsonFields& fields) {
  return {static_cast<std::uint64_t>(fields.integer("size", 0, std::numeric_limits<std::int64_t>::max(), 0)),
          fields.integer("modified_ns", std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max(), 0)};
}

std::string NodeFingerprint::digest() const { return digest_text(node_json(*this).dump()); }

std::string NodeFingerprint::folder_name() const {
  return safe_identifier_from(host, "host") + "-" + digest().substr(8, 8);
}

NodeFingerprint this_node_fingerprint(const std::string& tier_backend, double emulation_ratio) {
  const platform::Topology topology = platform::Topology::this_system();
  NodeFingerprint node;
  node.host = host_name();
  node.cpu_model = topology.facts().cpu_model;
  node.numa_nodes = static_cast<unsigned>(topology.numa_nodes().size());
  node.tier_backend = tier_backend;
  node.emulation_ratio = platform::tier_backend_info(tier_backend).capabilities.emulated ? emulation_ratio : 0.0;
  return node;
}

json CachedTask::key() const {
  if (is_stream()) return {{"kernel", kernel}, {"footprint_bytes", footprint_bytes}};
  return {{"command", argv}, {"env", environment}, {"footprint_bytes", footprint_bytes}, {"placement", placement}};
}

std::string CachedTask::file_name() const {
  const std::string what =
      is_stream() ? fmt::format("{}-{}MiB", kernel, static_cast<double>(footprint_bytes) / (1024.0 * 1024.0))
                  : "cmd-" + std::filesystem::path(argv.front()).filename().string();
  return safe_identifier_from(what, "task").substr(0, 64) + "-" + short_digest(key()) + ".json";
}

CachedTask cached_task_of(const config::WorkloadTask& task, const std::string& placement) {
  CachedTask cached;
  cached.footprint_bytes = task.footprint_bytes;
  if (task.is_stream()) {
    cached.kernel = task.kernel;
    return cached;
  }
  cached.argv = task.command;
  cached.argv.front() = exec::resolve_executable(task.command.front()).string();
  cached.environment = task.environment;
  std::sort(cached.environment.begin(), cached.environment.end());
  cached.placement = placement;
  return cached;
}

ProgramStamp program_stamp(const std::filesystem::path& program) {
  struct stat status {};
  if (::stat(program.c_str(), &status) != 0) throw PlatformError("stat", program.string(), errno);
  return {static_cast<std::uint64_t>(status.st_size),
          static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec};
}

void check_file_format(const JsonFields& fields, const std::string& source, std::string_view format, int version) {
  if (fields.required_text("format") != format) {
    throw InputError(source, fmt::format("\"format\" must be \"{}\"", format));
  }
  const auto read = fields.integer("format_version", 0, 1 << 20, 0);
  if (read != version) {
    throw InputError(source,
                     fmt::format("\"format_version\" {} is not {}, the version this cosched reads", read, version));
  }
}

ProfileCache::ProfileCache(std::filesystem::path root, NodeFingerprint node)
    : root_(std::move(root)), node_(std::move(node)) {}

std::filesystem::path ProfileCache::default_root() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg == '/') return std::filesystem::path(xdg) / "cosched";
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') return std::filesystem::path(home) / ".cache" / "cosched";
  throw UsageError("neither XDG_CACHE_HOME nor HOME is set: name the profile cache with --cache DIR");
}

std::filesystem::path ProfileCache::node_folder() const { return root_ / node_.folder_name(); }

std::filesystem::path ProfileCache::node_model_path() const { return node_folder() / "node.toml"; }

std::filesystem::path ProfileCache::make_node_folder() const {
  std::error_code error;
  std::filesystem::create_directories(node_folder(), error);
  if (error) throw PlatformError("mkdir", node_folder().string(), error.value());
  return node_folder();
}

FileLock ProfileCache::lock(const std::function<void(const std::string& holder)>& waiting) const {
  return FileLock::acquire(make_node_folder() / "lock", waiting);
}

}  // namespace cosched::profiler
